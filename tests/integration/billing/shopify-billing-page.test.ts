// Billing & credits with SHOPIFY_BILLING=on, through the real routes (docs/decisions/034): inside Shopify
// admin (a real session token) the plan cards ask Shopify for the charge and send the top frame to the
// confirmation page served by the local Admin GraphQL server; back on /app/billing?charge_id= the plan
// and credits show, and the site shows the same plan as managed in Shopify admin with no Paddle action.
// A Paddle subscriber opening the app is not offered a second subscription. The webhook and uninstall
// routes verify the HMAC and apply each delivery once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

// The local Admin GraphQL server starts before the app's modules read its address, on a port the system gives (a
// port picked at random could be one another test file's socket holds).
const admin = await vi.hoisted(async () => {
  const { startFakeAdminGraphql } = await import("../../helpers/fake-admin-graphql");
  const server = await startFakeAdminGraphql({ port: 0, acceptToken: (t) => t.startsWith("shpat_") });
  process.env.SHOPIFY_BILLING = "on";
  process.env.SHOPIFY_ADMIN_API_URL = server.url;
  return server;
});
const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { findPlan } from "~/domain/billing/plans";
import { db } from "~/db.server";
import { action as appBillingAction, loader as appBillingLoader } from "~/routes/app.billing";
import { action as siteBillingAction, loader as siteBillingLoader } from "~/routes/dashboard.billing";
import { action as uninstalledAction } from "~/routes/webhooks.app.uninstalled";
import { action as subscriptionWebhook } from "~/routes/webhooks.app_subscriptions.update";
import { billing } from "~/services/index.server";
import { linkedShop } from "../../helpers/linked-shops";
import { balancesOf, userBilling } from "../../helpers/paddle";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken, webhookHmac } from "../../helpers/shopify";

afterAll(() => admin.close());
beforeEach(() => {
  oauth.reset();
  admin.requests.length = 0;
  admin.billing.frozen = false;
});

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return {
    ...options,
    headers: {
      authorization: `Bearer ${await signSessionToken({ shop })}`,
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
      ...options.headers,
    },
  };
}

type PageData = {
  overview: { subscription: { id: string; status: string; planId: string | null; provider: string; shop: string | null } | null; canClaimDiscount: boolean };
  balances: { feature: string; balance: number }[];
  shopify: {
    rail: boolean;
    notice: { tone: string; text: string } | null;
    rails: { primaryProvider: string | null; shopifyManageUrl: string | null; duplicate: unknown };
    topUps: { id: string }[];
  };
};

async function embeddedPage(shop: string, query = ""): Promise<PageData> {
  const res = await call(appBillingLoader, `/app/billing${query}`, await asShop(shop));
  expect(res.status).toBe(200);
  return (await res.json()) as PageData;
}

async function embeddedIntent(shop: string, form: Record<string, string>) {
  const res = await call(appBillingAction, "/app/billing", await asShop(shop, { method: "POST", form }));
  return { status: res.status, body: (await res.json()) as { error: string | null; message: string | null; topUrl?: string } };
}

