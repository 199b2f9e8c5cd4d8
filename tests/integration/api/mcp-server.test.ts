// The MCP server at /mcp (decision 054) driven by the official SDK's own Client over Streamable HTTP on a real
// socket: the read-only tools with their input schemas and annotations, text + structuredContent with dates and
// what is left of the limits, tool errors with a sentence (not your competitor, bad filter, unknown product), the
// product card ui:// resource, and the HTTP-level refusals: no key / bad key 401, a revoked key 401, a foreign
// Origin or Host 403, GET 405.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import * as mcpRoute from "~/routes/mcp";
import { action as keyAction } from "~/routes/api.keys.$id";
import { products, productDrops } from "~/services/index.server";
import { PRODUCT_CARD_URI } from "~/api/mcp/product-card.server";
import { connectMcp, createApiKey, type ToolResult } from "../../helpers/mcp";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { startRouteServer } from "../../helpers/route-server";
import { createSignedInUser } from "../../helpers/site-users";

const base = PLAIN_FIXTURE;

let server: Awaited<ReturnType<typeof startRouteServer>>;
type Seller = Awaited<ReturnType<typeof createSignedInUser>> & { key: string; keyId: string; competitorId: number };
let alice: Seller;
let bob: Seller;

async function seller(domain: string): Promise<Seller> {
  const user = await createSignedInUser({ userSubscribed: "yes" });
  const { key, id } = await createApiKey(user.cookie);
  const store = await db.competitorStore.create({ data: { domain, fetchDomain: domain, name: domain, status: "ok" }, select: { id: true } });
  const follow = await db.competitor.create({ data: { userId: user.id, storeId: store.id, name: domain }, select: { id: true } });
  return { ...user, key, keyId: id, competitorId: follow.id };
}

const connect = (key: string | null) => connectMcp(server.url, key);

beforeAll(async () => {
  await insertProducts(
    db,
    Array.from({ length: 10 }, (_, i) => ({ ...base, objectID: `mcp-${i}`, title: `Garlic press ${i}`, niches: ["kitchen"], winningScore: 40 + i })),
  );
  alice = await seller("alice-mcp.test");
  bob = await seller("bob-mcp.test");
  await products.saveProduct(alice.id, "mcp-1");
  await productDrops.publish("2026-11-16", Array.from({ length: 8 }, (_, i) => ({ objectID: `mcp-${i}`, reason: "picked for the test" })));
  await productDrops.reveal(await db.user.findUniqueOrThrow({ where: { id: alice.id } }), "2026-11-16");
  server = await startRouteServer({ "/mcp": mcpRoute });
});

afterAll(async () => {
  await server?.close();
});

