// What we derive from a rival store's catalogue snapshots (app/domain/crawl/store-snapshot.ts), and nothing more.
// Peers sell one "sales" number and hide the method; we show what we saw, when, and an estimate only as a
// range with its evidence. We never probe carts or checkouts: everything here comes from the public catalogue.
// Pure: no I/O, no clock. Decision: docs/decisions/023-competitor-estimates.md.
//
// Changes (diffSnapshots, measured). Two consecutive snapshots give launches, removals, price and compare-at
// changes per variant, sell-outs (available true -> false), restocks (false -> true) and variants added or
// removed, each with the product and the window prev.takenAt..next.takenAt it happened in.
// - A product appears twice in a read when the catalogue moved while it was paged: the first copy counts.
// - A truncated read (a cap stopped it) yields no removals: a product it did not reach is not gone. A product
//   missing from a truncated earlier read is a launch only when its published_at/created_at falls in the
//   window; otherwise it may simply have been past the cap.
// - A launch is dated by published_at, else created_at, when that falls in the window; otherwise it is
//   "first seen" in the later read (an old product made visible again, or a date the store does not publish).
// - A product with no variants in either read (the store did not publish them) gives no variant changes.
// - Unknown availability (null) is never a flip: null -> false is not a sell-out, null -> true not a restock.
// - A compare-at of 0 or less is treated as none (stores publish "0.00" for "no compare-at price").
//
// The weekly orders estimate (estimateWeeklyOrders, estimated). Shopify publishes whether a variant is in stock,
// not how many units it holds, so a sell-out says "this variant's stock reached 0", never how much stock that
// was. The model, every number of it in ESTIMATE_RULES:
// - Over D observed days (first read to last) we count S sell-outs and R restocks.
// - low  = floor(S x 1 x 7 / D): each sell-out stands for at least one order (assumed: it could be a variant
//   hidden by hand, or one order emptying two variants; R >= 1 makes real selling likelier).
// - high = ceil(U(S) x 20 x 7 / D), U(S) = S + 2 x sqrt(S + 1) + 2 a generous 95% upper bound of a Poisson count
//   (sell-outs we missed by reading only every few hours, or by chance), and 20 orders per sell-out: the
//   assumption that a variant held at most 20 units when it sold out. Deeper stock sells more than we say,
//   and the evidence says so.
// - The range is wide on purpose. U(S)/S falls as days (and so sell-outs) accumulate, so the range narrows with
//   observation, but never below the 1..20 orders-per-sell-out spread we cannot measure.
// - Price changes, compare-at changes, launches and removals show an active store; they are listed as
//   evidence and move no number.
// - No estimate below 3 observed days, or below 3 sell-outs + restocks with at least one sell-out: then the
//   answer is { estimate: null, reason: "not enough evidence: ..." }.
// - Confidence is "low", or "medium" with >= 14 days, >= 10 sell-outs, >= 1 restock, no truncated read and no
//   gap over 24 hours between reads. Never "high"; never a point number (high > low always).
import { AppError } from "~/domain/errors";
import type { ProductSnapshot, StoreSnapshot, VariantSnapshot } from "~/domain/crawl/store-snapshot";

/** Measured = counted from snapshots; estimated = derived from counts through stated assumptions. */
export type FigureKind = "measured" | "estimated";

export interface ProductRef {
  id: string;
  handle: string;
  title: string;
}

export interface VariantRef {
  id: string;
  title: string;
  sku: string | null;
}

/** The change happened after `from` (the earlier read) and at or before `to` (the later read). */
export interface ChangeWindow {
  from: string;
  to: string;
}

interface ChangeBase {
  product: ProductRef;
  window: ChangeWindow;
}

export type LaunchDateSource = "published_at" | "created_at" | "first-seen";

export interface LaunchChange extends ChangeBase {
  kind: "launch";
  /** The store's published_at/created_at when it falls in the window; null when only "first seen". */
  launchedAt: string | null;
  dateSource: LaunchDateSource;
}

export interface RemovalChange extends ChangeBase {
  kind: "removal";
}

export interface PriceChange extends ChangeBase {
  kind: "price-change";
  variant: VariantRef;
  currency: string | null;
  oldCents: number;
  newCents: number;
  direction: "up" | "down";
}

