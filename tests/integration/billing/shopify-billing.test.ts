// Shopify Billing inside the embedded app (docs/decisions/034), on the real database against the local
// Admin GraphQL server: subscribe (the mutation and its variables, the confirmation page approved or
// declined, the read-back), userErrors and a frozen shop, upgrade, cancel, trial extension, a credit
// top-up granted once, a Paddle subscriber never offered a second subscription, two rails at once, and
// uninstall ending the shop's Shopify state while a Paddle plan stays.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { paidState } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import { findPlan } from "~/domain/billing/plans";
import { db } from "~/db.server";
import { createShopifyAdmin } from "~/integrations/shopify-admin.server";
import { loadUser } from "~/services/accounts/auth.server";
import { createBillingEvents } from "~/services/billing/events.server";
import { createAccount } from "~/services/accounts/account.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";
import { accountEmails } from "~/services/index.server";
import { createShopifyBilling } from "~/services/shopify-billing.server";
import { startFakeAdminGraphql, type FakeAdminGraphql } from "../../helpers/fake-admin-graphql";
import { linkedShop } from "../../helpers/linked-shops";
import { TEST_PASSWORD } from "../../helpers/site-users";
import { balancesOf, userBilling } from "../../helpers/paddle";
import { readPaddleNotification } from "~/integrations/paddle.server";
import { shopifyBillingApi } from "~/integrations/shopify-billing.server";

const RETURN_URL = "https://admin.shopify.com/store/x/apps/test-api-key/app/billing";

let admin: FakeAdminGraphql;
const events = createBillingEvents({
  db,
  prices: { basic: "pri_b", pro: "pri_p", innerCircle: "pri_ic", caseStudy: "pri_cs" },
  webhookSecret: "unused",
  retentionDiscountId: "dsc_unused",
  readNotification: readPaddleNotification,
});

function service() {
  return createShopifyBilling({
    db,
    api: shopifyBillingApi,
    adminFor: async (shop) => createShopifyAdmin({ shop, accessToken: admin.accessToken, apiVersion: "2026-10", baseUrl: admin.url, maxAttempts: 1 }),
    syncUserFlags: events.syncUserFlags,
    returnUrlFor: () => RETURN_URL,
    test: true,
  });
}

beforeAll(async () => {
  admin = await startFakeAdminGraphql();
});
afterAll(() => admin.close());
beforeEach(() => {
  oauth.reset();
  admin.billing.subscriptions.clear();
  admin.billing.purchases.clear();
  admin.billing.frozen = false;
  admin.requests.length = 0;
  admin.script();
});

