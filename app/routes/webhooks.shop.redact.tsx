// Mandatory compliance webhook (shop/redact), declared in shopify.app.toml.
import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyWebhook } from "~/shopify.server";
import { shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId } = await verifyWebhook(request);
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () => shopifyWebhooks.handleShopRedact(shop));
  return new Response(null, { status: 200 });
}
