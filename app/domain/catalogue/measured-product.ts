// Which figures a product has, by where it comes from (docs/decisions/026 and 046), and how a measured product's
// figures are shown: each with whether we measured it or derived it, and the day it holds for.
// - "catalog" (sample data: the generator or an import file): every figure, from its (synthetic) daily history;
// - "tracked-store" (added from a followed store): only its price and dates;
// - "measured" (the measured catalogue: listings of one product across the stores we observe): stores selling,
//   stores added in 7 / 30 days and first seen anywhere are measured; stage, saturation, score and reasons are
//   derived from those counts; orders, revenue, engagement, views and growth are not measured at all.
// Pure: the products service, both search engines and the pages read these rules.
import { evidenceMoney } from "~/domain/catalogue/match";
import { parseReviewSummary } from "~/domain/catalogue/review-signals";
import type { ConvertedPrice } from "~/domain/catalogue/prices";
import type { MeasuredSeries } from "~/domain/catalogue/signals";
import { formatCount } from "~/domain/products/insights";
import type { SourceFilter } from "~/domain/products/product-query";

export function isMeasuredSource(source: string): boolean {
  return source === "measured";
}

/** Orders, revenue, engagement, views, growth and the trending score: only sample (catalog) products have them. */
export function hasSalesFigures(source: string): boolean {
  return source !== "tracked-store" && source !== "measured";
}

/** Stores selling, lifecycle stage, saturation and winning score: every product except one added from a tracked store. */
export function hasStoreFigures(source: string): boolean {
  return source !== "tracked-store";
}

/** Whether a product of this source passes the grid's source filter. */
export function matchesSourceFilter(filter: SourceFilter, source: string): boolean {
  if (filter === "all") return true;
  if (filter === "measured") return source === "measured";
  return source === "catalog";
}

/** A figure as the API and the pages show it: its value, whether we measured it (false: derived or estimated), and its day. */
export interface ShownFigure<T> {
  value: T;
  measured: boolean;
  /** YYYY-MM-DD (UTC): the day the figure holds for. */
  asOf: string;
}

export function figure<T>(value: T, measured: boolean, asOf: string): ShownFigure<T> {
  return { value, measured, asOf };
}

/** "Measured" or "Estimated from measured counts", for a figure's label. */
export function figureKind(f: { measured: boolean }): string {
  return f.measured ? "Measured" : "Estimated from measured counts";
}

/** "sold by 1 store", "sold by 3 stores". */
export function soldByStores(n: number): string {
  return `sold by ${formatCount(n)} ${n === 1 ? "store" : "stores"}`;
}

/** The card's line: "Sold by 3 stores · +2 this week" (the week part only when some store added it). */
export function storesLine(storesSelling: number, storesAdded7d: number): string {
  const sold = soldByStores(storesSelling);
  const line = sold.charAt(0).toUpperCase() + sold.slice(1);
  return storesAdded7d > 0 ? `${line} · +${formatCount(storesAdded7d)} this week` : line;
}

/** What a product detail says about one member listing's match (anchors have no evidence of their own). */
export function matchReason(via: string, evidence: string | null): string {
  if (via === "anchor") return "first listing of this product";
  if (evidence) {
    try {
      const parsed = JSON.parse(evidence) as { reason?: unknown; prices?: unknown; currency?: unknown };
      if (typeof parsed.reason === "string" && parsed.reason) return withoutUnknownDollars(parsed.reason, parsed.prices, parsed.currency);
    } catch {
      // fall through: a malformed evidence row says what kind of match it was
    }
  }
  return via === "operator" ? "merged by an operator" : "matched (no evidence kept)";
}

/**
 * A reason written before issue 35 called the prices of two stores that publish no currency dollars ("$9.00 and
 * $9.50"): read back, those amounts say "(currency unknown)" as the matcher writes them now.
 */
function withoutUnknownDollars(reason: string, prices: unknown, currency: unknown): string {
  if (currency !== null || !Array.isArray(prices) || prices.length !== 2 || !prices.every((p) => Number.isInteger(p))) return reason;
  const [a, b] = prices as number[];
  const dollars = `$${(a / 100).toFixed(2)} and $${(b / 100).toFixed(2)}`;
  return reason.replace(dollars, `${evidenceMoney(a, null)} and ${evidenceMoney(b, null)}`);
}

