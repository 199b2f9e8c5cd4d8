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

/** The Paddle price ids of the catalogue's plans and of the case study (configured per environment). */
export interface PriceIds {
  basic: string;
  pro: string;
  innerCircle: string;
  caseStudy: string;
}

/** The catalogue plan a Paddle price sells, or null for any other price (the case study, an unknown one). */
export function planForPrice(prices: PriceIds, priceId: string | null | undefined): "basic" | "pro" | "inner-circle" | null {
  if (!priceId) return null;
  if (priceId === prices.basic) return "basic";
  if (priceId === prices.pro) return "pro";
  if (priceId === prices.innerCircle) return "inner-circle";
  return null;
}

/** One of a subscription's transactions, as stored. */
export interface ChargeRow {
  id: string;
  status: string;
  origin: string | null;
  /** The line items' price ids. */
  priceIds: string[];
  totalCents: number | null;
  currencyCode: string | null;
  billingPeriodStart: Date | null;
  discountId: string | null;
  lastEventAt: Date;
}

export interface AmountSubject {
  priceId: string | null;
  currentPeriodStart: Date | null;
  /** The price's own amount, as the newest subscription notification lists it. */
  priceAmountCents: number | null;
  priceCurrencyCode: string | null;
}

/** A charge that says what the subscriber pays per cycle: paid, for the checkout or a renewal, not free. */
function isRecurringCharge(c: ChargeRow): boolean {
  return (
    (c.status === "completed" || c.status === "paid") &&
    (c.origin === "web" || c.origin === "subscription_recurring") &&
    (c.totalCents ?? 0) > 0
  );
}

/** When a charge happened in billing terms: the period it pays for, else when it was last reported. */
const chargeTime = (c: ChargeRow) => (c.billingPeriodStart ?? c.lastEventAt).getTime();

/**
 * What a subscription costs per cycle, as a function of the rows alone (so it does not depend on the
 * order Paddle's notifications arrive in): the newest charge, by billing period then occurred_at, for
 * the subscription's current price (what the buyer really pays: localised, tax included). A charge
 * for another price (say, a Basic renewal arriving after the move to Pro) never counts. A discounted
 * charge counts only for the period it paid for: once a newer period has started, the newest
 * undiscounted charge for the price counts, else the price's own amount.
 */
export function currentAmount(sub: AmountSubject, charges: ChargeRow[]): { cents: number; currencyCode: string | null } | null {
  const own = sub.priceAmountCents !== null ? { cents: sub.priceAmountCents, currencyCode: sub.priceCurrencyCode } : null;
  if (!sub.priceId) return own;
  const candidates = charges
    .filter((c) => isRecurringCharge(c) && c.priceIds.includes(sub.priceId!))
    .sort((a, b) => chargeTime(b) - chargeTime(a) || b.lastEventAt.getTime() - a.lastEventAt.getTime() || (a.id < b.id ? 1 : -1));
  const periodStart = sub.currentPeriodStart?.getTime() ?? -Infinity;
  const counts = (c: ChargeRow) => !c.discountId || chargeTime(c) >= periodStart;
  const chosen = candidates.find(counts);
  return chosen ? { cents: chosen.totalCents!, currencyCode: chosen.currencyCode } : own;
}
