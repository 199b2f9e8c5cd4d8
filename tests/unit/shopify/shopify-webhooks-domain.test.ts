// Which shop a Shopify webhook's signed body names (app/domain/shopify/webhooks.ts, docs/decisions/041),
// on the documented payload shapes of each topic.
import { describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import { normaliseShopDomain, signedShopOf, SHOPIFY_WEBHOOK_TOPICS, type ShopifyWebhookTopic } from "~/domain/shopify/webhooks";

function refusal(topic: ShopifyWebhookTopic, payload: unknown) {
  try {
    signedShopOf(topic, payload);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("normaliseShopDomain", () => {
  it("lower-cases and trims a host name", () => {
    expect(normaliseShopDomain(" Shop-1.MyShopify.com ")).toBe("shop-1.myshopify.com");
    expect(normaliseShopDomain("dev.shop.example.io")).toBe("dev.shop.example.io");
  });
  it.each([null, 42, "", "no-dot", "-bad.myshopify.com", "a..b.com", "shop.myshopify.com/admin", "https://shop.myshopify.com", "{shop}.myshopify.com"])(
    "refuses %j",
    (value) => expect(normaliseShopDomain(value)).toBeNull(),
  );
});

describe("signedShopOf", () => {
  it("app/uninstalled: the Shop resource's myshopify_domain, not its custom domain", () => {
    expect(signedShopOf("app/uninstalled", { id: 690933842, domain: "shop.apple.com", myshopify_domain: "apple.myshopify.com" })).toEqual({
      kind: "domain",
      domain: "apple.myshopify.com",
    });
  });

  it("shop/redact and the customers topics: shop_domain", () => {
    expect(signedShopOf("shop/redact", { shop_id: 954889, shop_domain: "snowdevil.myshopify.com" })).toEqual({ kind: "domain", domain: "snowdevil.myshopify.com" });
    const customer = { id: 191167, email: "john@example.com" };
    expect(signedShopOf("customers/redact", { shop_id: 1, shop_domain: "a.myshopify.com", customer, orders_to_redact: [1] })).toEqual({ kind: "domain", domain: "a.myshopify.com" });
    expect(signedShopOf("customers/redact", { shop_id: 1, shop_domain: "a.myshopify.com", customer: { email: "john@email.com" } })).toEqual({ kind: "domain", domain: "a.myshopify.com" });
    expect(signedShopOf("customers/data_request", { shop_id: 1, shop_domain: "a.myshopify.com", customer, orders_requested: [], data_request: { id: 9 } })).toEqual({ kind: "domain", domain: "a.myshopify.com" });
  });

  it("the billing topics name a charge and only the shop's GID", () => {
    const sub = { admin_graphql_api_id: "gid://shopify/AppSubscription/1", admin_graphql_api_shop_id: "gid://shopify/Shop/548380009" };
    expect(signedShopOf("app_subscriptions/update", { app_subscription: sub })).toEqual({ kind: "charge", shopGid: "gid://shopify/Shop/548380009" });
    expect(signedShopOf("app_purchases_one_time/update", { app_purchase_one_time: { admin_graphql_api_id: "gid://shopify/AppPurchaseOneTime/1" } })).toEqual({ kind: "charge", shopGid: null });
  });

  for (const topic of SHOPIFY_WEBHOOK_TOPICS) {
    it.each([null, [], 42, "text", true])(`${topic}: a body that is %j is a 400 with a sentence`, (payload) => {
      expect(refusal(topic, payload)).toEqual({ status: 400, message: `The ${topic} body is not a JSON object; nothing was changed.` });
    });
  }

  it("refuses a body that names no shop, or names it with something that is not a domain", () => {
    expect(refusal("app/uninstalled", { id: 1, domain: "a.myshopify.com" }).status).toBe(400);
    expect(refusal("app/uninstalled", { myshopify_domain: ["a.myshopify.com"] }).status).toBe(400);
    expect(refusal("shop/redact", { shop_id: 1 }).status).toBe(400);
    expect(refusal("customers/redact", { shop_domain: 7, customer: {} }).status).toBe(400);
  });

  it("refuses another topic's body (the topic header is not signed): a customers body to shop/redact, a shop body to the customers topics", () => {
    expect(refusal("shop/redact", { shop_domain: "a.myshopify.com", customer: { id: 1 }, orders_to_redact: [] })).toEqual({
      status: 400,
      message: "The shop/redact body is about a customer, not the shop; nothing was changed.",
    });
    expect(refusal("customers/redact", { shop_id: 1, shop_domain: "a.myshopify.com" }).status).toBe(400);
    expect(refusal("customers/data_request", { shop_id: 1, shop_domain: "a.myshopify.com", customer: null }).status).toBe(400);
    expect(refusal("app_subscriptions/update", { app_purchase_one_time: {} }).status).toBe(400);
  });
});
