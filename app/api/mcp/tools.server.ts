// The MCP server's tools and its one resource (docs/decisions/054, 071, 078). Every tool is read-only and calls
// the API's own operations (app/api/v1/answers.server.ts); each answer has a text a model can quote
// (mcp-tool-text.server.ts) and structuredContent that its declared outputSchema describes
// (mcp-tool-schemas.server.ts), both with what is left of the limits. An expected failure is a tool error whose
// text is the sentence (no plan, not your competitor, bad filter). The server declares no `listChanged`: it is
// stateless, so it has no stream to notify on, and its tools never change while it runs.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { z } from "zod";
import { AppError } from "~/domain/errors";
import { dollarsToCents, productQuery } from "~/domain/products/product-query";
import {
  competitorAnswer,
  competitorsAnswer,
  dropsAnswer,
  productAnswer,
  profitAnswer,
  searchAnswer,
  type SearchInput,
} from "~/api/v1/answers.server";
import type { CallCounts } from "~/api/v1/handler.server";
import { PRODUCT_CARD_URI, productCardHtml } from "~/api/mcp/product-card.server";
import { listedTools, SEARCH_PRODUCTS_INPUT, TOOL_CONFIGS } from "~/api/mcp/tool-schemas.server";
import {
  competitorsText,
  competitorText,
  dropsText,
  explainScoreData,
  explainScoreText,
  productText,
  profitText,
  searchText,
} from "~/api/mcp/tool-text.server";
import type { User } from "~/services/accounts/auth.server";

export const MCP_SERVER_NAME = "winning-products";
export const MCP_SERVER_VERSION = "1.0.0";

/** Who a call to /mcp is for: a pooled server's tools read it from the server's slot (decisions 071, 077). */
export interface McpCaller {
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
export interface PooledServer {
  server: McpServer;
  caller: McpCaller | null;
}

function callerOf(pooled: PooledServer): McpCaller {
  if (!pooled.caller) throw new Error("An MCP tool ran outside a call to /mcp.");
  return pooled.caller;
}

function ok(text: string, structured: object, counts: CallCounts): CallToolResult {
  const limits = { callsLeftThisMinute: counts.minute.remaining, callsLeftThisMonth: counts.month.remaining };
  return {
    content: [{ type: "text", text: `${text}\n(${limits.callsLeftThisMinute} calls left this minute, ${limits.callsLeftThisMonth} this month.)` }],
    structuredContent: { ...structured, limits },
  };
}

async function run<T extends object>(pooled: PooledServer, answer: (caller: McpCaller) => Promise<T>, text: (data: T) => string): Promise<CallToolResult> {
  const current = callerOf(pooled);
  try {
    const data = await answer(current);
    return ok(text(data), data, current.counts);
  } catch (error) {
    if (error instanceof AppError) return { isError: true, content: [{ type: "text", text: error.message }] };
    throw error;
  }
}

/** search_products' typed arguments as the search's typed query: no URL in between (issue 36). */
function searchInputOfArgs(args: z.infer<typeof SEARCH_PRODUCTS_INPUT>): SearchInput {
  const margin = (percent: number | undefined) => (percent === undefined ? undefined : Math.round(percent * 100));
  const query = productQuery({
    q: args.q?.trim() ?? "",
    niches: args.niche ? [args.niche] : [],
    stages: args.stage ? [args.stage] : [],
    ...(args.source ? { source: args.source } : {}),
    ...(args.sort ? { sort: args.sort } : {}),
    price: defined({ min: dollarsToCents(args.minPrice, "minPrice"), max: dollarsToCents(args.maxPrice, "maxPrice") }),
    stores: defined({ min: args.minStores }),
    margin: defined({ min: margin(args.minMargin), max: margin(args.maxMargin) }),
  });
  return { query, limit: args.limit, cursor: args.cursor ?? null };
}

/** A range without its unset ends. */
function defined(r: { min?: number; max?: number }): { min?: number; max?: number } {
  return { ...(r.min !== undefined ? { min: r.min } : {}), ...(r.max !== undefined ? { max: r.max } : {}) };
}

/** The query string an API operation reads, from a tool's arguments. */
function paramsOf(args: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) if (v !== undefined) params.set(k, String(v));
  return params;
}

// Made once, not for each call's server (decision 063): the SDK would build an Ajv instance per server.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** An MCP server whose tools act as the caller of the call it is connected for (its slot). */
export function buildMcpServer(): PooledServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION }, { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator });
  const pooled: PooledServer = { server, caller: null };

  server.registerTool(
    "search_products",
    TOOL_CONFIGS.search_products,
    (args) => run(pooled, ({ user, request }) => searchAnswer(user, request, searchInputOfArgs(args)), searchText),
  );

  server.registerTool(
    "get_product",
    TOOL_CONFIGS.get_product,
    ({ objectID }) => run(pooled, ({ user, request }) => productAnswer(user, request, objectID), productText),
  );

  server.registerTool(
    "explain_score",
    TOOL_CONFIGS.explain_score,
    ({ objectID }) => run(pooled, async ({ user, request }) => explainScoreData(await productAnswer(user, request, objectID)), explainScoreText),
  );

  server.registerTool(
    "list_drops",
    TOOL_CONFIGS.list_drops,
    ({ limit }) => run(pooled, ({ user, request }) => dropsAnswer(user, request, limit ?? 12), dropsText),
  );

  server.registerTool(
    "list_competitors",
    TOOL_CONFIGS.list_competitors,
    () => run(pooled, ({ user }) => competitorsAnswer(user), competitorsText),
  );

  server.registerTool(
    "get_competitor",
    TOOL_CONFIGS.get_competitor,
    ({ id }) => run(pooled, ({ user }) => competitorAnswer(user, id), competitorText),
  );

  server.registerTool(
    "profit",
    TOOL_CONFIGS.profit,
    ({ objectID, ...rest }) => run(pooled, ({ user }) => profitAnswer(user, objectID, paramsOf(rest)), profitText),
  );

  server.registerResource(
    "product-card",
    PRODUCT_CARD_URI,
    { title: "Product card", description: "The product card search_products and get_product show in the assistant's window (MCP Apps).", mimeType: "text/html;profile=mcp-app" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: productCardHtml(new URL("/", callerOf(pooled).request.url).toString()) }] }),
  );

  // The SDK announces listChanged as soon as a tool or resource is registered; this server can never notify.
  server.server.registerCapabilities({ tools: { listChanged: undefined }, resources: { listChanged: undefined } });
  // The same list the SDK's handler would answer, made once per process instead of on every call.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  return pooled;
}
