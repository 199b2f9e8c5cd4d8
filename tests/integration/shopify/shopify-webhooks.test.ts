// Shopify's app and compliance webhooks, signed for real (HMAC-SHA256 of the raw body with the test
// app's secret), against the real database, and what each erases or keeps.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { randomUUID } from "node:crypto";
import { db } from "~/db.server";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { call } from "../../helpers/routes";
import { offlineSessionRow, uniqueShop, webhookHmac } from "../../helpers/shopify";

type Action = typeof appUninstalled;

interface Delivery {
  topic: string;
  shop: string;
  payload: unknown;
  webhookId?: string;
  /** The HMAC header; the correct one by default, null to leave it out. */
  hmac?: string | null;
}

function deliver(action: Action, delivery: Delivery) {
  const body = JSON.stringify(delivery.payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-shopify-topic": delivery.topic,
    "x-shopify-shop-domain": delivery.shop,
    "x-shopify-webhook-id": delivery.webhookId ?? randomUUID(),
    "x-shopify-api-version": "2026-10",
    "x-shopify-triggered-at": new Date().toISOString(),
  };
  const hmac = delivery.hmac === undefined ? webhookHmac(body) : delivery.hmac;
  if (hmac !== null) headers["x-shopify-hmac-sha256"] = hmac;
  return call(action, `/webhooks/${delivery.topic}`, { method: "POST", body, headers });
}

async function installedShop(options: { expires?: Date } = {}) {
  const shop = uniqueShop();
  await db.session.create({ data: offlineSessionRow(shop, options), select: { id: true } });
  await db.session.create({
    data: { ...offlineSessionRow(shop), id: `${shop}_42`, isOnline: true, userId: 42n },
    select: { id: true },
  });
  return shop;
}

const sessionsOf = (shop: string) => db.session.count({ where: { shop } });
const deliveriesOf = (shop: string) =>
  db.shopifyWebhookDelivery.findMany({ where: { shop }, select: { webhookId: true, topic: true, shop: true } });

const uninstallPayload = (shop: string) => ({ id: 1, name: "Test shop", domain: shop, myshopify_domain: shop });

beforeEach(() => oauth.reset());

describe("webhook signatures", () => {
  const forged: [string, string | null][] = [
    ["missing", null],
    ["signed with another secret", webhookHmac(JSON.stringify({ id: 1 }), "someone-elses-secret")],
    ["not base64 at all", "not-a-signature"],
  ];

  it.each(forged)("an app/uninstalled delivery with the HMAC %s gets 401 and changes nothing", async (_name, hmac) => {
    const shop = await installedShop();
    const res = await deliver(appUninstalled, {
      topic: "app/uninstalled",
      shop,
      payload: uninstallPayload(shop),
      hmac,
    });
    expect(res.status).toBe(401);
    expect(await sessionsOf(shop)).toBe(2);
    expect(await deliveriesOf(shop)).toEqual([]);
  });

  it("an HMAC computed over another body is refused (the body was tampered with)", async () => {
    const shop = await installedShop();
    const res = await deliver(appUninstalled, {
      topic: "app/uninstalled",
      shop,
      payload: uninstallPayload(shop),
      hmac: webhookHmac(JSON.stringify(uninstallPayload("victim.myshopify.com"))),
    });
    expect(res.status).toBe(401);
    expect(await sessionsOf(shop)).toBe(2);
  });

  it("a forged shop/redact changes nothing either", async () => {
    const shop = await installedShop();
    const res = await deliver(shopRedact, {
      topic: "shop/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop },
      hmac: webhookHmac("{}", "someone-elses-secret"),
    });
    expect(res.status).toBe(401);
    expect(await sessionsOf(shop)).toBe(2);
  });

  it("a correctly signed delivery missing Shopify's headers is a 400", async () => {
    const shop = await installedShop();
    const body = JSON.stringify(uninstallPayload(shop));
    const res = await call(appUninstalled, "/webhooks/app/uninstalled", {
      method: "POST",
      body,
      headers: { "x-shopify-hmac-sha256": webhookHmac(body), "x-shopify-shop-domain": shop },
    });
    expect(res.status).toBe(400);
    expect(await sessionsOf(shop)).toBe(2);
  });

  it("a GET is not a webhook", async () => {
    const res = await call(appUninstalled, "/webhooks/app/uninstalled", { method: "GET" });
    expect(res.status).toBe(405);
  });
});

