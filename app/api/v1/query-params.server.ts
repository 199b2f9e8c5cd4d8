// The query parameters of /api/v1 as zod schemas (issue 35): the OpenAPI document (openapi.server.ts) is generated
// from these, and the operations validate with the same ones, so a parameter documented as an integer from 1 to 48
// is refused as one. Query strings are text: a number parameter turns its text into a number first (z.preprocess,
// which the generator renders as the number schema after it: `type: integer, minimum, maximum`); text that is not
// a number stays text and is refused with the parameter's own sentence. Empty text is "not given", as on the grid.
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { FEE_PRESET_IDS, type FeePresetId } from "~/domain/landed-cost/landed-cost";
import { LANDED_MARGIN_INCLUDES } from "~/domain/landed-cost/margin";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SORTS, SOURCES, STAGES } from "~/domain/products/product-query";

/** The largest whole number the counts' columns hold (32-bit). */
const MAX_COUNT = 2_147_483_647;
/** Dollars the grid's price filters read: up to nine digits and two decimals. */
const MAX_DOLLARS = 999_999_999.99;
/** The profit's amounts, as the site's profit call takes them (app/pages/landed-cost/api.server.ts). */
const MAX_PROFIT_CENTS = 100_000_000;

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** Query text as a number when it is one ("" is not given); anything else is left for the schema to refuse. */
function fromQueryText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return undefined;
  return NUMBER_TEXT.test(text) ? Number(text) : text;
}

interface Bounds {
  min: number;
  max: number;
  description: string;
  /** whole (the default): an integer; cents: at most two decimals; any: any decimal. */
  step?: "whole" | "cents" | "any";
}

/** A number parameter with its bounds; every refusal is one sentence naming the parameter. */
function queryNumber(name: string, { min, max, description, step = "whole" }: Bounds) {
  const what = step === "whole" ? "a whole number" : step === "cents" ? "an amount with at most two decimals" : "a number";
  const error = `${name} must be ${what} from ${min} to ${max}.`;
  const bounded = z.number({ error }).min(min, { error }).max(max, { error });
  const schema =
    step === "whole" ? bounded.int({ error }) : step === "cents" ? bounded.refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, { error }) : bounded;
  return z.preprocess(fromQueryText, schema.optional()).meta({ description });
}

const dollars = (name: string, description: string) => queryNumber(name, { min: 0, max: MAX_DOLLARS, step: "cents", description });
const count = (name: string, description: string) => queryNumber(name, { min: 0, max: MAX_COUNT, description });
const margin = (name: string, description: string) => queryNumber(name, { min: -1000, max: 100, step: "any", description });

/** The grid's search parameters the API takes (page and pageSize are the cursor's and limit's business). */
export const SEARCH_PARAMS = z
  .object({
    q: z.string().max(200).meta({ description: "Free text" }),
    niche: z.string().meta({ description: "A niche (repeat, or separate with commas, for several)" }),
    stage: z.enum(STAGES).meta({ description: "Lifecycle stage (repeat, or separate with commas, for several)" }),
    source: z.enum(SOURCES).meta({ description: "measured, sample, or all (default)" }),
    sort: z.enum(SORTS).meta({
      description:
        "Order (default winning-score); ties are broken by product id, so pages never overlap. margin: highest margin after duty and fees first (insights.landedMarginBps), products without one last",
    }),
    minPrice: dollars("minPrice", "Price in US dollars, at least (e.g. 19.99). Prices in another or an unknown currency never match a price filter"),
    maxPrice: dollars("maxPrice", "Price in US dollars, at most"),
    minCost: dollars("minCost", "Supplier cost in US dollars, at least (products with an unknown cost never match)"),
    maxCost: dollars("maxCost", "Supplier cost in US dollars, at most"),
    minRevenue: dollars("minRevenue", "Revenue over 30 days in US dollars, at least"),
    maxRevenue: dollars("maxRevenue", "Revenue over 30 days in US dollars, at most"),
    minAmazonPrice: dollars("minAmazonPrice", "Amazon price in US dollars, at least"),
    maxAmazonPrice: dollars("maxAmazonPrice", "Amazon price in US dollars, at most"),
    hasAmazonPrice: z.enum(["true", "false", "1", "0"]).meta({ description: "Only products with an Amazon price" }),
    minMargin: margin("minMargin", `Margin after duty and fees, percent, at least: ${LANDED_MARGIN_INCLUDES}`),
    maxMargin: margin("maxMargin", "Margin after duty and fees, percent, at most"),
    minOrders: count("minOrders", "Orders over 30 days, at least"),
    maxOrders: count("maxOrders", "Orders over 30 days, at most"),
    minEngagement: count("minEngagement", "Likes, comments and shares over 30 days, at least"),
    minViews: count("minViews", "Views over 30 days, at least"),
    minStores: count("minStores", "Stores selling it, at least"),
    maxStores: count("maxStores", "Stores selling it, at most"),
    minStoresAdded7d: count("minStoresAdded7d", "Stores that added it in the last 7 days, at least"),
    firstSeenDays: queryNumber("firstSeenDays", { min: 1, max: 3650, description: "First seen in the last N days" }),
    firstSeenAfter: z.iso.date().meta({ description: "First seen on or after this day (YYYY-MM-DD)" }),
    firstSeenBefore: z.iso.date().meta({ description: "First seen on or before this day (YYYY-MM-DD)" }),
    literal: z.enum(["true", "false", "1", "0"]).meta({ description: "true: search the text as typed, with no spelling correction" }),
    seed: queryNumber("seed", { min: 0, max: MAX_COUNT, description: "Seed for sort=random: the same seed gives the same order" }),
    limit: queryNumber("limit", { min: 1, max: MAX_PAGE_SIZE, description: `Products per page (default ${DEFAULT_PAGE_SIZE})` }),
    cursor: z.string().meta({ description: "nextCursor of the previous page" }),
  })
  .partial();

