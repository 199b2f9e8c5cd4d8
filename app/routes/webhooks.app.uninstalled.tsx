// Declared in shopify.app.toml (topic app/uninstalled). The signature and the shop (the body's
// myshopify_domain; the header must agree) are checked by handleShopifyWebhook (docs/decisions/041).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleShopifyWebhook, webhookLoader } from "~/pages/shopify/webhooks.server";
import { shopifyWebhooks } from "~/services/index.server";

export const loader = webhookLoader;

export async function action({ request }: ActionFunctionArgs) {
  // Shopify cancels the shop's charges itself; our record of them ends too (a Paddle plan is untouched).
  return handleShopifyWebhook(request, "app/uninstalled", (delivery) => shopifyWebhooks.appUninstalled(delivery));
}
