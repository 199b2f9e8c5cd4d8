// How a provider's subscription and transaction states become the user's seed flags and paid state.
// Provider-agnostic: Paddle today, Shopify Billing could feed the same shapes (docs/decisions/009).

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "paused", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const TRANSACTION_STATUSES = ["draft", "ready", "billed", "paid", "completed", "canceled", "past_due"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export interface SubscriptionState {
  id: string;
  status: SubscriptionStatus;
  customerId: string | null;
  scheduledChange: "cancel" | "pause" | "resume" | null;
}

/** The user fields one subscription decides. */
export interface SubscriptionFlags {
  userSubscribed: "yes" | "no";
  trialing: boolean;
  subscriptionCancelled: boolean;
  chargeDeclined: boolean;
  subscription_id: string;
  paddleSubscriptionId: string;
  paddleCustomerId: string | null;
}

export function subscriptionFlags(sub: SubscriptionState): SubscriptionFlags {
  const on = sub.status === "active" || sub.status === "trialing" || sub.status === "past_due";
  return {
    userSubscribed: on ? "yes" : "no",
    trialing: sub.status === "trialing",
    subscriptionCancelled: sub.status === "canceled" || sub.scheduledChange === "cancel",
    chargeDeclined: sub.status === "past_due",
    subscription_id: sub.id,
    paddleSubscriptionId: sub.id,
    paddleCustomerId: sub.customerId,
  };
}

/** An event older than the newest one applied to the same entity changes nothing. */
export function isStale(lastAppliedAt: Date | null | undefined, occurredAt: Date): boolean {
  return Boolean(lastAppliedAt && occurredAt.getTime() < lastAppliedAt.getTime());
}

export interface PaidStateInput {
  userSubscribed?: string | null;
  trialing?: boolean | null;
  innerCircle?: boolean | null;
  extendedTrial?: boolean | null;
  claimedDiscount?: boolean | null;
  subscriptionCancelled?: boolean | null;
}

export type PaidReason = "subscribed" | "trialing" | "inner-circle" | "extended-trial" | "claimed-discount";

/**
 * The one place that says whether a user has paid access (seed §6: subscribed, trialing, inner
 * circle, extended trial, claimed discount). extendedTrial and claimedDiscount only count while the
 * subscription is on: they are changes to a live subscription, not passes of their own.
 */
export function paidState(user: PaidStateInput): { paid: boolean; reason: PaidReason | null } {
  if (user.innerCircle) return { paid: true, reason: "inner-circle" };
  const on = user.userSubscribed === "yes";
  if (!on) return { paid: false, reason: null };
  if (user.trialing) return { paid: true, reason: user.extendedTrial ? "extended-trial" : "trialing" };
  if (user.claimedDiscount) return { paid: true, reason: "claimed-discount" };
  return { paid: true, reason: "subscribed" };
}

/** Paddle amounts are strings of minor units ("2999" = $29.99); parse them without floats. */
export function parseMinorUnits(amount: string | number | null | undefined): number | null {
  if (amount === null || amount === undefined) return null;
  const s = String(amount);
  if (!/^-?\d+$/.test(s)) return null;
  return Number.parseInt(s, 10);
}

export interface SubscriptionRow {
  id: string;
  status: string;
  customerId: string | null;
  scheduledChange: string | null;
  currentPeriodStart: Date | null;
  lastEventAt: Date;
}

const ON_STATUSES = new Set(["active", "trialing", "past_due"]);

/**
 * The subscription that decides the user's flags when there are several (a user who cancelled and
 * subscribed again): the newest one that is on, else the one that changed last. Deriving it from all
 * rows makes the result independent of the order webhooks arrive in.
 */
export function primarySubscription<T extends SubscriptionRow>(rows: T[]): T | null {
  if (rows.length === 0) return null;
  const byRecency = (a: T, b: T) =>
    (b.currentPeriodStart?.getTime() ?? 0) - (a.currentPeriodStart?.getTime() ?? 0) ||
    b.lastEventAt.getTime() - a.lastEventAt.getTime() ||
    (a.id < b.id ? 1 : -1);
  const on = rows.filter((r) => ON_STATUSES.has(r.status)).sort(byRecency);
  if (on.length > 0) return on[0];
  return [...rows].sort((a, b) => b.lastEventAt.getTime() - a.lastEventAt.getTime() || (a.id < b.id ? 1 : -1))[0];
}

/** Flags for a user with no subscription rows at all. */
export const NO_SUBSCRIPTION_FLAGS = {
  userSubscribed: "no" as const,
  trialing: false,
  subscriptionCancelled: false,
  chargeDeclined: false,
};