describe("app/uninstalled", () => {
  it("deletes every session of the shop, and only of that shop", async () => {
    const shop = await installedShop();
    const neighbour = await installedShop();
    const webhookId = randomUUID();

    const res = await deliver(appUninstalled, {
      topic: "app/uninstalled",
      shop,
      payload: uninstallPayload(shop),
      webhookId,
    });

    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(0);
    expect(await sessionsOf(neighbour)).toBe(2);
    expect(await deliveriesOf(shop)).toEqual([{ webhookId, topic: "app/uninstalled", shop }]);
  });

  it("a redelivery of the same webhook id answers 200 and is recorded once", async () => {
    const shop = await installedShop();
    const webhookId = randomUUID();
    const delivery = { topic: "app/uninstalled", shop, payload: uninstallPayload(shop), webhookId };

    expect((await deliver(appUninstalled, delivery)).status).toBe(200);
    // The merchant reinstalls before Shopify's retry arrives: the old delivery must not log them out.
    await db.session.create({ data: offlineSessionRow(shop), select: { id: true } });
    expect((await deliver(appUninstalled, delivery)).status).toBe(200);

    expect(await deliveriesOf(shop)).toEqual([{ webhookId, topic: "app/uninstalled", shop }]);
    expect(await sessionsOf(shop)).toBe(1);
  });

  it("works for a shop whose offline token expired, without asking Shopify for a new one", async () => {
    // Expiring offline tokens last an hour; by the time a shop uninstalls, its stored token has
    // usually expired, and Shopify refuses to refresh the token of an app that is no longer installed.
    const shop = await installedShop({ expires: new Date(Date.now() - 3600_000) });
    oauth.answer(shop, () => Response.json({ errors: "[API] Invalid API key or access token" }, { status: 401 }));

    const res = await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });

    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(0);
    expect(oauth.requests).toEqual([]);
  });

  it("answers 200 for a shop we hold nothing for (already cleaned up)", async () => {
    const shop = uniqueShop();
    const res = await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });
    expect(res.status).toBe(200);
    expect(await deliveriesOf(shop)).toHaveLength(1);
  });
});

describe("compliance webhooks", () => {
  it("shop/redact, after app/uninstalled, leaves no session and is recorded", async () => {
    const shop = await installedShop();
    const webhookId = randomUUID();
    // Shopify sends shop/redact 48 hours after the uninstall; for an installed shop it erases nothing (shopify-webhook-shops.test.ts).
    await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });
    const res = await deliver(shopRedact, {
      topic: "shop/redact",
      shop,
      payload: { shop_id: 954889, shop_domain: shop },
      webhookId,
    });
    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(0);
    expect((await deliveriesOf(shop)).filter((d) => d.topic === "shop/redact")).toEqual([{ webhookId, topic: "shop/redact", shop }]);
  });

  it("shop/redact works when the shop's offline token expired long ago", async () => {
    const shop = await installedShop({ expires: new Date(Date.now() - 48 * 3600_000) });
    oauth.answer(shop, () => Response.json({ errors: "[API] Invalid API key or access token" }, { status: 401 }));
    await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });
    const res = await deliver(shopRedact, { topic: "shop/redact", shop, payload: { shop_id: 1, shop_domain: shop } });
    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(0);
    expect(oauth.requests).toEqual([]);
  });

  it("customers/data_request answers 200, is recorded, and leaves the shop installed", async () => {
    const shop = await installedShop();
    const webhookId = randomUUID();
    const res = await deliver(customersDataRequest, {
      topic: "customers/data_request",
      shop,
      webhookId,
      payload: {
        shop_id: 954889,
        shop_domain: shop,
        orders_requested: [299938, 280263],
        customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
        data_request: { id: 9999 },
      },
    });
    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(2);
    expect(await deliveriesOf(shop)).toEqual([{ webhookId, topic: "customers/data_request", shop }]);
  });

  it("customers/redact answers 200, is recorded, and leaves the shop installed", async () => {
    const shop = await installedShop();
    const webhookId = randomUUID();
    const res = await deliver(customersRedact, {
      topic: "customers/redact",
      shop,
      webhookId,
      payload: {
        shop_id: 954889,
        shop_domain: shop,
        customer: { id: 191167, email: "john@example.com", phone: "555-625-1199" },
        orders_to_redact: [299938, 280263],
      },
    });
    expect(res.status).toBe(200);
    expect(await sessionsOf(shop)).toBe(2);
    expect(await deliveriesOf(shop)).toEqual([{ webhookId, topic: "customers/redact", shop }]);
  });

  it("compliance webhooks with a bad HMAC get 401", async () => {
    const shop = await installedShop();
    for (const [action, topic] of [
      [customersDataRequest, "customers/data_request"],
      [customersRedact, "customers/redact"],
    ] as const) {
      const res = await deliver(action, { topic, shop, payload: { shop_domain: shop }, hmac: "AAAA" });
      expect(res.status).toBe(401);
    }
    expect(await deliveriesOf(shop)).toEqual([]);
  });
});

