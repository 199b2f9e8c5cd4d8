// Which shop a Shopify webhook may act on (docs/decisions/041). The HMAC covers the body only, so the
// shop comes from what the signed body names; an X-Shopify-Shop-Domain that disagrees is refused with a
// log line and changes nothing. A captured body sent again (under its own or a new webhook id) does
// nothing; a signed body that is not an object is a 400; the six routes answer 405 to anything but POST.
// Every body is signed for real with the test app's secret.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import * as appPurchasesRoute from "~/routes/webhooks.app_purchases_one_time.update";
import * as appSubscriptionsRoute from "~/routes/webhooks.app_subscriptions.update";
import * as appUninstalledRoute from "~/routes/webhooks.app.uninstalled";
import * as customersDataRequestRoute from "~/routes/webhooks.customers.data_request";
import * as customersRedactRoute from "~/routes/webhooks.customers.redact";
import * as shopRedactRoute from "~/routes/webhooks.shop.redact";
import { pruneWebhookDeliveries, WEBHOOK_ID_RETENTION_DAYS, webhookLog } from "~/services/shopify/webhooks.server";
import { linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { webhookHmac } from "../../helpers/shopify";

type Action = typeof appUninstalledRoute.action;

const ROUTES = [
  { topic: "app/uninstalled", module: appUninstalledRoute },
  { topic: "shop/redact", module: shopRedactRoute },
  { topic: "customers/data_request", module: customersDataRequestRoute },
  { topic: "customers/redact", module: customersRedactRoute },
  { topic: "app_subscriptions/update", module: appSubscriptionsRoute },
  { topic: "app_purchases_one_time/update", module: appPurchasesRoute },
] as const;

/** A delivery as Shopify makes it: the raw body signed, the shop and the topic in headers (not signed). */
function deliver(action: Action, d: { topic: string; shop: string; body: string; webhookId?: string }) {
  return call(action, `/webhooks/${d.topic}`, {
    method: "POST",
    body: d.body,
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": d.topic,
      "x-shopify-shop-domain": d.shop,
      "x-shopify-webhook-id": d.webhookId ?? randomUUID(),
      "x-shopify-event-id": randomUUID(),
      "x-shopify-api-version": "2026-10",
      "x-shopify-triggered-at": new Date().toISOString(),
      "x-shopify-hmac-sha256": webhookHmac(d.body),
    },
  });
}

/** app/uninstalled's body is the Shop resource (Shopify's documented sample, with this shop's domain). */
const shopResource = (shop: string) =>
  JSON.stringify({ id: 690933842, name: "Test shop", domain: "shop.example.com", myshopify_domain: shop, email: "owner@example.com" });

const storeOf = (shop: string) => db.shopifyStore.findUnique({ where: { shop }, select: { connected: true, encrypted_app_token: true } });
const sessionsOf = (shop: string) => db.session.count({ where: { shop } });

let warnings: unknown[][] = [];
beforeEach(() => {
  oauth.reset();
  warnings = [];
  vi.spyOn(webhookLog, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args);
  });
});
afterEach(() => vi.restoreAllMocks());

