// Mandatory compliance webhook (customers/redact), declared in shopify.app.toml. Acts on the body's
// shop_domain (the header must agree; docs/decisions/041).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleShopifyWebhook, webhookLoader } from "~/pages/shopify/webhooks.server";
import { shopifyWebhooks } from "~/services/index.server";

export const loader = webhookLoader;

export async function action({ request }: ActionFunctionArgs) {
  return handleShopifyWebhook(request, "customers/redact", (delivery) => {
    const customer = (delivery.payload as { customer: { id?: unknown; email?: unknown } }).customer;
    return shopifyWebhooks.customersRedact(delivery, customer.id, customer.email);
  });
}
