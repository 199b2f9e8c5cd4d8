// A Shopify subscription's state on our rows (docs/decisions/034, 043): writing one subscription's facts
// as of a time unless a newer state is held (webhooks arrive out of order), ending a row, and what
// follows every change, exactly as for Paddle: the user's flags recomputed with the marketing lifecycle
// rows they cause (decision 032), and the credit allowances of the subscription that decides access.
// Every function here runs inside the caller's transaction.
import { createHash } from "node:crypto";
import { isStale, primarySubscription, type SubscriptionStatus } from "~/domain/billing/billing";
import { exactTimeOf } from "~/domain/event-time";
import { findPlan, type Plan } from "~/domain/billing/plans";
import { rowFromShopify, type ShopifySubscriptionFacts } from "~/domain/billing/shopify-billing";
import type { DbClient } from "~/db.server";
import { endSubscriptionCredits, grantTrialCredits, resetPeriodCredits } from "~/services/billing/allowances.server";
import { readMarketingFlags, writeBillingLifecycle } from "~/services/billing/flags.server";
import { outboxWritten } from "~/services/outbox.server";
import type { ShopifyBillingRuntime, ShopifyWebhookOutcome } from "~/services/shopify-billing/shared.server";

type SyncDeps = Pick<ShopifyBillingRuntime, "syncUserFlags">;

/**
 * The user's flags recomputed from their rows, and the marketing lifecycle events the change causes (trial
 * started, subscription started or cancelled, ...) written to the outbox in the same transaction, exactly as
 * a Paddle notification does (docs/decisions/032). `changeKey` makes the events' dedupe keys unique.
 */
async function syncFlags(rt: SyncDeps, tx: DbClient, userId: string, changeKey: string) {
  const before = await readMarketingFlags(tx, userId);
  await rt.syncUserFlags(tx, userId);
  // The deliverer is woken after the commit; before it, it finds nothing and the minute sweep catches up.
  if (before && (await writeBillingLifecycle(tx, userId, before, `shopify:${changeKey}`))) setImmediate(outboxWritten);
}

/**
 * Writes one Shopify subscription's state as of `at` onto `userId`, unless an equal or newer state is
 * already held (out-of-order webhooks), then recomputes the user's flags and applies the allowances
 * exactly as billing-events does for Paddle. Runs inside the caller's transaction.
 */
export async function applyFacts(
  rt: SyncDeps,
  tx: DbClient,
  input: { userId: string; shop: string; facts: ShopifySubscriptionFacts; at: Date },
): Promise<ShopifyWebhookOutcome> {
  const { userId, shop, facts, at } = input;
  const existing = await tx.billingSubscription.findUnique({
    where: { id: facts.id },
    select: { userId: true, lastEventAt: true, provider: true, trialExtended: true },
  });
  if (existing && (existing.userId !== userId || existing.provider !== "shopify")) return "unmatched";
  if (isStale(existing?.lastEventAt, at)) return "stale";
  const state = rowFromShopify(facts, at);
  if (!state) return "ignored"; // not approved yet: nothing is charged, nothing changes
  const data = {
    provider: "shopify",
    shop,
    status: state.status,
    planId: state.planId,
    priceId: state.planId ? `shopify:${state.planId}` : null,
    billingInterval: "month",
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    nextBilledAt: state.nextBilledAt,
    scheduledChange: null,
    scheduledChangeAt: null,
    priceAmountCents: state.priceAmountCents,
    priceCurrencyCode: state.priceCurrencyCode,
    recurringTotalCents: state.priceAmountCents,
    currencyCode: state.priceCurrencyCode,
    trialExtended: state.trialExtended || Boolean(existing?.trialExtended),
    lastEventAt: at,
    // Shopify's times are milliseconds; the exact column is what rows are ordered by (docs/decisions/043).
    lastEventAtExact: exactTimeOf(at),
  };
  await tx.billingSubscription.upsert({
    where: { id: facts.id },
    create: { id: facts.id, userId, ...data },
    update: data,
    select: { id: true },
  });
  await syncFlags(rt, tx, userId, `${facts.id}:${state.status}:${at.getTime()}`);
  await grantForPrimary(tx, userId);
  return "applied";
}

/** Ends one of our Shopify rows as of `at` (cancelled, declined, expired or uninstalled). */
export async function endRow(rt: SyncDeps, tx: DbClient, userId: string, id: string, at: Date) {
  const row = await tx.billingSubscription.findUnique({ where: { id }, select: { lastEventAt: true } });
  if (!row || isStale(row.lastEventAt, at)) return;
  await tx.billingSubscription.update({
    where: { id },
    data: { status: "canceled", nextBilledAt: null, scheduledChange: null, scheduledChangeAt: null, lastEventAt: at, lastEventAtExact: exactTimeOf(at) },
    select: { id: true },
  });
  await syncFlags(rt, tx, userId, `${id}:canceled:${at.getTime()}`);
  await grantForPrimary(tx, userId);
}

/**
 * Credits follow the subscription that decides the user's access, as for Paddle, but applied for
 * that subscription whichever row's webhook changed it: when Pro expires before the Basic it replaced
 * is reported cancelled, the Basic row decides for a moment and then nothing does, and the balance
 * must end where an in-order delivery ends it. Every grant is keyed, so applying it again is a no-op.
 * A Paddle row deciding is left to Paddle's notifications.
 */
async function grantForPrimary(tx: DbClient, userId: string) {
  const rows = await tx.billingSubscription.findMany({
    where: { userId },
    select: { id: true, provider: true, status: true, planId: true, customerId: true, scheduledChange: true, currentPeriodStart: true, lastEventAt: true, lastEventAtExact: true },
  });
  const primary = primarySubscription(rows);
  if (!primary || primary.provider !== "shopify") return;
  const periodStart = primary.currentPeriodStart ?? primary.lastEventAt;
  // Ending is keyed on every row's state, not only on the ended row: if a stale "on" row decided for a
  // while and topped the balance up, the end applies again once nothing is on. Emptying is harmless to repeat.
  const endKey = rows
    .map((r) => `${r.id}=${r.status}@${r.lastEventAt.getTime()}`)
    .sort()
    .join(",");
  await grantFor(tx, userId, primary.id, primary.status as SubscriptionStatus, findPlan(primary.planId), periodStart, primary.id, endKey);
}

/** The allowances of billing-events' applySubscription, for the subscription that decides the user's access. */
async function grantFor(
  tx: DbClient,
  userId: string,
  subscriptionId: string,
  status: SubscriptionStatus,
  plan: Plan | undefined,
  periodStart: Date,
  primaryId: string | null,
  endKey = "",
) {
  if (primaryId !== subscriptionId) return;
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { innerCircle: true } });
  if (user.innerCircle) return;
  if (status === "trialing" && plan) {
    await grantTrialCredits(tx, userId, plan, subscriptionId);
  } else if ((status === "active" || status === "past_due") && plan) {
    const period = periodStart.toISOString();
    await resetPeriodCredits(tx, userId, plan, period, (feature) => `period:${subscriptionId}:${period}:shopify:${plan.id}:${feature}`);
  } else if (status === "canceled") {
    await endSubscriptionCredits(
      tx,
      userId,
      `canceled:${subscriptionId}${endKey ? `:${createHash("sha256").update(endKey).digest("base64url").slice(0, 22)}` : ""}`,
    );
  }
}
