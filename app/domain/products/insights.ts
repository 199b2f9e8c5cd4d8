// Product insights, honest by construction: every figure is computed from the product's own daily
// series and prices by the rules below, and every reason is a sentence built from those figures.
// Nothing here is a prediction we cannot show: the estimates (winning score, lifecycle stage,
// saturation, trending score) say how they are computed in INSIGHT_NOTES, which the UI shows.
// Pure: no I/O, no clock (the caller passes `now`). Rules are documented in docs/decisions/011.
import { agreeingStage, LABEL_RULES } from "./lifecycle-label";

export const LIFECYCLE_STAGES = ["emerging", "rising", "peak", "declining"] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** The per-day series of a product, in this order everywhere (import format, packed history). */
export const SERIES_KEYS = ["orders", "revenueCents", "views", "likes", "comments", "shares", "storesSelling"] as const;
export type SeriesKey = (typeof SERIES_KEYS)[number];

/** A product's daily metrics, oldest day first: one non-negative integer per day in every series. */
export type DailySeries = { startDay: string } & Record<SeriesKey, number[]>;

export interface InsightsInput {
  priceCents: number;
  /** Supplier cost; null when unknown (docs/decisions/026): no margin, and the score is built without it. */
  costCents: number | null;
  shippingCents: number;
  amazonPriceCents?: number | null;
  /**
   * Daily metrics; null when we have no sales data for the product (one added from a tracked store,
   * docs/decisions/026): no orders, growth, stage, saturation or score are claimed for it.
   */
  history: DailySeries | null;
  /** When the insights are computed; days of history after this day are ignored. */
  now: Date;
  /** Optional: when the product was first seen, if older than its history says. */
  firstSeenAt?: Date | null;
}

export type ScoreComponent = "growth" | "margin" | "demand" | "engagement" | "lowSaturation";

export interface Insights {
  /** False when the product has no sales data (history null): the counts below are then 0 placeholders, never shown. */
  salesData: boolean;
  /** Last day of history the figures use (YYYY-MM-DD), null when no day is at or before `now`. */
  dataAsOf: string | null;
  /** Whole days between dataAsOf and `now` (0 = today's data). */
  staleDays: number | null;
  /** Sums over the last 30 days of history. */
  orders: number;
  revenueCents: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  /** Stores selling it on the last day of history. */
  storesSelling: number;
  orders7d: number;
  ordersPrev7d: number;
  /**
   * Percent change of orders7d against the 7 days before; null when those had fewer than
   * GROWTH_PERCENT_MIN_BASE orders (the change is then shown as counts: growthShown).
   */
  ordersGrowth7d: number | null;
  /** Best 7 consecutive days of orders in the last 90 days. */
  peakOrders7d: number;
  /** Gross margin (price - cost - shipping) / price, in basis points; negative when sold at a loss; null when the cost is unknown. */
  marginBps: number | null;
  /** Amazon price minus our price, in cents (null when there is no Amazon price). */
  amazonPriceGapCents: number | null;
  /** Null without sales data. */
  lifecycleStage: LifecycleStage | null;
  saturation: number;
  trendingScore: number;
  /** Null without sales data: nothing measured to score. */
  winningScore: number | null;
  /**
   * Points each measured component added to the winning score (they sum to it before rounding). A
   * component we have no figure for is absent (margin without a cost): the others are scaled to 100.
   */
  scoreParts: Partial<Record<ScoreComponent, number>>;
  /**
   * Three short sentences, biggest contributors first, each built from the figures above; none
   * without sales data. Never one about a figure we do not have.
   */
  reasons: string[];
}

// ---- Documented constants (the UI and docs/decisions/011 and 025 quote them) ----------------------

/**
 * The smallest week-before base a 7-day change is shown as a percentage on: below it the page shows
 * the counts ("2 → 14 orders"), the score measures growth against this many orders, and the stage
 * rule measures a week's rise or fall against it (docs/decisions/025).
 */
export const GROWTH_PERCENT_MIN_BASE = 20;

