// The cases an attacker's test found (docs/decisions/009, "Update: event order"), each through the
// real webhook route with signed Paddle-shaped notifications: a stale update carrying the retention
// discount still marks it claimed (so it cannot be claimed twice); a late renewal from an older period
// or another plan does not change what the subscription costs, and a discounted price ends with its
// cycle; a signature dated too far in the future is refused.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { OFFERS } from "~/domain/billing/plans";
import { MAX_SIGNATURE_FUTURE_SKEW_MS, signWebhook, type SubscriptionSnapshot } from "~/integrations/paddle.server";
import { userSelect } from "~/services/accounts/auth.server";
import { billing } from "~/services/index.server";
import {
  balancesOf,
  completedTransaction,
  deliver,
  eventRow,
  nextPeriod,
  planPrice,
  postWebhook,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
  userBilling,
  webhookSecret,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const RETENTION = getEnv().PADDLE_RETENTION_DISCOUNT_ID;
const base = Date.now() - 3600_000;
const at = (minutes: number) => new Date(base + minutes * 60_000);

const loadUser = (id: string) => db.user.findUniqueOrThrow({ where: { id }, select: userSelect });

/** A renewal charge for a subscription's current period, as Paddle reports it. */
function renewal(s: SubscriptionSnapshot, totalCents = s.price.unitAmountCents, discountId: string | null = null) {
  return completedTransaction(s.userId, s.price, {
    subscriptionId: s.id,
    customerId: s.customerId,
    origin: "subscription_recurring",
    totalCents,
    billingPeriod: { startsAt: s.currentPeriodStart, endsAt: s.currentPeriodEnd },
    discountId,
  });
}

async function applied(event: object) {
  expect((await deliver(event)).body.outcome).toBe("applied");
}

describe("the retention discount is claimed for good", () => {
  it("created -> activated -> newest update without it -> an older update with it (stale): claimed, and a second claim is refused", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { planId: "pro", at: at(0) });
    const active = nextPeriod(trial);
    await applied(subscriptionEvent("subscription.created", trial, at(0)));
    await applied(subscriptionEvent("subscription.activated", active, at(1)));
    await applied(subscriptionEvent("subscription.updated", { ...active, discountId: null }, at(3)));
    const older = subscriptionEvent("subscription.updated", { ...active, discountId: RETENTION }, at(2));
    expect((await deliver(older)).body.outcome).toBe("stale");

    expect((await userBilling(user.id)).claimedDiscount).toBe(true);
    // Stale otherwise: the subscription keeps the newest state.
    const row = await db.billingSubscription.findUniqueOrThrow({ where: { id: trial.id }, select: { discountId: true } });
    expect(row.discountId).toBeNull();
    const again = await billing.claimDiscount(await loadUser(user.id), trial.id).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409, message: "You have already claimed this offer." });
    expect((await billing.overview(await loadUser(user.id))).canClaimDiscount).toBe(false);
  });

  it("a discounted charge seen before any subscription update also marks it claimed; an update without it never clears it", async () => {
    const user = await createUser();
    const active = nextPeriod(trialSnapshot(user.id, { at: at(0) }));
    await applied(transactionEvent("transaction.completed", renewal(active, OFFERS.retentionDiscount.priceCents, RETENTION), at(5)));
    await applied(subscriptionEvent("subscription.activated", active, at(1)));
    await applied(subscriptionEvent("subscription.updated", { ...nextPeriod(active), discountId: null }, at(6)));
    expect((await userBilling(user.id)).claimedDiscount).toBe(true);
  });

  it("another discount, or none, claims nothing", async () => {
    const user = await createUser();
    const active = nextPeriod(trialSnapshot(user.id, { at: at(0) }));
    await applied(subscriptionEvent("subscription.activated", active, at(1)));
    await applied(subscriptionEvent("subscription.updated", { ...active, discountId: "dsc_01someotherdiscount" }, at(2)));
    expect((await userBilling(user.id)).claimedDiscount).toBe(false);
  });
});