export interface CompareAtChange extends ChangeBase {
  kind: "compare-at-change";
  variant: VariantRef;
  currency: string | null;
  oldCents: number | null;
  newCents: number | null;
}

export interface StockChange extends ChangeBase {
  /** sold-out: in stock -> out of stock; restock: out of stock -> in stock. */
  kind: "sold-out" | "restock";
  variant: VariantRef;
}

export interface VariantListChange extends ChangeBase {
  kind: "variant-added" | "variant-removed";
  variant: VariantRef;
}

/** One thing seen to change between two reads. Every change is measured. */
export type CatalogueChange = LaunchChange | RemovalChange | PriceChange | CompareAtChange | StockChange | VariantListChange;
export type ChangeKind = CatalogueChange["kind"];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

function timeOf(iso: string, what: string): number {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) throw new AppError(422, `The ${what} time is not a date: "${iso}".`);
  return time;
}

function optionalTime(iso: string | null): number | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isFinite(time) ? time : null;
}

/** By id, the first copy winning (a product can be paged twice when the catalogue moves during a read). */
function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

const productRef = (p: ProductSnapshot): ProductRef => ({ id: p.id, handle: p.handle, title: p.title });
const variantRef = (v: VariantSnapshot): VariantRef => ({ id: v.id, title: v.title, sku: v.sku });
const compareAt = (v: VariantSnapshot): number | null => (v.compareAtCents !== null && v.compareAtCents > 0 ? v.compareAtCents : null);

/** Sorted oldest first (stable), after checking every takenAt is a date. */
function chronological(snapshots: readonly StoreSnapshot[]): StoreSnapshot[] {
  const times = new Map(snapshots.map((s) => [s, timeOf(s.takenAt, "snapshot")] as const));
  return [...snapshots].sort((a, b) => times.get(a)! - times.get(b)!);
}

function launchOf(product: ProductSnapshot, from: number, to: number, prevTruncated: boolean): Pick<LaunchChange, "launchedAt" | "dateSource"> | null {
  const inWindow = (iso: string | null) => {
    const t = optionalTime(iso);
    return t !== null && t >= from && t <= to;
  };
  if (inWindow(product.publishedAt)) return { launchedAt: product.publishedAt, dateSource: "published_at" };
  if (inWindow(product.createdAt)) return { launchedAt: product.createdAt, dateSource: "created_at" };
  // The earlier read stopped at a cap: this product may have been there, past where it stopped.
  if (prevTruncated) return null;
  return { launchedAt: null, dateSource: "first-seen" };
}

function variantChanges(old: ProductSnapshot, now: ProductSnapshot, window: ChangeWindow, currency: string | null): CatalogueChange[] {
  // Every Shopify product has a variant: an empty list means the store did not publish them in that read.
  if (old.variants.length === 0 || now.variants.length === 0) return [];
  const product = productRef(now);
  const before = byId(old.variants);
  const after = byId(now.variants);
  const changes: CatalogueChange[] = [];
  for (const v of after.values()) {
    const o = before.get(v.id);
    const variant = variantRef(v);
    if (!o) {
      changes.push({ kind: "variant-added", product, window, variant });
      continue;
    }
    if (o.priceCents !== v.priceCents) {
      const direction = v.priceCents > o.priceCents ? "up" : "down";
      changes.push({ kind: "price-change", product, window, variant, currency, oldCents: o.priceCents, newCents: v.priceCents, direction });
    }
    if (compareAt(o) !== compareAt(v)) {
      changes.push({ kind: "compare-at-change", product, window, variant, currency, oldCents: compareAt(o), newCents: compareAt(v) });
    }
    if (o.available === true && v.available === false) changes.push({ kind: "sold-out", product, window, variant });
    if (o.available === false && v.available === true) changes.push({ kind: "restock", product, window, variant });
  }
  for (const o of before.values()) {
    if (!after.has(o.id)) changes.push({ kind: "variant-removed", product, window, variant: variantRef(o) });
  }
  return changes;
}

/**
 * The changes between two consecutive reads of one store: the later read's products in its order (launches,
 * then each product's variant changes), then removals in the earlier read's order.
 */
