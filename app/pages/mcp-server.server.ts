// The MCP server at /mcp (docs/decisions/054): the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) over
// Streamable HTTP, stateless (a transport per request on a server from a per-process pool, JSON answers, no session
// to keep; decision 071), for the
// same API keys as /api/v1. Before the SDK sees a request: the Host must be ours or loopback and a browser's
// Origin must be ours (DNS rebinding), the Bearer key must be valid with the read scope, and the call is counted
// against the same limits as the API. Every tool is read-only and calls the API's own operations
// (app/pages/api-v1/answers.server.ts); each answer has a short text a model can quote, structuredContent with
// the figures and their dates, and what is left of the limits. An expected failure is a tool error whose text is
// the sentence (no plan, not your competitor, bad filter).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { LANDED_MARGIN_INCLUDES } from "~/domain/landed-margin";
import { SORTS, SOURCES, STAGES } from "~/domain/product-query";
import { getEnv } from "~/env.server";
import {
  competitorAnswer,
  competitorsAnswer,
  dropsAnswer,
  productAnswer,
  profitAnswer,
  searchAnswer,
} from "~/pages/api-v1/answers.server";
import {
  apiErrorAnswer,
  apiResponse,
  authenticateAndCount,
  CORS_HEADERS,
  limitHeaders,
  type ApiAnswer,
  type CallCounts,
} from "~/pages/api-v1/handler.server";
import type { User } from "~/services/auth.server";
import { PRODUCT_CARD_URI, productCardHtml } from "~/pages/mcp-product-card.server";

export const MCP_SERVER_NAME = "winning-products";
export const MCP_SERVER_VERSION = "1.0.0";

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

// ---------- tool answers ----------

const money = (m: { cents: number; currency: string } | null | undefined) => (m ? `${(m.cents / 100).toFixed(2)} ${m.currency}` : "unknown");
type Figure = { value: unknown; measured: boolean; asOf: string } | null;
const fig = (f: Figure, unit = "") => (f ? `${String(f.value)}${unit} (${f.measured ? "measured" : "estimated or sample"}, ${f.asOf})` : "no figure");

function left(counts: CallCounts) {
  return { callsLeftThisMinute: counts.minute.remaining, callsLeftThisMonth: counts.month.remaining };
}

function ok(text: string, structured: Record<string, unknown>, counts: CallCounts): CallToolResult {
  const l = left(counts);
  return {
    content: [{ type: "text", text: `${text}\n(${l.callsLeftThisMinute} calls left this minute, ${l.callsLeftThisMonth} this month.)` }],
    structuredContent: { ...structured, limits: l },
  };
}

function toolError(error: unknown): CallToolResult {
  if (error instanceof AppError) return { isError: true, content: [{ type: "text", text: error.message }] };
  throw error;
}

/** Who a call to /mcp is for: a pooled server's tools read it from the server's slot (decisions 071, 077). */
interface McpCaller {
  user: User;
  request: Request;
  counts: CallCounts;
}

/**
 * A server of the pool and the caller of the one call it is connected for (null between calls). A server serves one
 * call at a time, so its slot holds that call's caller while the call runs; it is cleared before the server goes
 * back to the pool, so a server carries nothing of the user it last served. Not an AsyncLocalStorage: on Node 22 its
 * first use turns on the promise hooks for the whole process, every request's promises then paying for them.
 */
interface PooledServer {
  server: McpServer;
  caller: McpCaller | null;
}

function callerOf(pooled: PooledServer): McpCaller {
  if (!pooled.caller) throw new Error("An MCP tool ran outside a call to /mcp.");
  return pooled.caller;
}

async function run(pooled: PooledServer, fn: (caller: McpCaller) => Promise<{ text: string; data: Record<string, unknown> }>): Promise<CallToolResult> {
  const current = callerOf(pooled);
  try {
    const { text, data } = await fn(current);
    return ok(text, data, current.counts);
  } catch (error) {
    return toolError(error);
  }
}

type ProductLine = { title: string; objectID: string; source: string; price: { cents: number; currency: string }; url: string; figures: Record<string, Figure> };
const productLine = (p: ProductLine, i: number) =>
  `${i + 1}. ${p.title} [${p.objectID}, ${p.source}] ${money(p.price)}; winning score ${fig(p.figures.winningScore)}; stores selling ${fig(p.figures.storesSelling)}. ${p.url}`;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const cardMeta = { ui: { resourceUri: PRODUCT_CARD_URI } };

