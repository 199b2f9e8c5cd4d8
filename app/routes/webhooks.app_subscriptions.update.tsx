// Declared in shopify.app.toml (topic app_subscriptions/update): a Shopify Billing subscription was
// approved, declined, frozen, cancelled or expired (docs/decisions/034). handleShopifyWebhook checks the
// HMAC; the body names the subscription, whose row must belong to the header's shop (decision 041);
// applyOnce makes each webhook id and body count once; updated_at orders them.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleShopifyWebhook, webhookLoader } from "~/pages/shopify/webhooks.server";
import { shopifyBilling, shopifyWebhooks } from "~/services/index.server";

export const loader = webhookLoader;

export async function action({ request }: ActionFunctionArgs) {
  return handleShopifyWebhook(request, "app_subscriptions/update", (delivery) =>
    shopifyWebhooks.applyOnce(delivery, () => shopifyBilling.applySubscriptionWebhook(delivery.shop, delivery.payload)),
  );
}
