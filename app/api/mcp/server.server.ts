// The MCP server at /mcp (docs/decisions/054): the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) over
// Streamable HTTP, stateless (a transport per request on a server from a per-process pool, JSON answers, no session
// to keep; decision 071), for the same API keys as /api/v1. Before the SDK sees a request: the Host must be ours or
// loopback and a browser's Origin must be ours (DNS rebinding), the Bearer key must be valid with the read scope,
// the body must be one JSON-RPC message, not a batch (decision 078), and the call is counted against the same
// limits as the API. The tools: mcp-tools.server.ts.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "~/domain/errors";
import { getEnv } from "~/env.server";
import { apiErrorAnswer, apiResponse, bearerToken, CORS_HEADERS, limitHeaders, type ApiAnswer } from "~/api/v1/handler.server";
import { buildMcpServer, type PooledServer } from "~/api/mcp/tools.server";
import { apiKeys } from "~/services/index.server";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Hosts a request to /mcp may name: our public addresses, and loopback on any port (a rebinding attack names its own host). */
function hostAllowed(host: string): boolean {
  const env = getEnv();
  const ours = [env.APP_URL, env.SHOPIFY_APP_URL].filter((u): u is string => Boolean(u)).map((u) => new URL(u).host);
  if (ours.includes(host)) return true;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return LOOPBACK.has(name);
}

function originAllowed(origin: string, request: Request): boolean {
  if (!URL.canParse(origin)) return false;
  const env = getEnv();
  const ours = [new URL(request.url).origin, env.APP_URL, env.SHOPIFY_APP_URL].filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin);
  return ours.includes(new URL(origin).origin);
}

const refuse = (status: number, error: string, headers: Record<string, string> = {}): ApiAnswer => ({
  status,
  headers: { ...CORS_HEADERS, ...headers, "Content-Type": "application/json" },
  body: JSON.stringify({ error }),
});

/** Servers not connected to a call, for the next ones (decision 071); at most IDLE_SERVERS kept. */
const idleServers: PooledServer[] = [];
const IDLE_SERVERS = 64;

/** /mcp as the route answers it (app/routes/mcp.tsx): mcpAnswer's answer as a Fetch Response. */
export async function answerMcp(request: Request): Promise<Response> {
  return apiResponse(await mcpAnswer(request));
}

/**
 * What a batch is answered (decision 078): MCP removed JSON-RPC batches in protocol version 2025-06-18, and counting
 * a batch as one call let one request run a hundred tools for the price of one.
 */
const BATCH_REFUSED: ApiAnswer = {
  status: 400,
  headers: { ...CORS_HEADERS, "Content-Type": "application/json" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    error: {
      code: -32600,
      message:
        "Invalid Request: this server takes one JSON-RPC message per request, not a batch (MCP removed batches in protocol version 2025-06-18). Send each message in a POST of its own.",
    },
    id: null,
  }),
};

/** The media ranges of an Accept header that admit JSON. */
const JSON_RANGES = new Set(["application/json", "application/*", "*/*"]);

/** Whether a client accepts JSON: no Accept header (RFC 9110: anything), or a range that admits it with q above 0. */
function acceptsJson(accept: string | null): boolean {
  if (accept === null) return true;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    return JSON_RANGES.has(type) && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * The SDK's transport refuses (406) a client that does not list both JSON and event streams, though this server only
 * ever answers JSON (enableJsonResponse): a client that accepts JSON gets it, a header the SDK's check passes.
 */
function acceptForTransport(request: Request): void {
  const accept = request.headers.get("accept");
  if (accept?.includes("application/json") && accept.includes("text/event-stream")) return;
  if (acceptsJson(accept)) request.headers.set("accept", "application/json, text/event-stream");
}

/**
 * The request's JSON-RPC message, parsed (the lean path parsed it already). A body that is not JSON is left in a
 * Request for the SDK to read and refuse in its own words (400, -32700).
 */
async function messageOf(request: Request, parsedBody: unknown): Promise<{ request: Request; parsed: unknown }> {
  if (parsedBody !== undefined) return { request, parsed: parsedBody };
  const text = await request.text();
  try {
    return { request, parsed: JSON.parse(text) };
  } catch {
    return { request: new Request(request.url, { method: request.method, headers: request.headers, body: text }), parsed: undefined };
  }
}

/**
 * POST /mcp: one JSON-RPC message answered by a stateless transport on a pooled server, for the key's user. The route
 * (answerMcp) and the server's lean path (server/lean-api.mjs, decision 077) both send this answer.
 * @param parsedBody the body already parsed (the lean path), or undefined to read it from the request
 */
export async function mcpAnswer(request: Request, parsedBody?: unknown): Promise<ApiAnswer> {
  if (request.method === "OPTIONS") return { status: 204, headers: { ...CORS_HEADERS }, body: null };
  if (!hostAllowed(new URL(request.url).host)) return refuse(403, "This host name is not one this MCP server answers to.");
  const origin = request.headers.get("origin");
  if (origin && !originAllowed(origin, request)) return refuse(403, "This request was sent by another website's page, so it was refused. Connect from an AI assistant with your API key.");
  if (request.method !== "POST") return refuse(405, "This MCP server is stateless: send each message with POST.", { Allow: "POST, OPTIONS" });
  let caller: Awaited<ReturnType<typeof apiKeys.authenticate>>;
  let message: Awaited<ReturnType<typeof messageOf>>;
  let counts: Awaited<ReturnType<typeof apiKeys.countCall>>;
  try {
    caller = await apiKeys.authenticate(bearerToken(request), "read");
    message = await messageOf(request, parsedBody);
    // Refused before it is counted: a refusal changes nothing.
    if (Array.isArray(message.parsed)) return BATCH_REFUSED;
    counts = await apiKeys.countCall(caller);
  } catch (error) {
    // The key (401, 403) or the limits (429); a 401's challenge as the API's (RFC 6750 3.1).
    if (error instanceof AppError) return apiErrorAnswer(error, request.headers.get("authorization"));
    throw error;
  }
  acceptForTransport(message.request);
  // A server serves one call at a time (the SDK connects it to one transport); concurrent calls take others.
  const pooled = idleServers.pop() ?? buildMcpServer();
  const { server } = pooled;
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  let reusable = false;
  try {
    pooled.caller = { user: caller.user, request: message.request, counts };
    const response = await transport.handleRequest(message.request, message.parsed === undefined ? undefined : { parsedBody: message.parsed });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...limitHeaders(counts) })) headers[name.toLowerCase()] = value;
    const body = await response.text();
    reusable = true;
    return { status: response.status, headers, body: body.length ? body : null };
  } finally {
    // Closing ends the transport and frees the server for another; one whose call failed is dropped.
    pooled.caller = null;
    await server.close();
    if (reusable && !server.isConnected() && idleServers.length < IDLE_SERVERS) idleServers.push(pooled);
  }
}
