// Paddle notifications for tests: Paddle-shaped payloads (the shapes in ~/integrations/paddle.server,
// which follow Paddle's documented subscription and transaction entities), signed at the current time
// with the secret the server verifies against, and delivered through the real webhook route.
import { randomUUID } from "node:crypto";
import { db } from "~/db.server";
import { getEnv, paddleWebhookSecret } from "~/env.server";
import { findPlan, type PlanId } from "~/domain/billing/plans";
import {
  eventJson,
  signWebhook,
  subscriptionJson,
  transactionJson,
  type LocalPrice,
  type SubscriptionSnapshot,
  type TransactionSnapshot,
} from "~/integrations/paddle.server";
import { action as paddleWebhook } from "~/routes/webhooks.paddle";
import { SUBSCRIPTION_FIELDS } from "~/services/billing/account.server";
import { call } from "./routes";

export const DAY_MS = 24 * 3600_000;

/** What the server signs and verifies with when there is no PADDLE_API_KEY (the test environment). */
export function webhookSecret(): string {
  return paddleWebhookSecret(getEnv());
}

export function priceIds() {
  const env = getEnv();
  return {
    basic: env.PADDLE_PRICE_BASIC,
    pro: env.PADDLE_PRICE_PRO,
    innerCircle: env.PADDLE_PRICE_INNER_CIRCLE,
    caseStudy: env.PADDLE_PRICE_CASE_STUDY,
    creditPacks: { "ai-ads-50": env.PADDLE_PRICE_CREDITS_AI_ADS_50, "product-pages-50": env.PADDLE_PRICE_CREDITS_PRODUCT_PAGES_50 },
  };
}

export function planPrice(planId: PlanId): LocalPrice {
  const plan = findPlan(planId)!;
  const ids = priceIds();
  return {
    id: planId === "basic" ? ids.basic : planId === "pro" ? ids.pro : ids.innerCircle,
    name: plan.name,
    unitAmountCents: plan.priceCents,
    currencyCode: "USD",
    interval: plan.billing === "monthly" ? "month" : null,
    trialDays: plan.trialDays,
  };
}

export function caseStudyPrice(): LocalPrice {
  return {
    id: priceIds().caseStudy,
    name: "Case study",
    unitAmountCents: 1999,
    currencyCode: "USD",
    interval: null,
    trialDays: 0,
  };
}

