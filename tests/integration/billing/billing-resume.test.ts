// Cancelling and resuming (docs/decisions/009, "Update: cancelling and resuming"): a scheduled
// cancellation is withdrawn before the period ends, through the local checkout (signed
// subscription.updated through the production webhook handler) and through the real adapter against
// a local stand-in for Paddle's API (PATCH /subscriptions/{id} with scheduled_change: null); the
// refusals; what the billing page says in each state; and /pay for someone who already subscribes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { planView, type PlanViewSubscription } from "~/domain/billing/billing";
import { createPaddleApi, readPaddleNotification, signWebhook } from "~/integrations/paddle.server";
import { action as billingAction, loader as billingLoader } from "~/routes/dashboard.billing";
import { action as pay, loader as payLoader } from "~/routes/_site.pay";
import { createBilling, type Billing } from "~/services/billing.server";
import type { User } from "~/services/accounts/auth.server";
import { userSelect } from "~/services/accounts/auth.server";
import { startPaddleApiFake, type PaddleApiFake } from "../../helpers/paddle-api-fake";
import { nextPeriod, priceIds, subscriptionEvent, trialSnapshot, userBilling } from "../../helpers/paddle";
import { call } from "../../helpers/routes";
import { createSignedInUser, createUser } from "../../helpers/site-users";

// ---------- the local checkout, through the billing page ----------

async function intent(user: { cookie: string }, name: string) {
  const res = await call(billingAction, "/dashboard/billing", {
    method: "POST",
    form: { intent: name },
    cookie: user.cookie,
  });
  return { status: res.status, body: (await res.json()) as { error: string | null; message: string | null } };
}

async function trialUser() {
  const user = await createSignedInUser();
  const res = await call(pay, "/pay?plan=pro&billing=monthly", { method: "POST", form: {}, cookie: user.cookie });
  expect(res.status).toBe(302);
  return user;
}

async function subscription(userId: string) {
  return db.billingSubscription.findFirstOrThrow({
    where: { userId },
    select: {
      status: true,
      scheduledChange: true,
      scheduledChangeAt: true,
      nextBilledAt: true,
      currentPeriodEnd: true,
    },
  });
}

interface PageData {
  overview: {
    subscription: (PlanViewSubscription & { planName: string }) | null;
    canExtendTrial: boolean;
    canClaimDiscount: boolean;
    retentionPrice: string;
  };
  offer: { total: string } | null;
}

/** The billing page's data and what its Plan card says, as the page computes it. */
async function page(user: { cookie: string }, query = "") {
  const data = (await (
    await call(billingLoader, `/dashboard/billing${query}`, { cookie: user.cookie })
  ).json()) as PageData;
  const sub = data.overview.subscription;
  expect(sub).not.toBeNull();
  return { data, view: planView(sub!, data.overview) };
}

const day = (d: Date | null) => d?.toISOString().slice(0, 10);