/** A listing's page on its store: https://{domain}/products/{handle}. */
export function listingUrl(domain: string, handle: string): string {
  return `https://${domain}/products/${encodeURIComponent(handle)}`;
}

/** What a measured product says instead of sales figures (the card's and the page's noSalesData). */
export const MEASURED_NO_SALES = "No sales figure: orders are not measured, we count the stores that sell it";

/** A listing of a measured product as the product page and GET /api/products/{objectID} show it. */
export interface Offer {
  store: string;
  url: string;
  title: string;
  /** Its lowest variant price, in the store's currency; null when the store publishes none. */
  priceCents: number | null;
  /** ISO 4217 its store published when this listing was read (null: unknown, shown without a symbol; decision 089). */
  currency: string | null;
  /** The price in US dollars at a dated reference rate, for a price in another currency; null for dollars or when it cannot be converted. */
  converted: ConvertedPrice | null;
  /** Why the price was not converted (unknown currency, no reference rate), as a sentence; null otherwise. */
  conversionNote: string | null;
  /** null: the store does not publish availability. */
  available: boolean | null;
  firstSeenAt: string;
  /** Reviews its product page publishes (schema.org aggregateRating; decision 094); null: no review data. */
  reviews: number | null;
  /** YYYY-MM-DD the count was read; null with no count. */
  reviewsAsOf: string | null;
  /** Why there is no count, in a sentence ("No review data: its page publishes no structured data ..."); null with a count or before the first read. */
  reviewsNote: string | null;
}

export interface MatchEvidence {
  listing: { store: string; title: string; url: string };
  via: string;
  reason: string;
}

/** A measured product's signals on the last day of its series: every value counted from its listings. */
export interface MeasuredSignals {
  asOf: string;
  storesSelling: ShownFigure<number>;
  storesAdded7d: ShownFigure<number>;
  storesAdded30d: ShownFigure<number>;
  storesDropped7d: ShownFigure<number>;
  priceMinCents: ShownFigure<number | null>;
  priceMedianCents: ShownFigure<number | null>;
  priceMaxCents: ShownFigure<number | null>;
  /** ISO 4217 of priceMin / priceMedian / priceMax: the product's (null: its stores publish none); listings in another currency converted at priceRateDate's reference rate (decision 089). */
  priceCurrency: string | null;
  priceRateDate: string | null;
  outOfStock: ShownFigure<number>;
  restocked30d: ShownFigure<number>;
  priceChanges7d: ShownFigure<number>;
  firstSeenAnywhere: ShownFigure<string>;
  /**
   * Reviews its stores' product pages publish, summed over the stores that publish a count, measured on the day of the
   * newest read (decision 094); null: no review data (none of its stores publishes a count), never 0.
   */
  reviews: ShownFigure<number> | null;
  /** Reviews gained in 7 and 30 days across those stores; null with no review data. */
  reviewsGained7d: ShownFigure<number> | null;
  reviewsGained30d: ShownFigure<number> | null;
  /** Stores whose product pages publish a count (0: no review data). */
  reviewStores: number;
  /** The daily series for the chart: stores selling and stores that added it, from startDay. */
  series: { startDay: string; endDay: string; storesSelling: number[]; added: number[]; dropped: number[] };
}

function sumLast(values: readonly number[], count: number): number {
  let total = 0;
  for (let i = Math.max(0, values.length - count); i < values.length; i++) total += values[i] ?? 0;
  return total;
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === "number");
const isPriceArray = (v: unknown): v is Array<number | null> => Array.isArray(v) && v.every((x) => x === null || typeof x === "number");

/** A stored series (ProductSignals.series), checked; null when it is not one (never a half-read chart). */
export function parseMeasuredSeries(text: string): MeasuredSeries | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const s = v as Record<string, unknown>;
  const counts = ["storesSelling", "added", "dropped", "outOfStock", "restocked", "priceChanges"] as const;
  const prices = ["priceMin", "priceMedian", "priceMax"] as const;
  if (typeof s.startDay !== "string" || typeof s.endDay !== "string") return null;
  if (!counts.every((k) => isNumberArray(s[k])) || !prices.every((k) => isPriceArray(s[k]))) return null;
  const days = (s.storesSelling as number[]).length;
  if (days === 0 || ![...counts, ...prices].every((k) => (s[k] as unknown[]).length === days)) return null;
  return s as unknown as MeasuredSeries;
}

