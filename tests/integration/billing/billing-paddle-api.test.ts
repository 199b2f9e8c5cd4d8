// The real Paddle adapter (createPaddleApi, @paddle/paddle-node-sdk) against a local stand-in for
// Paddle's REST API on 127.0.0.1: what it sends (bearer key, path, snake_case body) and what it makes of
// the answer. Then the billing service on top of it: localised prices, the default prices when Paddle
// fails (logged with pino, never console.error), the retention-offer preview and the billing actions.
import { AppError } from "~/domain/errors";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createPaddleApi, readPaddleNotification, signWebhook } from "~/integrations/paddle.server";
import { createBilling, type Billing } from "~/services/billing.server";
import { getEnv } from "~/env.server";
import type { User } from "~/services/accounts/auth.server";
import { userSelect } from "~/services/accounts/auth.server";
import { startPaddleApiFake, type PaddleApiFake } from "../../helpers/paddle-api-fake";
import { DAY_MS, nextPeriod, priceIds, subscriptionEvent, trialSnapshot } from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const RETENTION = "dsc_01retention";
const WEBHOOK_SECRET = "pdl_ntfset_test_secret_for_this_file";
const prices = priceIds();

let fake: PaddleApiFake;

beforeAll(async () => {
  fake = await startPaddleApiFake({
    prices: [
      {
        id: prices.basic,
        name: "Basic",
        interval: "month",
        trialDays: 7,
        amounts: { USD: 2999, CAD: 4099, GBP: 2399 },
      },
      { id: prices.pro, name: "Pro", interval: "month", trialDays: 7, amounts: { USD: 3999, CAD: 5499, GBP: 3199 } },
      {
        id: prices.innerCircle,
        name: "Inner Circle",
        interval: null,
        trialDays: 0,
        amounts: { USD: 29999, CAD: 40999, GBP: 23999 },
      },
    ],
    discounts: { [RETENTION]: { USD: 999, CAD: 1399 } },
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.failWith(null);
});

const api = () => createPaddleApi({ apiKey: fake.apiKey, environment: "sandbox", baseUrl: fake.url });

function lastRequest() {
  expect(fake.requests.length).toBeGreaterThan(0);
  return fake.requests[fake.requests.length - 1];
}

function expectAuthorised(req: { headers: Record<string, unknown> }) {
  expect(String(req.headers.authorization)).toMatch(new RegExp(`^bearer ${fake.apiKey}$`, "i"));
  expect(req.headers["content-type"]).toBe("application/json");
}

describe("createPaddleApi (the real adapter) against the local Paddle API", () => {
  it("previewPrices: POST /pricing-preview with items[].price_id and the country; reads Paddle's formatted totals", async () => {
    const lines = await api().previewPrices({
      priceIds: [prices.basic, prices.pro],
      customerIp: "192.0.2.1",
      countryCode: "CA",
    });
    const req = lastRequest();
    expectAuthorised(req);
    expect([req.method, req.path]).toEqual(["POST", "/pricing-preview"]);
    // The country wins over the IP address; the SDK sends snake_case.
    expect(req.body).toEqual({
      items: [
        { price_id: prices.basic, quantity: 1 },
        { price_id: prices.pro, quantity: 1 },
      ],
      address: { country_code: "CA" },
    });
    expect(lines).toEqual([
      { priceId: prices.basic, formattedTotal: "CA$40.99", currencyCode: "CAD" },
      { priceId: prices.pro, formattedTotal: "CA$54.99", currencyCode: "CAD" },
    ]);
  });

  it("previewPrices without a country sends the buyer's IP address instead", async () => {
    const lines = await api().previewPrices({
      priceIds: [prices.innerCircle],
      customerIp: "198.51.100.9",
      countryCode: null,
    });
    expect(lastRequest().body).toEqual({
      items: [{ price_id: prices.innerCircle, quantity: 1 }],
      customer_ip_address: "198.51.100.9",
    });
    expect(lines).toEqual([{ priceId: prices.innerCircle, formattedTotal: "£239.99", currencyCode: "GBP" }]);
  });

  it("previewPrices with neither sends only the items (Paddle answers in the default currency)", async () => {
    const lines = await api().previewPrices({ priceIds: [prices.basic], customerIp: null, countryCode: null });
    expect(lastRequest().body).toEqual({ items: [{ price_id: prices.basic, quantity: 1 }] });
    expect(lines).toEqual([{ priceId: prices.basic, formattedTotal: "$29.99", currencyCode: "USD" }]);
  });

  it("previewDiscount: PATCH /subscriptions/{id}/preview with discount {id, effective_from}; the next transaction's total", async () => {
    const sub = fake.addSubscription({ id: "sub_01preview", priceId: prices.pro });
    const preview = await api().previewDiscount({ subscriptionId: sub.id, discountId: RETENTION });
    const req = lastRequest();
    expectAuthorised(req);
    expect([req.method, req.path]).toEqual(["PATCH", "/subscriptions/sub_01preview/preview"]);
    expect(req.body).toEqual({ discount: { id: RETENTION, effective_from: "next_billing_period" } });
    expect(preview).toEqual({ currencyCode: "USD", formattedTotal: "$9.99" });
    // A preview changes nothing.
    expect(fake.subscriptions.get(sub.id)?.discountId).toBeNull();
  });

  it("previewDiscount in the subscription's own currency", async () => {
    const sub = fake.addSubscription({ id: "sub_01cad", priceId: prices.pro, currencyCode: "CAD" });
    expect(await api().previewDiscount({ subscriptionId: sub.id, discountId: RETENTION })).toEqual({
      currencyCode: "CAD",
      formattedTotal: "CA$13.99",
    });
  });

  it("cancelAtPeriodEnd: POST /subscriptions/{id}/cancel with effective_from next_billing_period", async () => {
    const sub = fake.addSubscription({ id: "sub_01cancel", priceId: prices.basic });
    await api().cancelAtPeriodEnd(sub.id);
    const req = lastRequest();
    expectAuthorised(req);
    expect([req.method, req.path, req.body]).toEqual([
      "POST",
      "/subscriptions/sub_01cancel/cancel",
      { effective_from: "next_billing_period" },
    ]);
    expect(fake.subscriptions.get(sub.id)?.scheduledChange?.action).toBe("cancel");
    expect(fake.subscriptions.get(sub.id)?.status).toBe("active");
  });

  it("applyDiscountNextCycle: PATCH /subscriptions/{id} with discount {id, effective_from}", async () => {
    const sub = fake.addSubscription({ id: "sub_01discount", priceId: prices.basic });
    await api().applyDiscountNextCycle({ subscriptionId: sub.id, discountId: RETENTION });
    const req = lastRequest();
    expect([req.method, req.path, req.body]).toEqual([
      "PATCH",
      "/subscriptions/sub_01discount",
      { discount: { id: RETENTION, effective_from: "next_billing_period" } },
    ]);
    expect(fake.subscriptions.get(sub.id)?.discountId).toBe(RETENTION);
  });

  it("extendTrial: PATCH /subscriptions/{id} with next_billed_at and proration_billing_mode do_not_bill", async () => {
    const sub = fake.addSubscription({ id: "sub_01trial", priceId: prices.pro, status: "trialing" });
    const nextBilledAt = new Date("2030-05-01T12:00:00.000Z");
    await api().extendTrial({ subscriptionId: sub.id, nextBilledAt });
    const req = lastRequest();
    expect([req.method, req.path, req.body]).toEqual([
      "PATCH",
      "/subscriptions/sub_01trial",
      { next_billed_at: "2030-05-01T12:00:00.000Z", proration_billing_mode: "do_not_bill" },
    ]);
  });

  it("changePlan: PATCH /subscriptions/{id} with the new item; do_not_bill in the trial, prorated_immediately after it", async () => {
    const trial = fake.addSubscription({ id: "sub_01switch_trial", priceId: prices.basic, status: "trialing" });
    await api().changePlan({ subscriptionId: trial.id, priceId: prices.pro, trialing: true });
    expect([lastRequest().method, lastRequest().path, lastRequest().body]).toEqual([
      "PATCH",
      "/subscriptions/sub_01switch_trial",
      { items: [{ price_id: prices.pro, quantity: 1 }], proration_billing_mode: "do_not_bill" },
    ]);
    expect(fake.subscriptions.get(trial.id)?.priceId).toBe(prices.pro);
    const paid = fake.addSubscription({ id: "sub_01switch_paid", priceId: prices.pro });
    await api().changePlan({ subscriptionId: paid.id, priceId: prices.basic, trialing: false });
    expect(lastRequest().body).toEqual({ items: [{ price_id: prices.basic, quantity: 1 }], proration_billing_mode: "prorated_immediately" });
    expect(fake.subscriptions.get(paid.id)?.priceId).toBe(prices.basic);
  });

  it("paymentMethodChangeTransaction: GET /subscriptions/{id}/update-payment-method-transaction -> the transaction id", async () => {
    const sub = fake.addSubscription({ id: "sub_01card", priceId: prices.pro });
    const { transactionId } = await api().paymentMethodChangeTransaction(sub.id);
    const req = lastRequest();
    expect(String(req.headers.authorization)).toMatch(/^bearer /i);
    expect([req.method, req.path]).toEqual(["GET", "/subscriptions/sub_01card/update-payment-method-transaction"]);
    expect(transactionId).toMatch(/^txn_/);
  });

  it("Paddle's errors reach the caller as errors (unknown subscription, wrong key, outage)", async () => {
    await expect(api().cancelAtPeriodEnd("sub_01nobody")).rejects.toThrow(/not found/);
    const wrongKey = createPaddleApi({ apiKey: "pdl_sdbx_apikey_wrong", environment: "sandbox", baseUrl: fake.url });
    await expect(
      wrongKey.previewPrices({ priceIds: [prices.basic], customerIp: null, countryCode: null }),
    ).rejects.toThrow(/permitted/);
    fake.failWith(500);
    await expect(
      api().previewPrices({ priceIds: [prices.basic], customerIp: null, countryCode: null }),
    ).rejects.toThrow();
  });
});

describe("the billing service on the real adapter", () => {
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

  /** A user with a subscription our database knows (from a signed webhook) and the fake Paddle holds. */
  async function subscriber(billing: Billing, status: "trialing" | "active") {
    const created = await createUser();
    const trial = trialSnapshot(created.id, { at: new Date(Date.now() - 60_000) });
    const snapshot = status === "trialing" ? trial : nextPeriod(trial);
    const raw = JSON.stringify(subscriptionEvent("subscription.created", snapshot, new Date()));
    expect((await billing.handleWebhook(raw, signWebhook(raw, WEBHOOK_SECRET))).ok).toBe(true);
    fake.addSubscription({
      id: snapshot.id,
      priceId: snapshot.price.id,
      status,
      customerId: snapshot.customerId,
      periodStart: snapshot.currentPeriodStart,
      periodEnd: snapshot.currentPeriodEnd,
      nextBilledAt: snapshot.nextBilledAt,
    });
    return { user: await loadUser(created.id), subscriptionId: snapshot.id, snapshot };
  }

  it("previewPrices is localised by Paddle (CAD for Canada)", async () => {
    const result = await billingOnFake().previewPrices({ customerIp: null, countryCode: "CA" });
    expect(result).toEqual({
      newPrice: "CA$40.99",
      newPrice2: "CA$54.99",
      innerCircle: "CA$409.99",
      currencyCode: "CAD",
      source: "paddle",
    });
    expect(lastRequest().body).toEqual({
      items: [prices.basic, prices.pro, prices.innerCircle].map((price_id) => ({ price_id, quantity: 1 })),
      address: { country_code: "CA" },
    });
  });

  it("when Paddle answers 500, previewPrices falls back to the catalogue's USD prices, without console.error", async () => {
    fake.failWith(500);
    const result = await billingOnFake().previewPrices({ customerIp: null, countryCode: "CA" });
    expect(result).toEqual({
      newPrice: "$29.99",
      newPrice2: "$39.99",
      innerCircle: "$299.99",
      currencyCode: "USD",
      source: "default",
    });
    expect(fake.requests).toHaveLength(1);
    expect(console.error).not.toHaveBeenCalled();
  });

  it("when Paddle is unreachable, previewPrices still answers the defaults", async () => {
    const billing = createBilling({
      db,
      prices,
      paddle: createPaddleApi({ apiKey: fake.apiKey, environment: "sandbox", baseUrl: "http://127.0.0.1:9" }),
      webhookSecret: WEBHOOK_SECRET,
      retentionDiscountId: RETENTION,
      localCheckout: false,
      readNotification: readPaddleNotification,
    });
    expect(await billing.previewPrices({ customerIp: null, countryCode: null })).toMatchObject({
      source: "default",
      newPrice: "$29.99",
    });
    expect(console.error).not.toHaveBeenCalled();
  });

  it("previewDiscount for the user's own subscription; someone else's is 404 without asking Paddle; an outage is 502", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId } = await subscriber(billing, "active");
    expect(await billing.previewDiscount(user, subscriptionId)).toEqual({
      currencyCode: "USD",
      formattedTotals: { total: "$9.99" },
    });

    const stranger = await loadUser((await createUser()).id);
    fake.requests.length = 0;
    await expect(billing.previewDiscount(stranger, subscriptionId)).rejects.toMatchObject({ status: 404 });
    expect(fake.requests).toHaveLength(0);

    fake.failWith(500);
    const failed = await billing.previewDiscount(user, subscriptionId).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ status: 502 });
    expect(console.error).not.toHaveBeenCalled();
  });

  it("cancel asks Paddle to cancel at the period end; our state changes only when Paddle's notification arrives", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId, snapshot } = await subscriber(billing, "active");
    fake.requests.length = 0;
    await billing.cancel(user, subscriptionId);
    expect(fake.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", `/subscriptions/${subscriptionId}/cancel`, { effective_from: "next_billing_period" }],
    ]);
    expect((await loadUser(user.id)).subscriptionCancelled).toBe(false);

    const raw = JSON.stringify(
      subscriptionEvent(
        "subscription.updated",
        { ...snapshot, scheduledChange: { action: "cancel", effectiveAt: snapshot.currentPeriodEnd } },
        new Date(),
      ),
    );
    expect(await billing.handleWebhook(raw, signWebhook(raw, WEBHOOK_SECRET))).toEqual({
      ok: true,
      outcome: "applied",
    });
    expect(await loadUser(user.id)).toMatchObject({ subscriptionCancelled: true, userSubscribed: "yes" });

    // Already set to end: refused without calling Paddle again.
    fake.requests.length = 0;
    await expect(billing.cancel(await loadUser(user.id), subscriptionId)).rejects.toMatchObject({ status: 409 });
    expect(fake.requests).toHaveLength(0);
  });

  it("cancel of someone else's subscription is 404 and Paddle is never called", async () => {
    const billing = billingOnFake();
    const { subscriptionId } = await subscriber(billing, "active");
    const stranger = await loadUser((await createUser()).id);
    fake.requests.length = 0;
    await expect(billing.cancel(stranger, subscriptionId)).rejects.toMatchObject({ status: 404 });
    await expect(billing.claimDiscount(stranger, subscriptionId)).rejects.toMatchObject({ status: 404 });
    await expect(billing.paymentMethodChange(stranger, subscriptionId)).rejects.toMatchObject({ status: 404 });
    expect(fake.requests).toHaveLength(0);
  });

  it("claimDiscount applies the retention discount from the next period, once", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId } = await subscriber(billing, "active");
    fake.requests.length = 0;
    await billing.claimDiscount(user, subscriptionId);
    expect(fake.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      [
        "PATCH",
        `/subscriptions/${subscriptionId}`,
        { discount: { id: RETENTION, effective_from: "next_billing_period" } },
      ],
    ]);
    expect((await loadUser(user.id)).claimedDiscount).toBe(true);
    await expect(billing.claimDiscount(await loadUser(user.id), subscriptionId)).rejects.toMatchObject({ status: 409 });
    expect(fake.requests).toHaveLength(1);
  });

  it("when Paddle refuses the discount, the offer is not marked as claimed", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId } = await subscriber(billing, "active");
    fake.failWith(500);
    await expect(billing.claimDiscount(user, subscriptionId)).rejects.toThrow();
    expect((await loadUser(user.id)).claimedDiscount).toBe(false);
  });

  it("extendTrial moves the first charge 7 days later through Paddle, once", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId, snapshot } = await subscriber(billing, "trialing");
    fake.requests.length = 0;
    const result = await billing.extendTrial(user, subscriptionId);
    const expected = new Date(snapshot.nextBilledAt!.getTime() + 7 * DAY_MS).toISOString();
    expect(result).toEqual({ nextBilledAt: expected });
    expect(fake.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      [
        "PATCH",
        `/subscriptions/${subscriptionId}`,
        { next_billed_at: expected, proration_billing_mode: "do_not_bill" },
      ],
    ]);
    expect((await loadUser(user.id)).extendedTrial).toBe(true);
    await expect(billing.extendTrial(await loadUser(user.id), subscriptionId)).rejects.toMatchObject({ status: 409 });
    expect(fake.requests).toHaveLength(1);
  });

  it("paymentMethodChange returns Paddle's transaction for the checkout", async () => {
    const billing = billingOnFake();
    const { user, subscriptionId } = await subscriber(billing, "active");
    const { transactionId } = await billing.paymentMethodChange(user, subscriptionId);
    expect(transactionId).toMatch(/^txn_/);
    expect(lastRequest().path).toBe(`/subscriptions/${subscriptionId}/update-payment-method-transaction`);
  });

  it("the real adapter never offers the local test checkout", async () => {
    const user = await loadUser((await createUser()).id);
    await expect(billingOnFake().completeLocalCheckout(user, "pro")).rejects.toMatchObject({ status: 403 });
    expect(getEnv().PADDLE_API_KEY).toBeUndefined();
  });
});
