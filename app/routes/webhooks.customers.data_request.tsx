// Mandatory compliance webhook (customers/data_request), declared in shopify.app.toml.
import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyWebhook } from "~/shopify.server";
import { shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await verifyWebhook(request);
  const body = payload as { customer?: { id?: unknown }; data_request?: { id?: unknown } };
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () =>
    shopifyWebhooks.handleCustomerDataRequest(shop, body.customer?.id, body.data_request?.id),
  );
  return new Response(null, { status: 200 });
}