/** The merchant's answer on Shopify's confirmation page; where the browser goes next. */
async function answer(confirmationUrl: string, approve: boolean): Promise<URL> {
  const res = await fetch(confirmationUrl, {
    method: "POST",
    body: new URLSearchParams({ answer: approve ? "approve" : "decline" }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

async function refused(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

const mutations = (name: string) => admin.requests.filter((r) => r.query.includes(`${name}(`));

/** A linked shop whose user subscribed to `plan` through Shopify and approved it. */
async function subscribed(planId = "basic") {
  const linked = await linkedShop();
  const shopify = service();
  const { confirmationUrl } = await shopify.subscribe(await loadUser(db, linked.user.id), linked.shop, planId);
  await answer(confirmationUrl, true);
  await shopify.syncFromShopify(await loadUser(db, linked.user.id), linked.shop);
  return linked;
}

async function paddleRow(userId: string, id = `sub_01paddle${Math.random().toString(36).slice(2, 12)}`) {
  await db.billingSubscription.create({
    data: {
      id,
      userId,
      customerId: "ctm_01paddlecustomer",
      status: "active",
      planId: "pro",
      priceId: "pri_p",
      currentPeriodStart: new Date(Date.now() - 5 * 24 * 3600_000),
      currentPeriodEnd: new Date(Date.now() + 25 * 24 * 3600_000),
      lastEventAt: new Date(Date.now() - 5 * 24 * 3600_000),
    },
  });
  await db.$transaction((tx) => events.syncUserFlags(tx, userId));
  return id;
}

describe("subscribing from the admin", () => {
  it("asks Shopify for the plan's price, interval and trial as a test charge, and applies what the merchant approved", async () => {
    const linked = await linkedShop();
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const { confirmationUrl } = await shopify.subscribe(user, linked.shop, "basic");

    const [create] = mutations("appSubscriptionCreate");
    expect(create.path).toBe("/admin/api/2026-10/graphql.json");
    expect(create.headers["x-shopify-access-token"]).toBe(admin.accessToken);
    expect(create.variables).toMatchObject({
      name: "Winning Products Basic",
      returnUrl: RETURN_URL,
      test: true,
      trialDays: 7,
      lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: "29.99", currencyCode: "USD" }, interval: "EVERY_30_DAYS" } } }],
    });
    expect(confirmationUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/charges\/subscription\/\d+\/confirm$/);
    // Nothing is on before the merchant approves.
    expect((await userBilling(linked.user.id)).userSubscribed).not.toBe("yes");

    const back = await answer(confirmationUrl, true);
    expect(back.href.startsWith(`${RETURN_URL}?charge_id=`)).toBe(true);
    const { activeIds } = await shopify.syncFromShopify(user, linked.shop);
    expect(activeIds).toHaveLength(1);

    const flags = await userBilling(linked.user.id);
    expect(flags).toMatchObject({ userSubscribed: "yes", trialing: true, subscription_id: activeIds[0], paddleSubscriptionId: null, paddleCustomerId: null });
    expect(paidState(flags)).toEqual({ paid: true, reason: "trialing" });
    const row = await db.billingSubscription.findUniqueOrThrow({ where: { id: activeIds[0] }, select: { provider: true, shop: true, planId: true, status: true } });
    expect(row).toEqual({ provider: "shopify", shop: linked.shop, planId: "basic", status: "trialing" });
    expect(await balancesOf(linked.user.id)).toMatchObject(findPlan("basic")!.trialCredits);
  });

  it("a declined confirmation starts nothing and charges nothing", async () => {
    const linked = await linkedShop();
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const { confirmationUrl } = await shopify.subscribe(user, linked.shop, "pro");
    await answer(confirmationUrl, false);
    const { activeIds } = await shopify.syncFromShopify(user, linked.shop);
    expect(activeIds).toEqual([]);
    expect((await userBilling(linked.user.id)).userSubscribed).not.toBe("yes");
    expect(await db.billingSubscription.count({ where: { userId: linked.user.id } })).toBe(0);
  });

  it("Shopify's userErrors and a frozen shop become sentences the merchant understands; nothing is recorded", async () => {
    const linked = await linkedShop();
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    admin.script({ kind: "userErrors", errors: [{ field: ["returnUrl"], message: "Return url is not allowed" }] });
    const scripted = await refused(shopify.subscribe(user, linked.shop, "basic"));
    expect(scripted.status).toBe(422);
    expect(scripted.message).toBe(
      "Shopify did not accept this subscription: Return url is not allowed. Nothing was charged; try again, or contact us if it keeps happening.",
    );

    admin.billing.frozen = true;
    const frozen = await refused(shopify.subscribe(user, linked.shop, "basic"));
    expect(frozen).toEqual({
      status: 422,
      message:
        "Shopify cannot add a charge while your store has an unpaid Shopify bill (the store is frozen). Settle your Shopify bill in Settings > Billing, then try again.",
    });
    expect(admin.billing.subscriptions.size).toBe(0);
    expect(await db.billingSubscription.count({ where: { userId: linked.user.id } })).toBe(0);
  });

  it("refuses a plan that is not a monthly one, and the plan already held", async () => {
    const linked = await subscribed("basic");
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    expect(await refused(shopify.subscribe(user, linked.shop, "inner-circle"))).toEqual({ status: 400, message: "Choose the Basic or the Pro plan." });
    expect(await refused(shopify.subscribe(user, linked.shop, "basic"))).toEqual({ status: 409, message: "You are already on Basic." });
  });
});