export function diffSnapshots(prev: StoreSnapshot, next: StoreSnapshot): CatalogueChange[] {
  const from = timeOf(prev.takenAt, "earlier snapshot");
  const to = timeOf(next.takenAt, "later snapshot");
  if (to < from) {
    throw new AppError(422, `Snapshots are compared oldest first: ${next.takenAt} is before ${prev.takenAt}.`);
  }
  const window: ChangeWindow = { from: prev.takenAt, to: next.takenAt };
  const currency = next.currency ?? prev.currency;
  const before = byId(prev.products);
  const after = byId(next.products);
  const changes: CatalogueChange[] = [];
  for (const product of after.values()) {
    const old = before.get(product.id);
    if (old) {
      changes.push(...variantChanges(old, product, window, currency));
      continue;
    }
    const launch = launchOf(product, from, to, prev.truncated);
    if (launch) changes.push({ kind: "launch", product: productRef(product), window, ...launch });
  }
  // A read stopped by a cap did not reach the rest of the catalogue: absence there proves nothing.
  if (!next.truncated) {
    for (const product of before.values()) {
      if (!after.has(product.id)) changes.push({ kind: "removal", product: productRef(product), window });
    }
  }
  return changes;
}

/** The changes across a series of reads (sorted oldest first), each consecutive pair diffed. */
export function diffSeries(snapshots: readonly StoreSnapshot[]): CatalogueChange[] {
  const sorted = chronological(snapshots);
  return sorted.slice(1).flatMap((next, i) => diffSnapshots(sorted[i], next));
}

/** Price drops on the products a user follows (the "price drop" alert). */
export function priceDropsFor(changes: readonly CatalogueChange[], productIds: Iterable<string>): PriceChange[] {
  const followed = new Set(productIds);
  return changes.filter((c): c is PriceChange => c.kind === "price-change" && c.direction === "down" && followed.has(c.product.id));
}

/** The launches among the changes (the "new launch" alert). */
export function launchesIn(changes: readonly CatalogueChange[]): LaunchChange[] {
  return changes.filter((c): c is LaunchChange => c.kind === "launch");
}

// ---------------------------------------------------------------------------------------------------------
// Catalogue size over time

export interface CataloguePoint {
  kind: "measured";
  takenAt: string;
  products: number;
  variants: number;
  inStockVariants: number;
  outOfStockVariants: number;
  /** Variants whose availability the store does not publish. */
  unknownStockVariants: number;
  /** The read stopped at a cap: the catalogue holds at least these counts. */
  truncated: boolean;
}

/** Catalogue size per read, oldest first, for a chart (duplicate products and variants counted once). */
export function catalogueSeries(snapshots: readonly StoreSnapshot[]): CataloguePoint[] {
  return chronological(snapshots).map((s) => {
    const point: CataloguePoint = {
      kind: "measured",
      takenAt: s.takenAt,
      products: 0,
      variants: 0,
      inStockVariants: 0,
      outOfStockVariants: 0,
      unknownStockVariants: 0,
      truncated: s.truncated,
    };
    for (const product of byId(s.products).values()) {
      point.products += 1;
      for (const v of byId(product.variants).values()) {
        point.variants += 1;
        if (v.available === true) point.inStockVariants += 1;
        else if (v.available === false) point.outOfStockVariants += 1;
        else point.unknownStockVariants += 1;
      }
    }
    return point;
  });
}

// ---------------------------------------------------------------------------------------------------------
// The weekly orders estimate

export const ESTIMATE_RULES = {
  minObservedDays: 3,
  /** Sell-outs + restocks needed before any range, at least one of them a sell-out. */
  minStockEvents: 3,
  minSellOuts: 1,
  /** Orders one sell-out stands for: assumed, not measured (Shopify publishes no stock quantities). */
  ordersPerSellOut: { low: 1, high: 20 },
  medium: { minObservedDays: 14, minSellOuts: 10, minRestocks: 1, maxGapHours: 24 },
} as const;

/** The method in one paragraph, for the screen that shows an estimate. */
export const ESTIMATE_METHOD =
  "Shopify stores publish whether a variant is in stock, not how many units they hold or sell. We read the " +
  "public catalogue every few hours and count sell-outs (a variant going out of stock) and restocks. The low end " +
  `counts ${ESTIMATE_RULES.ordersPerSellOut.low} order per sell-out seen; the high end allows for sell-outs we missed ` +
  `and up to ${ESTIMATE_RULES.ordersPerSellOut.high} orders per sell-out. Price changes, launches and removals show ` +
  `the store is active but move no number. No range before ${ESTIMATE_RULES.minObservedDays} days and ` +
  `${ESTIMATE_RULES.minStockEvents} sell-outs or restocks.`;