async function approve(confirmationUrl: string, yes = true) {
  const res = await fetch(confirmationUrl, { method: "POST", body: new URLSearchParams({ answer: yes ? "approve" : "decline" }), redirect: "manual" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

const balanceMap = (page: PageData) => Object.fromEntries(page.balances.map((b) => [b.feature, b.balance]));

describe("/app/billing with SHOPIFY_BILLING=on", () => {
  it("a plan card subscribes through Shopify; back from the confirmation page the plan and credits show on both surfaces", async () => {
    const linked = await linkedShop();
    const before = await embeddedPage(linked.shop);
    expect(before.shopify.rail).toBe(true);
    expect(before.overview.subscription).toBeNull();

    const chosen = await embeddedIntent(linked.shop, { intent: "shopify-subscribe", plan: "pro" });
    expect(chosen.status).toBe(200);
    expect(chosen.body.topUrl).toMatch(new RegExp(`^${admin.url.replaceAll(".", "\\.")}/admin/charges/subscription/\\d+/confirm$`));
    const sent = admin.requests.find((r) => r.query.includes("appSubscriptionCreate("))!;
    expect(sent.variables).toMatchObject({
      name: "Winning Products Pro",
      test: true,
      trialDays: 7,
      returnUrl: `https://admin.shopify.com/store/${linked.shop.replace(".myshopify.com", "")}/apps/test-api-key/app/billing`,
    });

    const back = await approve(chosen.body.topUrl!);
    const after = await embeddedPage(linked.shop, back.search);
    expect(after.shopify.notice).toEqual({ tone: "success", text: "Your plan is on. It is billed on your Shopify invoice." });
    expect(after.overview.subscription).toMatchObject({ planId: "pro", status: "trialing", provider: "shopify", shop: linked.shop });
    expect(after.overview.canClaimDiscount).toBe(false);
    expect(balanceMap(after)).toMatchObject(findPlan("pro")!.trialCredits);

    // The website: the same plan and credits, managed in Shopify admin, no Paddle action.
    const site = await call(siteBillingLoader, "/dashboard/billing", { cookie: linked.user.cookie });
    const sitePage = (await site.json()) as PageData;
    expect(sitePage.shopify.rail).toBe(false);
    expect(sitePage.overview.subscription).toMatchObject({ planId: "pro", provider: "shopify" });
    expect(sitePage.shopify.rails.shopifyManageUrl).toBe(sent.variables.returnUrl);
    expect(balanceMap(sitePage)).toEqual(balanceMap(after));
    const siteCancel = await call(siteBillingAction, "/dashboard/billing", { method: "POST", form: { intent: "cancel" }, cookie: linked.user.cookie });
    expect(siteCancel.status).toBe(409);
    expect(((await siteCancel.json()) as { error: string }).error).toMatch(/billed through Shopify/);

    // Cancelling from the admin goes to Shopify.
    const cancelled = await embeddedIntent(linked.shop, { intent: "cancel" });
    expect(cancelled.body.message).toBe("Your subscription is cancelled in Shopify; nothing more is charged.");
    expect(admin.requests.some((r) => r.query.includes("appSubscriptionCancel("))).toBe(true);
    expect((await userBilling(linked.user.id)).userSubscribed).toBe("no");
  });

  it("a declined confirmation says nothing was charged", async () => {
    const linked = await linkedShop();
    const chosen = await embeddedIntent(linked.shop, { intent: "shopify-subscribe", plan: "basic" });
    const back = await approve(chosen.body.topUrl!, false);
    const page = await embeddedPage(linked.shop, back.search);
    expect(page.shopify.notice).toEqual({
      tone: "warning",
      text: "The charge was not approved in Shopify, so nothing was charged and nothing changed.",
    });
    expect(page.overview.subscription).toBeNull();
  });

  it("a frozen shop is told how to fix it; an unknown plan is a 400", async () => {
    const linked = await linkedShop();
    admin.billing.frozen = true;
    const frozen = await embeddedIntent(linked.shop, { intent: "shopify-subscribe", plan: "basic" });
    expect(frozen.status).toBe(422);
    expect(frozen.body.error).toMatch(/unpaid Shopify bill/);
    const bad = await embeddedIntent(linked.shop, { intent: "shopify-subscribe", plan: "inner-circle" });
    expect(bad).toMatchObject({ status: 400, body: { error: "Choose the Basic or the Pro plan." } });
  });

  it("a Paddle subscriber opening the app keeps the plan and is not offered a second subscription", async () => {
    const linked = await linkedShop();
    const { loadUser } = await import("~/services/accounts/auth.server");
    await billing.completeLocalCheckout(await loadUser(db, linked.user.id), "basic");
    const page = await embeddedPage(linked.shop);
    expect(page.overview.subscription).toMatchObject({ provider: "paddle", planId: "basic", status: "trialing" });
    expect(page.shopify.rails.primaryProvider).toBe("paddle");
    const second = await embeddedIntent(linked.shop, { intent: "shopify-subscribe", plan: "pro" });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/billed through Paddle/);
    expect(admin.requests.some((r) => r.query.includes("appSubscriptionCreate("))).toBe(false);
    expect((await userBilling(linked.user.id)).userSubscribed).toBe("yes");
  });
});

describe("the webhook and uninstall routes", () => {
  function deliver(action: typeof subscriptionWebhook, topic: string, shop: string, payload: unknown, options: { webhookId?: string; hmac?: string } = {}) {
    const body = JSON.stringify(payload);
    return call(action, `/webhooks/${topic}`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": topic,
        "x-shopify-shop-domain": shop,
        "x-shopify-webhook-id": options.webhookId ?? randomUUID(),
        "x-shopify-api-version": "2026-10",
        "x-shopify-hmac-sha256": options.hmac ?? webhookHmac(body),
      },
    });
  }

  const update = (id: string, status: string, updatedAt: string) => ({
    app_subscription: {
      admin_graphql_api_id: id,
      name: "Winning Products Basic",
      status,
      admin_graphql_api_shop_id: "gid://shopify/Shop/1",
      created_at: "2026-11-01T10:00:00Z",
      updated_at: updatedAt,
      currency: "USD",
      price: "29.99",
      interval: "every_30_days",
    },
  });

  /** What the shop's Shopify lists as active: a subscription we do not hold yet is only attached when it is listed (decision 041). */
  function listedAtShopify(id: string) {
    admin.billing.subscriptions.set(id, {
      id,
      name: "Winning Products Basic",
      status: "ACTIVE",
      createdAt: "2026-11-01T10:00:00Z",
      updatedAt: "2026-11-01T10:00:00Z",
      trialDays: 7,
      test: true,
      returnUrl: "https://example.test",
      price: { amount: "29.99", currencyCode: "USD" },
      replacementBehavior: null,
    });
  }

  it("app_subscriptions/update is HMAC-verified, applied once per webhook id, and ordered by updated_at", async () => {
    const linked = await linkedShop();
    const id = `gid://shopify/AppSubscription/${Math.floor(Math.random() * 1e9)}`;
    listedAtShopify(id);
    const forged = await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, update(id, "ACTIVE", "2026-11-20T10:00:00Z"), { hmac: webhookHmac("{}") });
    expect(forged.status).toBe(401);
    expect(await db.billingSubscription.count({ where: { id } })).toBe(0);

    const malformed = await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, { app_subscription: { id: 1 } });
    expect(malformed.status).toBe(400);

    const webhookId = randomUUID();
    expect((await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, update(id, "ACTIVE", "2026-11-20T10:00:00Z"), { webhookId })).status).toBe(200);
    expect(await userBilling(linked.user.id)).toMatchObject({ userSubscribed: "yes", subscription_id: id, paddleSubscriptionId: null });
    // Older news arriving later changes nothing; the same delivery twice counts once.
    expect((await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, update(id, "CANCELLED", "2026-11-19T10:00:00Z"))).status).toBe(200);
    expect((await userBilling(linked.user.id)).userSubscribed).toBe("yes");
    await db.billingSubscription.update({ where: { id }, data: { status: "canceled" } });
    expect((await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, update(id, "ACTIVE", "2026-11-20T10:00:00Z"), { webhookId })).status).toBe(200);
    expect((await db.billingSubscription.findUniqueOrThrow({ where: { id }, select: { status: true } })).status).toBe("canceled");
  });

  it("app/uninstalled ends the shop's Shopify subscription and its credits", async () => {
    const linked = await linkedShop();
    const id = `gid://shopify/AppSubscription/${Math.floor(Math.random() * 1e9)}`;
    listedAtShopify(id);
    await deliver(subscriptionWebhook, "app_subscriptions/update", linked.shop, update(id, "ACTIVE", new Date().toISOString()));
    expect((await userBilling(linked.user.id)).userSubscribed).toBe("yes");
    const res = await deliver(uninstalledAction, "app/uninstalled", linked.shop, { id: 1, domain: linked.shop, myshopify_domain: linked.shop });
    expect(res.status).toBe(200);
    expect((await userBilling(linked.user.id)).userSubscribed).toBe("no");
    expect(Object.values(await balancesOf(linked.user.id)).every((b) => b === 0)).toBe(true);
  });
});
