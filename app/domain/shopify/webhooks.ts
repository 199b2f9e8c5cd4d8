// Which shop a Shopify webhook's signed body names (docs/decisions/041). Shopify's HMAC covers the raw
// body only: X-Shopify-Shop-Domain, X-Shopify-Topic and X-Shopify-Webhook-Id are headers anyone holding
// a captured body can change. So a handler acts on the shop the body names, and a header that disagrees
// is refused. Pure: the caller has verified the HMAC and parsed the JSON.
import { AppError } from "~/domain/errors";

/** The topics the app subscribes to (shopify.app.toml), each handled by webhooks.<topic with dots>.tsx. */
export const SHOPIFY_WEBHOOK_TOPICS = [
  "app/uninstalled",
  "shop/redact",
  "customers/data_request",
  "customers/redact",
  "app_subscriptions/update",
  "app_purchases_one_time/update",
] as const;
export type ShopifyWebhookTopic = (typeof SHOPIFY_WEBHOOK_TOPICS)[number];

/**
 * What the signed body says about its shop. Most topics name the myshopify domain; the billing topics
 * name only the shop's GID (`admin_graphql_api_shop_id`), which we do not store: those are tied to the
 * shop through the charge the body names (our row for it records the shop it was created for), see
 * shopify-billing.server.ts.
 */
export type SignedShop = { kind: "domain"; domain: string } | { kind: "charge"; shopGid: string | null };

// A host name: Shopify sends the shop's myshopify.com domain, or a custom shop domain (SHOP_CUSTOM_DOMAIN).
const DOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A shop domain as Shopify writes it (lower case); null when it is not a host name. */
export function normaliseShopDomain(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const domain = value.trim().toLowerCase();
  return DOMAIN.test(domain) ? domain : null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function malformed(topic: ShopifyWebhookTopic, what: string): AppError {
  return new AppError(400, `The ${topic} body ${what}; nothing was changed.`);
}

/**
 * The shop named by a verified `topic` body, or a 400 when the body is not that topic's documented
 * shape: not a JSON object, no shop named, or (the topic header is not signed either) another topic's
 * body, e.g. a customers/redact body sent to shop/redact, which would otherwise erase the whole shop.
 */
export function signedShopOf(topic: ShopifyWebhookTopic, payload: unknown): SignedShop {
  if (!isObject(payload)) throw malformed(topic, "is not a JSON object");
  switch (topic) {
    case "app/uninstalled": {
      // The Shop resource: `myshopify_domain` (its `domain` may be a custom one).
      const domain = normaliseShopDomain(payload.myshopify_domain);
      if (!domain) throw malformed(topic, "does not name the shop's myshopify_domain");
      return { kind: "domain", domain };
    }
    case "shop/redact":
    case "customers/data_request":
    case "customers/redact": {
      const domain = normaliseShopDomain(payload.shop_domain);
      if (!domain) throw malformed(topic, "does not name the shop's shop_domain");
      const aboutCustomer = "customer" in payload;
      if (topic === "shop/redact" && aboutCustomer) throw malformed(topic, "is about a customer, not the shop");
      if (topic !== "shop/redact" && !isObject(payload.customer)) throw malformed(topic, "does not name the customer");
      return { kind: "domain", domain };
    }
    case "app_subscriptions/update":
    case "app_purchases_one_time/update": {
      const charge = payload[topic === "app_subscriptions/update" ? "app_subscription" : "app_purchase_one_time"];
      if (!isObject(charge)) throw malformed(topic, "is not the documented shape");
      const gid = charge.admin_graphql_api_shop_id;
      return { kind: "charge", shopGid: typeof gid === "string" ? gid : null };
    }
  }
}
