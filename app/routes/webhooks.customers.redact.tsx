// Mandatory compliance webhook (customers/redact), declared in shopify.app.toml.
import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyWebhook } from "~/shopify.server";
import { shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await verifyWebhook(request);
  const customer = (payload as { customer?: { id?: unknown; email?: unknown } }).customer;
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () =>
    shopifyWebhooks.handleCustomerRedact(shop, customer?.id, customer?.email),
  );
  return new Response(null, { status: 200 });
}
