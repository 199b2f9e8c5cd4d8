// The user's billing flags, one rule for both rails (docs/decisions/009, 034): `userSubscribed`, `trialing`,
// `chargeDeclined`, ... derived from all of the user's subscription rows and the primary one's charges
// (app/domain/billing/billing.ts), and the marketing lifecycle rows a change of them causes, written in the same
// transaction (docs/decisions/032). Paddle's notifications (billing-events.server.ts) and the Shopify rail
// (shopify-billing/) both change flags only through here.
import { NO_SUBSCRIPTION_FLAGS, paymentDeclined, primarySubscription, subscriptionFlags, type SubscriptionStatus } from "~/domain/billing/billing";
import type { DbClient } from "~/db.server";
import { outboxRows, writeOutbox } from "~/services/outbox.server";

/** The user's flags the marketing status and lifecycle events derive from (docs/decisions/032). */
const MARKETING_FLAGS_SELECT = {
  userSubscribed: true,
  trialing: true,
  subscriptionCancelled: true,
  chargeDeclined: true,
  innerCircle: true,
  boughtCaseStudy: true,
  subscription_id: true,
  paddleSubscriptionId: true,
  shopifyStoreName: true,
} as const;

type MarketingFlags = Awaited<ReturnType<typeof readMarketingFlags>>;

/** The flags a billing change is compared on, before and after it (null: no such user). */
export function readMarketingFlags(tx: DbClient, userId: string) {
  return tx.user.findUnique({ where: { id: userId }, select: MARKETING_FLAGS_SELECT });
}

/**
 * After a billing change on either rail, the marketing lifecycle events it caused (trial started, cancelled, ...)
 * as outbox rows in the same transaction (docs/decisions/032). `changeKey` names the change uniquely, with its
 * source ("paddle:evt_…", "shopify:…"). True when rows were written: the caller wakes the deliverer after commit.
 */
export async function writeBillingLifecycle(tx: DbClient, userId: string, before: NonNullable<MarketingFlags>, changeKey: string) {
  const after = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: MARKETING_FLAGS_SELECT });
  const rows = outboxRows.billing(userId, before, after, changeKey);
  if (rows.length === 0) return false;
  await writeOutbox(tx, rows);
  return true;
}

/** Recomputes the user's subscription flags from all their subscription rows (any provider). */
export async function syncUserFlags(tx: DbClient, userId: string) {
  const rows = await tx.billingSubscription.findMany({
    where: { userId },
    select: {
      id: true,
      status: true,
      customerId: true,
      scheduledChange: true,
      currentPeriodStart: true,
      lastEventAt: true,
      lastEventAtExact: true,
      provider: true,
    },
  });
  const primary = primarySubscription(rows);
  const flags = primary
    ? subscriptionFlags({
        id: primary.id,
        status: primary.status as SubscriptionStatus,
        customerId: primary.customerId,
        scheduledChange: primary.scheduledChange as "cancel" | null,
        provider: primary.provider,
      })
    : NO_SUBSCRIPTION_FLAGS;
  // Declined follows the newest of the subscription's own state and its charges' outcomes
  // (paymentDeclined): a failed renewal newer than the state we hold declines, a later payment clears.
  const charges =
    primary?.provider === "paddle"
      ? await tx.billingTransaction.findMany({
          where: { subscriptionId: primary.id, userId },
          select: { status: true, origin: true, lastEventType: true, lastEventAt: true, lastEventAtExact: true },
        })
      : [];
  await tx.user.update({
    where: { id: userId },
    data: {
      ...flags,
      ...(primary ? { chargeDeclined: paymentDeclined(primary, charges) } : {}),
      ...(primary?.customerId && primary.provider === "paddle" ? { paddleCustomerId: primary.customerId } : {}),
    },
    select: { id: true },
  });
  return primary;
}
