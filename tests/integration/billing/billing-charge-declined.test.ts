// What marks an account "Payment declined" (chargeDeclined, and the "Payment Declined" marketing event):
// only a failed charge of the subscription itself (a renewal, an immediately billed change, a one-time
// charge: origin subscription_recurring, subscription_update, subscription_charge) newer than what we
// hold; a failed card change (origin subscription_payment_method_change, Paddle's zero-value
// transaction on an active subscription) or a checkout attempt never does. A later successful payment
// of the subscription clears it; an older one delivered late does not (docs/decisions/043).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import type { SubscriptionSnapshot, TransactionSnapshot } from "~/integrations/paddle.server";
import {
  completedTransaction,
  deliver,
  nextPeriod,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
  userBilling,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const base = Date.now() - 3600_000;
const at = (minutes: number) => new Date(base + minutes * 60_000);

const declinedRows = (userId: string) => db.outboxEvent.count({ where: { userId, name: "Payment Declined" } });

/** A user with an active subscription (trial, then activated and paid). */
async function activeSubscriber() {
  const user = await createUser();
  const trial = trialSnapshot(user.id, { at: at(0) });
  const active = nextPeriod(trial);
  expect((await deliver(subscriptionEvent("subscription.created", trial, at(0)))).body.outcome).toBe("applied");
  expect((await deliver(subscriptionEvent("subscription.activated", active, at(1)))).body.outcome).toBe("applied");
  expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: false });
  return { user, active };
}

function charge(s: SubscriptionSnapshot, status: string, origin: string, options: Partial<TransactionSnapshot> = {}): TransactionSnapshot {
  return completedTransaction(s.userId, s.price, {
    status,
    subscriptionId: s.id,
    customerId: s.customerId,
    origin: origin as TransactionSnapshot["origin"],
    totalCents: origin === "subscription_payment_method_change" ? 0 : s.price.unitAmountCents,
    billingPeriod: { startsAt: s.currentPeriodStart, endsAt: s.currentPeriodEnd },
    ...options,
  });
}

describe("a failed card change", () => {
  it("transaction.payment_failed for a payment-method change on an active subscription: not declined, no marketing event", async () => {
    const { user, active } = await activeSubscriber();
    for (const status of ["ready", "past_due"]) {
      const failed = charge(active, status, "subscription_payment_method_change");
      expect((await deliver(transactionEvent("transaction.payment_failed", failed, at(5)))).body.outcome).toBe("applied");
    }
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: false });
    expect(await declinedRows(user.id)).toBe(0);
  });

  it("a checkout attempt that fails (origin web) does not decline the subscription either", async () => {
    const { user, active } = await activeSubscriber();
    await deliver(transactionEvent("transaction.payment_failed", charge(active, "ready", "web"), at(5)));
    expect((await userBilling(user.id)).chargeDeclined).toBe(false);
    expect(await declinedRows(user.id)).toBe(0);
  });
});

describe("a failed charge of the subscription", () => {
  for (const origin of ["subscription_recurring", "subscription_update", "subscription_charge"]) {
    it(`${origin}: declined, with the marketing event; the charge paid later clears it`, async () => {
      const { user, active } = await activeSubscriber();
      const failed = charge(active, "past_due", origin);
      await deliver(transactionEvent("transaction.payment_failed", failed, at(5)));
      expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: true });
      const rows = await declinedRows(user.id);
      expect(rows).toBeGreaterThan(0);

      // Paddle retries the same transaction and it goes through.
      await deliver(transactionEvent("transaction.completed", { ...failed, status: "completed" }, at(6)));
      expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: false });
      expect(await declinedRows(user.id)).toBe(rows);
    });
  }

  it("a renewal that fails, then a newer renewal paid by another transaction: cleared", async () => {
    const { user, active } = await activeSubscriber();
    await deliver(transactionEvent("transaction.payment_failed", charge(active, "past_due", "subscription_recurring"), at(5)));
    expect((await userBilling(user.id)).chargeDeclined).toBe(true);
    await deliver(transactionEvent("transaction.completed", charge(active, "completed", "subscription_recurring"), at(7)));
    expect((await userBilling(user.id)).chargeDeclined).toBe(false);
  });

  it("an older paid charge delivered after a newer failure does not clear it", async () => {
    const { user, active } = await activeSubscriber();
    const paidEarlier = charge(active, "completed", "subscription_recurring");
    const failed = charge(nextPeriod(active), "past_due", "subscription_recurring");
    await deliver(transactionEvent("transaction.payment_failed", failed, at(10)));
    await deliver(transactionEvent("transaction.completed", paidEarlier, at(2)));
    expect((await userBilling(user.id)).chargeDeclined).toBe(true);
    // The same transaction's own earlier state is stale and changes nothing either.
    expect((await deliver(transactionEvent("transaction.billed", { ...failed, status: "billed" }, at(9)))).body.outcome).toBe("stale");
    expect((await userBilling(user.id)).chargeDeclined).toBe(true);
  });

  it("the same history delivered newest first ends the same way as in order", async () => {
    const { user, active } = await activeSubscriber();
    const failed = charge(active, "past_due", "subscription_recurring");
    await deliver(transactionEvent("transaction.completed", { ...failed, status: "completed" }, at(6)));
    expect((await deliver(transactionEvent("transaction.payment_failed", failed, at(5)))).body.outcome).toBe("stale");
    expect((await userBilling(user.id)).chargeDeclined).toBe(false);
    expect(await declinedRows(user.id)).toBe(0);
  });

  it("a failure older than the subscription's newer active state does not decline", async () => {
    const { user, active } = await activeSubscriber();
    await deliver(subscriptionEvent("subscription.updated", active, at(8)));
    await deliver(transactionEvent("transaction.payment_failed", charge(active, "past_due", "subscription_recurring"), at(5)));
    expect((await userBilling(user.id)).chargeDeclined).toBe(false);
  });

  it("a failure that arrives before its subscription's first notification declines once the subscription is known", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { at: at(0) });
    const active = nextPeriod(trial);
    await deliver(transactionEvent("transaction.payment_failed", charge(active, "past_due", "subscription_recurring"), at(5)));
    await deliver(subscriptionEvent("subscription.activated", active, at(1)));
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "yes", chargeDeclined: true });
  });
});
