// Plain-words questions about products ("pet products under $30 with high margin that are rising") turned
// into the product grid's query (docs/decisions/031). The filters use the grid's own URL parameter names
// and units (app/domain/products/product-query.ts: dollars, percent, counts), so an answer's filters open as they
// are in the grid. Pure: the catalogue's niches and the previous answer come in as context; a product
// named by title ("like the posture corrector") is looked up by the caller (the assistant service).
//
// Words with a stated meaning (HIGH_MARGIN_PERCENT, CHEAP_MAX_DOLLARS, ...) are explained in the answer's
// notes; what the grid cannot filter by (shipping country, reviews, brands, leaving a niche out) is said
// in `cannot`, never guessed.
//
// The parser itself is a row of clause readers in ./question/ (decision 099): filters (the grid's parameters),
// words (amounts and ranges in words), vocabulary, reading (the working text), one module per kind of clause,
// follow-up (refining the previous answer) and parse (the order they run in). This module keeps what is said
// about filters and products, the search box's "is this a question?", and the model's answer; it re-exports
// the parser's public names so callers have one place to import from.
import { z } from "zod";
import { formatCount } from "~/domain/products/insights";
import { soldByStores } from "~/domain/catalogue/measured-product";
import type { Stage } from "~/domain/products/product-query";
import {
  AMONG_SHOWN,
  CANNOT,
  countWords,
  dollars$,
  filtersProblem,
  money$,
  nicheWords,
  normalize,
  numberText,
  parseQuestion,
  percentOfBps,
  QUESTION_MAX_CHARS,
  QuestionFiltersSchema,
  rangeWords,
  sortKeys,
  SORT_WORDS,
  STAGE_WORDS,
  take,
  type PriceMove,
  type QuestionFilters,
  type Work,
} from "~/domain/products/question";

// The parser's public names (parseQuestion, the filters and their schema, the meanings, likeProduct, ...).
export * from "~/domain/products/question";

// ---------- describing filters and products in words ----------

/** The filters in words, one short phrase each, in the grid's order: what the answer says it searched. */
export function describeFilters(f: QuestionFilters): string[] {
  const out: string[] = [];
  if (f.source === "measured") out.push("measured products (what the stores we observe sell)");
  if (f.source === "sample") out.push("sample data only");
  if (f.q) out.push(`words “${f.q}”`);
  if (f.niche) out.push(`${f.niche.length === 1 ? "niche" : "niches"} ${f.niche.map(nicheWords).join(" or ")}`);
  if (f.stage) out.push(`stage ${f.stage.map((s) => STAGE_WORDS[s]).join(" or ")} (estimate)`);
  const price = rangeWords(f.minPrice, f.maxPrice, dollars$);
  if (price) out.push(`price ${price}`);
  const margin = rangeWords(f.minMargin, f.maxMargin, (n) => `${numberText(n)}%`);
  if (margin) out.push(`margin after duty and fees ${margin}`);
  const orders = countWords(f.minOrders, f.maxOrders, "order", "orders", "or less");
  if (orders) out.push(`${orders} (30 days)`);
  const stores = countWords(f.minStores, f.maxStores, "store", "stores", "or fewer");
  if (stores) out.push(`sold by ${stores}`);
  if (f.minStoresAdded7d !== undefined)
    out.push(`added by ${formatCount(f.minStoresAdded7d)} or more ${f.minStoresAdded7d === 1 ? "store" : "stores"} this week`);
  if (f.minViews !== undefined) out.push(`${formatCount(f.minViews)} or more views (30 days)`);
  if (f.minEngagement !== undefined) out.push(`${formatCount(f.minEngagement)} or more likes, comments and shares (30 days)`);
  if (f.hasAmazonPrice) out.push("with an Amazon price");
  if (f.firstSeenDays !== undefined) out.push(`first seen in the last ${formatCount(f.firstSeenDays)} days`);
  if (f.sort) out.push(`sorted by ${SORT_WORDS[f.sort]}`);
  return out;
}

/** Whether an answer's filters or order use the margin (then the answer says what the margin is). */
export function usesMargin(f: QuestionFilters): boolean {
  return f.minMargin !== undefined || f.maxMargin !== undefined || f.sort === "margin";
}

/** What the margin the grid filters on is, and the day its duty layers were checked (decision 065). */
export function marginMeaning(asOf: string | null): string {
  const when = asOf ? ` as of ${asOf}` : "";
  return `Margins are after duty and fees${when}: price minus supplier cost, shipping, US duty for each product's guessed HTS code and origin, and Shopify Payments' fees (2.9% + 30c), over price; no refund reserve or ad cost.`;
}

