// Mandatory compliance webhook (customers/data_request), declared in shopify.app.toml.
import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await authenticate.webhook(request);
  const customerId = (payload as { customer?: { id?: unknown } }).customer?.id;
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () =>
    shopifyWebhooks.handleCustomerDataRequest(shop, customerId),
  );
  return new Response(null, { status: 200 });
}
