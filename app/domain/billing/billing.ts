// How a provider's subscription and transaction states become the user's seed flags and paid state.
// Provider-agnostic: Paddle today, Shopify Billing could feed the same shapes (docs/decisions/009).
import { compareExact, exactTimeOf, type ExactTime } from "~/domain/event-time";
import { CREDIT_TOP_UPS, findPlan, PLANS, type CreditTopUp, type CreditTopUpId, type Plan } from "~/domain/billing/plans";

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "paused", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const TRANSACTION_STATUSES = ["draft", "ready", "billed", "paid", "completed", "canceled", "past_due"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export interface SubscriptionState {
  id: string;
  status: SubscriptionStatus;
  customerId: string | null;
  scheduledChange: "cancel" | "pause" | "resume" | null;
  /** Who sold it: "paddle" (default) or "shopify" (docs/decisions/034). */
  provider?: string;
}

/** The user fields one subscription decides. */
export interface SubscriptionFlags {
  userSubscribed: "yes" | "no";
  trialing: boolean;
  subscriptionCancelled: boolean;
  chargeDeclined: boolean;
  subscription_id: string;
  /** Only from a Paddle subscription: a Shopify one leaves the user's Paddle ids as they are. */
  paddleSubscriptionId?: string;
  paddleCustomerId?: string | null;
}

export function subscriptionFlags(sub: SubscriptionState): SubscriptionFlags {
  const on = sub.status === "active" || sub.status === "trialing" || sub.status === "past_due";
  const paddle = (sub.provider ?? "paddle") === "paddle";
  return {
    userSubscribed: on ? "yes" : "no",
    trialing: sub.status === "trialing",
    subscriptionCancelled: sub.status === "canceled" || sub.scheduledChange === "cancel",
    chargeDeclined: sub.status === "past_due",
    subscription_id: sub.id,
    ...(paddle ? { paddleSubscriptionId: sub.id, paddleCustomerId: sub.customerId } : {}),
  };
}

const exact = (t: Date | ExactTime): ExactTime => (typeof t === "string" ? t : exactTimeOf(t));

/**
 * An event older than the newest one applied to the same entity changes nothing. Compared at the
 * precision the provider gave (an ExactTime, docs/decisions/043), or to the millisecond for a Date.
 */
export function isStale(lastAppliedAt: Date | ExactTime | null | undefined, occurredAt: Date | ExactTime): boolean {
  return Boolean(lastAppliedAt && compareExact(exact(occurredAt), exact(lastAppliedAt)) < 0);
}

/** A stored row stamped with the newest event applied to it: exactly when the row has it (migration 024). */
export interface EventStamped {
  lastEventAt: Date;
  lastEventAtExact?: ExactTime | null;
}

/** Orders two rows by their newest event, at full precision. */
export function compareLastEvent(a: EventStamped, b: EventStamped): number {
  return compareExact(a.lastEventAtExact ?? exactTimeOf(a.lastEventAt), b.lastEventAtExact ?? exactTimeOf(b.lastEventAt));
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

export interface SubscriptionRow extends EventStamped {
  id: string;
  status: string;
  customerId: string | null;
  scheduledChange: string | null;
  currentPeriodStart: Date | null;
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
    compareLastEvent(b, a) ||
    (a.id < b.id ? 1 : -1);
  const on = rows.filter((r) => ON_STATUSES.has(r.status)).sort(byRecency);
  if (on.length > 0) return on[0];
  return [...rows].sort((a, b) => compareLastEvent(b, a) || (a.id < b.id ? 1 : -1))[0];
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
  /** The credit packs' one-time prices; a pack without one is not sold through Paddle. */
  creditPacks?: Partial<Record<CreditTopUpId, string>>;
}

/** The Paddle price of a credit pack, or null when none is configured. */
export function creditPackPrice(prices: PriceIds, packId: CreditTopUpId): string | null {
  return prices.creditPacks?.[packId] ?? null;
}

/** The credit pack a Paddle price sells, or null. */
export function creditPackForPrice(prices: PriceIds, priceId: string): CreditTopUp | null {
  return CREDIT_TOP_UPS.find((p) => creditPackPrice(prices, p.id) === priceId) ?? null;
}

/** A subscription as the plan-change and credit-pack rules read it. */
export interface RunningPlanInput {
  status: string;
  planId: string | null;
  scheduledChange: string | null;
}

/** Running: trialing or active and not set to end (a plan set to end is resumed first; a failed payment is fixed first). */
function isRunning(sub: RunningPlanInput | null | undefined): sub is RunningPlanInput {
  return Boolean(sub && (sub.status === "trialing" || sub.status === "active") && sub.scheduledChange !== "cancel");
}

/**
 * The monthly plans a subscriber may switch to (Basic <-> Pro): the others than the current one, only
 * while the subscription runs. Empty otherwise.
 */
export function planSwitchTargets(sub: RunningPlanInput | null | undefined): Plan[] {
  if (!isRunning(sub)) return [];
  return PLANS.filter((p) => p.billing === "monthly" && p.id !== sub.planId);
}

/** Why a plan switch is refused, or null when it may go ahead. */
export function planSwitchRefusal(sub: RunningPlanInput | null | undefined, planId: string): string | null {
  const plan = findPlan(planId);
  if (!plan || plan.billing !== "monthly") return "Choose the Basic or the Pro plan.";
  if (!sub || sub.status === "canceled") return "You have no plan to switch. Choose a plan instead.";
  if (sub.planId === plan.id) return `You are already on ${plan.name}.`;
  if (sub.scheduledChange === "cancel") return "Your plan is set to end. Resume it first, then switch.";
  if (!isRunning(sub)) return "Fix the failed payment first (update your payment method), then switch.";
  return null;
}

/**
 * Where the plan allows extra credits: a running Basic or Pro plan (trial included). Inner Circle's
 * credits are unlimited, and without a running plan there is no period for the credits to last through.
 */
export function creditPacksAllowed(input: { innerCircle: boolean; subscription: RunningPlanInput | null | undefined }): boolean {
  const plan = findPlan(input.subscription?.planId);
  return !input.innerCircle && isRunning(input.subscription) && plan?.billing === "monthly";
}

/** The sentence for a credit pack refused by creditPacksAllowed. */
export function creditPackRefusal(input: { innerCircle: boolean }): string {
  return input.innerCircle
    ? "Inner Circle credits are unlimited; there is nothing to top up."
    : "Extra credits come with a running Basic or Pro plan. Choose or resume a plan first.";
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
export interface ChargeRow extends EventStamped {
  id: string;
  status: string;
  origin: string | null;
  /** The line items' price ids. */
  priceIds: string[];
  totalCents: number | null;
  currencyCode: string | null;
  billingPeriodStart: Date | null;
  discountId: string | null;
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
    .sort((a, b) => chargeTime(b) - chargeTime(a) || compareLastEvent(b, a) || (a.id < b.id ? 1 : -1));
  const periodStart = sub.currentPeriodStart?.getTime() ?? -Infinity;
  const counts = (c: ChargeRow) => !c.discountId || chargeTime(c) >= periodStart;
  const chosen = candidates.find(counts);
  return chosen ? { cents: chosen.totalCents!, currencyCode: chosen.currencyCode } : own;
}

// ---------- declined payments ----------

/**
 * Paddle's transaction origins for a charge of the subscription itself: a renewal, a change billed
 * immediately, a one-time charge. A card change (subscription_payment_method_change, Paddle's zero-value
 * transaction on an active subscription), a checkout (web) or an API-made transaction is not one, and
 * its failure declines nothing (docs/decisions/043).
 */
export const SUBSCRIPTION_CHARGE_ORIGINS: readonly string[] = ["subscription_recurring", "subscription_update", "subscription_charge"];

/** One of a subscription's transactions as the declined flag reads it. */
export interface ChargeOutcomeRow extends EventStamped {
  status: string;
  origin: string | null;
  /** The type of the newest notification applied to it (transaction.payment_failed, ...); null before migration 024. */
  lastEventType?: string | null;
}

/** What a transaction's newest state says about paying for the subscription: failed, paid, or nothing. */
export function chargeOutcome(c: ChargeOutcomeRow): "failed" | "paid" | null {
  if (!c.origin || !SUBSCRIPTION_CHARGE_ORIGINS.includes(c.origin)) return null;
  if (c.status === "completed" || c.status === "paid") return "paid";
  if (c.lastEventType === "transaction.payment_failed" || c.status === "past_due") return "failed";
  return null;
}

/**
 * Whether the subscription's payment stands declined: the newest of its own state (past_due declines,
 * any other clears) and the outcomes of its charges decides, at full precision. At the same instant the
 * subscription's own state wins, then a payment over a failure. A function of the stored rows alone, so
 * it does not depend on the order the notifications arrived in.
 */
export function paymentDeclined(sub: EventStamped & { status: string }, charges: ChargeOutcomeRow[]): boolean {
  const says = [{ row: sub, rank: 2, declined: sub.status === "past_due" }];
  for (const c of charges) {
    const outcome = chargeOutcome(c);
    if (outcome) says.push({ row: c, rank: outcome === "paid" ? 1 : 0, declined: outcome === "failed" });
  }
  says.sort((a, b) => compareLastEvent(b.row, a.row) || b.rank - a.rank);
  return says[0].declined;
}

// ---------- what the billing page says about a subscription ----------

/** A subscription as the billing page receives it (dates as ISO strings, after serialisation). */
export interface PlanViewSubscription {
  status: string;
  nextBilledAt: string | null;
  currentPeriodEnd?: string | null;
  scheduledChange: string | null;
  scheduledChangeAt: string | null;
  recurringTotal?: { cents: number; currencyCode: string } | null;
  discounted?: boolean;
  /** "paddle" or "shopify" (decision 034): the offer to stay is a Paddle discount, never a Shopify plan's. */
  provider?: string;
}

export interface PlanViewOptions {
  canExtendTrial: boolean;
  canClaimDiscount: boolean;
  /** The retention offer's price, formatted ("$9.99"). */
  retentionPrice: string;
}

export type PlanBadgeTone = "success" | "info" | "warning" | "critical" | null;

export interface PlanView {
  badge: { label: string; tone: PlanBadgeTone };
  /** "Retention offer applied": only while the discounted cycle is still to be charged. */
  discountBadge: boolean;
  /** Where the subscription stands, in one or two sentences. */
  statusLine: string;
  /** What it costs and, with the retention offer, what the next cycle costs; null when nothing more is charged. */
  priceLine: string | null;
  actions: {
    /** Only while something will still be charged. */
    updatePayment: boolean;
    cancel: boolean;
    /** Withdraws a scheduled cancellation before the period ends. */
    resume: boolean;
    choosePlan: boolean;
  };
  /**
   * The cancel step: shown only while cancelling is possible; the offer only where it may be claimed;
   * `extendTrial`, the seed's extendedTrial offer, only to a trialing subscriber on the way out who has
   * not had it yet (it is never a button on the plan card: offered to everyone on day one it gave away
   * a week for nothing).
   */
  cancelStep: { available: boolean; offer: boolean; extendTrial: boolean; note: string | null };
}

const dayOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "—");

/** Set to end at the period's end (Paddle's scheduled_change cancel) and not ended yet. */
function isEnding(sub: Pick<PlanViewSubscription, "status" | "scheduledChange">): boolean {
  return sub.scheduledChange === "cancel" && sub.status !== "canceled";
}

/** The day a subscription set to end ends: Paddle's effective_at, else the period end. */
function endsOn(sub: Pick<PlanViewSubscription, "scheduledChangeAt" | "currentPeriodEnd">): string {
  return dayOf(sub.scheduledChangeAt ?? sub.currentPeriodEnd ?? null);
}

/**
 * Where a subscription stands, in one sentence. A subscription set to end always reads the same,
 * trial or not: nothing more is charged, so no next bill is named.
 */
export function planStatusLine(sub: PlanViewSubscription): string {
  if (sub.status === "canceled") return "This subscription has ended.";
  if (isEnding(sub)) return `Your plan ends on ${endsOn(sub)}. You will not be charged again.`;
  if (sub.status === "trialing") return `Trial ends ${dayOf(sub.nextBilledAt)}; the first charge is on that day.`;
  if (sub.status === "past_due") return "Your last payment failed. Update your payment method to keep your plan.";
  if (sub.status === "paused") return "This subscription is paused; nothing is charged while it is.";
  return `Next bill ${dayOf(sub.nextBilledAt)}.`;
}

/**
 * A charge as every price on the billing page is written (issue 25: "39.99 USD" stood next to "$29.99"):
 * the currency's en-US symbol, so a dollar price reads "$39.99" like the plan catalogue's and another
 * currency names itself ("CA$54.99", "€12.00").
 */
function amount(total: { cents: number; currencyCode: string }): string {
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: total.currencyCode }).format(total.cents / 100);
  } catch {
    // A code Intl does not know (Paddle sends ISO 4217): say it as the code, as before.
    return `${(total.cents / 100).toFixed(2)} ${total.currencyCode}`;
  }
}