describe("changing and cancelling", () => {
  it("an upgrade is a new subscription that replaces the old one; the new plan's credits apply, with no second trial", async () => {
    const linked = await subscribed("basic");
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const { confirmationUrl } = await shopify.subscribe(user, linked.shop, "pro");
    expect(mutations("appSubscriptionCreate").at(-1)!.variables).toMatchObject({
      name: "Winning Products Pro",
      trialDays: 0,
      replacementBehavior: "STANDARD",
    });
    await answer(confirmationUrl, true);
    const { activeIds } = await shopify.syncFromShopify(user, linked.shop);

    const rows = await db.billingSubscription.findMany({ where: { userId: linked.user.id }, select: { id: true, planId: true, status: true } });
    expect(rows.find((r) => r.id === activeIds[0])).toMatchObject({ planId: "pro", status: "active" });
    expect(rows.find((r) => r.id !== activeIds[0])).toMatchObject({ planId: "basic", status: "canceled" });
    expect(await userBilling(linked.user.id)).toMatchObject({ userSubscribed: "yes", trialing: false, subscription_id: activeIds[0] });
    expect(await balancesOf(linked.user.id)).toMatchObject(findPlan("pro")!.credits);
  });

  it("cancel calls appSubscriptionCancel and ends access and credits", async () => {
    const linked = await subscribed("basic");
    const shopify = service();
    const id = (await userBilling(linked.user.id)).subscription_id!;
    await shopify.cancel(await loadUser(db, linked.user.id), id);
    expect(mutations("appSubscriptionCancel").at(-1)!.variables).toEqual({ id, prorate: false });
    expect(await userBilling(linked.user.id)).toMatchObject({ userSubscribed: "no", subscriptionCancelled: true });
    expect(Object.values(await balancesOf(linked.user.id)).every((b) => b === 0)).toBe(true);
    expect(await refused(shopify.cancel(await loadUser(db, linked.user.id), id))).toEqual({ status: 409, message: "This subscription has already ended." });
  });

  it("writes the same marketing lifecycle events as a Paddle subscription: trial started, then cancelled", async () => {
    const linked = await subscribed("basic");
    const events = async () =>
      (await db.outboxEvent.findMany({ where: { userId: linked.user.id, service: "klaviyo" }, orderBy: { id: "asc" } })).map((r) => r.name);
    expect(await events()).toContain("Trial Started");
    expect(await events()).not.toContain("Subscription Cancelled");
    const id = (await userBilling(linked.user.id)).subscription_id!;
    await service().cancel(await loadUser(db, linked.user.id), id);
    expect(await events()).toContain("Subscription Cancelled");
  });

  it("extends a running trial once through appSubscriptionTrialExtend", async () => {
    const linked = await subscribed("pro");
    const shopify = service();
    const id = (await userBilling(linked.user.id)).subscription_id!;
    const before = await db.billingSubscription.findUniqueOrThrow({ where: { id }, select: { nextBilledAt: true } });
    const { nextBilledAt } = await shopify.extendTrial(await loadUser(db, linked.user.id), id);
    expect(mutations("appSubscriptionTrialExtend").at(-1)!.variables).toEqual({ id, days: 7 });
    expect(new Date(nextBilledAt).getTime() - before.nextBilledAt!.getTime()).toBe(7 * 24 * 3600_000);
    const after = await db.billingSubscription.findUniqueOrThrow({ where: { id }, select: { nextBilledAt: true, trialExtended: true, status: true } });
    expect(after).toMatchObject({ trialExtended: true, status: "trialing", nextBilledAt: new Date(nextBilledAt) });
    expect((await userBilling(linked.user.id)).extendedTrial).toBe(true);

    const calls = admin.requests.length;
    expect(await refused(shopify.extendTrial(await loadUser(db, linked.user.id), id))).toEqual({
      status: 409,
      message: "Your trial has already been extended once.",
    });
    expect(admin.requests.length).toBe(calls);
  });

  it("a Paddle subscription cannot be changed through Shopify", async () => {
    const linked = await linkedShop();
    const paddleId = await paddleRow(linked.user.id);
    const shopify = service();
    expect((await refused(shopify.cancel(await loadUser(db, linked.user.id), paddleId))).status).toBe(409);
    expect(mutations("appSubscriptionCancel")).toHaveLength(0);
  });
});