describe("the MCP server through the SDK's Client", () => {
  it("lists the seven read-only tools with input schemas and annotations", async () => {
    const client = await connect(alice.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["explain_score", "get_competitor", "get_product", "list_competitors", "list_drops", "profit", "search_products"]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe("object");
    }
    expect(tools.find((t) => t.name === "search_products")!._meta).toMatchObject({ ui: { resourceUri: PRODUCT_CARD_URI } });
    await client.close();
  });

  it("calls every tool: a quotable text and structuredContent with figures, dates and what is left", async () => {
    const client = await connect(alice.key);
    const calls: [string, Record<string, unknown>][] = [
      ["search_products", { niche: "kitchen", limit: 3, sort: "winning-score" }],
      ["get_product", { objectID: "mcp-9" }],
      ["explain_score", { objectID: "mcp-9" }],
      ["list_drops", {}],
      ["list_competitors", {}],
      ["get_competitor", { id: alice.competitorId }],
      ["profit", { objectID: "mcp-9", priceCents: 2999, cpaCents: 800 }],
    ];
    for (const [name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError ?? false, `${name}: ${result.content[0]?.text}`).toBe(false);
      expect(result.content[0].type).toBe("text");
      expect(result.content[0].text).toMatch(/calls left this minute/);
      expect(result.structuredContent).toMatchObject({ limits: { callsLeftThisMinute: expect.any(Number), callsLeftThisMonth: expect.any(Number) } });
    }
    const search = (await client.callTool({ name: "search_products", arguments: { niche: "kitchen", limit: 3 } })) as ToolResult;
    const page = search.structuredContent as { items: { objectID: string; figures: { winningScore: { value: number; measured: boolean; asOf: string } } }[]; nextCursor: string | null };
    expect(page.items.map((p) => p.objectID)).toEqual(["mcp-9", "mcp-8", "mcp-7"]);
    expect(page.items[0].figures.winningScore).toEqual({ value: 49, measured: false, asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(search.content[0].text).toContain("Garlic press 9");
    const next = (await client.callTool({ name: "search_products", arguments: { niche: "kitchen", limit: 3, cursor: page.nextCursor! } })) as ToolResult;
    expect((next.structuredContent as typeof page).items.map((p) => p.objectID)).toEqual(["mcp-6", "mcp-5", "mcp-4"]);
    const drops = (await client.callTool({ name: "list_drops", arguments: {} })) as ToolResult;
    expect(drops.content[0].text).toContain("Drop of 2026-11-16");
    await client.close();
  });

  it("answers failures as tool errors with a sentence: not your competitor, bad filter, unknown product, bad input", async () => {
    const client = await connect(bob.key);
    const notYours = (await client.callTool({ name: "get_competitor", arguments: { id: alice.competitorId } })) as ToolResult;
    expect(notYours.isError).toBe(true);
    expect(notYours.content[0].text).toMatch(/competitor|store/i);
    const badFilter = (await client.callTool({ name: "search_products", arguments: { minPrice: "cheap" } })) as ToolResult;
    expect(badFilter.isError).toBe(true);
    expect(badFilter.content[0].text).toMatch(/minPrice/);
    const unknown = (await client.callTool({ name: "get_product", arguments: { objectID: "nope" } })) as ToolResult;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toBe("No product with objectID nope.");
    const badInput = (await client.callTool({ name: "get_competitor", arguments: { id: "seven" } })) as ToolResult;
    expect(badInput.isError).toBe(true);
    // bob's saved products are not alice's: nothing of hers shows in his search marks
    const search = (await client.callTool({ name: "search_products", arguments: { niche: "kitchen", limit: 10 } })) as ToolResult;
    expect((search.structuredContent as { items: { saved: boolean }[] }).items.some((p) => p.saved)).toBe(false);
    await client.close();
  });

  it("keeps each caller's calls their own when the per-process servers are reused, interleaved and concurrent (decision 071)", async () => {
    const [a, b] = await Promise.all([connect(alice.key), connect(bob.key)]);
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const client = i % 2 === 0 ? a : b;
        const list = (await client.callTool({ name: "list_competitors", arguments: {} })) as ToolResult;
        const search = (await client.callTool({ name: "search_products", arguments: { niche: "kitchen", limit: 10 } })) as ToolResult;
        return {
          who: i % 2 === 0 ? "alice" : "bob",
          stores: JSON.stringify(list.structuredContent),
          saved: (search.structuredContent as { items: { objectID: string; saved: boolean }[] }).items.filter((p) => p.saved).map((p) => p.objectID),
        };
      }),
    );
    for (const round of rounds) {
      const mine = round.who === "alice" ? "alice-mcp.test" : "bob-mcp.test";
      const theirs = round.who === "alice" ? "bob-mcp.test" : "alice-mcp.test";
      expect(round.stores).toContain(mine);
      expect(round.stores).not.toContain(theirs);
      expect(round.saved).toEqual(round.who === "alice" ? ["mcp-1"] : []);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("serves the product card as an MCP Apps ui:// resource", async () => {
    const client = await connect(alice.key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(PRODUCT_CARD_URI);
    const read = await client.readResource({ uri: PRODUCT_CARD_URI });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("text/html;profile=mcp-app");
    expect(content.text).toContain("ui/notifications/tool-result");
    expect(content.text).not.toMatch(/<script[^>]+src=/);
    await client.close();
  });
});

describe("HTTP-level refusals", () => {
  const post = (headers: Record<string, string>) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  it("no key, a bad key: 401 with a sentence; the SDK client cannot connect", async () => {
    expect((await post({})).status).toBe(401);
    const bad = await post({ authorization: `Bearer wpk_${"x".repeat(32)}` });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: string }).error).toMatch(/not valid/);
    await expect(connect(null)).rejects.toThrow();
  });

  it("a key revoked mid-stream: the next call is 401", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const created = await createApiKey(user.cookie, "mid");
    const client = await connect(created.key);
    await client.listTools();
    await call(keyAction, `/api/keys/${created.id}`, { method: "DELETE", cookie: user.cookie, params: { id: created.id } });
    await expect(client.listTools()).rejects.toThrow(/401|revoked/);
    await client.close();
  });

  it("refuses a JSON-RPC batch with 400 -32600 before anything runs, and does not count it (decision 078)", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const { key } = await createApiKey(user.cookie, "batch");
    const send = (body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });
    const single = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const before = Number(single.headers.get("x-allowance-remaining"));
    const search = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_products", arguments: { niche: "kitchen" } } });
    for (const batch of [Array.from({ length: 100 }, (_, i) => search(i + 1)), [search(1)], [{ jsonrpc: "2.0", method: "notifications/initialized" }], []]) {
      const refused = await send(batch);
      expect(refused.status).toBe(400);
      expect(refused.headers.get("ratelimit-remaining")).toBeNull();
      expect(refused.headers.get("access-control-allow-origin")).toBe("*");
      const body = (await refused.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      expect(body.error.message).toMatch(/one JSON-RPC message per request/);
    }
    // Only the next single call is counted: the batches took nothing from the limits.
    const after = await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(after.status).toBe(200);
    expect(Number(after.headers.get("x-allowance-remaining"))).toBe(before - 1);
    // Without a key a batch is still a 401, as any call without one.
    const anonymous = await fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify([search(1)]) });
    expect(anonymous.status).toBe(401);
  });

  it("a foreign Origin or Host is 403; GET is 405", async () => {
    expect((await post({ authorization: `Bearer ${alice.key}`, origin: "https://evil.example" })).status).toBe(403);
    // fetch will not send another Host: a raw request, as a DNS-rebound browser would make it
    const rebindingStatus = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: server.port, path: "/mcp", method: "POST", headers: { host: `evil.example:${server.port}`, "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${alice.key}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    });
    expect(rebindingStatus).toBe(403);
    expect((await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${alice.key}` } })).status).toBe(405);
  });
});

describe("/docs/mcp", () => {
  it("gives the exact configuration for Claude Desktop, Cursor and OpenAI with this server's address, and names every tool", async () => {
    const { loader: docsPage } = await import("~/routes/_site.docs.mcp");
    const { McpDocs } = await import("~/ui/api/mcp-docs");
    const { createElement } = await import("react");
    const { renderToString } = await import("react-dom/server");
    const { mcpUrl } = (await (await call(docsPage, "/docs/mcp")).json()) as { mcpUrl: string };
    expect(mcpUrl).toBe("https://winning-products.test/mcp");
    const html = renderToString(createElement(McpDocs, { mcpUrl }));
    expect(html).toContain("mcp-remote");
    expect(html).toContain("~/.cursor/mcp.json");
    expect(html).toContain("&quot;type&quot;: &quot;mcp&quot;");
    const client = await connect(alice.key);
    for (const tool of (await client.listTools()).tools) expect(html).toContain(tool.name);
    await client.close();
  });
});