// Made once, not for each call's server (decision 063): zod schemas are costly to build, and the SDK would build
// an Ajv instance per server (a third of an MCP call's CPU, measured by `npm run bench -- api`).
const jsonSchemaValidator = new AjvJsonSchemaValidator();
const SEARCH_PRODUCTS_INPUT = z.object({
  q: z.string().max(200).optional().describe("Free text"),
  niche: z.string().max(40).optional().describe("A niche, e.g. kitchen"),
  stage: z.enum(STAGES).optional(),
  source: z.enum(SOURCES).optional().describe("measured: counted from real stores; sample; all (default)"),
  sort: z.enum(SORTS).optional(),
  minPrice: z.string().max(12).optional().describe("Dollars, e.g. 19.99"),
  maxPrice: z.string().max(12).optional(),
  minStores: z.number().int().min(0).optional(),
  minMargin: z.number().min(-1000).max(100).optional().describe("Margin after duty and fees, percent: at least"),
  maxMargin: z.number().min(-1000).max(100).optional().describe("Margin after duty and fees, percent: at most"),
  limit: z.number().int().min(1).max(48).optional().describe("Products to return (default 12)"),
  cursor: z.string().max(500).optional().describe("nextCursor of a previous answer, with the same filters"),
});
const GET_PRODUCT_INPUT = z.object({ objectID: z.string().min(1).max(120) });
const EXPLAIN_SCORE_INPUT = z.object({ objectID: z.string().min(1).max(120) });
const LIST_DROPS_INPUT = z.object({ limit: z.number().int().min(1).max(52).optional().describe("Drops to return (default 12)") });
const LIST_COMPETITORS_INPUT = z.object({});
const GET_COMPETITOR_INPUT = z.object({ id: z.number().int().min(1).max(999_999_999) });
const PROFIT_INPUT = z.object({
  objectID: z.string().min(1).max(120),
  priceCents: z.number().int().min(1).max(100_000_000).optional().describe("Selling price in cents (default: the product's)"),
  cpaCents: z.number().int().min(0).max(100_000_000).optional().describe("Ad cost per order in cents"),
  costCents: z.number().int().min(0).max(100_000_000).optional().describe("Your supplier cost in cents, when we do not know it"),
  origin: z.string().max(10).optional().describe("Country of origin, e.g. CN"),
});

