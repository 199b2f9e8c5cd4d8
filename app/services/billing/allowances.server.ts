// The credits a plan's subscription grants, one rule for both rails (docs/decisions/008, 009, 034): a
// trial tops each feature up to the plan's trial allowance, a started period resets each feature to the
// plan's allowance, and an ended subscription empties the balances. Every grant is keyed, so applying it
// again is a no-op; the caller names the key (each rail orders and deduplicates its own events) and
// decides which subscription is the one that grants. Runs inside the caller's transaction.
import type { DbClient } from "~/db.server";
import { CREDIT_FEATURES, UNLIMITED_THRESHOLD, type CreditFeature, type CreditTopUp, type Plan } from "~/domain/billing/plans";
import { applyAllowance, expireAll } from "~/services/billing/credits.server";

/** The plan's trial allowance, topped up once per subscription. */
export async function grantTrialCredits(tx: DbClient, userId: string, plan: Plan, subscriptionId: string): Promise<void> {
  for (const feature of CREDIT_FEATURES) {
    await applyAllowance(tx, {
      userId,
      feature,
      allowance: plan.trialCredits[feature],
      idempotencyKey: `trial:${subscriptionId}:${feature}`,
      reason: `${plan.name} trial started`,
      mode: "top-up",
    });
  }
}

/** The plan's allowance for the period starting `periodStart` (ISO), once per `keyOf(feature)`. */
export async function resetPeriodCredits(
  tx: DbClient,
  userId: string,
  plan: Plan,
  periodStart: string,
  keyOf: (feature: CreditFeature) => string,
): Promise<void> {
  for (const feature of CREDIT_FEATURES) {
    await applyAllowance(tx, {
      userId,
      feature,
      allowance: plan.credits[feature],
      idempotencyKey: keyOf(feature),
      reason: `${plan.name} credits for the period from ${periodStart.slice(0, 10)}`,
      mode: "reset",
    });
  }
}

/** Every balance emptied: the subscription ended. */
export async function endSubscriptionCredits(tx: DbClient, userId: string, idempotencyKey: string): Promise<void> {
  await expireAll(tx, { userId, idempotencyKey, reason: "Subscription ended" });
}

/**
 * A credit pack's credits added on top of the balance, once per `idempotencyKey` (one purchase): the
 * ledger's unique key makes a second grant (two notifications of one purchase) a no-op. Both rails sell
 * the same packs (app/domain/billing/plans.ts CREDIT_TOP_UPS). Returns whether anything was granted.
 */
export async function grantCreditPack(
  tx: DbClient,
  userId: string,
  pack: CreditTopUp,
  idempotencyKey: string,
  reason: string,
): Promise<boolean> {
  const seen = await tx.creditLedger.findUnique({ where: { idempotencyKey }, select: { id: true } });
  if (seen) return false;
  const balance = await tx.creditBalance.findUnique({
    where: { userId_feature: { userId, feature: pack.feature } },
    select: { balance: true },
  });
  const before = balance?.balance ?? 0;
  if (before > UNLIMITED_THRESHOLD) return false; // Inner Circle: nothing to add to
  await tx.creditLedger.create({
    data: { userId, feature: pack.feature, kind: "grant", amount: pack.credits, cost: 0, balanceAfter: before + pack.credits, idempotencyKey, reason },
    select: { id: true },
  });
  return true;
}