describe("resume through the local checkout", () => {
  it("after the trial: cancel shows the one wording, resume withdraws it, and the next renewal renews", async () => {
    const user = await trialUser();
    await intent(user, "simulate-renew");
    expect((await intent(user, "cancel")).status).toBe(200);
    const ending = await subscription(user.id);
    expect(ending.scheduledChange).toBe("cancel");
    const cancelled = await page(user);
    expect(cancelled.view.statusLine).toBe(
      `Your plan ends on ${day(ending.scheduledChangeAt)}. You will not be charged again.`,
    );
    expect(cancelled.view.priceLine).toBeNull();
    expect(cancelled.view.actions).toMatchObject({ resume: true, updatePayment: false, cancel: false });
    // No retention offer for a plan already ending, even though this user has not used it.
    const step = await page(user, "?step=cancel");
    expect(step.data.overview.canClaimDiscount).toBe(true);
    expect(step.data.offer).toBeNull();
    expect(step.view.cancelStep).toEqual({ available: false, offer: false, extendTrial: false, note: null });

    const res = await intent(user, "resume");
    expect(res).toEqual({
      status: 200,
      body: expect.objectContaining({
        error: null,
        message: `Your plan is back on and renews on ${day(ending.currentPeriodEnd)}.`,
      }) as unknown,
    });
    const resumed = await subscription(user.id);
    expect(resumed).toMatchObject({ status: "active", scheduledChange: null, scheduledChangeAt: null });
    expect(resumed.nextBilledAt?.toISOString()).toBe(ending.currentPeriodEnd?.toISOString());
    expect(await userBilling(user.id)).toMatchObject({ subscriptionCancelled: false, userSubscribed: "yes" });
    const after = await page(user);
    expect(after.view.statusLine).toBe(`Next bill ${day(ending.currentPeriodEnd)}.`);
    expect(after.view.actions).toMatchObject({ resume: false, updatePayment: true, cancel: true });

    // Paddle renews at the period end instead of ending the subscription.
    await intent(user, "simulate-renew");
    expect((await subscription(user.id)).status).toBe("active");
    expect((await userBilling(user.id)).userSubscribed).toBe("yes");
    // Recorded as a Paddle notification like every other change.
    const updates = await db.paddleEvent.count({ where: { userId: user.id, eventType: "subscription.updated" } });
    expect(updates).toBeGreaterThanOrEqual(3);
  });

  it("during the trial: the trial goes on and its first charge is back", async () => {
    const user = await trialUser();
    await intent(user, "cancel");
    const cancelled = await page(user);
    expect(cancelled.view.statusLine).toMatch(
      /^Your plan ends on \d{4}-\d{2}-\d{2}\. You will not be charged again\.$/,
    );
    expect(cancelled.view.cancelStep.extendTrial).toBe(false);

    const trialEnd = (await subscription(user.id)).nextBilledAt;
    const res = await intent(user, "resume");
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      `Your plan is back on: your trial ends on ${day(trialEnd)} and the first charge is on that day.`,
    );
    expect(await subscription(user.id)).toMatchObject({ status: "trialing", scheduledChange: null });
    expect((await page(user)).view.statusLine).toBe(`Trial ends ${day(trialEnd)}; the first charge is on that day.`);
    expect(await userBilling(user.id)).toMatchObject({ trialing: true, subscriptionCancelled: false });
  });

  it("refusals: nothing scheduled -> 409; ended -> 409; no subscription -> 404; each with a sentence and no change", async () => {
    const user = await trialUser();
    const nothing = await intent(user, "resume");
    expect(nothing).toEqual({
      status: 409,
      body: expect.objectContaining({
        error: "This subscription is not set to end, so there is nothing to resume.",
      }) as unknown,
    });
    expect((await subscription(user.id)).scheduledChange).toBeNull();

    await intent(user, "cancel");
    await intent(user, "simulate-end");
    const ended = await intent(user, "resume");
    expect(ended.status).toBe(409);
    expect(ended.body.error).toBe("This subscription has already ended.");
    expect((await subscription(user.id)).status).toBe("canceled");

    const nobody = await createSignedInUser();
    const none = await intent(nobody, "resume");
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("You have no subscription.");
  });
});

describe("what the billing page says, state by state (local checkout)", () => {
  const noMoreCharges = /not be charged again|has ended/;

  it("trialing, active, past_due, discounted, scheduled cancel (trial and paid), canceled: one wording, no contradiction", async () => {
    const seen: Record<string, { status: string; price: string | null; resume: boolean; card: boolean }> = {};
    const record = async (name: string, user: { cookie: string }) => {
      const { view } = await page(user);
      if (noMoreCharges.test(view.statusLine)) {
        expect(view.priceLine, name).toBeNull();
        expect(view.actions.updatePayment, name).toBe(false);
        expect(view.discountBadge, name).toBe(false);
      }
      seen[name] = {
        status: view.statusLine,
        price: view.priceLine,
        resume: view.actions.resume,
        card: view.actions.updatePayment,
      };
    };

    const a = await trialUser();
    await record("trialing", a);
    await intent(a, "cancel");
    await record("scheduled cancel during trial", a);

    const b = await trialUser();
    await intent(b, "simulate-renew");
    await record("active", b);
    await intent(b, "claim-discount");
    await record("discounted next cycle", b);
    await intent(b, "cancel");
    await record("scheduled cancel after trial", b);
    // The cancel step is not offered again, so no retention offer for a plan that is ending.
    const cancelStep = await page(b, "?step=cancel");
    expect(cancelStep.view.cancelStep).toEqual({ available: false, offer: false, extendTrial: false, note: null });
    await intent(b, "simulate-end");
    await record("canceled", b);

    const c = await trialUser();
    await intent(c, "simulate-renew");
    await intent(c, "simulate-payment-failed");
    await record("past_due", c);

    const ends = /^Your plan ends on \d{4}-\d{2}-\d{2}\. You will not be charged again\.$/;
    expect(seen["trialing"]).toMatchObject({
      status: expect.stringMatching(/^Trial ends /) as unknown,
      card: true,
      resume: false,
    });
    expect(seen["scheduled cancel during trial"]).toMatchObject({ price: null, card: false, resume: true });
    expect(seen["scheduled cancel during trial"].status).toMatch(ends);
    expect(seen["active"]).toMatchObject({
      status: expect.stringMatching(/^Next bill /) as unknown,
      price: "$39.99 a month.",
    });
    expect(seen["discounted next cycle"].price).toBe("$39.99 a month; next cycle $9.99.");
    expect(seen["scheduled cancel after trial"]).toMatchObject({ price: null, card: false, resume: true });
    expect(seen["scheduled cancel after trial"].status).toMatch(ends);
    expect(seen["canceled"]).toEqual({
      status: "This subscription has ended.",
      price: null,
      resume: false,
      card: false,
    });
    expect(seen["past_due"]).toMatchObject({
      status: "Your last payment failed. Update your payment method to keep your plan.",
      card: true,
    });
  });

  it("the cancel step during a trial states the offer's rule instead of offering it, and offers the trial extension", async () => {
    const user = await trialUser();
    const { data, view } = await page(user, "?step=cancel");
    expect(data.offer).toBeNull();
    expect(view.cancelStep).toEqual({
      available: true,
      offer: false,
      extendTrial: true,
      note: "If you cancel now you keep access until the trial ends and are never charged. The $9.99 offer to stay applies once your trial has ended.",
    });
  });
});