describe("the shop a webhook acts on is the one its signed body names", () => {
  it("shop A's signed app/uninstalled sent with shop B's header is refused with a log line; B stays connected", async () => {
    const a = await linkedShop();
    const b = await linkedShop();

    const res = await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: b.shop, body: shopResource(a.shop) });

    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/does not name the shop/) });
    expect(await storeOf(b.shop)).toMatchObject({ connected: true, encrypted_app_token: expect.stringMatching(/^v1:/) });
    expect(await sessionsOf(b.shop)).toBe(1);
    // A is not touched either: the request was not Shopify's.
    expect(await storeOf(a.shop)).toMatchObject({ connected: true });
    expect(await db.shopifyWebhookDelivery.count({ where: { shop: { in: [a.shop, b.shop] } } })).toBe(0);
    expect(JSON.stringify(warnings)).toContain(a.shop);
    expect(JSON.stringify(warnings)).toContain(b.shop);
  });

  it("shop A's signed shop/redact sent with shop B's header deletes nothing of B", async () => {
    const a = await linkedShop();
    const b = await linkedShop();
    await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: b.shop, body: shopResource(b.shop) });

    const res = await deliver(shopRedactRoute.action, {
      topic: "shop/redact",
      shop: b.shop,
      body: JSON.stringify({ shop_id: 954889, shop_domain: a.shop }),
    });

    expect(res.status).toBe(401);
    expect(await storeOf(b.shop)).toMatchObject({ connected: false });
    expect(warnings).toHaveLength(1);
  });

  it("the customers topics refuse a header that disagrees with shop_domain", async () => {
    const a = await linkedShop();
    const b = await linkedShop();
    for (const [route, topic, extra] of [
      [customersRedactRoute, "customers/redact", { orders_to_redact: [1] }],
      [customersDataRequestRoute, "customers/data_request", { orders_requested: [1], data_request: { id: 9 } }],
    ] as const) {
      const body = JSON.stringify({ shop_id: 1, shop_domain: a.shop, customer: { id: 1, email: "john@example.com" }, ...extra });
      expect((await deliver(route.action, { topic, shop: b.shop, body })).status, topic).toBe(401);
    }
    expect(warnings).toHaveLength(2);
  });

  it("the domain is compared as Shopify writes it, whatever the header's case", async () => {
    const a = await linkedShop();
    const res = await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop.toUpperCase(), body: shopResource(a.shop) });
    expect(res.status).toBe(200);
    expect(await storeOf(a.shop)).toMatchObject({ connected: false });
  });

  it("a customers/redact body sent to shop/redact (the topic header is not signed either) erases nothing", async () => {
    const a = await linkedShop();
    await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body: shopResource(a.shop) });
    const body = JSON.stringify({ shop_id: 1, shop_domain: a.shop, customer: { id: 1 }, orders_to_redact: [] });

    const res = await deliver(shopRedactRoute.action, { topic: "shop/redact", shop: a.shop, body });

    expect(res.status).toBe(400);
    expect(await storeOf(a.shop)).not.toBeNull();
  });

  it("a topic header that is not the route's is refused", async () => {
    const a = await linkedShop();
    const res = await deliver(appUninstalledRoute.action, { topic: "shop/redact", shop: a.shop, body: shopResource(a.shop) });
    expect(res.status).toBe(400);
    expect(await storeOf(a.shop)).toMatchObject({ connected: true });
  });

  it("an app_subscriptions/update for a subscription we hold for shop A, sent with shop B's header, changes nothing", async () => {
    const a = await linkedShop();
    const b = await linkedShop();
    const id = `gid://shopify/AppSubscription/${Date.now()}`;
    const at = new Date("2026-11-01T10:00:00Z");
    await db.billingSubscription.create({
      data: { id, userId: a.user.id, provider: "shopify", shop: a.shop, status: "active", planId: "basic", lastEventAt: at },
      select: { id: true },
    });
    const body = JSON.stringify({
      app_subscription: {
        admin_graphql_api_id: id,
        name: "Winning Products Basic",
        status: "CANCELLED",
        admin_graphql_api_shop_id: "gid://shopify/Shop/1",
        created_at: at.toISOString(),
        updated_at: new Date(at.getTime() + 3600_000).toISOString(),
      },
    });

    const res = await deliver(appSubscriptionsRoute.action, { topic: "app_subscriptions/update", shop: b.shop, body });

    expect(res.status).toBe(401);
    expect(await db.billingSubscription.findUnique({ where: { id }, select: { status: true, shop: true } })).toEqual({
      status: "active",
      shop: a.shop,
    });
    expect(warnings).toHaveLength(1);
  });
});

