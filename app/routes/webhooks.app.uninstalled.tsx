// Declared in shopify.app.toml (topic app/uninstalled). verifyWebhook checks the HMAC and
// answers 401 itself when it is missing or wrong.
import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyWebhook } from "~/shopify.server";
import { shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId } = await verifyWebhook(request);
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () => shopifyWebhooks.handleAppUninstalled(shop));
  return new Response(null, { status: 200 });
}