describe("credit top-ups", () => {
  it("appPurchaseOneTimeCreate, approved, adds the pack's credits once, whichever of the return and the webhook comes first", async () => {
    const linked = await subscribed("basic");
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const before = (await balancesOf(linked.user.id))["ai-ads"];
    const { confirmationUrl } = await shopify.buyTopUp(user, linked.shop, "ai-ads-50");
    expect(mutations("appPurchaseOneTimeCreate").at(-1)!.variables).toMatchObject({
      name: "Winning Products: 50 AI ad credits",
      price: { amount: "14.99", currencyCode: "USD" },
      test: true,
      returnUrl: RETURN_URL,
    });
    await answer(confirmationUrl, true);
    await shopify.syncFromShopify(user, linked.shop);
    await shopify.syncFromShopify(user, linked.shop);
    const purchase = [...admin.billing.purchases.values()][0];
    expect(
      await shopify.applyPurchaseWebhook(linked.shop, {
        app_purchase_one_time: { admin_graphql_api_id: purchase.id, name: purchase.name, status: "ACTIVE", updated_at: new Date().toISOString() },
      }),
    ).toBe("ignored");
    expect((await balancesOf(linked.user.id))["ai-ads"]).toBe(before + 50);
  });

  it("a declined or unknown pack grants nothing", async () => {
    const linked = await subscribed("basic");
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const before = await balancesOf(linked.user.id);
    expect((await refused(shopify.buyTopUp(user, linked.shop, "ai-ads-5000"))).status).toBe(400);
    const { confirmationUrl } = await shopify.buyTopUp(user, linked.shop, "product-pages-50");
    await answer(confirmationUrl, false);
    await shopify.syncFromShopify(user, linked.shop);
    expect(await balancesOf(linked.user.id)).toEqual(before);
  });
});

describe("webhooks that name a charge, not the shop (decision 041)", () => {
  it("an approved purchase this shop's Shopify does not list (another shop's signed body) grants nothing", async () => {
    const linked = await subscribed("basic");
    const before = await balancesOf(linked.user.id);
    const outcome = await service().applyPurchaseWebhook(linked.shop, {
      app_purchase_one_time: {
        admin_graphql_api_id: "gid://shopify/AppPurchaseOneTime/999000111",
        name: "Winning Products: 50 AI ad credits",
        status: "ACTIVE",
        admin_graphql_api_shop_id: "gid://shopify/Shop/777",
        updated_at: new Date().toISOString(),
      },
    });
    expect(outcome).toBe("unmatched");
    expect(await balancesOf(linked.user.id)).toEqual(before);
  });

  it("an active subscription we do not hold and this shop's Shopify does not list is not attached to the shop", async () => {
    const linked = await linkedShop();
    const id = "gid://shopify/AppSubscription/999000222";
    const now = new Date().toISOString();
    const outcome = await service().applySubscriptionWebhook(linked.shop, {
      app_subscription: { admin_graphql_api_id: id, name: "Winning Products Pro", status: "ACTIVE", created_at: now, updated_at: now, currency: "USD", price: "39.99" },
    });
    expect(outcome).toBe("unmatched");
    expect(await db.billingSubscription.count({ where: { id } })).toBe(0);
    expect((await userBilling(linked.user.id)).userSubscribed).not.toBe("yes");
  });
});

describe("both rails", () => {
  it("a Paddle subscriber is not offered a second subscription in the admin, and keeps every entitlement", async () => {
    const linked = await linkedShop();
    const paddleId = await paddleRow(linked.user.id);
    const shopify = service();
    const user = await loadUser(db, linked.user.id);
    const r = await refused(shopify.subscribe(user, linked.shop, "basic"));
    expect(r.status).toBe(409);
    expect(r.message).toMatch(/billed through Paddle/);
    expect(mutations("appSubscriptionCreate")).toHaveLength(0);
    expect(await shopify.rails(user)).toEqual({ primaryProvider: "paddle", shopifyShop: null, shopifyManageUrl: null, duplicate: null });
    // Reading Shopify (nothing there) does not touch the Paddle plan.
    await shopify.syncFromShopify(user, linked.shop);
    expect(await userBilling(linked.user.id)).toMatchObject({ userSubscribed: "yes", paddleSubscriptionId: paddleId, subscription_id: paddleId });
  });

  it("two paid subscriptions at once (bought on both before linking) are reported, and the Paddle ids stay Paddle's", async () => {
    const linked = await linkedShop();
    const paddleId = await paddleRow(linked.user.id);
    const shopifyId = "gid://shopify/AppSubscription/4242";
    const now = new Date().toISOString();
    // Shopify lists it as active (a subscription we do not hold yet is only attached then, decision 041).
    admin.billing.subscriptions.set(shopifyId, {
      id: shopifyId,
      name: "Winning Products Basic",
      status: "ACTIVE",
      createdAt: now,
      updatedAt: now,
      trialDays: 7,
      test: true,
      returnUrl: "https://example.test",
      price: { amount: "29.99", currencyCode: "USD" },
      replacementBehavior: null,
    });
    const outcome = await service().applySubscriptionWebhook(linked.shop, {
      app_subscription: { admin_graphql_api_id: shopifyId, name: "Winning Products Basic", status: "ACTIVE", created_at: now, updated_at: now, currency: "USD", price: "29.99" },
    });
    expect(outcome).toBe("applied");
    const user = await loadUser(db, linked.user.id);
    const rails = await service().rails(user);
    expect(rails.duplicate).toEqual({ shopify: shopifyId, shopifyShop: linked.shop, paddle: paddleId });
    // The newer Shopify subscription decides the flags; the Paddle ids are still the Paddle subscription's.
    expect(await userBilling(linked.user.id)).toMatchObject({
      subscription_id: shopifyId,
      paddleSubscriptionId: paddleId,
      paddleCustomerId: "ctm_01paddlecustomer",
    });
  });
});

