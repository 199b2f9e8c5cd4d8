// Declared in shopify.app.toml (topic app_purchases_one_time/update): a credit top-up bought inside
// Shopify admin was approved or declined (docs/decisions/034). An approved one grants its credits once
// (keyed on the purchase id, whichever of this and the merchant's return comes first), to the shop whose
// Shopify lists the purchase (decision 041).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleShopifyWebhook, webhookLoader } from "~/pages/shopify/webhooks.server";
import { shopifyBilling, shopifyWebhooks } from "~/services/index.server";

export const loader = webhookLoader;

export async function action({ request }: ActionFunctionArgs) {
  return handleShopifyWebhook(request, "app_purchases_one_time/update", (delivery) =>
    shopifyWebhooks.applyOnce(delivery, () => shopifyBilling.applyPurchaseWebhook(delivery.shop, delivery.payload)),
  );
}