/** The signals of a measured product from its daily series, as of the series' last day. */
export function signalsFromSeries(series: MeasuredSeries, firstSeenAnywhere: string, price: { currency: string | null; rateDate: string | null }): MeasuredSignals {
  const asOf = series.endDay;
  const last = series.storesSelling.length - 1;
  const m = <T>(value: T) => figure(value, true, asOf);
  const reviews = parseReviewSummary((series as MeasuredSeries & { reviews?: unknown }).reviews);
  return {
    asOf,
    storesSelling: m(series.storesSelling[last]),
    storesAdded7d: m(sumLast(series.added, 7)),
    storesAdded30d: m(sumLast(series.added, 30)),
    storesDropped7d: m(sumLast(series.dropped, 7)),
    priceMinCents: m(series.priceMin[last]),
    priceMedianCents: m(series.priceMedian[last]),
    priceMaxCents: m(series.priceMax[last]),
    priceCurrency: price.currency,
    priceRateDate: price.rateDate,
    outOfStock: m(series.outOfStock[last]),
    restocked30d: m(sumLast(series.restocked, 30)),
    priceChanges7d: m(sumLast(series.priceChanges, 7)),
    firstSeenAnywhere: m(firstSeenAnywhere),
    reviews: reviews ? figure(reviews.value, true, reviews.asOf) : null,
    reviewsGained7d: reviews ? figure(reviews.gained7d, true, reviews.asOf) : null,
    reviewsGained30d: reviews ? figure(reviews.gained30d, true, reviews.asOf) : null,
    reviewStores: reviews?.stores ?? 0,
    series: { startDay: series.startDay, endDay: series.endDay, storesSelling: series.storesSelling, added: series.added, dropped: series.dropped },
  };
}

/**
 * Product.priceCurrency of a measured product whose stores publish no currency (ISO 4217's "no currency"): its
 * price is not known to be in dollars, so it stays out of the dollar price filter too (docs/decisions/059).
 */
export const UNKNOWN_CURRENCY = "XXX";

/** A price's currency in a sentence: its ISO code, or "a currency the stores do not publish". */
export const currencyInWords = (priceCurrency: string): string =>
  priceCurrency === UNKNOWN_CURRENCY ? "a currency the stores do not publish" : priceCurrency;

/** Whether a product's price is in US dollars, the currency of the price filter and the price sorts. */
export const priceInDollars = (priceCurrency: string | null | undefined): boolean => priceCurrency === null || priceCurrency === undefined;

/**
 * A Product.priceCurrency as the ISO 4217 code answers carry (issue 35): null in the column is US dollars ("USD"),
 * UNKNOWN_CURRENCY is null (the store publishes none: never called dollars), anything else is its own code.
 */
export const priceCurrencyCode = (priceCurrency: string | null | undefined): string | null =>
  priceInDollars(priceCurrency) ? "USD" : priceCurrency === UNKNOWN_CURRENCY ? null : (priceCurrency as string);

/**
 * A store's currency (CompetitorStore.currency: its ISO code, null when it publishes none) as the
 * Product.priceCurrency of a product imported from it: dollars are null, an unknown currency UNKNOWN_CURRENCY.
 */
export const productPriceCurrency = (storeCurrency: string | null | undefined): string | null =>
  storeCurrency === "USD" ? null : storeCurrency ? storeCurrency : UNKNOWN_CURRENCY;

/**
 * The figure the price filter and the price sorts read (decision 089): the price itself in dollars, a price in
 * another currency converted at a dated reference rate (Product.priceUsdCents), or null when it has no dollar
 * figure (its currency is unknown or has no rate): then it is in no price filter and sorts after every price.
 */
export const filterPriceCents = (p: { priceCents: number; priceCurrency?: string | null; priceUsdCents?: number | null }): number | null =>
  priceInDollars(p.priceCurrency) ? p.priceCents : (p.priceUsdCents ?? null);