/** What the answer may say about one product: the figures its card shows (margin only with insights). */
export interface ProductFacts {
  objectID: string;
  title: string;
  niches: string[];
  priceCents: number;
  /** Null for a product with no sales data (added from a tracked store): its figures are not quoted. */
  orders: number | null;
  storesSelling: number | null;
  winningScore: number | null;
  lifecycleStage: string | null;
  /** "measured": its stores are counted, its orders are not (docs/decisions/046). */
  source?: string;
  /** Measured products: stores that added it in the last 7 days. */
  storesAdded7d?: number | null;
  views?: number | null;
  /** The margin after duty and fees the grid filters on (decision 065); null without a known cost or when the plan hides margins. */
  marginBps: number | null;
  amazonPriceCents?: number | null;
}

/**
 * Why a product fits the filters, quoting only its own figures as the product pages show them: each
 * filter the question set, then the figure it is sorted by. The first line is always its price.
 */
export function whyItFits(p: ProductFacts, f: QuestionFilters): string[] {
  const out: string[] = [money$(p.priceCents)];
  if (f.niche) {
    const hit = p.niches.find((n) => f.niche!.includes(n));
    if (hit) out.push(`in ${nicheWords(hit)}`);
  }
  if ((f.stage || f.sort === "trending") && p.lifecycleStage) {
    out.push(`stage ${STAGE_WORDS[p.lifecycleStage as Stage] ?? p.lifecycleStage} (estimate)`);
  }
  if ((f.minMargin !== undefined || f.maxMargin !== undefined || f.sort === "margin") && p.marginBps !== null) {
    out.push(`margin after duty and fees ${percentOfBps(p.marginBps)}`);
  }
  const measured = p.source === "measured";
  if (measured) out.push("measured: orders are not counted");
  else if (p.orders === null) out.push("no sales data yet");
  else out.push(`${formatCount(p.orders)} ${p.orders === 1 ? "order" : "orders"} in 30 days`);
  if ((measured || f.minStores !== undefined || f.maxStores !== undefined || f.sort === "storesSelling") && p.storesSelling !== null)
    out.push(soldByStores(p.storesSelling));
  if (measured && p.storesAdded7d != null && (p.storesAdded7d > 0 || f.minStoresAdded7d !== undefined || f.sort === "storesAdded7d"))
    out.push(`added by ${formatCount(p.storesAdded7d)} ${p.storesAdded7d === 1 ? "store" : "stores"} this week`);
  if (f.minViews !== undefined && p.views != null) out.push(`${formatCount(p.views)} views in 30 days`);
  if (f.hasAmazonPrice && p.amazonPriceCents) out.push(`Amazon price ${money$(p.amazonPriceCents)}`);
  if (p.winningScore !== null) out.push(`winning score ${p.winningScore}/100`);
  return out;
}

/**
 * Whether a product already shown passes the filters ("which of these are under $20?"), read from the
 * same figures its card shows. A figure the product lacks (no sales data, a margin the plan hides) does not
 * pass a filter on it, as in the grid (decision 026). Text matches every word of it in the title.
 */
export function factsPassFilters(p: ProductFacts, f: QuestionFilters): boolean {
  const within = (v: number | null | undefined, min: number | undefined, max: number | undefined) =>
    (min === undefined && max === undefined) || (v != null && (min === undefined || v >= min) && (max === undefined || v <= max));
  if (f.niche && !p.niches.some((n) => f.niche!.includes(n))) return false;
  if (f.stage && !(p.lifecycleStage && (f.stage as string[]).includes(p.lifecycleStage))) return false;
  if (f.source && (p.source === "measured") !== (f.source === "measured")) return false;
  if (!within(p.priceCents / 100, f.minPrice, f.maxPrice)) return false;
  if (!within(p.marginBps === null ? null : p.marginBps / 100, f.minMargin, f.maxMargin)) return false;
  if (!within(p.orders, f.minOrders, f.maxOrders)) return false;
  if (!within(p.storesSelling, f.minStores, f.maxStores)) return false;
  if (!within(p.storesAdded7d, f.minStoresAdded7d, undefined)) return false;
  if (!within(p.views, f.minViews, undefined)) return false;
  if (f.hasAmazonPrice && !p.amazonPriceCents) return false;
  if (f.q) {
    const title = p.title.toLowerCase();
    if (!f.q.toLowerCase().split(/\s+/).every((word) => title.includes(word))) return false;
  }
  return true;
}

