// What each MCP tool declares (docs/decisions/054, 078): its title, description, input and output schemas and
// annotations, and the tools/list answer made from them once per process. Each output schema is the API's own
// answer schema (app/api/v1/schemas.server.ts, the one the OpenAPI document is made from) with what is left
// of the limits, so a tool's structuredContent and the API's answer cannot drift apart
// (tests/integration/api/mcp-interop.test.ts checks every tool's result with the SDK's client, which validates it).
// Built once per process, not per pooled server (decision 063): zod schemas are costly to build.
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LANDED_MARGIN_INCLUDES } from "~/domain/landed-cost/margin";
import { SORTS, SOURCES, STAGES } from "~/domain/products/product-query";
import * as S from "~/api/v1/schemas.server";
import { PRODUCT_CARD_URI } from "~/api/mcp/product-card.server";

export const SEARCH_PRODUCTS_INPUT = z.object({
  q: z.string().max(200).optional().describe("Free text"),
  niche: z.string().max(40).optional().describe("A niche, e.g. kitchen"),
  stage: z.enum(STAGES).optional(),
  source: z.enum(SOURCES).optional().describe("measured: counted from real stores; sample; all (default)"),
  sort: z.enum(SORTS).optional(),
  minPrice: z.string().max(12).optional().describe("US dollars, e.g. 19.99 (a price in another or an unknown currency never matches)"),
  maxPrice: z.string().max(12).optional().describe("US dollars"),
  minStores: z.number().int().min(0).optional(),
  minMargin: z.number().min(-1000).max(100).optional().describe("Margin after duty and fees, percent: at least"),
  maxMargin: z.number().min(-1000).max(100).optional().describe("Margin after duty and fees, percent: at most"),
  limit: z.number().int().min(1).max(48).optional().describe("Products to return (default 12)"),
  cursor: z.string().max(500).optional().describe("nextCursor of a previous answer, with the same filters"),
});
export const OBJECT_ID_INPUT = z.object({ objectID: z.string().min(1).max(120) });
export const LIST_DROPS_INPUT = z.object({ limit: z.number().int().min(1).max(52).optional().describe("Drops to return (default 12)") });
export const LIST_COMPETITORS_INPUT = z.object({});
export const GET_COMPETITOR_INPUT = z.object({ id: z.number().int().min(1).max(999_999_999) });
export const PROFIT_INPUT = z.object({
  objectID: z.string().min(1).max(120),
  priceCents: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .optional()
    .describe("Your selling price in US cents (default: the product's, when it is in US dollars)"),
  cpaCents: z.number().int().min(0).max(100_000_000).optional().describe("Ad cost per order in US cents"),
  costCents: z.number().int().min(0).max(100_000_000).optional().describe("Your supplier cost in US cents, when we do not know it"),
  origin: z.string().max(10).optional().describe("Country of origin, e.g. CN"),
});

/** What is left of the limits, on every tool's structuredContent (and in its text). */
export const Limits = z.object({
  callsLeftThisMinute: z.number().int().meta({ description: "Calls left this minute (per key and per user, the tighter)" }),
  callsLeftThisMonth: z.number().int().meta({ description: "Calls left of this month's allowance" }),
});

const withLimits = <T extends z.ZodObject>(schema: T) => schema.extend({ limits: Limits });

export const ExplainScore = z.object({
  objectID: z.string(),
  title: z.string(),
  source: S.ProductSource,
  winningScore: S.ProductFigures.shape.winningScore,
  lifecycleStage: S.ProductFigures.shape.lifecycleStage,
  storesSelling: S.ProductFigures.shape.storesSelling,
  storesAdded7d: S.ProductFigures.shape.storesAdded7d,
  reasons: z.array(z.string()),
  thinEvidence: z.string().nullable(),
  signals: z.union([S.Signals, z.null()]).meta({ description: "A measured product's signals, without the daily series" }),
  matchEvidence: z.array(S.MatchEvidence),
});

/** A followed store as list_competitors gives it: the API's, with what its last read left out. */
const CompetitorList = z.object({
  items: z.array(S.Competitor.extend({ readNote: z.string().nullable().optional().meta({ description: "What the last read left out or could not use; null when it read everything" }) })),
});

