// Mandatory compliance webhook (shop/redact), declared in shopify.app.toml. Acts on the body's
// shop_domain (the header must agree; docs/decisions/041).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleShopifyWebhook, webhookLoader } from "~/pages/shopify/webhooks.server";
import { shopifyWebhooks } from "~/services/index.server";

export const loader = webhookLoader;

export async function action({ request }: ActionFunctionArgs) {
  return handleShopifyWebhook(request, "shop/redact", (delivery) => shopifyWebhooks.shopRedact(delivery));
}