/** The counts an estimate rests on: all measured. */
export interface EstimateBasis {
  kind: "measured";
  /** First and last read of the window (ISO), null when there was none. */
  from: string | null;
  to: string | null;
  /** Days between the first and last read, to one decimal. */
  observedDays: number;
  /** Reads in the window; null when only changes were given. */
  reads: number | null;
  truncatedReads: number | null;
  /** Longest time between two consecutive reads, in hours to one decimal; null when unknown. */
  longestGapHours: number | null;
  /** Variants publishing their availability in the last read; null when only changes were given. */
  trackedVariants: number | null;
  sellOuts: number;
  restocks: number;
  priceChanges: number;
  priceDrops: number;
  compareAtChanges: number;
  launches: number;
  removals: number;
  variantsAdded: number;
  variantsRemoved: number;
}

export interface WeeklyOrdersEstimate {
  kind: "estimated";
  low: number;
  high: number;
  unit: "orders/week";
  confidence: "low" | "medium";
  /** Sentences a seller reads: what we counted, what we assumed, what weakens it. */
  evidence: string[];
  basis: EstimateBasis;
}

export interface NoEstimate {
  estimate: null;
  /** Starts with "not enough evidence: ". */
  reason: string;
  basis: EstimateBasis;
}

export type WeeklyOrdersResult = WeeklyOrdersEstimate | NoEstimate;

/** Changes over a window, for callers that kept changes rather than the reads. */
export interface ObservedChanges {
  from: string;
  to: string;
  changes: readonly CatalogueChange[];
}

export const isEstimate = (r: WeeklyOrdersResult): r is WeeklyOrdersEstimate => !("estimate" in r);

function emptyBasis(): EstimateBasis {
  return {
    kind: "measured",
    from: null,
    to: null,
    observedDays: 0,
    reads: null,
    truncatedReads: null,
    longestGapHours: null,
    trackedVariants: null,
    sellOuts: 0,
    restocks: 0,
    priceChanges: 0,
    priceDrops: 0,
    compareAtChanges: 0,
    launches: 0,
    removals: 0,
    variantsAdded: 0,
    variantsRemoved: 0,
  };
}

