// Rules of competitor tracking that are not about the catalogue itself (that is competitor-insights.ts):
// who may follow how many stores, how often a store is read and how a failing one backs off, the limits on
// "check now", and the words of the two alerts. Pure. Decision: docs/decisions/024-competitor-tracking.md.
import { paidState, type PaidStateInput } from "~/domain/billing/billing";
import { PLANS, findPlan, type Plan } from "~/domain/billing/plans";
import type { LaunchChange, PriceChange } from "~/domain/competitors/insights";
import type { StoreSnapshot } from "~/domain/crawl/store-snapshot";

export const UPGRADE_URL = "/choose-plan";

export const COMPETITOR_RULES = {
  /** Default time between two reads of a store (TRACKER_CHECK_INTERVAL_MINUTES overrides it). */
  checkIntervalMs: 6 * 60 * 60_000,
  /** First wait after a failed read; doubles with each failure in a row, up to maxBackoffMs. */
  backoffBaseMs: 30 * 60_000,
  maxBackoffMs: 24 * 60 * 60_000,
  /** "Check now": at most one per store per user in this window ... */
  checkNowPerStoreMs: 10 * 60_000,
  /** ... and at most this many per user an hour. */
  checkNowPerHour: 12,
  checkNowWindowMs: 60 * 60_000,
  /** Titles named in a launch alert. */
  alertTitles: 3,
  /** A name a seller gives a followed store. */
  nameMaxLength: 100,
  /** The weekly-orders estimate reads the changes of at most this many recent days. */
  estimateWindowDays: 28,
  /**
   * Default time between two reads of a store only the operator lists (CATALOGUE_STORE_INTERVAL_HOURS overrides
   * it); a followed store keeps checkIntervalMs. Decision 047.
   */
  operatorIntervalMs: 24 * 60 * 60_000,
  /**
   * Failed reads in a row after which a store is parked (not read again until an operator resumes it or a
   * follower asks for a check). With the backoff above (30 min doubling to 24 h) 8 failures span about 3.5 days.
   */
  parkAfterFailures: 8,
} as const;

/**
 * What the tracker keeps of a store's history (decision 047): every read is one CompetitorCheck row, every
 * difference one CompetitorChange row. Checks younger than thinAfterDays are all kept (the catalogue chart and
 * "last read" need them); older ones are thinned to the last one of each UTC day; checks and changes older than
 * keepDays are deleted (a bit over a year: a year-on-year comparison still has its day).
 */
export const RETENTION_RULES = {
  thinAfterDays: 30,
  keepDays: 400,
} as const;

const DAY_MS = 24 * 60 * 60_000;

/** The moments before which the retention job thins checks and deletes checks and changes. */
export function retentionCutoffs(now: Date, rules: { thinAfterDays: number; keepDays: number } = RETENTION_RULES): { thinBefore: Date; deleteBefore: Date } {
  return { thinBefore: new Date(now.getTime() - rules.thinAfterDays * DAY_MS), deleteBefore: new Date(now.getTime() - rules.keepDays * DAY_MS) };
}

/**
 * A store's place in its reading interval, from its id alone: a fraction of the interval in [0, 1). Stable
 * (the same store always reads at the same time of its interval) and spread (FNV-1a over the id, so 2,000 stores
 * added at once land all over the day, not in the same minute).
 */
export function storePhase(storeId: number): number {
  let h = 0x811c9dc5;
  const text = String(storeId);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // One more mixing round: consecutive ids differ in their last character only.
  // (">>> 0" keeps each step an unsigned 32-bit number: "^" alone gives a signed one.)
  h = (h ^ (h >>> 16)) >>> 0;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  return h / 2 ** 32;
}

/**
 * When a store read (or first listed) at `fromMs` is read next, on an interval of `intervalMs`: the first slot
 * of its own phase strictly after fromMs. Each store keeps one fixed time within the interval (its phase), so
 * reads stay spread however they were queued, and a store is never read twice within one interval.
 */
export function nextSlotMs(storeId: number, fromMs: number, intervalMs: number): number {
  const offset = Math.floor(storePhase(storeId) * intervalMs);
  const slot = Math.floor((fromMs - offset) / intervalMs) * intervalMs + offset;
  return slot > fromMs ? slot : slot + intervalMs;
}