/** Winning-score weights in points; they add up to 100. */
export const WINNING_WEIGHTS: Record<ScoreComponent, number> = {
  growth: 30,
  margin: 25,
  demand: 20,
  engagement: 15,
  lowSaturation: 10,
};

export const INSIGHT_RULES = {
  /** Growth in the score is measured against at least this many orders the week before. */
  growthFloorOrders: GROWTH_PERCENT_MIN_BASE,
  /** Growth component: 0 at -20% or worse, full at +100% or more. */
  growthZeroPct: -20,
  growthFullPct: 100,
  /** Margin component: 0 at 10% or less, full at 60% or more. */
  marginZeroBps: 1000,
  marginFullBps: 6000,
  /** Demand component: log scale of 30-day orders, full at 3,000. */
  demandFullOrders30: 3000,
  /** Engagement component: 70% views (log scale, full at 10M in 30 days), 30% interaction rate. */
  engagementFullViews30: 10_000_000,
  engagementFullRate: 0.06,
  /** Saturation: a store needs this many orders in 30 days to be worth running. */
  ordersPerStore30: 10,
  /** Reasons say "sold by only N stores" at or below this saturation. */
  onlyStoresMaxSaturation: 30,
  /** Lifecycle thresholds (docs/decisions/025): the shown 7-day change and the best week of 90 days. */
  youngDays: 30,
  smallOrders7d: 70,
  /** A week "rose" at +20% shown (below the base: +2 orders and beyond noise); see weekMove. */
  weekRiseMin: 0.2,
  /** A week "fell" at -25% shown (below the base: 3 fewer orders and beyond noise). */
  weekFallMin: 0.25,
  declineFromPeakRatio: 0.6,
  windowDays: 90,
} as const;

/** Plain-words explanations of every derived figure; `estimate: true` ones must be labelled so. */
export const INSIGHT_NOTES = {
  winningScore: {
    label: "Winning score",
    estimate: true,
    how:
      "An estimate from 0 to 100 that adds up five parts: order growth over the last 7 days (30 points; none " +
      "without orders this week), " +
      "gross margin (25), orders in the last 30 days (20), views and interactions in the last 30 days (15) " +
      "and how few stores sell it for its demand (10). Without a known product cost the margin part is left " +
      "out and the other four are scaled to 100; without sales data there is no score. Growth is measured against at least 20 orders, so a " +
      "couple of orders do not look like a boom. The three reasons name the biggest parts; for a declining " +
      "product one reason is always its fall from peak.",
  },
  lifecycleStage: {
    label: "Lifecycle stage",
    estimate: true,
    how:
      "An estimate read from the 7-day orders shown here and the best 7 days of the last 90. Emerging: first " +
      "order less than 30 days ago, under 70 orders in the last 7 days and no fewer than the 7 before (or no " +
      "orders yet). Rising: the 7-day growth shown is +20% or more. Declining: it is -25% or less, or it is " +
      "steady but the last 7 days are at least 40% below the best 7 days. Peak: steady and within 40% of its " +
      "best week. Under 20 orders the week before, growth is shown as counts and a rise needs 4 more orders (a " +
      "fall 5 fewer) beyond day-to-day noise (twice the square root of the earlier count) and at least 10 orders " +
      "this week, so 0 → 3 orders is steady. A label never disagrees with the card: an emerging product is sold " +
      "by at most 19 stores, and a declining one never shows orders going up.",
  },
  saturation: {
    label: "Saturation",
    estimate: true,
    how:
      "An estimate from 0 to 100 comparing the stores selling it with the number of stores its last 30 days " +
      "of orders could keep busy at 10 orders a month each. 50 means as many stores as the demand supports; " +
      "near 100, many more stores than orders; 0, nobody sells it yet.",
  },
  trendingScore: {
    label: "Trending score",
    estimate: true,
    how:
      "Orders gained in the last 7 days over the 7 before, plus half of that week's gain over the week before " +
      "it: how fast demand is growing, in orders per week. Negative when orders are falling.",
  },
  ordersGrowth7d: {
    label: "Orders growth (7 days)",
    estimate: false,
    how:
      "Orders in the last 7 days against the 7 days before, in percent when those had at least 20 orders; " +
      "below that, the two counts (\"2 → 14 orders\"), since a percentage of a few orders says little.",
  },
  marginBps: {
    label: "Gross margin",
    estimate: false,
    how:
      "(Selling price - product cost - shipping) / selling price. Fees and ads are in the profit calculator. " +
      "Without a known product cost there is no margin: add your cost in the profit calculator.",
  },
  reasons: {
    label: "Reasons",
    estimate: false,
    how:
      "Sentences built from the figures shown: counts are shortened by rounding down (never overstated) and " +
      "percentages are rounded to the nearest whole percent.",
  },
  totals: {
    label: "30-day figures",
    estimate: false,
    how: "Orders, revenue, views, likes, comments and shares are sums of the last 30 days of daily data.",
  },
} as const;

