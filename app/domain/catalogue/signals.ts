// What the measured catalogue says about a product: daily series counted from its listings across stores, and
// insights built only from those counts (docs/decisions/046-measured-catalogue.md). Orders are not measured:
// nothing here is a sales figure. Every reason is a sentence printed from the figures, and thin evidence says
// so: one store is not a trend.
//
// Series (measuredSeries), one value a UTC day from startDay to endDay:
// - storesSelling: listings present at the end of the day (seen, not yet removed);
// - added / dropped: listings that appeared / were removed that day. A listing found on a store's first read
//   was not "added" that day: it is dated by the store's published_at when that is known, else not counted;
// - priceMin / priceMedian / priceMax: of the present listings' prices at the end of the day, in cents
//   (null when no listing is present); listings in another currency than the product's are converted at a dated
//   reference rate by the caller (shownPrices), and those that cannot be are counted but not priced (decision 089);
// - outOfStock: present listings with no variant in stock; restocked: listings that came back in stock that day;
// - priceChanges: listing price changes that day.
//
// Insights (measuredInsights), as of the series' last day:
// - thin evidence: fewer than SIGNAL_RULES.minStoresForTrend stores selling, or fewer than
//   SIGNAL_RULES.minObservedDays days observed. The stage is then "emerging" with the reason saying why it is
//   no trend yet, and the score is capped at SIGNAL_RULES.thinScoreCap;
// - lifecycle stage from the adoption curve, first rule that holds: declining (more stores dropped it than
//   added it over 7 days, by at least SIGNAL_RULES.minNetMove, or stores selling fell to at most
//   SIGNAL_RULES.declineFromPeak of their peak with no net gain in 7 days); emerging (first seen anywhere less than
//   SIGNAL_RULES.emergingDays ago); rising (net adoption over 7 days of at least SIGNAL_RULES.minNetMove);
//   peak (the rest: steady adoption);
// - saturation 0-100 from stores selling on a log scale (SIGNAL_RULES.saturatedStores = 100): an estimate of
//   crowding, said so;
// - winning score 0-100 from measured parts only: adoption (stores added in 7 days against stores selling),
//   breadth (stores selling, log scale, less what saturation takes away), restocks (a sign of selling) and
//   freshness (days since first seen anywhere); for a product whose stores publish review counts, reviews gained in
//   7 and 30 days (review-signals.ts) take REVIEW_RULES.weight points and the four parts scale to the rest, so a
//   product with no review data is scored exactly as before (decision 094).
// Pure: no I/O, no clock (the caller passes the days).
import { dayNumber, dayString, formatCount, type LifecycleStage } from "~/domain/products/insights";
import { agreeingStage } from "~/domain/products/lifecycle-label";
import { REVIEW_RULES, reviewsPartShare, reviewsReason, type ReviewSummary } from "~/domain/catalogue/review-signals";

export const SIGNAL_RULES = {
  minStoresForTrend: 3,
  minObservedDays: 7,
  thinScoreCap: 40,
  minNetMove: 2,
  declineFromPeak: 0.7,
  emergingDays: 30,
  saturatedStores: 100,
  freshDays: 90,
} as const;

export const SIGNAL_WEIGHTS = { adoption: 40, breadth: 30, restocks: 15, freshness: 15 } as const;
export type SignalComponent = keyof typeof SIGNAL_WEIGHTS;

export interface ListingHistory {
  storeId: number;
  /** When it appeared (ISO): our first sight, or the store's published_at when found on the store's first read. */
  addedAt: string;
  /** Whether addedAt is a real appearance (false: found on the store's first read with no published_at). */
  addedCounts: boolean;
  /** When a complete read stopped listing it (ISO), or null. */
  removedAt: string | null;
  /** Price points in cents, oldest first; the first is the price when it appeared. */
  prices: Array<{ at: string; cents: number }>;
  /**
   * The same points in the product's currency for priceMin / priceMedian / priceMax (converted at a dated reference
   * rate, decision 089); null: its currency is unknown or has no rate, so it is counted but not priced. Absent: `prices`.
   */
  shownPrices?: Array<{ at: string; cents: number }> | null;
  /** Availability points, oldest first (null: the store does not publish it). */
  availability: Array<{ at: string; available: boolean | null }>;
  /** The store's published_at for this listing, if known: the product's "first seen anywhere" uses it. */
  publishedAt: string | null;
}

export interface MeasuredSeries {
  startDay: string;
  endDay: string;
  storesSelling: number[];
  added: number[];
  dropped: number[];
  priceMin: Array<number | null>;
  priceMedian: Array<number | null>;
  priceMax: Array<number | null>;
  outOfStock: number[];
  restocked: number[];
  priceChanges: number[];
}

const DAY_MS = 86_400_000;
const dayOfIso = (iso: string) => Math.floor(Date.parse(iso) / DAY_MS);

/** The value of a step series at the end of `day` (the last point on or before it), or undefined. */
function valueAt<T>(points: Array<{ at: string; value: T }>, day: number): T | undefined {
  let value: T | undefined;
  for (const p of points) {
    if (dayOfIso(p.at) > day) break;
    value = p.value;
  }
  return value;
}