/** Each tool's structuredContent. */
export const OUTPUT = {
  search_products: withLimits(S.ProductPage),
  get_product: withLimits(S.ProductDetail),
  explain_score: withLimits(ExplainScore),
  list_drops: withLimits(S.DropList),
  list_competitors: withLimits(CompetitorList),
  get_competitor: withLimits(S.CompetitorDetail),
  profit: withLimits(S.Profit),
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const cardMeta = { ui: { resourceUri: PRODUCT_CARD_URI } };

/**
 * What each tool declares to the SDK (registerTool). Not its outputSchema: given one, the SDK parses every result
 * with it in zod before sending (~0.6 ms for a page of 12 products, most of an MCP call's CPU); it is listed by
 * listedTools, and the results conform by their types (the API's answers are typed by the same schemas) and by test.
 */
export const TOOL_CONFIGS = {
  search_products: {
    title: "Search products",
    description:
      "Search the product research database with the grid's filters and sorts. Figures come as { value, measured, asOf }: measured ones were counted by us from real stores; others are estimates or sample data. " +
      "Money is in cents with its ISO 4217 currency; currency null means the store publishes none (never read it as dollars). " +
      `The margin (minMargin, maxMargin, sort=margin, insights.landedMarginBps) is after duty and fees: ${LANDED_MARGIN_INCLUDES}`,
    inputSchema: SEARCH_PRODUCTS_INPUT,
    annotations: { ...READ_ONLY, title: "Search products" },
    _meta: cardMeta,
  },
  get_product: {
    title: "Get a product with its evidence",
    description:
      "One product by objectID: its figures with their dates, insights (cost, margin, reasons), offers on real stores, signals and why each listing was matched. Money whose currency is null is in a currency the store does not publish.",
    inputSchema: OBJECT_ID_INPUT,
    annotations: { ...READ_ONLY, title: "Get a product" },
    _meta: cardMeta,
  },
  explain_score: {
    title: "Explain a product's winning score",
    description: "Why a product scores as it does: the score and stage with whether they were measured or estimated, the reasons, and the counts behind them.",
    inputSchema: OBJECT_ID_INPUT,
    annotations: { ...READ_ONLY, title: "Explain a score" },
  },
  list_drops: {
    title: "List revealed weekly drops",
    description: "The weekly product drops this account revealed, newest first, each product with the reason it was picked.",
    inputSchema: LIST_DROPS_INPUT,
    annotations: { ...READ_ONLY, title: "List drops" },
  },
  list_competitors: {
    title: "List followed competitor stores",
    description: "The rival stores this account follows, with their status and product count.",
    inputSchema: LIST_COMPETITORS_INPUT,
    annotations: { ...READ_ONLY, title: "List competitors" },
  },
  get_competitor: {
    title: "Get a followed competitor store",
    description: "One followed store by id (from list_competitors): its products, launches and changes we saw, and the orders estimate with its evidence.",
    inputSchema: GET_COMPETITOR_INPUT,
    annotations: { ...READ_ONLY, title: "Get a competitor" },
  },
  profit: {
    title: "Profit of one order",
    description:
      "Landed cost (duty layers in force today, payment fees, refund and chargeback reserves) and net profit of one order of a product at a price, in US cents. " +
      "A product priced in another or an unknown currency needs your priceCents in US dollars.",
    inputSchema: PROFIT_INPUT,
    annotations: { ...READ_ONLY, title: "Profit" },
  },
};

let toolList: Tool[] | null = null;

/**
 * The tools/list answer, made once per process from TOOL_CONFIGS and OUTPUT as the SDK's own handler makes it
 * (McpServer's setToolRequestHandlers: the same conversion and fields), which would convert every schema again on
 * every call (~160 ms). The output schemas are converted as zod reads them ("input"): an object may carry a field
 * the schema does not name, as the API's answers and its OpenAPI document allow, where the SDK's "output" would
 * forbid it and a client would refuse the whole result.
 */
export function listedTools(): Tool[] {
  toolList ??= Object.entries(TOOL_CONFIGS).map(([name, config]) => ({
    name,
    title: config.title,
    description: config.description,
    inputSchema: toJsonSchemaCompat(config.inputSchema, { strictUnions: true, pipeStrategy: "input" }) as Tool["inputSchema"],
    annotations: config.annotations,
    execution: { taskSupport: "forbidden" },
    _meta: "_meta" in config ? config._meta : undefined,
    outputSchema: toJsonSchemaCompat(OUTPUT[name as keyof typeof OUTPUT], { strictUnions: true, pipeStrategy: "input" }) as Tool["outputSchema"],
  }));
  return toolList;
}
