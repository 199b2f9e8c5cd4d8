// The local test checkout (no Paddle keys) and the dashboard's billing page actions. Every change goes
// through signed Paddle-shaped notifications and the production webhook handler.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { findPlan, UNLIMITED_THRESHOLD } from "~/domain/billing/plans";
import { action as billingAction, loader as billingLoader } from "~/routes/dashboard.billing";
import { action as pay } from "~/routes/_site.pay";
import { balancesOf, DAY_MS, ledgerOf, userBilling } from "../../helpers/paddle";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const pro = findPlan("pro")!;
const basic = findPlan("basic")!;

function checkout(user: { cookie: string | null }, query = "plan=pro&billing=monthly") {
  return call(pay, `/pay?${query}`, { method: "POST", form: {}, cookie: user.cookie });
}

async function intent(user: { cookie: string }, name: string, extra: Record<string, string> = {}) {
  const res = await call(billingAction, "/dashboard/billing", {
    method: "POST",
    form: { intent: name, ...extra },
    cookie: user.cookie,
  });
  return {
    status: res.status,
    body: (await res.json()) as { error: string | null; message: string | null; transactionId: string | null },
  };
}

async function subscription(userId: string) {
  return db.billingSubscription.findFirstOrThrow({
    where: { userId },
    select: {
      id: true,
      status: true,
      planId: true,
      nextBilledAt: true,
      currentPeriodEnd: true,
      scheduledChange: true,
      discountId: true,
      trialExtended: true,
    },
  });
}

async function trialUser(query?: string) {
  const user = await createSignedInUser();
  const res = await checkout(user, query);
  expect(res.status).toBe(302);
  return user;
}