function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

/** Daily series of one product's listings from startDay to endDay (YYYY-MM-DD, inclusive). */
export function measuredSeries(listings: ListingHistory[], startDay: string, endDay: string): MeasuredSeries {
  const first = dayNumber(startDay);
  const last = dayNumber(endDay);
  if (last < first) throw new RangeError(`endDay ${endDay} is before startDay ${startDay}`);
  const days = last - first + 1;
  const zeros = () => new Array<number>(days).fill(0);
  const series: MeasuredSeries = {
    startDay,
    endDay,
    storesSelling: zeros(),
    added: zeros(),
    dropped: zeros(),
    priceMin: new Array(days).fill(null),
    priceMedian: new Array(days).fill(null),
    priceMax: new Array(days).fill(null),
    outOfStock: zeros(),
    restocked: zeros(),
    priceChanges: zeros(),
  };
  const prepared = listings.map((l) => ({
    ...l,
    added: dayOfIso(l.addedAt),
    removed: l.removedAt === null ? null : dayOfIso(l.removedAt),
    priceSteps: (l.shownPrices ?? l.prices).map((p) => ({ at: p.at, value: p.cents })),
    stockSteps: l.availability.map((a) => ({ at: a.at, value: a.available })),
  }));
  for (const l of prepared) {
    if (l.addedCounts && l.added >= first && l.added <= last) series.added[l.added - first]++;
    if (l.removed !== null && l.removed >= first && l.removed <= last) series.dropped[l.removed - first]++;
    for (let i = 1; i < l.prices.length; i++) {
      const d = dayOfIso(l.prices[i].at);
      if (d >= first && d <= last && l.prices[i].cents !== l.prices[i - 1].cents) series.priceChanges[d - first]++;
    }
    for (let i = 1; i < l.availability.length; i++) {
      const d = dayOfIso(l.availability[i].at);
      if (d >= first && d <= last && l.availability[i - 1].available === false && l.availability[i].available === true) series.restocked[d - first]++;
    }
  }
  for (let d = first; d <= last; d++) {
    const i = d - first;
    const prices: number[] = [];
    for (const l of prepared) {
      if (l.added > d || (l.removed !== null && l.removed <= d)) continue;
      series.storesSelling[i]++;
      const price = valueAt(l.priceSteps, d) ?? (l.shownPrices ?? l.prices)[0]?.cents;
      if (price !== undefined && l.shownPrices !== null) prices.push(price);
      if (valueAt(l.stockSteps, d) === false) series.outOfStock[i]++;
    }
    if (prices.length > 0) {
      prices.sort((a, b) => a - b);
      series.priceMin[i] = prices[0];
      series.priceMedian[i] = median(prices);
      series.priceMax[i] = prices[prices.length - 1];
    }
  }
  return series;
}

function sumLast(values: number[], from: number, count: number): number {
  let total = 0;
  for (let i = Math.max(0, from - count + 1); i <= from; i++) total += values[i] ?? 0;
  return total;
}