// ---- Small exact helpers --------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

// A million products share a handful of days: remember the conversions (bounded, pure).
const dayNumbers = new Map<string, number>();
const dayStrings = new Map<number, string>();

/** Days since 1970-01-01 of a "YYYY-MM-DD" day; throws on a malformed or impossible date. */
export function dayNumber(day: string): number {
  const known = dayNumbers.get(day);
  if (known !== undefined) return known;
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const n = ms / DAY_MS;
  if (dayString(n) !== day) throw new RangeError(`not a calendar day: ${day}`);
  if (dayNumbers.size > 10_000) dayNumbers.clear();
  dayNumbers.set(day, n);
  return n;
}

export function dayString(dayNum: number): string {
  let text = dayStrings.get(dayNum);
  if (text === undefined) {
    text = new Date(dayNum * DAY_MS).toISOString().slice(0, 10);
    if (dayStrings.size > 10_000) dayStrings.clear();
    dayStrings.set(dayNum, text);
  }
  return text;
}

/** Whole UTC days since 1970-01-01 of an instant. */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

/** Rounds half away from zero, so -2.5 and 2.5 round alike in size. */
export function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Short counts, rounded down so a claim is never overstated: 999 -> "999", 1299 -> "1.2K",
 * 45_999 -> "45K", 1_290_000 -> "1.2M", 2_500_000_000 -> "2.5B".
 */
export function formatCompact(n: number): string {
  if (n < 0) return `-${formatCompact(-n)}`;
  const units: [number, string][] = [
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) {
      const value = n / size;
      // One decimal below 10 (1.2M), whole numbers above (45K), both rounded down.
      const text = value < 10 ? (Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, "") : String(Math.floor(value));
      return text + suffix;
    }
  }
  return String(Math.floor(n));
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function percentText(bps: number): string {
  return `${roundHalfAway(bps / 100)}%`;
}

function assertCents(name: string, value: number, { positive = false } = {}) {
  if (!Number.isSafeInteger(value) || value < 0 || (positive && value === 0)) {
    throw new RangeError(`${name} must be a ${positive ? "positive" : "non-negative"} whole number of cents, got ${value}`);
  }
}

/** Gross margin in basis points, rounded half away from zero. */
export function marginBpsOf(priceCents: number, costCents: number, shippingCents: number): number {
  assertCents("priceCents", priceCents, { positive: true });
  assertCents("costCents", costCents);
  assertCents("shippingCents", shippingCents);
  return roundHalfAway(((priceCents - costCents - shippingCents) * 10_000) / priceCents);
}

/** Throws unless every series has the same length >= 1 and holds non-negative safe integers. */
export function assertSeries(history: DailySeries): number {
  dayNumber(history.startDay);
  const length = history.orders?.length ?? 0;
  if (length < 1) throw new RangeError("history must have at least one day");
  for (const key of SERIES_KEYS) {
    const values = history[key];
    if (!Array.isArray(values) || values.length !== length) {
      throw new RangeError(`history.${key} must have ${length} days like history.orders`);
    }
    for (let i = 0; i < length; i++) {
      const v = values[i];
      if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`history.${key}[${i}] must be a whole number >= 0`);
    }
  }
  return length;
}

