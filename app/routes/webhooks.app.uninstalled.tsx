// Declared in shopify.app.toml (topic app/uninstalled). verifyWebhook checks the HMAC and
// answers 401 itself when it is missing or wrong.
import type { ActionFunctionArgs } from "@remix-run/node";
import { verifyWebhook } from "~/shopify.server";
import { shopifyBilling, shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId } = await verifyWebhook(request);
  // Shopify cancels the shop's charges itself; our record of them ends too (a Paddle plan is untouched).
  await shopifyWebhooks.applyOnce({ webhookId, topic, shop }, async () => ({
    ...(await shopifyWebhooks.handleAppUninstalled(shop)),
    ...(await shopifyBilling.endShop(shop)),
  }));
  return new Response(null, { status: 200 });
}