export interface MeasuredInsights {
  asOf: string;
  observedDays: number;
  storesSelling: number;
  storesAdded7d: number;
  storesAdded30d: number;
  storesDropped7d: number;
  /** Stores selling 7 days before asOf (for "3 -> 9"). */
  storesSelling7dAgo: number;
  peakStoresSelling: number;
  firstSeenAnywhere: string | null;
  thinEvidence: string | null;
  lifecycleStage: LifecycleStage;
  /** Estimated crowding, 0-100. */
  saturation: number;
  winningScore: number;
  /** Points from each part; `reviews` only when the product has review data (decision 094). */
  scoreParts: Record<SignalComponent, number> & { reviews?: number };
  /** 0-100: the adoption part alone, on its own scale (the product's trending score). */
  adoptionScore: number;
  /** The product's reviews summed over its stores; null: no review data. */
  reviews: ReviewSummary | null;
  reasons: string[];
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function saturationOfStores(stores: number): number {
  if (stores <= 0) return 0;
  return Math.min(100, Math.round((100 * Math.log(1 + stores)) / Math.log(1 + SIGNAL_RULES.saturatedStores)));
}

/**
 * Insights of a product from its measured series, as of the series' last day. `observedSince` is the first day
 * any of its stores was read (so "observed for 3 days" is honest even when the series is padded).
 */
export function measuredInsights(series: MeasuredSeries, observedSince: string, firstSeenAnywhere: string | null, reviews: ReviewSummary | null = null): MeasuredInsights {
  const last = series.storesSelling.length - 1;
  const asOfDay = dayNumber(series.endDay);
  const observedDays = Math.max(1, asOfDay - dayNumber(observedSince) + 1);
  const storesSelling = series.storesSelling[last];
  const storesAdded7d = sumLast(series.added, last, 7);
  const storesAdded30d = sumLast(series.added, last, 30);
  const storesDropped7d = sumLast(series.dropped, last, 7);
  const storesSelling7dAgo = last >= 7 ? series.storesSelling[last - 7] : Math.max(0, storesSelling - storesAdded7d + storesDropped7d);
  const peakStoresSelling = Math.max(...series.storesSelling);
  const restocks30d = sumLast(series.restocked, last, 30);
  const firstSeenDay = firstSeenAnywhere ? Math.floor(Date.parse(firstSeenAnywhere) / DAY_MS) : null;
  const ageDays = firstSeenDay === null ? null : Math.max(0, asOfDay - firstSeenDay);
  const net7d = storesAdded7d - storesDropped7d;

  let thinEvidence: string | null = null;
  if (storesSelling < SIGNAL_RULES.minStoresForTrend)
    thinEvidence = `sold by ${plural(storesSelling, "store", "stores")}: too few to call a trend (we need ${SIGNAL_RULES.minStoresForTrend})`;
  else if (observedDays < SIGNAL_RULES.minObservedDays)
    thinEvidence = `observed for ${plural(observedDays, "day", "days")}: too short to call a trend (we need ${SIGNAL_RULES.minObservedDays})`;

  const fellFromPeak = peakStoresSelling > 0 && storesSelling <= SIGNAL_RULES.declineFromPeak * peakStoresSelling;
  let lifecycleStage: LifecycleStage;
  if (thinEvidence) lifecycleStage = "emerging";
  else if (-net7d >= SIGNAL_RULES.minNetMove || (fellFromPeak && net7d <= 0)) lifecycleStage = "declining";
  else if (ageDays !== null && ageDays < SIGNAL_RULES.emergingDays) lifecycleStage = "emerging";
  else if (net7d >= SIGNAL_RULES.minNetMove) lifecycleStage = "rising";
  else lifecycleStage = "peak";
  lifecycleStage = agreeingStage(lifecycleStage, { kind: "stores", storesSelling, storesAdded7d, storesDropped7d });

  const saturation = saturationOfStores(storesSelling);
  const adoption = storesSelling > 0 ? Math.min(1, storesAdded7d / Math.max(3, storesSelling)) : 0;
  const breadth = (saturationOfStores(storesSelling) / 100) * (1 - Math.max(0, saturation - 70) / 100);
  const restocks = Math.min(1, restocks30d / 10);
  const freshness = ageDays === null ? 0.5 : Math.max(0, 1 - ageDays / SIGNAL_RULES.freshDays);
  // With review data, reviews take their weight and the four measured parts share what is left.
  const scale = reviews ? (100 - REVIEW_RULES.weight) / 100 : 1;
  const scoreParts: MeasuredInsights["scoreParts"] = {
    adoption: Math.round(adoption * SIGNAL_WEIGHTS.adoption * scale),
    breadth: Math.round(breadth * SIGNAL_WEIGHTS.breadth * scale),
    restocks: Math.round(restocks * SIGNAL_WEIGHTS.restocks * scale),
    freshness: Math.round(freshness * SIGNAL_WEIGHTS.freshness * scale),
    ...(reviews ? { reviews: Math.round(reviewsPartShare(reviews) * REVIEW_RULES.weight) } : {}),
  };
  let winningScore = scoreParts.adoption + scoreParts.breadth + scoreParts.restocks + scoreParts.freshness + (scoreParts.reviews ?? 0);
  if (thinEvidence) winningScore = Math.min(winningScore, SIGNAL_RULES.thinScoreCap);

  const reasons: string[] = [];
  if (thinEvidence) reasons.push(thinEvidence);
  if (storesAdded7d > 0)
    reasons.push(`added by ${plural(storesAdded7d, "store", "stores")} in 7 days: ${formatCount(storesSelling7dAgo)} -> ${formatCount(storesSelling)}`);
  else reasons.push(`sold by ${plural(storesSelling, "store", "stores")}, none added in 7 days`);
  if (reviews) reasons.push(reviewsReason(reviews));
  if (lifecycleStage === "declining" && !thinEvidence)
    reasons.push(
      fellFromPeak
        ? `declining: sold by ${formatCount(storesSelling)} of its peak ${formatCount(peakStoresSelling)} stores`
        : `declining: dropped by ${plural(storesDropped7d, "store", "stores")} in 7 days, added by ${formatCount(storesAdded7d)}`,
    );
  if (restocks30d > 0) reasons.push(`restocked ${plural(restocks30d, "time", "times")} in 30 days`);
  if (firstSeenAnywhere && ageDays !== null) reasons.push(`first seen anywhere ${firstSeenAnywhere.slice(0, 10)} (${plural(ageDays, "day", "days")} ago)`);

  return {
    asOf: dayString(asOfDay),
    observedDays,
    storesSelling,
    storesAdded7d,
    storesAdded30d,
    storesDropped7d,
    storesSelling7dAgo,
    peakStoresSelling,
    firstSeenAnywhere,
    thinEvidence,
    lifecycleStage,
    saturation,
    winningScore,
    scoreParts,
    adoptionScore: Math.round((Math.round(adoption * SIGNAL_WEIGHTS.adoption) * 100) / SIGNAL_WEIGHTS.adoption),
    reviews,
    reasons: reasons.slice(0, 3),
  };
}