function sumRange(values: number[], from: number, to: number): number {
  // Inclusive range, clipped to the series; days outside it count as zero.
  let total = 0;
  for (let i = Math.max(0, from); i <= to && i < values.length; i++) total += values[i];
  return total;
}

// ---- Lifecycle -------------------------------------------------------------------------------------

export interface StageEvidence {
  /** The 7-day figures the page shows (orders and the week before). */
  orders7d: number;
  ordersPrev7d: number;
  peakOrders7d: number;
  totalOrders: number;
  /** Days since the first order (inclusive of both days), null when none. */
  ageDays: number | null;
  /** Stores selling it on the last day (the card shows it); an emerging product has few (lifecycle-label.ts). */
  storesSelling?: number;
}

/**
 * A change in orders that daily noise alone rarely makes: for counts that behave like Poisson counts
 * the usual spread is the square root of the count, so a change must exceed twice that.
 */
export function isRealChange(from: number, to: number): boolean {
  return Math.abs(to - from) > 2 * Math.sqrt(Math.max(from, 1));
}

export type WeekMove = "rise" | "fall" | "steady";

/**
 * What the shown 7-day change says, read from exactly what the page shows. On a base of at least
 * GROWTH_PERCENT_MIN_BASE orders the page shows a percentage: +20% or more is a rise, -25% or less a fall.
 * Below it the page shows counts: a rise needs 20% of GROWTH_PERCENT_MIN_BASE more orders (a fall 25%
 * fewer) and a change beyond day-to-day noise, so 1 -> 3 orders is steady. The stage and the growth
 * reason read a week's change through this one function (docs/decisions/025).
 */
export function weekMove(ordersPrev7d: number, orders7d: number): WeekMove {
  const r = INSIGHT_RULES;
  const pct = growthPercentOf(ordersPrev7d, orders7d);
  if (pct !== null) return pct >= 100 * r.weekRiseMin ? "rise" : pct <= -100 * r.weekFallMin ? "fall" : "steady";
  const change = orders7d - ordersPrev7d;
  if (!isRealChange(ordersPrev7d, orders7d)) return "steady";
  if (change >= r.weekRiseMin * GROWTH_PERCENT_MIN_BASE && orders7d >= LABEL_RULES.risingMinOrders7d) return "rise";
  if (change <= -r.weekFallMin * GROWTH_PERCENT_MIN_BASE) return "fall";
  return "steady";
}

/**
 * The lifecycle rules of INSIGHT_NOTES.lifecycleStage, in their order. The week's direction comes from
 * the same two 7-day counts the page shows, so a badge never contradicts the growth beside it:
 * rising shows a rise, peak a steady week, emerging no drop, declining no rise (docs/decisions/025).
 */
export function lifecycleStageOf(e: StageEvidence): LifecycleStage {
  const r = INSIGHT_RULES;
  const move = weekMove(e.ordersPrev7d, e.orders7d);
  const stores = e.storesSelling ?? 0;
  const card = { kind: "orders", ordersPrev7d: e.ordersPrev7d, orders7d: e.orders7d, storesSelling: stores, move } as const;
  const fewStores = stores <= LABEL_RULES.emergingMaxStores;
  if (e.totalOrders === 0) {
    // Nothing sold in the window: unproven, unless we know it has been around longer than that (or
    // many stores list it and nobody buys).
    return e.ageDays !== null && e.ageDays > r.windowDays ? "declining" : fewStores ? "emerging" : "declining";
  }
  const young = e.ageDays !== null && e.ageDays <= r.youngDays;
  let stage: LifecycleStage;
  if (young && fewStores && e.orders7d < r.smallOrders7d && e.orders7d >= e.ordersPrev7d) stage = "emerging";
  else if (move === "rise") stage = "rising";
  else if (move === "fall") stage = "declining";
  else {
    // A steady week far below the best one is a decline, unless the shown week went up.
    const farBelowPeak = e.orders7d <= r.declineFromPeakRatio * e.peakOrders7d && isRealChange(e.peakOrders7d, e.orders7d);
    stage = farBelowPeak && e.orders7d <= e.ordersPrev7d ? "declining" : "peak";
  }
  return agreeingStage(stage, card);
}