/** A read's interval: the tracker's for a store someone follows, the operator's for one only the operator lists. */
export function readIntervalMs(followed: boolean, intervals: { followedMs: number; operatorMs: number }): number {
  return followed ? intervals.followedMs : intervals.operatorMs;
}

/** The sentence a parked store shows its followers and the operator. */
export function parkedSentence(failures: number, lastError: string): string {
  return `Parked after ${failures} failed reads in a row; we stopped reading it. The last one said: ${lastError}`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * What a successful read left out or could not use, as sentences a seller understands (the store's readNote,
 * decision 059); null when it read the whole catalogue cleanly.
 */
export function readNote(snapshot: Pick<StoreSnapshot, "products" | "truncated" | "leftOut" | "caps">): string | null {
  const notes: string[] = [];
  const left = snapshot.leftOut;
  if (snapshot.truncated) {
    const caps = snapshot.caps;
    const limits = caps
      ? ` (at most ${count(caps.maxProducts, "product")}, ${count(caps.maxPages, "page")} or ${Math.round(caps.maxBytes / (1024 * 1024))} MB a read)`
      : "";
    notes.push(
      `This catalogue is larger than one read takes: we stopped after ${count(snapshot.products.length, "product")}${limits}. ` +
        "Products past that point are not tracked, and none of them is counted as removed.",
    );
  }
  if (left && left.unreadable > 0) {
    notes.push(
      `${left.unreadable.toLocaleString("en-US")} of ${count(left.listed, "product")} in the catalogue could not be read (no product id or handle) and ${left.unreadable === 1 ? "was" : "were"} left out.`,
    );
  }
  const priceless = snapshot.products.filter((p) => p.variants.length === 0).length;
  if (priceless > 0) {
    notes.push(`${count(priceless, "product")} ${priceless === 1 ? "shows" : "show"} no price we could read, so ${priceless === 1 ? "it is" : "they are"} tracked without one.`);
  }
  if (left && left.repeatedIds > 0) {
    notes.push(`${count(left.repeatedIds, "product")} ${left.repeatedIds === 1 ? "repeats" : "repeat"} the id of another product in the same catalogue; we kept the first.`);
  }
  const byHandle = new Map<string, number>();
  for (const p of snapshot.products) byHandle.set(p.handle, (byHandle.get(p.handle) ?? 0) + 1);
  const shared = [...byHandle].filter(([, n]) => n > 1);
  if (shared.length === 1) {
    notes.push(`The handle "${shared[0][0].slice(0, 80)}" is used by ${shared[0][1]} products, so links to it may open the same page.`);
  } else if (shared.length > 1) {
    const examples = shared.slice(0, 3).map(([h]) => `"${h.slice(0, 80)}"`).join(", ");
    notes.push(`${count(shared.length, "handle")} are each used by more than one product (${examples}${shared.length > 3 ? ", ..." : ""}), so links to them may open the same page.`);
  }
  return notes.length > 0 ? notes.join(" ") : null;
}

/**
 * The store's listing pictures the catalogue could not use, as a sentence with the most common reason; null when
 * every tried picture worked.
 */
export function pictureNote(tried: number, unusable: number, reason: string | null): string | null {
  if (unusable === 0) return null;
  const of = unusable === tried ? (unusable === 1 ? "The product picture" : `All ${tried.toLocaleString("en-US")} product pictures`) : `${unusable.toLocaleString("en-US")} of ${count(tried, "product picture")}`;
  const they = unusable === 1 ? "that product is" : "those products are";
  return `${of} could not be used, so ${they} not matched until the picture can be read.${reason ? ` ${unusable === 1 ? "The reason" : "The most common reason"}: ${reason}` : ""}`;
}

export interface CompetitorAccess {
  /** Following, checking and importing: paid states only. */
  follow: boolean;
  /** Stores the user may follow at once (0 without a paid state). */
  limit: number;
  /** The plan the limit comes from, for the sentence ("the Basic plan"). */
  planName: string | null;
  /** A bigger plan exists: where to get it. */
  upgradeUrl: string | null;
  lockedReason: string | null;
}

const smallest = (): Plan => [...PLANS].sort((a, b) => a.competitorLimit - b.competitorLimit)[0];
const largestLimit = () => Math.max(...PLANS.map((p) => p.competitorLimit));

/**
 * What a user may do with competitor tracking. The paid state decides (the same states that see insights);
 * the cap is the plan's competitorLimit: Inner Circle's for a lifetime member, else the plan of the primary
 * subscription, else (a paid state whose plan we cannot name) the smallest plan's.
 */
export function competitorAccess(user: PaidStateInput, subscriptionPlanId: string | null | undefined): CompetitorAccess {
  const { paid } = paidState(user);
  if (!paid) {
    return {
      follow: false,
      limit: 0,
      planName: null,
      upgradeUrl: UPGRADE_URL,
      lockedReason: "Following rival stores is part of every plan: start your free trial to follow stores and get their launch and price alerts.",
    };
  }
  const plan = user.innerCircle ? findPlan("inner-circle")! : (findPlan(subscriptionPlanId) ?? smallest());
  return {
    follow: true,
    limit: plan.competitorLimit,
    planName: plan.name,
    upgradeUrl: plan.competitorLimit < largestLimit() ? UPGRADE_URL : null,
    lockedReason: null,
  };
}

/** The sentence of the 402 when a user already follows as many stores as their plan allows. */
export function capSentence(access: CompetitorAccess, following: number): string {
  const head = `You follow ${following} ${following === 1 ? "store" : "stores"}, the most the ${access.planName} plan allows.`;
  return access.upgradeUrl
    ? `${head} Upgrade your plan to follow more, or stop following one first.`
    : `${head} Stop following a store to add another.`;
}

/** When to read a store again after `failures` failed reads in a row (failures >= 1). */
export function failureBackoffMs(failures: number, rules: { baseMs?: number; maxMs?: number } = {}): number {
  const base = rules.baseMs ?? COMPETITOR_RULES.backoffBaseMs;
  const max = rules.maxMs ?? COMPETITOR_RULES.maxBackoffMs;
  const exponent = Math.max(0, Math.min(failures - 1, 30));
  return Math.min(max, base * 2 ** exponent);
}

const quoted = (titles: string[]) => titles.map((t) => `"${t}"`).join(", ");

/** The "new launch in a store you follow" alert: one per store per read. */
export function launchAlert(storeName: string, launches: readonly LaunchChange[]): { title: string; body: string } {
  const n = launches.length;
  const first = launches.slice(0, COMPETITOR_RULES.alertTitles).map((l) => l.product.title);
  const more = n > first.length ? ` and ${n - first.length} more` : "";
  return {
    title: `${storeName} launched ${n} new ${n === 1 ? "product" : "products"}`,
    body: `New in ${storeName}: ${quoted(first)}${more}.`,
  };
}

function money(cents: number, currency: string | null): string {
  const amount = (cents / 100).toFixed(2);
  return currency ? `${amount} ${currency}` : amount;
}

/** The "price drop on a product you follow" alert: one per product per read, naming the biggest drop. */
export function priceDropAlert(storeName: string, drops: readonly PriceChange[]): { title: string; body: string } {
  const biggest = [...drops].sort((a, b) => b.oldCents - b.newCents - (a.oldCents - a.newCents))[0];
  const title = biggest.product.title;
  const variant = biggest.variant.title && biggest.variant.title !== "Default Title" ? ` (${biggest.variant.title})` : "";
  const others = drops.length - 1;
  return {
    title: `Price drop: "${title}" at ${storeName}`,
    body:
      `"${title}"${variant} went down from ${money(biggest.oldCents, biggest.currency)} to ${money(biggest.newCents, biggest.currency)}` +
      (others > 0 ? `, and ${others} more ${others === 1 ? "variant" : "variants"} dropped.` : "."),
  };
}

/** How long until `oldest` (ms) leaves a window of `windowMs`, in whole seconds (at least 1). */
export function retryAfterSeconds(oldestMs: number, windowMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((oldestMs + windowMs - nowMs) / 1000));
}

/** The job that reads one store, and its key: one read queued or running per store at a time. */
export const CHECK_JOB = "competitor.check";
export const checkJobKey = (storeId: number) => `competitor.check:${storeId}`;
