// The assistant's filters: the grid's own URL parameters and units (app/domain/products/product-query.ts), the
// words with a stated meaning (HIGH_MARGIN_PERCENT, ...), and the filters to and from the grid's URL.
import { z } from "zod";
import { parseProductQuery, QueryError, SORTS, STAGES } from "~/domain/products/product-query";

/** A question (and a follow-up) is at most this long. */
export const QUESTION_MAX_CHARS = 500;
/** "High margin" means a margin of at least this many percent. */
export const HIGH_MARGIN_PERCENT = 50;
/** "Low margin" means a margin of at most this many percent. */
export const LOW_MARGIN_PERCENT = 20;
/** "Cheap", "budget", "affordable": this price or less, in dollars. */
export const CHEAP_MAX_DOLLARS = 20;
/** "Premium", "expensive", "high-ticket": this price or more, in dollars. */
export const PREMIUM_MIN_DOLLARS = 50;
/** "Low competition", "not saturated": sold by at most this many stores. */
export const LOW_COMPETITION_MAX_STORES = 10;
/** "Best sellers" with a number nowhere: no threshold, a sort by orders. "Proven": at least this many orders. */
export const PROVEN_MIN_ORDERS = 500;
/** "Like X": X's niche and a price band of X's price ± this share. */
export const LIKE_PRICE_BAND = 0.25;
/** "Cheaper" lowers the price band by this share; "pricier" raises it by the same. */
export const PRICE_STEP = 0.25;

// ---------- the filters: the grid's parameters ----------

const money = z.number().min(0).max(10_000_000);
const count = z.number().int().min(0).max(1_000_000_000);

/** The grid's query as an object: keys are the grid's URL parameters, in the grid's units. */
export const QuestionFiltersSchema = z.object({
  q: z.string().trim().min(1).max(200).optional(),
  niche: z.array(z.string().regex(/^[a-z0-9-]{1,40}$/)).min(1).max(10).optional(),
  stage: z.array(z.enum(STAGES)).min(1).max(4).optional(),
  /** Dollars. */
  minPrice: money.optional(),
  maxPrice: money.optional(),
  /** Percent: (price - cost - shipping) / price. */
  minMargin: z.number().min(-1000).max(100).optional(),
  maxMargin: z.number().min(-1000).max(100).optional(),
  /** Orders in the last 30 days. */
  minOrders: count.optional(),
  maxOrders: count.optional(),
  minStores: count.optional(),
  maxStores: count.optional(),
  /** Stores that added it in the last 7 days (measured products only). */
  minStoresAdded7d: count.optional(),
  /** Measured products (what real stores sell) or sample data; absent: both. */
  source: z.enum(["measured", "sample"]).optional(),
  minViews: count.optional(),
  minEngagement: count.optional(),
  hasAmazonPrice: z.boolean().optional(),
  firstSeenDays: z.number().int().min(1).max(3650).optional(),
  sort: z.enum(SORTS).optional(),
});
export type QuestionFilters = z.infer<typeof QuestionFiltersSchema>;

export const KEY_ORDER = Object.keys(QuestionFiltersSchema.shape) as (keyof QuestionFilters)[];

/** "30" for 30, "22.5" for 22.5, "19.99" for 19.99: dollars the grid's price fields accept. */
function dollarsText(n: number): string {
  return (Math.round(n * 100) / 100).toFixed(2).replace(/\.00$/, "").replace(/(\.\d)0$/, "$1");
}

export function numberText(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** The filters as the grid's URL parameters, always in the same order. */
export function filtersToParams(f: QuestionFilters): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of KEY_ORDER) {
    const v = f[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) out.set(key, v.join(","));
    else if (typeof v === "boolean") {
      if (v) out.set(key, "true");
    } else if (typeof v === "number") out.set(key, key === "minPrice" || key === "maxPrice" ? dollarsText(v) : numberText(v));
    else out.set(key, v);
  }
  return out;
}

/**
 * The filters of grid URL parameters (a stored answer's query). Parameters the assistant does not
 * write are left out; null when what is left is not a query.
 */
export function filtersFromParams(params: URLSearchParams): QuestionFilters | null {
  const raw: Record<string, unknown> = {};
  for (const key of KEY_ORDER) {
    const v = params.get(key);
    if (v === null || v === "") continue;
    if (key === "niche" || key === "stage") raw[key] = v.split(",").filter(Boolean);
    else if (key === "hasAmazonPrice") raw[key] = v === "true" || v === "1";
    else if (key === "q" || key === "sort" || key === "source") raw[key] = v;
    else raw[key] = Number(v);
  }
  const parsed = QuestionFiltersSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Why the grid would refuse these filters (a minimum above its maximum, ...), or null when it takes them. */
export function filtersProblem(f: QuestionFilters): string | null {
  try {
    parseProductQuery(filtersToParams(f));
    return null;
  } catch (error) {
    if (error instanceof QueryError) return error.message;
    throw error;
  }
}

export function sortKeys(f: QuestionFilters): QuestionFilters {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (f[key] !== undefined) out[key] = f[key];
  return out as QuestionFilters;
}