/** The 7-day growth percentage the page may show: null below GROWTH_PERCENT_MIN_BASE orders the week before. */
export function growthPercentOf(ordersPrev7d: number, orders7d: number): number | null {
  return ordersPrev7d >= GROWTH_PERCENT_MIN_BASE ? roundHalfAway(((orders7d - ordersPrev7d) * 100) / ordersPrev7d) : null;
}

/**
 * The 7-day growth as the grid and the product page show it: "+127%" on a base of at least
 * GROWTH_PERCENT_MIN_BASE orders, otherwise the counts ("2 → 14 orders"). `ordersGrowth7d` is the stored
 * percentage (growthPercentOf), passed so a row read from the database shows exactly what it stores.
 */
export function growthShown(ordersPrev7d: number, orders7d: number, ordersGrowth7d: number | null): string {
  // -1: a row stored by rules older than docs/decisions/025 and not recomputed yet: the base is unknown.
  if (ordersPrev7d < 0) return "—";
  if (ordersGrowth7d === null || ordersPrev7d < GROWTH_PERCENT_MIN_BASE) {
    return `${formatCount(ordersPrev7d)} → ${formatCount(orders7d)} ${orders7d === 1 ? "order" : "orders"}`;
  }
  return `${ordersGrowth7d > 0 ? "+" : ""}${formatCount(ordersGrowth7d)}%`;
}

// ---- Saturation, trending, score -------------------------------------------------------------------

/** 0-100: stores selling it against the stores its 30-day orders could keep busy (INSIGHT_NOTES). */
export function saturationOf(storesSelling: number, orders30: number): number {
  if (storesSelling <= 0) return 0;
  const supported = orders30 / INSIGHT_RULES.ordersPerStore30;
  return Math.round((100 * storesSelling) / (storesSelling + supported));
}

/** Orders gained this week over last week plus half of last week's gain (orders per week). */
export function trendingScoreOf(week0: number, week1: number, week2: number): number {
  return roundHalfAway(week0 - week1 + 0.5 * (week1 - week2));
}

export interface ScoreInput {
  orders7d: number;
  ordersPrev7d: number;
  /** Null when the cost is unknown: the margin component is then null (not 0, not full). */
  marginBps: number | null;
  orders30: number;
  views30: number;
  interactions30: number;
  saturation: number;
}

/** Each component from 0 to 1 (see INSIGHT_RULES); null for one we have no figure for. */
export function scoreComponents(s: ScoreInput): Record<ScoreComponent, number | null> {
  const r = INSIGHT_RULES;
  // No orders this week earns no growth points, whatever the week before was.
  const growthPct = ((s.orders7d - s.ordersPrev7d) * 100) / Math.max(s.ordersPrev7d, r.growthFloorOrders);
  const rate = s.views30 > 0 ? s.interactions30 / s.views30 : 0;
  return {
    growth: s.orders7d === 0 ? 0 : clamp01((growthPct - r.growthZeroPct) / (r.growthFullPct - r.growthZeroPct)),
    margin: s.marginBps === null ? null : clamp01((s.marginBps - r.marginZeroBps) / (r.marginFullBps - r.marginZeroBps)),
    demand: clamp01(Math.log10(1 + s.orders30) / Math.log10(1 + r.demandFullOrders30)),
    engagement:
      0.7 * clamp01(Math.log10(1 + s.views30) / Math.log10(r.engagementFullViews30)) +
      0.3 * clamp01(rate / r.engagementFullRate),
    lowSaturation: clamp01(1 - s.saturation / 100),
  };
}

// ---- Reasons ---------------------------------------------------------------------------------------

interface ReasonFacts {
  orders7d: number;
  ordersPrev7d: number;
  ordersGrowth7d: number | null;
  marginBps: number | null;
  orders30: number;
  views30: number;
  storesSelling: number;
  saturation: number;
}

