// The API bench's ceilings (bench/api.ts): the same product searches as GET /api/v1/products, answered by a bare
// node:http handler calling the same search (the products service over the same engine and database) for a fixed
// user, with no Remix, no key check, no limiter and no API shapes (GET /search); and the same search as an MCP
// search_products call through the official SDK as our /mcp uses it (POST /mcp: a stateless transport per call on a
// server from a per-process pool, the body parsed before it), answering the raw cards with a one-line text: what an
// MCP call costs with nothing of ours but the search. As many processes as the app's server (WEB_CONCURRENCY,
// default one a core, node:cluster). GET /healthz answers when it listens.
//
//   node --import tsx bench/lib/bare-search-server.ts   with PORT, HOST, DATABASE_URL, BENCH_USER_ID
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { DEFAULT_PAGE_SIZE, parseProductQuery } from "~/domain/products/product-query";
import { researchAccess } from "~/domain/products/research-access";

const workers = Number(process.env.WEB_CONCURRENCY || os.availableParallelism());

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once("SIGTERM", () => {
    const running = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    let left = running.length;
    for (const worker of running) {
      worker.once("exit", () => --left === 0 && process.exit(0));
      worker.process.kill("SIGTERM");
    }
  });
} else {
  const { db } = await import("~/db.server");
  const { loadUser } = await import("~/services/accounts/auth.server");
  const { products } = await import("~/services/index.server");
  const user = await loadUser(db, process.env.BENCH_USER_ID!);
  const access = researchAccess(user);
  const search = (query: URLSearchParams) => {
    const params = new URLSearchParams(query);
    params.set("page", "1");
    params.set("pageSize", String(DEFAULT_PAGE_SIZE));
    return products.search({ userId: user.id, access, query: parseProductQuery(params) });
  };
  const mcp = bareMcp(search);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bench");
    if (url.pathname === "/healthz") return res.end("ok");
    if (url.pathname === "/mcp") return void mcp(req, res);
    search(url.searchParams).then(
      (result) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ items: result.items, total: result.total }));
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
  process.once("SIGTERM", () => process.exit(0));
}

/** POST /mcp: a search_products call through the SDK, as app/api/mcp/server.server.ts makes one, with nothing else. */
function bareMcp(search: (query: URLSearchParams) => Promise<{ items: unknown[]; total: number }>) {
  const idle: McpServer[] = [];
  const input = z.object({
    q: z.string().max(200).optional(),
    niche: z.string().max(40).optional(),
    stage: z.string().max(20).optional(),
    sort: z.string().max(20).optional(),
    minPrice: z.string().max(12).optional(),
    maxPrice: z.string().max(12).optional(),
  });
  const validator = new AjvJsonSchemaValidator();
  const build = () => {
    const server = new McpServer({ name: "bare", version: "1.0.0" }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
    server.registerTool("search_products", { inputSchema: input }, async (args) => {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(args)) if (v !== undefined) query.set(k, v);
      const page = await search(query);
      return { content: [{ type: "text" as const, text: `${page.total} products match.` }], structuredContent: page };
    });
    return server;
  };
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: "POST", headers });
    const server = idle.pop() ?? build();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: JSON.parse(Buffer.concat(chunks).toString()) });
    const body = await response.text();
    await server.close();
    idle.push(server);
    res.writeHead(response.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
}