/** An MCP server whose tools act as the caller of the call it is connected for (its slot). */
function buildMcpServer(): PooledServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator });
  const pooled: PooledServer = { server, caller: null };

  server.registerTool(
    "search_products",
    {
      title: "Search products",
      description:
        "Search the product research database with the grid's filters and sorts. Figures come as { value, measured, asOf }: measured ones were counted by us from real stores; others are estimates or sample data. Money is in cents with a currency. " +
        `The margin (minMargin, maxMargin, sort=margin, insights.landedMarginBps) is after duty and fees: ${LANDED_MARGIN_INCLUDES}`,
      inputSchema: SEARCH_PRODUCTS_INPUT,
      annotations: { ...READ_ONLY, title: "Search products" },
      _meta: cardMeta,
    },
    (args) =>
      run(pooled, async ({ user, request }) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(args)) if (v !== undefined) params.set(k, String(v));
        const page = await searchAnswer(user, request, params);
        const text = page.items.length
          ? `${page.total}${page.totalIsEstimate ? "+" : ""} products match; the first ${page.items.length}:\n${page.items.map(productLine).join("\n")}`
          : "No product matches these filters.";
        return { text, data: page };
      }),
  );

  server.registerTool(
    "get_product",
    {
      title: "Get a product with its evidence",
      description: "One product by objectID: its figures with their dates, insights (cost, margin, reasons), offers on real stores, signals and why each listing was matched.",
      inputSchema: GET_PRODUCT_INPUT,
      annotations: { ...READ_ONLY, title: "Get a product" },
      _meta: cardMeta,
    },
    ({ objectID }) =>
      run(pooled, async ({ user, request }) => {
        const p = await productAnswer(user, request, objectID);
        const lines = [
          `${p.title} [${p.objectID}, ${p.source}], ${money(p.price)}. ${p.url}`,
          `Winning score ${fig(p.figures.winningScore)}; stage ${fig(p.figures.lifecycleStage)}; stores selling ${fig(p.figures.storesSelling)}.`,
          p.noSalesData ? p.noSalesData + "." : `Orders ${fig(p.figures.orders)}.`,
          p.insights ? `Cost ${money(p.insights.cost)}, margin ${p.insights.marginBps === null ? "unknown" : `${p.insights.marginBps / 100}%`}.` : "",
          p.offers.length ? `Sold by: ${p.offers.map((o) => `${o.store} (${o.price.cents === null ? "price unknown" : `${(o.price.cents / 100).toFixed(2)} ${o.price.currency ?? ""}`.trim()})`).join(", ")}.` : "",
          p.matchEvidence.length ? `Evidence: ${p.matchEvidence.map((e) => `${e.listing.store}: ${e.reason}`).join("; ")}.` : "",
        ];
        return { text: lines.filter(Boolean).join("\n"), data: p };
      }),
  );

  server.registerTool(
    "explain_score",
    {
      title: "Explain a product's winning score",
      description: "Why a product scores as it does: the score and stage with whether they were measured or estimated, the reasons, and the counts behind them.",
      inputSchema: EXPLAIN_SCORE_INPUT,
      annotations: { ...READ_ONLY, title: "Explain a score" },
    },
    ({ objectID }) =>
      run(pooled, async ({ user, request }) => {
        const p = await productAnswer(user, request, objectID);
        const reasons = p.insights?.reasons ?? [];
        const data = {
          objectID: p.objectID,
          title: p.title,
          source: p.source,
          winningScore: p.figures.winningScore,
          lifecycleStage: p.figures.lifecycleStage,
          storesSelling: p.figures.storesSelling,
          storesAdded7d: p.figures.storesAdded7d,
          reasons,
          thinEvidence: p.thinEvidence,
          signals: p.signals ? { ...p.signals, series: null } : null,
          matchEvidence: p.matchEvidence,
        };
        const text = [
          `${p.title}: winning score ${fig(p.figures.winningScore)}, stage ${fig(p.figures.lifecycleStage)}.`,
          reasons.length ? `Reasons:\n${reasons.map((r) => `- ${r}`).join("\n")}` : "No reasons are recorded for this product.",
          p.thinEvidence ? `Caution: ${p.thinEvidence}.` : "",
        ];
        return { text: text.filter(Boolean).join("\n"), data };
      }),
  );

  server.registerTool(
    "list_drops",
    {
      title: "List revealed weekly drops",
      description: "The weekly product drops this account revealed, newest first, each product with the reason it was picked.",
      inputSchema: LIST_DROPS_INPUT,
      annotations: { ...READ_ONLY, title: "List drops" },
    },
    ({ limit }) =>
      run(pooled, async ({ user, request }) => {
        const drops = await dropsAnswer(user, request, limit ?? 12);
        const text = drops.items.length
          ? drops.items.map((d) => `Drop of ${d.date}: ${d.products.map((p) => `${p.title} (${p.reason})`).join("; ")}`).join("\n") + `\nNext drop: ${drops.nextDropDate}.`
          : `No revealed drops yet. Next drop: ${drops.nextDropDate}.`;
        return { text, data: drops };
      }),
  );

  server.registerTool(
    "list_competitors",
    {
      title: "List followed competitor stores",
      description: "The rival stores this account follows, with their status and product count.",
      inputSchema: LIST_COMPETITORS_INPUT,
      annotations: { ...READ_ONLY, title: "List competitors" },
    },
    () =>
      run(pooled, async ({ user }) => {
        const list = await competitorsAnswer(user);
        const text = list.items.length
          ? list.items.map((c) => `${c.id}. ${c.name} (${c.domain}): ${c.productCount} products, ${c.status}, last read ${c.lastCheckedAt ?? "never"}`).join("\n")
          : "This account follows no competitor stores.";
        return { text, data: list };
      }),
  );

  server.registerTool(
    "get_competitor",
    {
      title: "Get a followed competitor store",
      description: "One followed store by id (from list_competitors): its products, launches and changes we saw, and the orders estimate with its evidence.",
      inputSchema: GET_COMPETITOR_INPUT,
      annotations: { ...READ_ONLY, title: "Get a competitor" },
    },
    ({ id }) =>
      run(pooled, async ({ user }) => {
        const c = await competitorAnswer(user, id);
        const text = [
          `${c.name} (${c.domain}): ${c.productCount} products, last read ${c.lastCheckedAt ?? "never"}.`,
          c.launches.length ? `Recent launches: ${c.launches.slice(0, 5).map((l) => `${l.title} (${l.at.slice(0, 10)})`).join("; ")}.` : "No launches seen yet.",
          c.estimate ? `Estimated ${c.estimate.low}-${c.estimate.high} ${c.estimate.unit} (${c.estimate.confidence} confidence, an estimate).` : (c.estimateReason ?? ""),
        ];
        return { text: text.filter(Boolean).join("\n"), data: c };
      }),
  );

  server.registerTool(
    "profit",
    {
      title: "Profit of one order",
      description: "Landed cost (duty layers in force today, payment fees, refund and chargeback reserves) and net profit of one order of a product at a price, in cents.",
      inputSchema: PROFIT_INPUT,
      annotations: { ...READ_ONLY, title: "Profit" },
    },
    ({ objectID, ...rest }) =>
      run(pooled, async ({ user }) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(rest)) if (v !== undefined) params.set(k, String(v));
        const p = await profitAnswer(user, objectID, params);
        const text =
          `At ${money({ cents: p.priceCents, currency: p.currency })} with ${money({ cents: p.cpaCents, currency: p.currency })} ad cost per order: ` +
          `landed cost ${money({ cents: p.landedCostCents, currency: p.currency })}, net profit ${money({ cents: p.netProfitCents, currency: p.currency })} ` +
          `(${p.marginBps / 100}% margin), break-even CPA ${money({ cents: p.breakEvenCpaCents, currency: p.currency })}. ${p.duty.explanation}`;
        return { text, data: p };
      }),
  );

  server.registerResource(
    "product-card",
    PRODUCT_CARD_URI,
    { title: "Product card", description: "The product card search_products and get_product show in the assistant's window (MCP Apps).", mimeType: "text/html;profile=mcp-app" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: productCardHtml(new URL("/", callerOf(pooled).request.url).toString()) }] }),
  );

  return pooled;
}