export function reasonFor(component: ScoreComponent, f: ReasonFacts): string {
  switch (component) {
    case "growth":
      if (f.ordersPrev7d === 0) {
        return f.orders7d > 0
          ? `${plural(f.orders7d, "order", "orders")} in 7 days, none the week before`
          : "no orders in the last 14 days";
      }
      // Small bases make big percentages (1 -> 7 is +600%): below the threshold, the counts only.
      if (f.ordersGrowth7d === null) return `${growthShown(f.ordersPrev7d, f.orders7d, null)} in 7 days`;
      if (f.ordersGrowth7d === 0) return `orders flat week on week (${formatCount(f.orders7d)} in 7 days)`;
      return `orders ${f.ordersGrowth7d > 0 ? "+" : ""}${f.ordersGrowth7d}% in 7 days`;
    case "margin":
      // computeInsights never ranks the margin without a cost; a direct caller gets words, not a number.
      return f.marginBps === null ? "margin unknown: no product cost" : `margin ${percentText(f.marginBps)}`;
    case "demand":
      return f.orders30 > 0 ? `${plural(f.orders30, "order", "orders")} in 30 days` : "no orders in 30 days";
    case "engagement":
      return f.views30 > 0 ? `${formatCompact(f.views30)} ${f.views30 === 1 ? "view" : "views"} in 30 days` : "no views in 30 days";
    case "lowSaturation":
      if (f.storesSelling === 0) return "no store sells it yet";
      return f.saturation <= INSIGHT_RULES.onlyStoresMaxSaturation
        ? `sold by only ${plural(f.storesSelling, "store", "stores")}`
        : `sold by ${plural(f.storesSelling, "store", "stores")}`;
  }
}

/** The decline reason: the fall from the best week, or that nothing sold in the window. */
export function declineReason(orders7d: number, peakOrders7d: number): string {
  if (peakOrders7d === 0) return "declining: no orders in 90 days";
  const fall = roundHalfAway(((peakOrders7d - orders7d) * 100) / peakOrders7d);
  return `declining: orders -${fall}% from peak`;
}

const COMPONENT_ORDER: ScoreComponent[] = ["growth", "margin", "demand", "engagement", "lowSaturation"];

// ---- The whole picture -----------------------------------------------------------------------------

/** Margin in basis points, or null when the cost is unknown (prices are still checked). */
function knownMarginBps(priceCents: number, costCents: number | null, shippingCents: number): number | null {
  if (costCents !== null) return marginBpsOf(priceCents, costCents, shippingCents);
  assertCents("priceCents", priceCents, { positive: true });
  assertCents("shippingCents", shippingCents);
  return null;
}

/**
 * A product without sales data (docs/decisions/026): its prices and margin, and nothing else. The
 * counts are 0 placeholders for NOT NULL columns; `salesData: false` tells every reader not to show them.
 */
function insightsWithoutSales(marginBps: number | null, input: InsightsInput): Insights {
  return {
    salesData: false,
    dataAsOf: null,
    staleDays: null,
    orders: 0,
    revenueCents: 0,
    views: 0,
    likes: 0,
    comments: 0,
    shares: 0,
    storesSelling: 0,
    orders7d: 0,
    ordersPrev7d: 0,
    ordersGrowth7d: null,
    peakOrders7d: 0,
    marginBps,
    amazonPriceGapCents: input.amazonPriceCents != null ? input.amazonPriceCents - input.priceCents : null,
    lifecycleStage: null,
    saturation: 0,
    trendingScore: 0,
    winningScore: null,
    scoreParts: {},
    reasons: [],
  };
}

