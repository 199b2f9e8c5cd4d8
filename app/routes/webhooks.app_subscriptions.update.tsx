// Declared in shopify.app.toml (topic app_subscriptions/update): a Shopify Billing subscription was
// approved, declined, frozen, cancelled or expired (docs/decisions/034). verifyWebhook checks the HMAC
// (401 when missing or wrong); applyOnce makes each webhook id count once; updated_at orders them.
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleServiceErrors } from "~/pages/http.server";
import { verifyWebhook } from "~/shopify.server";
import { shopifyBilling, shopifyWebhooks } from "~/services/index.server";

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await verifyWebhook(request);
  await handleServiceErrors(() =>
    shopifyWebhooks.applyOnce({ webhookId, topic, shop }, () => shopifyBilling.applySubscriptionWebhook(shop, payload)),
  );
  return new Response(null, { status: 200 });
}
