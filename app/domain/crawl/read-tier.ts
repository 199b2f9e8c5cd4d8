// How often a store only the operator lists (or discovery found) is read, by how lately its catalogue changed
// (decision 101). Pure. A store that changed this week is read four times as often as the operator's interval; one
// that changed this month at the interval; one dormant for a month or more (no change since, or never one in a
// month of reads) a third as often. A store not yet observed for a week (new, nothing to judge) keeps the interval.
// Followed stores keep the followers' own interval (decision 024): a seller asked for them.

const DAY_MS = 24 * 60 * 60_000;

export const READ_TIER_RULES = {
  /** A change within this long makes a store "active". */
  activeWithinMs: 7 * DAY_MS,
  /** No change for this long (and observed at least this long) makes a store "dormant". */
  dormantAfterMs: 30 * DAY_MS,
  /** The interval is divided by this for an active store ... */
  activeDivisor: 4,
  /** ... and multiplied by this for a dormant one. */
  dormantFactor: 3,
  /** Never read more often than this, whatever the interval (one read an hour). */
  minIntervalMs: 60 * 60_000,
} as const;

export type ReadTier = "active" | "steady" | "dormant";

export interface StoreActivity {
  /** When its catalogue last changed (a launch, a removal, a price move), epoch ms; null: never since we read it. */
  lastChangeMs: number | null;
  /** When we began observing it, epoch ms. */
  observedSinceMs: number;
}

/** The tier a store's activity puts it in at `nowMs`. */
export function readTier(activity: StoreActivity, nowMs: number, rules = READ_TIER_RULES): ReadTier {
  const since = activity.lastChangeMs ?? activity.observedSinceMs;
  const quiet = nowMs - since;
  if (activity.lastChangeMs !== null && quiet <= rules.activeWithinMs) return "active";
  if (quiet >= rules.dormantAfterMs && nowMs - activity.observedSinceMs >= rules.dormantAfterMs) return "dormant";
  return "steady";
}

/** The time between two reads of a store in `tier`, on the operator's interval `baseMs`. */
export function tierIntervalMs(tier: ReadTier, baseMs: number, rules = READ_TIER_RULES): number {
  if (tier === "active") return Math.max(rules.minIntervalMs, Math.round(baseMs / rules.activeDivisor));
  if (tier === "dormant") return baseMs * rules.dormantFactor;
  return baseMs;
}

/** The interval for a store's activity at `nowMs` (readTier, then tierIntervalMs). */
export function activityIntervalMs(activity: StoreActivity, nowMs: number, baseMs: number, rules = READ_TIER_RULES): number {
  return tierIntervalMs(readTier(activity, nowMs, rules), baseMs, rules);
}