describe("/pay for someone who already has a subscription", () => {
  it("shows the plan they have and where it is managed, not a checkout summary; a new subscriber gets the checkout", async () => {
    const user = await trialUser();
    await intent(user, "cancel");
    const data = (await (await call(payLoader, "/pay?plan=basic&billing=monthly", { cookie: user.cookie })).json()) as {
      alreadySubscribed: boolean;
      current: { planName: string; line: string } | null;
    };
    expect(data.alreadySubscribed).toBe(true);
    expect(data.current).toEqual({
      planName: "Pro",
      line: expect.stringMatching(/^Your plan ends on \d{4}-\d{2}-\d{2}\. You will not be charged again\.$/) as unknown,
    });

    const fresh = await createSignedInUser();
    const none = (await (
      await call(payLoader, "/pay?plan=basic&billing=monthly", { cookie: fresh.cookie })
    ).json()) as {
      alreadySubscribed: boolean;
      current: unknown;
    };
    expect(none).toMatchObject({ alreadySubscribed: false, current: null });
  });
});

// ---------- the real adapter against the stand-in for Paddle's API ----------

const RETENTION = "dsc_01retention";
const WEBHOOK_SECRET = "pdl_ntfset_test_secret_for_resume";
const prices = priceIds();
let fake: PaddleApiFake;