/** Servers not connected to a call, for the next ones (decision 071); at most IDLE_SERVERS kept. */
const idleServers: PooledServer[] = [];
const IDLE_SERVERS = 64;

/** /mcp as the route answers it (app/routes/mcp.tsx): mcpAnswer's answer as a Fetch Response. */
export async function answerMcp(request: Request): Promise<Response> {
  return apiResponse(await mcpAnswer(request));
}

/**
 * POST /mcp: one JSON-RPC message (or batch) answered by a stateless transport on a pooled server, for the key's
 * user. The route (answerMcp) and the server's lean path (server/lean-api.mjs, decision 077) both send this answer.
 * @param parsedBody the body already parsed (the lean path), or undefined for the SDK to read it from the request
 */
export async function mcpAnswer(request: Request, parsedBody?: unknown): Promise<ApiAnswer> {
  if (request.method === "OPTIONS") return { status: 204, headers: { ...CORS_HEADERS }, body: null };
  if (!hostAllowed(new URL(request.url).host)) return refuse(403, "This host name is not one this MCP server answers to.");
  const origin = request.headers.get("origin");
  if (origin && !originAllowed(origin, request)) return refuse(403, "This request was sent by another website's page, so it was refused. Connect from an AI assistant with your API key.");
  if (request.method !== "POST") return refuse(405, "This MCP server is stateless: send each message with POST.", { Allow: "POST, OPTIONS" });
  let done: Awaited<ReturnType<typeof authenticateAndCount>>;
  try {
    done = await authenticateAndCount(request, "read");
  } catch (error) {
    if (error instanceof AppError) return apiErrorAnswer(error);
    throw error;
  }
  // A server serves one call at a time (the SDK connects it to one transport); concurrent calls take others.
  const pooled = idleServers.pop() ?? buildMcpServer();
  const { server } = pooled;
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  let reusable = false;
  try {
    pooled.caller = { user: done.caller.user, request, counts: done.counts };
    const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...limitHeaders(done.counts) })) headers[name.toLowerCase()] = value;
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