export const newSubscriptionId = () => `sub_01${randomUUID().replace(/-/g, "").slice(0, 24)}`;
export const newCustomerId = () => `ctm_01${randomUUID().replace(/-/g, "").slice(0, 24)}`;
export const newTransactionId = () => `txn_01${randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** A subscription as Paddle holds it right after checkout with a trial. */
export function trialSnapshot(
  userId: string,
  options: { planId?: PlanId; at?: Date; id?: string; customerId?: string } = {},
) {
  const at = options.at ?? new Date();
  const price = planPrice(options.planId ?? "pro");
  const end = new Date(at.getTime() + price.trialDays * DAY_MS);
  const snapshot: SubscriptionSnapshot = {
    id: options.id ?? newSubscriptionId(),
    status: "trialing",
    customerId: options.customerId ?? newCustomerId(),
    userId,
    price,
    startedAt: at,
    currentPeriodStart: at,
    currentPeriodEnd: end,
    nextBilledAt: end,
    scheduledChange: null,
    discountId: null,
  };
  return snapshot;
}

/** The same subscription one billing period later: active, a new current_billing_period. */
export function nextPeriod(s: SubscriptionSnapshot, days = 30): SubscriptionSnapshot {
  const start = s.currentPeriodEnd;
  const end = new Date(start.getTime() + days * DAY_MS);
  return { ...s, status: "active", currentPeriodStart: start, currentPeriodEnd: end, nextBilledAt: end };
}

/** A full notification body (event_id, event_type, occurred_at, notification_id, data). */
export function subscriptionEvent(eventType: string, s: SubscriptionSnapshot, occurredAt: Date) {
  return eventJson(eventType, subscriptionJson(s, occurredAt), occurredAt);
}

export function transactionEvent(eventType: string, t: TransactionSnapshot, occurredAt: Date) {
  return eventJson(eventType, transactionJson(t, occurredAt), occurredAt);
}

export function completedTransaction(
  userId: string,
  price: LocalPrice,
  options: Partial<TransactionSnapshot> = {},
): TransactionSnapshot {
  return {
    id: newTransactionId(),
    status: "completed",
    customerId: newCustomerId(),
    userId,
    subscriptionId: null,
    origin: "web",
    price,
    totalCents: price.unitAmountCents,
    ...options,
  };
}

export interface Delivery {
  /** The Paddle-Signature header; signed now with the server's secret by default, null to leave it out. */
  signature?: string | null;
}

/** POSTs a raw body to /webhooks/paddle through the route's action, as Paddle does. */
export async function postWebhook(raw: string, delivery: Delivery = {}) {
  const signature = delivery.signature === undefined ? signWebhook(raw, webhookSecret()) : delivery.signature;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["paddle-signature"] = signature;
  const res = await call(paddleWebhook, "/webhooks/paddle", { method: "POST", body: raw, headers });
  return { status: res.status, body: (await res.json()) as { ok?: boolean; outcome?: string; error?: string } };
}

/** Serialises and delivers a notification, signed at the current time. */
export function deliver(event: object, delivery: Delivery = {}) {
  return postWebhook(JSON.stringify(event), delivery);
}

export async function userBilling(userId: string) {
  return db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      userSubscribed: true,
      trialing: true,
      subscriptionCancelled: true,
      chargeDeclined: true,
      subscription_id: true,
      paddleSubscriptionId: true,
      paddleCustomerId: true,
      innerCircle: true,
      boughtCaseStudy: true,
      claimedDiscount: true,
      extendedTrial: true,
    },
  });
}

/**
 * Everything a user or caller can observe of one user's billing (flags, subscription and transaction rows,
 * balances, the ledger's sums), with that user's own ids replaced by placeholders so two users compare.
 */
export async function observableBilling(userId: string, ids: { subscriptionId: string; customerId: string; txnIds: string[] }) {
  const swap = (v: string | null) =>
    v === ids.subscriptionId ? "<sub>" : v === ids.customerId ? "<ctm>" : v && ids.txnIds.includes(v) ? `<txn${ids.txnIds.indexOf(v)}>` : v;
  const user = await userBilling(userId);
  const subs = await db.billingSubscription.findMany({
    where: { userId },
    select: { ...SUBSCRIPTION_FIELDS, customerId: true, priceAmountCents: true, priceCurrencyCode: true, lastEventAt: true },
  });
  const txns = await db.billingTransaction.findMany({
    where: { userId },
    select: { id: true, subscriptionId: true, status: true, origin: true, priceIds: true, totalCents: true, currencyCode: true, billingPeriodStart: true, discountId: true, lastEventAt: true },
  });
  const balances = await db.creditBalance.findMany({ where: { userId }, select: { feature: true, balance: true } });
  const ledgerSums = await db.creditLedger.groupBy({ by: ["feature"], where: { userId }, _sum: { amount: true } });
  return {
    user: {
      ...user,
      subscription_id: swap(user.subscription_id),
      paddleSubscriptionId: swap(user.paddleSubscriptionId),
      paddleCustomerId: swap(user.paddleCustomerId),
    },
    subscriptions: subs.map((s) => ({ ...s, id: swap(s.id), customerId: swap(s.customerId) })),
    transactions: txns
      .map((t) => ({ ...t, id: swap(t.id), subscriptionId: swap(t.subscriptionId) }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id))),
    balances: Object.fromEntries(balances.map((b) => [b.feature, b.balance])),
    // The balance is always the sum of the ledger, whatever the order.
    ledgerSums: Object.fromEntries(ledgerSums.map((r) => [r.feature, r._sum.amount ?? 0])),
  };
}

export async function balancesOf(userId: string): Promise<Record<string, number>> {
  const rows = await db.creditBalance.findMany({ where: { userId }, select: { feature: true, balance: true } });
  return Object.fromEntries(rows.map((r) => [r.feature, r.balance]));
}

export async function ledgerOf(userId: string) {
  return db.creditLedger.findMany({
    where: { userId },
    orderBy: { id: "asc" },
    select: { id: true, feature: true, kind: true, amount: true, balanceAfter: true, idempotencyKey: true },
  });
}

export async function eventRow(eventId: string) {
  return db.paddleEvent.findUnique({
    where: { eventId },
    select: { eventId: true, outcome: true, userId: true, entityId: true },
  });
}