export function computeInsights(input: InsightsInput): Insights {
  const { history, now } = input;
  const marginBps = knownMarginBps(input.priceCents, input.costCents, input.shippingCents);
  if (input.amazonPriceCents != null) assertCents("amazonPriceCents", input.amazonPriceCents);
  if (history === null) return insightsWithoutSales(marginBps, input);
  const length = assertSeries(history);

  // The last day used: the series' last day, or today when the series runs past `now`.
  const start = dayNumber(history.startDay);
  const today = dayOf(now);
  const last = Math.min(length - 1, today - start);
  const hasData = last >= 0;

  const sum = (key: SeriesKey, days: number, endOffset = 0) =>
    hasData ? sumRange(history[key], last - endOffset - days + 1, last - endOffset) : 0;

  const orders30 = sum("orders", 30);
  const week0 = sum("orders", 7);
  const week1 = sum("orders", 7, 7);
  const week2 = sum("orders", 7, 14);
  const views30 = sum("views", 30);
  const likes30 = sum("likes", 30);
  const comments30 = sum("comments", 30);
  const shares30 = sum("shares", 30);
  const storesSelling = hasData ? history.storesSelling[last] : 0;

  // The 90-day window: best week (rolling 7 days) and total orders.
  const windowStart = Math.max(0, last - INSIGHT_RULES.windowDays + 1);
  let peak = 0;
  let rolling = 0;
  let totalOrders = 0;
  for (let i = windowStart; i <= last; i++) {
    const v = history.orders[i];
    rolling += v;
    if (i - 7 >= windowStart) rolling -= history.orders[i - 7];
    if (rolling > peak) peak = rolling;
    totalOrders += v;
  }
  // Age from the first order in the series (it may be older when the series starts with orders),
  // or from firstSeenAt when that says it is older.
  let ageDays: number | null = null;
  if (hasData) {
    let firstActive = -1;
    for (let i = 0; i <= last; i++) {
      if (history.orders[i] > 0) {
        firstActive = i;
        break;
      }
    }
    if (firstActive >= 0) ageDays = last - firstActive + 1;
    if (input.firstSeenAt) {
      const seenAge = start + last - dayOf(input.firstSeenAt) + 1;
      ageDays = Math.max(ageDays ?? 0, seenAge);
    }
  }

  const lifecycleStage = lifecycleStageOf({ orders7d: week0, ordersPrev7d: week1, peakOrders7d: peak, totalOrders, ageDays, storesSelling });

  const ordersGrowth7d = growthPercentOf(week1, week0);
  const saturation = saturationOf(storesSelling, orders30);
  const components = scoreComponents({
    orders7d: week0,
    ordersPrev7d: week1,
    marginBps,
    orders30,
    views30,
    interactions30: likes30 + comments30 + shares30,
    saturation,
  });
  // A component we have no figure for (the margin without a cost) takes no part: the measured ones
  // are scaled to 100, so the product is neither rewarded nor punished for what we do not know.
  const measured = COMPONENT_ORDER.filter((c) => components[c] !== null);
  const weight = measured.reduce((sum, c) => sum + WINNING_WEIGHTS[c], 0);
  const scale = 100 / weight; // exactly 1 when every component is measured
  const scoreParts: Partial<Record<ScoreComponent, number>> = {};
  let total = 0;
  for (const c of measured) {
    const points = WINNING_WEIGHTS[c] * components[c]! * scale;
    scoreParts[c] = points;
    total += points;
  }
  const winningScore = Math.max(0, Math.min(100, Math.round(total)));

  const facts: ReasonFacts = {
    orders7d: week0,
    ordersPrev7d: week1,
    ordersGrowth7d,
    marginBps,
    orders30,
    views30,
    storesSelling,
    saturation,
  };
  // Biggest contributors first; ties keep the documented component order.
  const ranked = [...measured].sort((a, b) => scoreParts[b]! - scoreParts[a]!);
  const reasons = ranked.slice(0, 3).map((c) => reasonFor(c, facts));
  if (lifecycleStage === "declining") reasons[2] = declineReason(week0, peak);

  return {
    salesData: true,
    dataAsOf: hasData ? dayString(start + last) : null,
    staleDays: hasData ? today - (start + last) : null,
    orders: orders30,
    revenueCents: sum("revenueCents", 30),
    views: views30,
    likes: likes30,
    comments: comments30,
    shares: shares30,
    storesSelling,
    orders7d: week0,
    ordersPrev7d: week1,
    ordersGrowth7d,
    peakOrders7d: peak,
    marginBps,
    amazonPriceGapCents: input.amazonPriceCents != null ? input.amazonPriceCents - input.priceCents : null,
    lifecycleStage,
    saturation,
    trendingScore: trendingScoreOf(week0, week1, week2),
    winningScore,
    scoreParts,
    reasons,
  };
}