/** The rule for the retention offer, as the cancel step states it (docs/decisions/009). */
function offerRuleNote(sub: PlanViewSubscription, options: PlanViewOptions): string | null {
  if (options.canClaimDiscount) return null;
  if (sub.status === "trialing") {
    const trial = "If you cancel now you keep access until the trial ends and are never charged.";
    return sub.provider === "shopify" ? trial : `${trial} The ${options.retentionPrice} offer to stay applies once your trial has ended.`;
  }
  return "You keep access until the end of the period you paid for.";
}

/** Everything the billing page's Plan card and cancel step show, from one subscription and the user's offers. */
export function planView(sub: PlanViewSubscription, options: PlanViewOptions): PlanView {
  const ended = sub.status === "canceled";
  const ending = isEnding(sub);
  // Something will still be charged (a paused subscription resumes billing later).
  const charging = !ended && !ending;

  const badge: PlanView["badge"] = ended
    ? { label: "Ended", tone: null }
    : ending
      ? { label: "Ends at period end", tone: "warning" }
      : sub.status === "trialing"
        ? { label: "Free trial", tone: "info" }
        : sub.status === "past_due"
          ? { label: "Payment failed", tone: "critical" }
          : sub.status === "paused"
            ? { label: "Paused", tone: null }
            : { label: "Active", tone: "success" };

  let priceLine: string | null = null;
  if (charging && sub.recurringTotal) {
    const monthly = amount(sub.recurringTotal);
    priceLine =
      sub.status === "trialing"
        ? `Then ${monthly} a month${sub.discounted ? ` (the next cycle ${options.retentionPrice})` : ""}.`
        : `${monthly} a month${sub.discounted ? `; next cycle ${options.retentionPrice}` : ""}.`;
  }

  const cancelAvailable = charging;
  return {
    badge,
    discountBadge: charging && Boolean(sub.discounted),
    statusLine: planStatusLine(sub),
    priceLine,
    actions: {
      updatePayment: charging,
      cancel: cancelAvailable,
      resume: ending,
      choosePlan: ended,
    },
    cancelStep: {
      available: cancelAvailable,
      offer: cancelAvailable && options.canClaimDiscount,
      extendTrial: cancelAvailable && sub.status === "trialing" && options.canExtendTrial,
      note: cancelAvailable ? offerRuleNote(sub, options) : null,
    },
  };
}