function countChanges(basis: EstimateBasis, changes: readonly CatalogueChange[]): void {
  for (const c of changes) {
    if (c.kind === "sold-out") basis.sellOuts += 1;
    else if (c.kind === "restock") basis.restocks += 1;
    else if (c.kind === "price-change") {
      basis.priceChanges += 1;
      if (c.direction === "down") basis.priceDrops += 1;
    } else if (c.kind === "compare-at-change") basis.compareAtChanges += 1;
    else if (c.kind === "launch") basis.launches += 1;
    else if (c.kind === "removal") basis.removals += 1;
    else if (c.kind === "variant-added") basis.variantsAdded += 1;
    else basis.variantsRemoved += 1;
  }
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

function basisFromSnapshots(snapshots: readonly StoreSnapshot[]): EstimateBasis {
  const basis = emptyBasis();
  const sorted = chronological(snapshots);
  basis.reads = sorted.length;
  basis.truncatedReads = sorted.filter((s) => s.truncated).length;
  if (sorted.length === 0) return basis;
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  basis.from = first.takenAt;
  basis.to = last.takenAt;
  basis.observedDays = oneDecimal((Date.parse(last.takenAt) - Date.parse(first.takenAt)) / DAY_MS);
  let gap = 0;
  for (let i = 1; i < sorted.length; i++) gap = Math.max(gap, Date.parse(sorted[i].takenAt) - Date.parse(sorted[i - 1].takenAt));
  basis.longestGapHours = oneDecimal(gap / HOUR_MS);
  basis.trackedVariants = [...byId(last.products).values()].reduce(
    (n, p) => n + [...byId(p.variants).values()].filter((v) => v.available !== null).length,
    0,
  );
  countChanges(basis, diffSeries(sorted));
  return basis;
}

function basisFromChanges(observed: ObservedChanges): EstimateBasis {
  const from = timeOf(observed.from, "window start");
  const to = timeOf(observed.to, "window end");
  if (to < from) throw new AppError(422, `The window ends (${observed.to}) before it starts (${observed.from}).`);
  const basis = emptyBasis();
  basis.from = observed.from;
  basis.to = observed.to;
  basis.observedDays = oneDecimal((to - from) / DAY_MS);
  countChanges(
    basis,
    observed.changes.filter((c) => Date.parse(c.window.from) >= from && Date.parse(c.window.to) <= to),
  );
  return basis;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const days = (d: number) => (Number.isInteger(d) ? plural(d, "day") : `${d} days`);

/** A generous 95% upper bound of a Poisson count observed as `n`: 4, 9, 18.6 for 0, 3, 10 (exact: 3.7, 8.8, 18.4). */
export const poissonUpper = (n: number) => n + 2 * Math.sqrt(n + 1) + 2;

function activitySentence(b: EstimateBasis): string {
  const parts = [
    b.priceChanges > 0 ? `${plural(b.priceChanges, "price change")} (${b.priceDrops} down)` : null,
    b.compareAtChanges > 0 ? plural(b.compareAtChanges, "compare-at change") : null,
    b.launches > 0 ? plural(b.launches, "launch", "launches") : null,
    b.removals > 0 ? plural(b.removals, "removal") : null,
    b.variantsAdded > 0 ? plural(b.variantsAdded, "variant added", "variants added") : null,
    b.variantsRemoved > 0 ? plural(b.variantsRemoved, "variant removed", "variants removed") : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0
    ? "No price changes, launches or removals seen."
    : `Store activity (moves no number): ${parts.join(", ")}.`;
}

function stockSentence(b: EstimateBasis): string {
  return `${plural(b.sellOuts, "variant")} went out of stock and ${b.restocks} came back in ${days(b.observedDays)}` +
    (b.reads === null ? "." : ` (${plural(b.reads, "read")} of the catalogue).`);
}

function notEnough(basis: EstimateBasis, why: string): NoEstimate {
  return { estimate: null, reason: `not enough evidence: ${why}`, basis };
}

function estimateFrom(basis: EstimateBasis): WeeklyOrdersResult {
  const rules = ESTIMATE_RULES;
  if (basis.from === null) return notEnough(basis, "the store has not been read yet.");
  if (basis.trackedVariants === 0) {
    return notEnough(basis, "the store does not publish whether its variants are in stock, and stock is what we count.");
  }
  if (basis.observedDays < rules.minObservedDays) {
    return notEnough(basis, `${days(basis.observedDays)} of observation; a range needs at least ${rules.minObservedDays} days.`);
  }
  const stockEvents = basis.sellOuts + basis.restocks;
  if (stockEvents < rules.minStockEvents || basis.sellOuts < rules.minSellOuts) {
    const active = basis.priceChanges + basis.compareAtChanges + basis.launches + basis.removals > 0
      ? " The store is active, but activity alone does not tell how much it sells."
      : "";
    return notEnough(
      basis,
      `${stockSentence(basis)} A range needs at least ${rules.minStockEvents} sell-outs or restocks, ` +
        `at least ${rules.minSellOuts} of them a sell-out.${active}`,
    );
  }
  const perWeek = 7 / basis.observedDays;
  const low = Math.floor(basis.sellOuts * rules.ordersPerSellOut.low * perWeek);
  const high = Math.max(low + 1, Math.ceil(poissonUpper(basis.sellOuts) * rules.ordersPerSellOut.high * perWeek));
  const m = rules.medium;
  const medium =
    basis.observedDays >= m.minObservedDays &&
    basis.sellOuts >= m.minSellOuts &&
    basis.restocks >= m.minRestocks &&
    basis.truncatedReads === 0 &&
    basis.longestGapHours !== null &&
    basis.longestGapHours <= m.maxGapHours;
  const evidence = [
    stockSentence(basis),
    activitySentence(basis),
    `Assumed, not measured: each sell-out is between ${rules.ordersPerSellOut.low} and ${rules.ordersPerSellOut.high} ` +
      "orders; a store holding deeper stock sells more than this range says.",
  ];
  if (basis.trackedVariants !== null) evidence.push(`${plural(basis.trackedVariants, "variant")} publish whether they are in stock.`);
  if (basis.restocks === 0) evidence.push("No restock seen: some sell-outs may be variants switched off by hand.");
  if (basis.truncatedReads) {
    evidence.push(`${plural(basis.truncatedReads, "read")} stopped before the end of the catalogue: sell-outs past that point were missed.`);
  }
  if (basis.longestGapHours !== null && basis.longestGapHours > m.maxGapHours) {
    evidence.push(`The longest gap between reads was ${basis.longestGapHours} hours: short sell-outs in it were missed.`);
  }
  return { kind: "estimated", low, high, unit: "orders/week", confidence: medium ? "medium" : "low", evidence, basis };
}

/**
 * An activity-based weekly orders range for one store, from its reads (any order) or from changes over a window
 * (then reads, gaps and tracked variants are unknown, so confidence stays "low"). See the header for the model.
 */
export function estimateWeeklyOrders(input: readonly StoreSnapshot[] | ObservedChanges): WeeklyOrdersResult {
  return estimateFrom(Array.isArray(input) ? basisFromSnapshots(input as readonly StoreSnapshot[]) : basisFromChanges(input as ObservedChanges));
}

// ---------------------------------------------------------------------------------------------------------
// Sentences

function money(cents: number | null, currency: string | null): string {
  if (cents === null) return "none";
  const amount = (cents / 100).toFixed(2);
  // A store that publishes no currency: the amount says so rather than passing for dollars (issue 35).
  return currency ? `${amount} ${currency}` : `${amount} (currency unknown)`;
}

/** One change as a sentence, e.g. `"Posture Pro" (Black) price went down from 29.99 USD to 24.99 USD.` */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "23 Nov 2026, 21:11 UTC": the same words on every machine (no locale), for sentences people read. */
export function readableTime(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

export function describeChange(change: CatalogueChange): string {
  const name = `"${change.product.title}"`;
  const variant = "variant" in change ? `${name} (${change.variant.title})` : name;
  const between = `between ${readableTime(change.window.from)} and ${readableTime(change.window.to)}`;
  switch (change.kind) {
    case "launch":
      return change.launchedAt
        ? `${name} launched: published ${readableTime(change.launchedAt)} (the store's ${change.dateSource === "published_at" ? "published" : "created"} date).`
        : `${name} first seen ${between}.`;
    case "removal":
      return `${name} left the public catalogue ${between}.`;
    case "price-change":
      return `${variant} price went ${change.direction} from ${money(change.oldCents, change.currency)} to ${money(change.newCents, change.currency)} ${between}.`;
    case "compare-at-change":
      return `${variant} compare-at price changed from ${money(change.oldCents, change.currency)} to ${money(change.newCents, change.currency)} ${between}.`;
    case "sold-out":
      return `${variant} went out of stock ${between}.`;
    case "restock":
      return `${variant} came back in stock ${between}.`;
    case "variant-added":
      return `${variant} was added ${between}.`;
    case "variant-removed":
      return `${variant} was removed ${between}.`;
  }
}

/** Whether a figure was counted from snapshots or estimated: changes and catalogue points are measured. */
export function figureKindOf(figure: CatalogueChange | CataloguePoint | EstimateBasis | WeeklyOrdersEstimate): FigureKind {
  return figure.kind === "estimated" ? "estimated" : "measured";
}

/** A figure as the sentence the UI shows, starting with "Measured" or "Estimated" (or "No estimate"). */
export function describeFigure(figure: CatalogueChange | CataloguePoint | WeeklyOrdersResult): string {
  if ("estimate" in figure) return `No estimate: ${figure.reason}`;
  if (figure.kind === "estimated") {
    return `Estimated (${figure.confidence} confidence): ${figure.low}-${figure.high} ${figure.unit}, from ` +
      `${plural(figure.basis.sellOuts, "sell-out")} and ${plural(figure.basis.restocks, "restock")} in ${days(figure.basis.observedDays)}.`;
  }
  if (figure.kind === "measured") {
    const counts = `${plural(figure.products, "product")}, ${plural(figure.variants, "variant")} (${figure.inStockVariants} in stock)`;
    return figure.truncated
      ? `Measured ${figure.takenAt}: at least ${counts}; the read stopped before the end of the catalogue.`
      : `Measured ${figure.takenAt}: ${counts}.`;
  }
  return `Measured: ${describeChange(figure)}`;
}