// ---- Products without sales data ------------------------------------------------------------------

const NOTE_DAY = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });

/**
 * What a product added from a tracked store shows instead of orders, growth, stage and score
 * (docs/decisions/026): "No sales data: imported from a tracked store on Nov 23, 2026 (store.com)".
 */
export function noSalesDataNote(addedAt: Date, store: string | null): string {
  return `No sales data: imported from a tracked store on ${NOTE_DAY.format(addedAt)}${store ? ` (${store})` : ""}`;
}

// ---- Profit calculator -----------------------------------------------------------------------------

export interface ProfitInput {
  priceCents: number;
  costCents: number;
  shippingCents: number;
  /** Payment and platform fees, in basis points of the price (290 = 2.9%). */
  feesBps: number;
  /** Fixed fee per order (e.g. 30 cents). */
  feeFixedCents: number;
  adCostPerPurchaseCents: number;
}

export interface ProfitResult {
  /** round(price x feesBps / 10000) + fixed fee. */
  feesCents: number;
  /** price - cost - shipping. */
  grossProfitCents: number;
  grossMarginBps: number;
  /** price - cost - shipping - fees: what one order leaves before ads; the most an ad may cost. */
  profitBeforeAdsCents: number;
  /** profitBeforeAds - ad cost per purchase. */
  profitPerOrderCents: number;
  /** Net margin after fees and ads, in basis points of the price. */
  marginBps: number;
  /** price / profitBeforeAds, rounded up to 2 decimals; null when an order loses money before ads. */
  breakEvenRoas: number | null;
  /** The ROAS that the given ad cost per purchase amounts to (price / ad cost), rounded down to 2 decimals; null without ad cost. */
  roasAtAdCost: number | null;
  /** Whether the given ad cost still leaves a profit. */
  profitable: boolean;
}

export const PROFIT_NOTES = {
  rounding:
    "All amounts are whole cents. Fees are rounded to the nearest cent (half up); margins to the nearest basis " +
    "point; the break-even ROAS is rounded up and the ROAS of your ad cost rounded down, so neither looks better than it is.",
} as const;

export function profit(input: ProfitInput): ProfitResult {
  const { priceCents, costCents, shippingCents, feesBps, feeFixedCents, adCostPerPurchaseCents } = input;
  assertCents("priceCents", priceCents, { positive: true });
  assertCents("costCents", costCents);
  assertCents("shippingCents", shippingCents);
  assertCents("feeFixedCents", feeFixedCents);
  assertCents("adCostPerPurchaseCents", adCostPerPurchaseCents);
  if (!Number.isInteger(feesBps) || feesBps < 0 || feesBps > 10_000) {
    throw new RangeError(`feesBps must be a whole number from 0 to 10000, got ${feesBps}`);
  }
  const feesCents = Math.round((priceCents * feesBps) / 10_000) + feeFixedCents;
  const grossProfitCents = priceCents - costCents - shippingCents;
  const profitBeforeAdsCents = grossProfitCents - feesCents;
  const profitPerOrderCents = profitBeforeAdsCents - adCostPerPurchaseCents;
  return {
    feesCents,
    grossProfitCents,
    grossMarginBps: roundHalfAway((grossProfitCents * 10_000) / priceCents),
    profitBeforeAdsCents,
    profitPerOrderCents,
    marginBps: roundHalfAway((profitPerOrderCents * 10_000) / priceCents),
    breakEvenRoas: profitBeforeAdsCents > 0 ? Math.ceil((priceCents * 100) / profitBeforeAdsCents) / 100 : null,
    roasAtAdCost: adCostPerPurchaseCents > 0 ? Math.floor((priceCents * 100) / adCostPerPurchaseCents) / 100 : null,
    profitable: profitPerOrderCents > 0,
  };
}
