// A measured product's reviews, summed over its listings (issue 37 item 6, docs/decisions/094): each listing's
// daily review counts (read from its product page's structured data, at most once a day) give
// - the reviews it has now: the sum of each present listing's latest count, read within REVIEW_RULES.staleDays; the
//   figure's day is the newest read among them; no listing with a count is "no review data", never 0;
// - the reviews gained in 7 and 30 days: per listing, its latest count less its count at the start of the window
//   (its last read on or before that day, else its first read inside the window: a listing read for 12 days has
//   gained what it gained in those 12), never below 0 (a store that hides or loses reviews is not negative demand),
//   summed. A window that no listing's reads cover in full is said as the days it does cover ("in 12 days").
// The score's reviews part and the reasons' sentence are here too; signals.ts weaves them into the product's score.
// Pure: no I/O, no clock.
import { dayNumber, dayString, formatCount } from "~/domain/products/insights";

export const REVIEW_RULES = {
  /** A listing's latest count older than this many days is not counted (its store stopped answering). */
  staleDays: 30,
  /** Points of the score a product with review data gets from its reviews gained (the rest scale to 100 - this). */
  weight: 15,
  /** Reviews gained in 30 / 7 days that earn the whole part (log scale below). */
  fullGain30d: 100,
  fullGain7d: 25,
} as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** One listing's reads: the store it is on and its counts by UTC day (YYYY-MM-DD), in any order. */
export interface ListingReviewPoints {
  store: string;
  points: Array<{ day: string; count: number }>;
}

export interface ReviewSummary {
  /** Reviews across the listings that publish a count (their latest counts, summed). */
  value: number;
  /** YYYY-MM-DD: the newest read among them. */
  asOf: string;
  /** Stores whose listings publish a count (within staleDays). */
  stores: number;
  gained7d: number;
  gained30d: number;
  /** Days the 7- and 30-day windows are covered by reads (7 / 30 when some listing was read before the window). */
  days7d: number;
  days30d: number;
}

/** Gain of one listing's sorted points over the `window` days ending `asOf`, and the days its reads cover. */
function gainOver(points: Array<{ day: number; count: number }>, asOf: number, window: number): { gain: number; days: number } {
  const latest = points[points.length - 1];
  const start = asOf - window;
  let base: { day: number; count: number } | undefined;
  for (const p of points) {
    if (p.day <= start) base = p;
    else break;
  }
  const covered = base !== undefined;
  base ??= points.find((p) => p.day > start);
  if (!base) return { gain: 0, days: 0 };
  return { gain: Math.max(0, latest.count - base.count), days: covered ? window : latest.day - base.day };
}

/** The product's reviews as of `asOfDay` (YYYY-MM-DD) from its present listings' reads; null: no review data. */
export function reviewSummary(listings: ListingReviewPoints[], asOfDay: string): ReviewSummary | null {
  const asOf = dayNumber(asOfDay);
  let value = 0;
  let newest = -Infinity;
  let gained7d = 0;
  let gained30d = 0;
  let days7d = 0;
  let days30d = 0;
  const stores = new Set<string>();
  for (const listing of listings) {
    const points = listing.points
      .filter((p) => DAY.test(p.day) && isCount(p.count))
      .map((p) => ({ day: dayNumber(p.day), count: p.count }))
      .filter((p) => p.day <= asOf)
      .sort((a, b) => a.day - b.day);
    const latest = points[points.length - 1];
    if (!latest || latest.day < asOf - REVIEW_RULES.staleDays) continue;
    value += latest.count;
    newest = Math.max(newest, latest.day);
    stores.add(listing.store);
    const week = gainOver(points, asOf, 7);
    const month = gainOver(points, asOf, 30);
    gained7d += week.gain;
    gained30d += month.gain;
    days7d = Math.max(days7d, week.days);
    days30d = Math.max(days30d, month.days);
  }
  if (stores.size === 0) return null;
  return { value, asOf: dayString(newest), stores: stores.size, gained7d, gained30d, days7d, days30d };
}

/** 0..1: reviews gained in 30 and 7 days, each on a log scale up to its full gain, half each. */
export function reviewsPartShare(r: ReviewSummary): number {
  const scale = (gain: number, full: number) => Math.min(1, Math.log1p(gain) / Math.log1p(full));
  return 0.5 * scale(r.gained30d, REVIEW_RULES.fullGain30d) + 0.5 * scale(r.gained7d, REVIEW_RULES.fullGain7d);
}

const stores = (n: number) => `${formatCount(n)} ${n === 1 ? "store" : "stores"}`;

/** "+38 reviews in 30 days across 3 stores", "no new reviews in 30 days (1,234 across 2 stores)". */
export function reviewsReason(r: ReviewSummary): string {
  const window = r.days30d >= 30 ? "30 days" : r.days30d <= 0 ? "since we started reading them" : `${formatCount(r.days30d)} ${r.days30d === 1 ? "day" : "days"}`;
  const inWindow = window.startsWith("since") ? window : `in ${window}`;
  if (r.gained30d > 0) return `+${formatCount(r.gained30d)} ${r.gained30d === 1 ? "review" : "reviews"} ${inWindow} across ${stores(r.stores)}`;
  return `no new reviews ${inWindow} (${formatCount(r.value)} across ${stores(r.stores)})`;
}

/** What a product page says where it has no review data. */
export const NO_REVIEW_DATA = "No review data: none of its stores publishes a review count on its product page";

/** A stored summary (inside ProductSignals.series), checked; null when absent or not one. */
export function parseReviewSummary(v: unknown): ReviewSummary | null {
  if (typeof v !== "object" || v === null) return null;
  const r = v as Record<string, unknown>;
  if (typeof r.asOf !== "string" || !DAY.test(r.asOf)) return null;
  if (!(["value", "stores", "gained7d", "gained30d", "days7d", "days30d"] as const).every((k) => isCount(r[k]))) return null;
  return { value: r.value as number, asOf: r.asOf, stores: r.stores as number, gained7d: r.gained7d as number, gained30d: r.gained30d as number, days7d: r.days7d as number, days30d: r.days30d as number };
}
