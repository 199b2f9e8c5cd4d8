// The seed's paddle-api calls at their exact paths, in local mode (no PADDLE_API_KEY): previewPrices,
// getPlanDetails and preview-discount. ?uid= must be the signed-in user; another user's subscription
// is 404.
import { describe, expect, it } from "vitest";
import { action as getPlanDetails, loader as getPlanDetailsLoader } from "~/routes/api.paddle-api.getPlanDetails";
import { action as previewDiscount } from "~/routes/api.paddle-api.preview-discount";
import { action as previewPrices } from "~/routes/api.paddle-api.previewPrices";
import {
  completedTransaction,
  deliver,
  nextPeriod,
  priceIds,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
} from "../../helpers/paddle";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

type Handler = typeof getPlanDetails;

function post(
  handler: Handler,
  path: string,
  user: { id: string; cookie: string | null },
  json?: unknown,
  uid: string | null = user.id,
) {
  const url = uid === null ? path : `${path}?uid=${encodeURIComponent(uid)}`;
  return call(handler, url, { method: "POST", cookie: user.cookie, ...(json === undefined ? {} : { json }) });
}

async function subscribedUser(status: "trialing" | "active" = "active") {
  const user = await createSignedInUser();
  const trial = trialSnapshot(user.id, { planId: "pro", at: new Date(Date.now() - 60_000) });
  await deliver(subscriptionEvent("subscription.created", trial, new Date(Date.now() - 60_000)));
  const snapshot = status === "trialing" ? trial : nextPeriod(trial);
  if (status === "active") await deliver(subscriptionEvent("subscription.updated", snapshot, new Date()));
  return { ...user, subscriptionId: snapshot.id, snapshot };
}

describe("POST /api/paddle-api/previewPrices", () => {
  it("answers the catalogue's USD prices in local mode", async () => {
    const user = await createSignedInUser();
    const res = await post(previewPrices, "/api/paddle-api/previewPrices", user);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      newPrice: "$29.99",
      newPrice2: "$39.99",
      innerCircle: "$299.99",
      currencyCode: "USD",
      source: "local",
    });
  });

  it("?uid= of someone else -> 403; anonymous -> 401", async () => {
    const user = await createSignedInUser();
    const other = await createSignedInUser();
    expect((await post(previewPrices, "/api/paddle-api/previewPrices", user, undefined, other.id)).status).toBe(403);
    expect((await post(previewPrices, "/api/paddle-api/previewPrices", { id: user.id, cookie: null })).status).toBe(
      401,
    );
  });
});

describe("POST /api/paddle-api/getPlanDetails", () => {
  it("for the user's own subscription: priceId, billingCycle, billingCycleEndDate, totalPrice in cents", async () => {
    const user = await subscribedUser("active");
    const res = await post(getPlanDetails, "/api/paddle-api/getPlanDetails", user, {
      subscriptionId: user.subscriptionId,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      priceId: priceIds().pro,
      billingCycle: "month",
      billingCycleEndDate: user.snapshot.currentPeriodEnd.toISOString(),
      totalPrice: 3999,
      currencyCode: "USD",
    });
  });

  it("someone else's subscription -> 404 (and nothing of it is revealed)", async () => {
    const owner = await subscribedUser("active");
    const stranger = await createSignedInUser();
    const res = await post(getPlanDetails, "/api/paddle-api/getPlanDetails", stranger, {
      subscriptionId: owner.subscriptionId,
    });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toEqual({ error: "No subscription with that id belongs to you." });
    expect(JSON.stringify(body)).not.toContain(owner.subscriptionId);
  });

  it("an unknown subscription -> 404", async () => {
    const user = await createSignedInUser();
    expect(
      (await post(getPlanDetails, "/api/paddle-api/getPlanDetails", user, { subscriptionId: "sub_01nothing" })).status,
    ).toBe(404);
  });

  it("missing subscriptionId -> 400 naming it", async () => {
    const user = await createSignedInUser();
    for (const body of [{}, { subscriptionId: "" }, undefined]) {
      const res = await post(getPlanDetails, "/api/paddle-api/getPlanDetails", user, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/^subscriptionId: /);
    }
  });

  it("?uid= of someone else -> 403 even for the caller's own subscription; anonymous -> 401; GET -> 405", async () => {
    const user = await subscribedUser("active");
    const other = await createSignedInUser();
    expect(
      (
        await post(
          getPlanDetails,
          "/api/paddle-api/getPlanDetails",
          user,
          { subscriptionId: user.subscriptionId },
          other.id,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await post(
          getPlanDetails,
          "/api/paddle-api/getPlanDetails",
          { id: user.id, cookie: null },
          { subscriptionId: user.subscriptionId },
        )
      ).status,
    ).toBe(401);
    expect((await call(getPlanDetailsLoader, "/api/paddle-api/getPlanDetails")).status).toBe(405);
  });
});

describe("POST /api/paddle-api/preview-discount", () => {
  it("-> { currencyCode, formattedTotals: { total } } with the retention price", async () => {
    const user = await subscribedUser("active");
    const res = await post(previewDiscount, "/api/paddle-api/preview-discount", user, {
      subscriptionId: user.subscriptionId,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ currencyCode: "USD", formattedTotals: { total: "$9.99" } });
  });

  it("someone else's subscription -> 404; missing subscriptionId -> 400", async () => {
    const owner = await subscribedUser("active");
    const stranger = await createSignedInUser();
    expect(
      (
        await post(previewDiscount, "/api/paddle-api/preview-discount", stranger, {
          subscriptionId: owner.subscriptionId,
        })
      ).status,
    ).toBe(404);
    const missing = await post(previewDiscount, "/api/paddle-api/preview-discount", stranger, {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/^subscriptionId: /);
  });
});

describe("getPlanDetails for a subscriber paying in another currency", () => {
  it("reports what the transactions charged (CAD), and keeps it when the subscription changes later", async () => {
    const user = await subscribedUser("active");
    const renewal = completedTransaction(user.id, { ...user.snapshot.price, currencyCode: "CAD" }, {
      subscriptionId: user.subscriptionId,
      customerId: user.snapshot.customerId,
      origin: "subscription_recurring",
      totalCents: 5499,
    });
    await deliver(transactionEvent("transaction.completed", renewal, new Date(Date.now() + 1000)));
    await deliver(
      subscriptionEvent("subscription.updated", { ...nextPeriod(user.snapshot), scheduledChange: null }, new Date(Date.now() + 2000)),
    );
    const res = await post(getPlanDetails, "/api/paddle-api/getPlanDetails", user, { subscriptionId: user.subscriptionId });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.totalPrice).toBe(5499);
    expect(body.currencyCode).toBe("CAD");
  });
});