const cents = (name: string, description: string, min = 0) => queryNumber(name, { min, max: MAX_PROFIT_CENTS, description });
const basisPoints = (name: string, max: number, description: string) => queryNumber(name, { min: 0, max, description });

/** The profit's parameters (the same bounds as the site's profit call). */
export const PROFIT_PARAMS = z
  .object({
    priceCents: cents("priceCents", "Selling price in US cents (default: the product's, when it is in US dollars)", 1),
    cpaCents: cents("cpaCents", "Ad cost per order in US cents"),
    costCents: cents("costCents", "Your supplier cost in US cents (required when we do not know it)"),
    shippingCents: cents("shippingCents", "Shipping per order in US cents"),
    hts: z.string().max(20).meta({ description: "HTS code" }),
    origin: z.string().max(10).meta({ description: "Country of origin, ISO 3166 alpha-2" }),
    entry: z.enum(["commercial", "postal"]).meta({ description: "How the parcel enters the US (default commercial)" }),
    fees: z.enum(FEE_PRESET_IDS as [FeePresetId, ...FeePresetId[]]).meta({ description: "Payment fee preset" }),
    feeRateBp: basisPoints("feeRateBp", 5000, "Payment fee rate in basis points (100 = 1%)"),
    feeFixedCents: queryNumber("feeFixedCents", { min: 0, max: 10_000, description: "Fixed payment fee per order in US cents" }),
    refundRateBp: basisPoints("refundRateBp", 10_000, "Refund reserve in basis points"),
    chargebackRateBp: basisPoints("chargebackRateBp", 10_000, "Chargeback reserve in basis points"),
    targetMarginBps: basisPoints("targetMarginBps", 9999, "Margin you aim for, in basis points (2500 = 25%)"),
  })
  .partial();

/**
 * The number parameters of `query` checked against `schema`: 400 naming the first bad one, or one given twice.
 * Text parameters are left to the parser of their operation (the grid's search says which values it takes).
 */
export function checkQueryNumbers(schema: z.ZodObject, query: URLSearchParams): Record<string, number | undefined> {
  const numbers: Record<string, number | undefined> = {};
  for (const [name, shaped] of Object.entries(schema.shape)) {
    // .partial() wraps each parameter in an optional; the number parameters are the preprocessing pipes inside.
    const field = shaped instanceof z.ZodOptional ? shaped.unwrap() : shaped;
    if (!(field instanceof z.ZodPipe) || !query.has(name)) continue;
    if (query.getAll(name).length > 1) throw new AppError(400, `${name} is given twice.`, { param: name });
    const parsed = (field as z.ZodType).safeParse(query.get(name));
    if (!parsed.success) throw new AppError(400, parsed.error.issues[0].message, { param: name });
    numbers[name] = parsed.data as number | undefined;
  }
  return numbers;
}