describe("effects on linked stores and theme tokens", () => {
  async function linkedShopWithThemeToken() {
    const { linkedShop } = await import("../../helpers/linked-shops");
    const linked = await linkedShop();
    await db.themeToken.create({
      data: {
        userId: linked.user.id,
        themeId: "555",
        tokenHash: randomUUID().replace(/-/g, "").padEnd(64, "0"),
        selectedStore: linked.shop,
        whitelistedUrls: JSON.stringify(["https://shop.example.com"]),
        version: "1",
      },
      select: { id: true },
    });
    return linked;
  }
  const storeOf = (shop: string) =>
    db.shopifyStore.findUnique({
      where: { shop },
      select: { connected: true, encrypted_app_token: true, disconnectedAt: true, userId: true },
    });
  const themeTokensOf = (shop: string) =>
    db.themeToken.findMany({ where: { selectedStore: shop }, select: { themeId: true, revokedAt: true } });

  it("app/uninstalled disconnects the store, destroys its token and sessions, and revokes its theme tokens", async () => {
    const { shop, user } = await linkedShopWithThemeToken();
    const neighbour = await linkedShopWithThemeToken();
    expect((await storeOf(shop))?.encrypted_app_token).toMatch(/^v1:/);

    const res = await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });

    expect(res.status).toBe(200);
    expect(await storeOf(shop)).toEqual({
      connected: false,
      encrypted_app_token: null,
      disconnectedAt: expect.any(Date),
      userId: user.id,
    });
    expect(await sessionsOf(shop)).toBe(0);
    expect(await themeTokensOf(shop)).toEqual([{ themeId: "555", revokedAt: expect.any(Date) }]);
    // The neighbour keeps everything.
    expect(await storeOf(neighbour.shop)).toMatchObject({ connected: true, encrypted_app_token: expect.stringMatching(/^v1:/) });
    expect(await themeTokensOf(neighbour.shop)).toEqual([{ themeId: "555", revokedAt: null }]);
    expect(await sessionsOf(neighbour.shop)).toBe(1);
  });

  it("a redelivered app/uninstalled does not disconnect a store relinked after the first delivery", async () => {
    const { shop } = await linkedShopWithThemeToken();
    const webhookId = randomUUID();
    const delivery = { topic: "app/uninstalled", shop, payload: uninstallPayload(shop), webhookId };
    expect((await deliver(appUninstalled, delivery)).status).toBe(200);
    await db.shopifyStore.update({ where: { shop }, data: { connected: true } });

    expect((await deliver(appUninstalled, delivery)).status).toBe(200);

    expect((await storeOf(shop))?.connected).toBe(true);
  });

  it("shop/redact erases the store row, its theme tokens (revoked or not) and its sessions", async () => {
    const { shop, user } = await linkedShopWithThemeToken();
    const neighbour = await linkedShopWithThemeToken();
    await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });

    const res = await deliver(shopRedact, { topic: "shop/redact", shop, payload: { shop_id: 1, shop_domain: shop } });

    expect(res.status).toBe(200);
    expect(await storeOf(shop)).toBeNull();
    expect(await themeTokensOf(shop)).toEqual([]);
    expect(await sessionsOf(shop)).toBe(0);
    // The user (our customer, not the shop's) and the neighbouring shop remain.
    expect(await db.user.count({ where: { id: user.id } })).toBe(1);
    expect(await storeOf(neighbour.shop)).toMatchObject({ connected: true });
  });

  async function productPage(userId: string, shop: string | null, fields: { status: string; shopifyProductId?: string }) {
    const store = shop ? await db.shopifyStore.findUniqueOrThrow({ where: { shop }, select: { id: true } }) : null;
    return db.productPage.create({
      data: {
        userId,
        objectID: `p-${randomUUID().slice(0, 8)}`,
        storeId: store?.id ?? null,
        status: fields.status,
        title: "Heated neck massager",
        descriptionHtml: "<p>Relaxes tight muscles in ten minutes.</p>",
        bullets: JSON.stringify(["Three heat levels"]),
        seoTitle: "Heated neck massager",
        seoDescription: "Relaxes tight muscles.",
        priceCents: 3999,
        writer: "built-in writer",
        shopifyProductId: fields.shopifyProductId ?? null,
        error: fields.status === "failed" ? "Shopify answered 422" : null,
        pushedAt: fields.status === "pushed" ? new Date() : null,
      },
      select: { id: true },
    });
  }
  const pageOf = (id: number) =>
    db.productPage.findUniqueOrThrow({
      where: { id },
      select: { storeId: true, status: true, shopifyProductId: true, pushedAt: true, error: true, title: true, priceCents: true },
    });

  it("shop/redact detaches the product pages pushed to that shop and keeps the user's text; other shops' pages stay", async () => {
    const { shop, user } = await linkedShopWithThemeToken();
    const neighbour = await linkedShopWithThemeToken();
    const pushed = await productPage(user.id, shop, { status: "pushed", shopifyProductId: "gid://shopify/Product/111" });
    const failed = await productPage(user.id, shop, { status: "failed" });
    const draft = await productPage(user.id, null, { status: "draft" });
    const elsewhere = await productPage(neighbour.user.id, neighbour.shop, {
      status: "pushed",
      shopifyProductId: "gid://shopify/Product/222",
    });
    const elsewhereBefore = await pageOf(elsewhere.id);
    const draftBefore = await pageOf(draft.id);
    await db.handoffToken.create({
      data: { tokenHash: randomUUID(), userId: user.id, shop, target: "/dashboard/billing", expiresAt: new Date(Date.now() + 60_000) },
    });
    await deliver(appUninstalled, { topic: "app/uninstalled", shop, payload: uninstallPayload(shop) });

    const res = await deliver(shopRedact, { topic: "shop/redact", shop, payload: { shop_id: 1, shop_domain: shop } });

    expect(res.status).toBe(200);
    const detached = {
      storeId: null,
      status: "draft",
      shopifyProductId: null,
      pushedAt: null,
      error: null,
      title: "Heated neck massager",
      priceCents: 3999,
    };
    expect(await pageOf(pushed.id)).toEqual(detached);
    expect(await pageOf(failed.id)).toEqual(detached);
    expect(await pageOf(draft.id)).toEqual(draftBefore);
    expect(await pageOf(elsewhere.id)).toEqual(elsewhereBefore);
    expect(elsewhereBefore).toMatchObject({ status: "pushed", shopifyProductId: "gid://shopify/Product/222" });
    // Nothing left that names the shop.
    expect(await db.productPage.count({ where: { userId: user.id } })).toBe(3);
    expect(await db.handoffToken.count({ where: { shop } })).toBe(0);
    expect(await storeOf(shop)).toBeNull();
  });

  it("customers/data_request and customers/redact leave the linked store and its theme tokens alone", async () => {
    const { shop } = await linkedShopWithThemeToken();
    const payload = { shop_id: 1, shop_domain: shop, customer: { id: 191167, email: "john@example.com" } };
    expect((await deliver(customersDataRequest, { topic: "customers/data_request", shop, payload })).status).toBe(200);
    expect((await deliver(customersRedact, { topic: "customers/redact", shop, payload })).status).toBe(200);
    expect(await storeOf(shop)).toMatchObject({ connected: true });
    expect(await themeTokensOf(shop)).toEqual([{ themeId: "555", revokedAt: null }]);
  });
});

describe("what the compliance handlers answer", () => {
  it("customers/data_request exports nothing and says we hold no customer data; customers/redact erases nothing", async () => {
    const { handleCustomerDataRequest, handleCustomerRedact } = await import("~/services/shopify/webhooks.server");
    expect(await handleCustomerDataRequest(db, "s.myshopify.com", 191167, 9999)).toEqual({
      customerRecords: 0,
      export: {},
      note: "Winning Products holds no data about this shop's customers; nothing to export.",
    });
    expect(await handleCustomerRedact(db, "s.myshopify.com", 191167)).toEqual({
      customerRecordsDeleted: 0,
      note: "Winning Products holds no data about this shop's customers; nothing to erase.",
    });
  });
});