export interface PlanStatusInput {
  userSubscribed: string;
  trialing: boolean;
  subscriptionCancelled: boolean;
  chargeDeclined: boolean;
  innerCircle: boolean;
}

/** The fields planStatus reads, picked from a user (so a loader sends nothing else to the browser). */
export function planStatusInput(user: PlanStatusInput): PlanStatusInput {
  return {
    userSubscribed: user.userSubscribed,
    trialing: user.trialing,
    subscriptionCancelled: user.subscriptionCancelled,
    chargeDeclined: user.chargeDeclined,
    innerCircle: user.innerCircle,
  };
}

/** The account's plan in words and a badge tone: the site's dashboard and the embedded linked-account card. */
export function planStatus(me: PlanStatusInput): {
  label: string;
  tone: "success" | "info" | "warning" | "critical" | undefined;
} {
  if (me.innerCircle) return { label: "Inner Circle", tone: "success" };
  if (me.chargeDeclined) return { label: "Payment declined", tone: "critical" };
  if (me.userSubscribed === "yes" && me.trialing) return { label: "Free trial", tone: "info" };
  if (me.userSubscribed === "yes" && me.subscriptionCancelled)
    return { label: "Cancelled, active until period end", tone: "warning" };
  if (me.userSubscribed === "yes") return { label: "Active", tone: "success" };
  return { label: "No plan yet", tone: undefined };
}

/** Where a completed checkout lands: the dashboard, which says the trial or purchase has started. */
export const CHECKOUT_SUCCESS_URL = "/dashboard?location=dashboard&checkout=success";