describe("a captured body sent again does nothing", () => {
  it("app/uninstalled replayed under a new webhook id after the merchant reinstalled leaves the shop connected", async () => {
    const a = await linkedShop();
    const body = shopResource(a.shop);
    expect((await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body })).status).toBe(200);
    // The merchant reinstalls.
    await db.shopifyStore.update({ where: { shop: a.shop }, data: { connected: true, encrypted_app_token: "v1:reinstalled" } });

    const res = await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body, webhookId: randomUUID() });

    expect(res.status).toBe(200);
    expect(await storeOf(a.shop)).toEqual({ connected: true, encrypted_app_token: "v1:reinstalled" });
  });

  it("shop/redact for a shop that has the app installed erases nothing (Shopify sends it only 48 hours after an uninstall)", async () => {
    const a = await linkedShop();
    const body = JSON.stringify({ shop_id: 954889, shop_domain: a.shop });

    const res = await deliver(shopRedactRoute.action, { topic: "shop/redact", shop: a.shop, body });

    expect(res.status).toBe(200);
    expect(await storeOf(a.shop)).toMatchObject({ connected: true });
    expect(await sessionsOf(a.shop)).toBe(1);
    expect(JSON.stringify(warnings)).toMatch(/installed/);
  });

  it("the delivery is recorded in the same transaction as the effect: a failed effect is not marked done", async () => {
    const a = await linkedShop();
    const webhookId = randomUUID();
    // The effect fails half-way (deleting the sessions is refused), so the whole delivery must roll back.
    await db.$executeRawUnsafe(`CREATE TRIGGER fail_session_delete BEFORE DELETE ON "Session" BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    try {
      await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body: shopResource(a.shop), webhookId }).catch(
        () => null,
      );
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER fail_session_delete`);
    }
    expect(await db.shopifyWebhookDelivery.count({ where: { webhookId } })).toBe(0);
    expect(await storeOf(a.shop)).toMatchObject({ connected: true });

    // Shopify's retry of the same id then applies it.
    expect((await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body: shopResource(a.shop), webhookId })).status).toBe(200);
    expect(await storeOf(a.shop)).toMatchObject({ connected: false });
  });

  it("records the webhook id, the topic, the shop and the body's digest, and forgets them after the retention", async () => {
    const a = await linkedShop();
    const webhookId = randomUUID();
    await deliver(appUninstalledRoute.action, { topic: "app/uninstalled", shop: a.shop, body: shopResource(a.shop), webhookId });
    const row = await db.shopifyWebhookDelivery.findUniqueOrThrow({
      where: { webhookId },
      select: { topic: true, shop: true, bodySha256: true, receivedAt: true },
    });
    expect(row).toEqual({ topic: "app/uninstalled", shop: a.shop, bodySha256: expect.stringMatching(/^[0-9a-f]{64}$/), receivedAt: expect.any(Date) });

    const old = new Date(Date.now() - (WEBHOOK_ID_RETENTION_DAYS + 1) * 24 * 3600_000);
    await db.shopifyWebhookDelivery.update({ where: { webhookId }, data: { receivedAt: old } });
    expect(await pruneWebhookDeliveries(db)).toBeGreaterThanOrEqual(1);
    expect(await db.shopifyWebhookDelivery.count({ where: { webhookId } })).toBe(0);
  });
});

describe("signed bodies that are not objects", () => {
  for (const { topic, module } of ROUTES) {
    it(`${topic}: null, an array, a number and a string are a 400 with a sentence`, async () => {
      const a = await linkedShop();
      for (const body of ["null", "[]", "42", '"text"']) {
        const res = await deliver(module.action, { topic, shop: a.shop, body });
        expect(res.status, `${topic} ${body}`).toBe(400);
        expect(((await res.json()) as { error: string }).error, `${topic} ${body}`).toMatch(/\.$/);
      }
      expect(await storeOf(a.shop)).toMatchObject({ connected: true });
    });
  }
});

describe("methods other than POST", () => {
  for (const { topic, module } of ROUTES) {
    it(`${topic}: GET reaches a loader that answers 405 with Allow: POST; PUT and DELETE too`, async () => {
      const loader = (module as unknown as { loader?: Action }).loader;
      expect(loader, `${topic} has no loader: Remix answers a GET with 400 and logs an error`).toBeTypeOf("function");
      const get = await call(loader!, `/webhooks/${topic}`, { method: "GET" });
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await call(module.action, `/webhooks/${topic}`, { method, body: "{}" });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        expect(await res.json()).toEqual({ error: "Use POST." });
      }
    });
  }
});