// ---------- the built-in parser ----------
/** What a question asks that the grid cannot do (shipping, reviews, brands, ...), in sentences. */
export function unsupportedPhrases(question: string): string[] {
  const w: Work = { s: normalize(question.slice(0, QUESTION_MAX_CHARS), { notes: [] }), notes: [], cannot: [] };
  for (const c of CANNOT) take(w, c.re, () => void (w.cannot.includes(c.say) || w.cannot.push(c.say)));
  return w.cannot;
}

/** Whether a question asks about the products just shown ("which of these are under $20?"). */
export function asksAmongShown(question: string): boolean {
  return AMONG_SHOWN.test(question.toLowerCase());
}


/** Filters a question sets only through amounts, counts and named kinds of product: a text with one of them is a question. */
const QUESTION_KEYS = new Set<keyof QuestionFilters>([
  "minPrice", "maxPrice", "minMargin", "maxMargin", "minOrders", "maxOrders", "minStores", "maxStores", "minStoresAdded7d",
  "source", "minViews", "minEngagement", "hasAmazonPrice", "firstSeenDays",
]);
/** From this many words, a stage or an order the parser reads ("rising", "best selling") also makes a text a question. */
const SENTENCE_WORDS = 4;

/**
 * Whether the grid's search box should hand a text to this parser instead of searching its words (issue 35):
 * "cheap pet products under $20 with good margin" asks for filters, "air fryer" and "dog toys" name products. A
 * price, margin, count or "like X" makes a question; a stage or an order word, or something the grid cannot do,
 * only in a text of SENTENCE_WORDS words or more ("new balance shoes", "king size pillow" are products).
 */
export function readsAsQuestion(text: string, niches: readonly string[]): boolean {
  const trimmed = text.trim();
  if (trimmed === "") return false;
  const parsed = parseQuestion(trimmed, { niches });
  const keys = (Object.keys(parsed.filters) as (keyof QuestionFilters)[]).filter((k) => k !== "q" && k !== "niche");
  if (parsed.likeTitle !== null || keys.some((k) => QUESTION_KEYS.has(k))) return true;
  return (keys.length > 0 || parsed.cannot.length > 0) && trimmed.split(/\s+/).length >= SENTENCE_WORDS;
}
// ---------- the model's answer ----------

/** What the AI model is asked for: the filters, plus a product it names and what it could not filter by. */
export const ModelAnswerSchema = QuestionFiltersSchema.extend({
  likeTitle: z.string().trim().min(1).max(120).optional(),
  likePosition: z.number().int().min(1).max(50).optional(),
  likeMove: z.enum(["cheaper", "pricier"]).optional(),
  unsupported: z.array(z.string().trim().min(1).max(80)).max(5).optional(),
});
export type ModelAnswer = z.infer<typeof ModelAnswerSchema>;

/** The JSON schema of the model's tool call (no $schema key: some servers refuse it). */
export function modelAnswerJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ModelAnswerSchema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * The model's answer checked: its own shape (zod), its niches against the catalogue's and its filters
 * against the grid's rules. A reason in words when it does not hold.
 */
export function checkModelAnswer(raw: unknown, niches: readonly string[]): { ok: true; answer: ModelAnswer } | { ok: false; reason: string } {
  const parsed = ModelAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}` };
  }
  const unknown = (parsed.data.niche ?? []).filter((n) => !niches.includes(n));
  if (unknown.length > 0) return { ok: false, reason: `niche: ${unknown.join(", ")} is not a niche of the catalogue` };
  const { likeTitle: _t, likePosition: _p, likeMove: _m, unsupported: _u, ...filters } = parsed.data;
  const problem = filtersProblem(filters);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, answer: parsed.data };
}

/** Splits a checked model answer into filters and the rest. */
export function splitModelAnswer(a: ModelAnswer): { filters: QuestionFilters; likeTitle: string | null; likePosition: number | null; likeMove: PriceMove | null; unsupported: string[] } {
  const { likeTitle, likePosition, likeMove, unsupported, ...filters } = a;
  return { filters: sortKeys(filters), likeTitle: likeTitle ?? null, likePosition: likePosition ?? null, likeMove: likeMove ?? null, unsupported: unsupported ?? [] };
}