describe("what the subscription costs comes from the newest information", () => {
  it("on Pro, a late Basic renewal from an older period does not change the amount (3999, not 2999)", async () => {
    const user = await createUser();
    const trial = trialSnapshot(user.id, { planId: "basic", at: at(0) });
    const onBasic = nextPeriod(trial);
    const onPro = { ...nextPeriod(onBasic), price: planPrice("pro") };
    await applied(subscriptionEvent("subscription.created", trial, at(0)));
    await applied(subscriptionEvent("subscription.activated", onBasic, at(1)));
    await applied(subscriptionEvent("subscription.updated", onPro, at(3)));
    await applied(transactionEvent("transaction.completed", renewal(onPro), at(4)));
    // The Basic renewal of the earlier period arrives last.
    const late = renewal(onBasic);
    await applied(transactionEvent("transaction.completed", late, at(2)));

    const details = await billing.getPlanDetails(await loadUser(user.id), trial.id);
    expect(details).toMatchObject({ priceId: planPrice("pro").id, totalPrice: 3999, currencyCode: "USD" });
    // The late charge is recorded all the same.
    expect(await db.billingTransaction.findUniqueOrThrow({ where: { id: late.id }, select: { totalCents: true } })).toEqual({
      totalCents: 2999,
    });
  });

  it("a late charge from an older period of the same plan does not replace the newer period's amount", async () => {
    const user = await createUser();
    const p1 = nextPeriod(trialSnapshot(user.id, { at: at(0) }));
    const p2 = nextPeriod(p1);
    await applied(subscriptionEvent("subscription.updated", p2, at(3)));
    await applied(transactionEvent("transaction.completed", { ...renewal(p2), totalCents: 5499, price: { ...p2.price, currencyCode: "CAD" } }, at(4)));
    await applied(transactionEvent("transaction.completed", renewal(p1), at(2)));
    const details = await billing.getPlanDetails(await loadUser(user.id), p1.id);
    expect(details).toMatchObject({ totalPrice: 5499, currencyCode: "CAD" });
  });

  it("the discounted price holds for its cycle, then the price's own amount, before the next charge arrives", async () => {
    const user = await createUser();
    const active = nextPeriod(trialSnapshot(user.id, { planId: "pro", at: at(0) }));
    await applied(subscriptionEvent("subscription.activated", active, at(1)));
    await applied(transactionEvent("transaction.completed", renewal(active), at(2)));
    await applied(subscriptionEvent("subscription.updated", { ...active, discountId: RETENTION }, at(3)));
    const discounted = { ...nextPeriod(active), discountId: RETENTION };
    await applied(subscriptionEvent("subscription.updated", discounted, at(4)));
    await applied(transactionEvent("transaction.completed", renewal(discounted, 999, RETENTION), at(5)));
    const owner = await loadUser(user.id);
    expect((await billing.getPlanDetails(owner, active.id)).totalPrice).toBe(999);

    // The discounted cycle ends: the next period is at the full price, even while its charge fails.
    const after = { ...nextPeriod(discounted), discountId: null, status: "past_due" as const };
    await applied(subscriptionEvent("subscription.past_due", after, at(6)));
    expect((await billing.getPlanDetails(owner, active.id)).totalPrice).toBe(3999);
    expect((await billing.overview(owner)).subscription?.recurringTotal).toEqual({ cents: 3999, currencyCode: "USD" });
  });
});

describe("a signature dated in the future", () => {
  async function signedAt(offsetMs: number) {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    const raw = JSON.stringify(event);
    const res = await postWebhook(raw, { signature: signWebhook(raw, webhookSecret(), new Date(Date.now() + offsetMs)) });
    return { res, user, event };
  }

  it(`more than ${MAX_SIGNATURE_FUTURE_SKEW_MS / 1000} s ahead -> 401, nothing changes`, async () => {
    for (const offset of [MAX_SIGNATURE_FUTURE_SKEW_MS + 5_000, 3600_000, 365 * 24 * 3600_000]) {
      const { res, user, event } = await signedAt(offset);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatch(/Paddle-Signature/);
      expect(await eventRow(event.event_id)).toBeNull();
      expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "no", trialing: false, subscription_id: null });
      expect(await balancesOf(user.id)).toEqual({});
    }
  });

  it("a few seconds ahead (clocks that differ a little) is accepted", async () => {
    const { res, user } = await signedAt(10_000);
    expect(res.status).toBe(200);
    expect((await userBilling(user.id)).userSubscribed).toBe("yes");
  });
});