describe("/pay: the local test checkout", () => {
  it("plan=pro&billing=monthly starts a trial and redirects to the dashboard's success page", async () => {
    const user = await createSignedInUser();
    const res = await checkout(user);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard&checkout=success");
    const sub = await subscription(user.id);
    expect(sub).toMatchObject({ status: "trialing", planId: "pro", scheduledChange: null });
    expect(await userBilling(user.id)).toMatchObject({
      userSubscribed: "yes",
      trialing: true,
      subscription_id: sub.id,
      paddleSubscriptionId: sub.id,
    });
    expect((await userBilling(user.id)).paddleCustomerId).toMatch(/^ctm_/);
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
    // Recorded as Paddle's notifications, applied once each.
    const events = await db.paddleEvent.findMany({
      where: { userId: user.id },
      select: { eventType: true, outcome: true },
    });
    expect(events.map((e) => `${e.eventType}:${e.outcome}`).sort()).toEqual([
      "subscription.created:applied",
      "transaction.completed:applied",
    ]);
  });

  it("a second purchase -> 409 with an error, and nothing changes", async () => {
    const user = await trialUser();
    const before = await db.billingSubscription.count({ where: { userId: user.id } });
    const res = await checkout(user, "plan=basic&billing=monthly");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: "You already have a subscription. Manage it on the billing page." });
    expect(await db.billingSubscription.count({ where: { userId: user.id } })).toBe(before);
    expect(await balancesOf(user.id)).toEqual(pro.trialCredits);
  });

  it("Inner Circle is one payment: innerCircle and unlimited credits; a second purchase -> 409", async () => {
    const user = await createSignedInUser();
    const res = await checkout(user, "plan=inner-circle&billing=one_time");
    expect(res.status).toBe(302);
    expect((await userBilling(user.id)).innerCircle).toBe(true);
    for (const b of Object.values(await balancesOf(user.id))) expect(b).toBeGreaterThan(UNLIMITED_THRESHOLD);
    expect((await checkout(user, "plan=inner-circle&billing=one_time")).status).toBe(409);
  });

  it("a plan and billing that do not go together is sent back to the plans; anonymous to the landing page", async () => {
    const user = await createSignedInUser();
    const wrong = await checkout(user, "plan=pro&billing=one_time");
    expect([wrong.status, wrong.headers.get("location")]).toEqual([302, "/choose-plan"]);
    const anon = await checkout({ cookie: null });
    // Signed out: to sign in, then back to this checkout (app/pages/http/site-session.server.ts, requireUser).
    expect([anon.status, anon.headers.get("location")]).toEqual([
      302,
      `/?redirectTo=${encodeURIComponent("/pay?plan=pro&billing=monthly")}`,
    ]);
    expect(await db.billingSubscription.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("/dashboard/billing actions", () => {
  it("cancel during the trial: set to end, still subscribed; cancelling again -> 409", async () => {
    const user = await trialUser();
    const res = await intent(user, "cancel");
    expect(res).toEqual({
      status: 200,
      body: {
        error: null,
        message: "Your subscription will end at the end of this billing period.",
        transactionId: null,
      },
    });
    expect(await userBilling(user.id)).toMatchObject({
      userSubscribed: "yes",
      subscriptionCancelled: true,
      trialing: true,
    });
    expect((await subscription(user.id)).scheduledChange).toBe("cancel");
    expect((await intent(user, "cancel")).status).toBe(409);
  });

  it("claim-discount: refused during the trial; after a renewal it applies once, then 409", async () => {
    const user = await trialUser();
    const inTrial = await intent(user, "claim-discount");
    expect(inTrial.status).toBe(409);
    expect(inTrial.body.error).toBe("The offer applies once your trial has ended.");

    expect((await intent(user, "simulate-renew")).status).toBe(200);
    const claimed = await intent(user, "claim-discount");
    expect(claimed.status).toBe(200);
    expect(claimed.body.message).toBe("Offer claimed: your next cycle is discounted and your plan stays on.");
    expect((await userBilling(user.id)).claimedDiscount).toBe(true);
    expect((await subscription(user.id)).discountId).toBe("dsc_local_retention");

    const again = await intent(user, "claim-discount");
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("You have already claimed this offer.");
  });

  it("the cancel step offers the retention price ($9.99) to a paying subscriber, and not after claiming", async () => {
    const user = await trialUser();
    await intent(user, "simulate-renew");
    const page = await (await call(billingLoader, "/dashboard/billing?step=cancel", { cookie: user.cookie })).json();
    expect(page.offer).toEqual({ total: "$9.99", currencyCode: "USD" });
    expect(page.overview.canClaimDiscount).toBe(true);
    await intent(user, "claim-discount");
    const after = await (await call(billingLoader, "/dashboard/billing?step=cancel", { cookie: user.cookie })).json();
    expect(after.offer).toBeNull();
    expect(after.overview.subscription.discounted).toBe(true);
  });

  it("claiming the offer after asking to cancel keeps the plan on (the scheduled cancel is withdrawn)", async () => {
    const user = await trialUser();
    await intent(user, "simulate-renew");
    await intent(user, "cancel");
    expect((await userBilling(user.id)).subscriptionCancelled).toBe(true);
    expect((await intent(user, "claim-discount")).status).toBe(200);
    expect(await userBilling(user.id)).toMatchObject({
      subscriptionCancelled: false,
      userSubscribed: "yes",
      claimedDiscount: true,
    });
  });

  it("extend-trial: 7 more days once, only during the trial", async () => {
    const user = await trialUser();
    const before = await subscription(user.id);
    const res = await intent(user, "extend-trial");
    expect(res.status).toBe(200);
    const expected = new Date(before.nextBilledAt!.getTime() + 7 * DAY_MS);
    expect(res.body.message).toBe(`Your trial now ends on ${expected.toISOString().slice(0, 10)}.`);
    const after = await subscription(user.id);
    expect(after.nextBilledAt?.toISOString()).toBe(expected.toISOString());
    expect(after.trialExtended).toBe(true);
    expect(await userBilling(user.id)).toMatchObject({ extendedTrial: true, trialing: true });

    const twice = await intent(user, "extend-trial");
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe("Your trial has already been extended once.");
    expect((await subscription(user.id)).nextBilledAt?.toISOString()).toBe(expected.toISOString());

    const other = await trialUser();
    await intent(other, "simulate-renew");
    const afterTrial = await intent(other, "extend-trial");
    expect(afterTrial.status).toBe(409);
    expect(afterTrial.body.error).toBe("Only a trial can be extended.");
  });

  it("update-payment clears chargeDeclined after a failed payment", async () => {
    const user = await trialUser();
    await intent(user, "simulate-renew");
    expect((await intent(user, "simulate-payment-failed")).status).toBe(200);
    expect(await userBilling(user.id)).toMatchObject({ chargeDeclined: true, userSubscribed: "yes" });
    expect((await subscription(user.id)).status).toBe("past_due");

    const res = await intent(user, "update-payment");
    expect(res).toEqual({
      status: 200,
      body: { error: null, message: "Payment method updated (test checkout).", transactionId: null },
    });
    expect(await userBilling(user.id)).toMatchObject({ chargeDeclined: false, userSubscribed: "yes" });
    expect((await subscription(user.id)).status).toBe("active");
  });

  it("simulate-renew resets credits to the plan's allowance; the ledger shows the grant", async () => {
    const user = await trialUser("plan=basic&billing=monthly");
    expect((await intent(user, "spend", { feature: "ai-ads" })).body.message).toBe("Used 5 ai-ads credits.");
    expect((await balancesOf(user.id))["ai-ads"]).toBe(basic.trialCredits["ai-ads"] - 5);

    const res = await intent(user, "simulate-renew");
    expect(res.body.message).toBe("Renewed (test): a new period started and credits were reset.");
    expect(await balancesOf(user.id)).toEqual(basic.credits);
    const aiAds = (await ledgerOf(user.id))
      .filter((r) => r.feature === "ai-ads")
      .map((r) => [r.kind, r.amount, r.balanceAfter]);
    expect(aiAds).toEqual([
      ["grant", 10, 10],
      ["spend", -5, 5],
      ["grant", 15, 20],
    ]);
    expect(await userBilling(user.id)).toMatchObject({ trialing: false, userSubscribed: "yes" });
  });

  it("simulate-end: no longer subscribed, and the ledger shows every credit expiring", async () => {
    const user = await trialUser();
    await intent(user, "simulate-renew");
    await intent(user, "simulate-end");
    expect(await userBilling(user.id)).toMatchObject({ userSubscribed: "no", trialing: false });
    expect(await balancesOf(user.id)).toEqual({
      "ai-ads": 0,
      "automatic-mode": 0,
      "glitch-mode": 0,
      "product-pages": 0,
    });
    const expiries = (await ledgerOf(user.id)).filter((r) => r.kind === "expiry").map((r) => [r.feature, r.amount]);
    expect(expiries).toEqual(Object.entries(pro.credits).map(([f, n]) => [f, -n]));
    // An ended subscription cannot be managed any more.
    expect((await intent(user, "cancel")).status).toBe(409);
  });

  it("a renewal after a scheduled cancel ends the subscription instead", async () => {
    const user = await trialUser();
    await intent(user, "cancel");
    await intent(user, "simulate-renew");
    expect((await subscription(user.id)).status).toBe("canceled");
    expect((await userBilling(user.id)).userSubscribed).toBe("no");
  });

  it("spend: 402 with the upsell message when the balance is too low; unknown feature 400", async () => {
    const user = await trialUser();
    await intent(user, "spend", { feature: "ai-ads" });
    await intent(user, "spend", { feature: "ai-ads" });
    const res = await intent(user, "spend", { feature: "ai-ads" });
    expect(res.status).toBe(402);
    expect(res.body.error).toBe("Not enough credits: ai-ads costs 5 and you have 0.");
    expect((await intent(user, "spend", { feature: "nope" })).status).toBe(400);
  });

  it("no subscription -> 404; an unknown intent -> 400", async () => {
    const user = await createSignedInUser();
    expect((await intent(user, "cancel")).status).toBe(404);
    expect((await intent(user, "refund-everything")).status).toBe(400);
  });
});
