// Declared in shopify.app.toml (topic app_purchases_one_time/update): a credit top-up bought inside
// Shopify admin was approved or declined (docs/decisions/034). An approved one grants its credits once
// (keyed on the purchase id, whichever of this and the merchant's return comes first).
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleServiceErrors } from "~/pages/http.server";
import { verifyWebhook } from "~/shopify.server";
import { shopifyBilling, shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await verifyWebhook(request);
  await handleServiceErrors(() =>
    shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () => shopifyBilling.applyPurchaseWebhook(shop, payload)),
  );
  return new Response(null, { status: 200 });
}