describe("uninstall", () => {
  it("ends the shop's Shopify subscription in our records; a Paddle plan is untouched", async () => {
    const alone = await subscribed("basic");
    const both = await subscribed("pro");
    const paddleId = await paddleRow(both.user.id);
    const shopify = service();

    expect(await shopify.endShop(alone.shop)).toEqual({ shopifySubscriptionsEnded: 1 });
    expect(await userBilling(alone.user.id)).toMatchObject({ userSubscribed: "no" });
    expect(Object.values(await balancesOf(alone.user.id)).every((b) => b === 0)).toBe(true);

    const balancesBefore = await balancesOf(both.user.id);
    expect(await shopify.endShop(both.shop)).toEqual({ shopifySubscriptionsEnded: 1 });
    expect(await userBilling(both.user.id)).toMatchObject({ userSubscribed: "yes", paddleSubscriptionId: paddleId, subscription_id: paddleId });
    expect(await db.billingSubscription.findUniqueOrThrow({ where: { id: paddleId }, select: { status: true } })).toEqual({ status: "active" });
    // The ended Shopify row is not the one deciding access, so the Paddle plan's credits stay.
    expect(await balancesOf(both.user.id)).toEqual(balancesBefore);
    // Twice is once.
    expect(await shopify.endShop(both.shop)).toEqual({ shopifySubscriptionsEnded: 0 });
  });
});

describe("deleting the account", () => {
  function account(shopify: ReturnType<typeof service>, paddleCancelled: string[]) {
    return createAccount({
      db,
      forgetRateLimits: (subjects) => createRateLimits({ db, databaseUrl: process.env.DATABASE_URL! }).forget(subjects),
      requestEmailChange: (userId, email) => accountEmails.requestEmailChange(userId, email),
      pendingEmailChange: (userId) => accountEmails.pendingEmailChange(userId),
      cancelSubscription: async (id) => {
        paddleCancelled.push(id);
      },
      cancelShopifySubscription: (userId, id) => shopify.cancel({ id: userId }, id),
    });
  }

  it("cancels a Shopify subscription at Shopify first, so a store that keeps the app is not charged for a deleted account", async () => {
    const linked = await subscribed("pro");
    const id = (await userBilling(linked.user.id)).subscription_id!;
    const paddleCancelled: string[] = [];
    const result = await account(service(), paddleCancelled).deleteAccount(linked.user.id, {
      confirmation: TEST_PASSWORD,
      typedWord: "DELETE",
    });
    expect(result).toEqual({ cancelledSubscriptions: [id] });
    expect(mutations("appSubscriptionCancel").at(-1)!.variables).toEqual({ id, prorate: false });
    expect(paddleCancelled).toEqual([]);
    expect(await db.user.count({ where: { id: linked.user.id } })).toBe(0);
  });

  it("keeps the account when Shopify cannot be asked to cancel, and says so", async () => {
    const linked = await subscribed("basic");
    // The shop's session is gone (as after a token is revoked): Shopify cannot be asked.
    const unreachable = createShopifyBilling({
      db,
      api: shopifyBillingApi,
      adminFor: async () => {
        throw new AppError(409, "Open Winning Products from this store's Shopify admin once, then try again.");
      },
      syncUserFlags: events.syncUserFlags,
      returnUrlFor: () => RETURN_URL,
      test: true,
    });
    const outcome = await refused(
      account(unreachable, []).deleteAccount(linked.user.id, { confirmation: TEST_PASSWORD, typedWord: "DELETE" }),
    );
    expect(outcome.status).toBe(502);
    expect(outcome.message).toMatch(/could not cancel your subscription with Shopify, so your account was not deleted/);
    expect(await db.user.count({ where: { id: linked.user.id } })).toBe(1);
  });
});