beforeAll(async () => {
  fake = await startPaddleApiFake({
    prices: [
      { id: prices.basic, name: "Basic", interval: "month", trialDays: 7, amounts: { USD: 2999 } },
      { id: prices.pro, name: "Pro", interval: "month", trialDays: 7, amounts: { USD: 3999 } },
      { id: prices.innerCircle, name: "Inner Circle", interval: null, trialDays: 0, amounts: { USD: 29999 } },
    ],
    discounts: { [RETENTION]: { USD: 999 } },
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith(null);
});

const api = () => createPaddleApi({ apiKey: fake.apiKey, environment: "sandbox", baseUrl: fake.url });

function billingOnFake(): Billing {
  return createBilling({
    db,
    prices,
    paddle: api(),
    webhookSecret: WEBHOOK_SECRET,
    retentionDiscountId: RETENTION,
    localCheckout: false,
    readNotification: readPaddleNotification,
  });
}

async function loadUser(id: string): Promise<User> {
  return db.user.findUniqueOrThrow({ where: { id }, select: userSelect });
}

/** An active subscriber our database and the fake Paddle both know, with a cancel scheduled at both. */
async function cancellingSubscriber(billing: Billing, effectiveAt?: Date) {
  const created = await createUser();
  const snapshot = nextPeriod(trialSnapshot(created.id, { at: new Date(Date.now() - 60_000) }));
  const send = async (s: typeof snapshot, type: string, at: Date) => {
    const raw = JSON.stringify(subscriptionEvent(type, s, at));
    expect((await billing.handleWebhook(raw, signWebhook(raw, WEBHOOK_SECRET))).ok).toBe(true);
  };
  await send(snapshot, "subscription.created", new Date(Date.now() - 1000));
  fake.addSubscription({
    id: snapshot.id,
    priceId: snapshot.price.id,
    customerId: snapshot.customerId,
    periodStart: snapshot.currentPeriodStart,
    periodEnd: snapshot.currentPeriodEnd,
    nextBilledAt: snapshot.nextBilledAt,
  });
  await api().cancelAtPeriodEnd(snapshot.id);
  const cancelled = {
    ...snapshot,
    nextBilledAt: null,
    scheduledChange: { action: "cancel" as const, effectiveAt: effectiveAt ?? snapshot.currentPeriodEnd },
  };
  await send(cancelled, "subscription.updated", new Date());
  fake.requests.length = 0;
  return { user: await loadUser(created.id), subscriptionId: snapshot.id, snapshot, send };
}

describe("resumeScheduledCancel on the real adapter (@paddle/paddle-node-sdk)", () => {
  it("PATCH /subscriptions/{id} with exactly { scheduled_change: null }; Paddle bills again at the period end", async () => {
    const sub = fake.addSubscription({ id: "sub_01resume", priceId: prices.pro });
    await api().cancelAtPeriodEnd(sub.id);
    expect(fake.subscriptions.get(sub.id)).toMatchObject({ scheduledChange: { action: "cancel" }, nextBilledAt: null });
    fake.requests.length = 0;

    await api().resumeScheduledCancel(sub.id);
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(String(req.headers.authorization)).toMatch(new RegExp(`^bearer ${fake.apiKey}$`, "i"));
    expect([req.method, req.path, req.body]).toEqual([
      "PATCH",
      "/subscriptions/sub_01resume",
      { scheduled_change: null },
    ]);
    expect(fake.subscriptions.get(sub.id)).toMatchObject({
      scheduledChange: null,
      nextBilledAt: sub.periodEnd,
      status: "active",
    });
  });

  it("Paddle's refusal (an ended subscription, an unknown one) reaches the caller as an error", async () => {
    const sub = fake.addSubscription({ id: "sub_01ended", priceId: prices.pro, status: "canceled" });
    await expect(api().resumeScheduledCancel(sub.id)).rejects.toThrow(/canceled/);
    await expect(api().resumeScheduledCancel("sub_01nobody")).rejects.toThrow(/not found/);
  });
});

describe("resume in the billing service on the real adapter", () => {
  it("asks Paddle to drop the scheduled cancel; our state follows Paddle's subscription.updated", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId, snapshot, send } = await cancellingSubscriber(billing);
    expect(await userBilling(user.id)).toMatchObject({ subscriptionCancelled: true });

    const result = await billing.resume(user, subscriptionId);
    expect(result).toEqual({ status: "active", renewsAt: snapshot.currentPeriodEnd.toISOString() });
    expect(fake.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["PATCH", `/subscriptions/${subscriptionId}`, { scheduled_change: null }],
    ]);
    expect(fake.subscriptions.get(subscriptionId)?.scheduledChange).toBeNull();
    // Nothing changes here until Paddle says so.
    expect((await loadUser(user.id)).subscriptionCancelled).toBe(true);

    await send(snapshot, "subscription.updated", new Date(Date.now() + 1000));
    expect(await loadUser(user.id)).toMatchObject({ subscriptionCancelled: false, userSubscribed: "yes" });
    const overview = await billing.overview(await loadUser(user.id));
    expect(overview.subscription).toMatchObject({ scheduledChange: null });
    expect(planView(overview.subscription!, overview).statusLine).toBe(`Next bill ${day(snapshot.currentPeriodEnd)}.`);

    // Nothing scheduled any more: 409 without calling Paddle.
    fake.requests.length = 0;
    await expect(billing.resume(await loadUser(user.id), subscriptionId)).rejects.toMatchObject({
      status: 409,
      message: "This subscription is not set to end, so there is nothing to resume.",
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("someone else's subscription is 404, a cancellation already due is 409; Paddle is never called", async () => {
    const billing = billingOnFake();
    const { subscriptionId } = await cancellingSubscriber(billing);
    const stranger = await loadUser((await createUser()).id);
    await expect(billing.resume(stranger, subscriptionId)).rejects.toMatchObject({
      status: 404,
      message: "No subscription with that id belongs to you.",
    });

    const due = await cancellingSubscriber(billing, new Date(Date.now() - 60_000));
    await expect(billing.resume(due.user, due.subscriptionId)).rejects.toMatchObject({
      status: 409,
      message: "This subscription has already ended. Choose a plan to subscribe again.",
    });
    expect(fake.requests).toHaveLength(0);
    expect(fake.subscriptions.get(due.subscriptionId)?.scheduledChange?.action).toBe("cancel");
  });

  it("when Paddle fails, resume fails and nothing changes", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId } = await cancellingSubscriber(billing);
    fake.failWith(500);
    await expect(billing.resume(user, subscriptionId)).rejects.toThrow();
    expect((await loadUser(user.id)).subscriptionCancelled).toBe(true);
    expect((await subscription(user.id)).scheduledChange).toBe("cancel");
  });
});
