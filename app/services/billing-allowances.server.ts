// The credits a plan's subscription grants, one rule for both rails (docs/decisions/008, 009, 034): a
// trial tops each feature up to the plan's trial allowance, a started period resets each feature to the
// plan's allowance, and an ended subscription empties the balances. Every grant is keyed, so applying it
// again is a no-op; the caller names the key (each rail orders and deduplicates its own events) and
// decides which subscription is the one that grants. Runs inside the caller's transaction.
import type { DbClient } from "~/db.server";
import { CREDIT_FEATURES, type CreditFeature, type Plan } from "~/domain/plans";
import { applyAllowance, expireAll } from "~/services/credits.server";

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
