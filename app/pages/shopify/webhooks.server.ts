// The HTTP side of Shopify's webhooks, shared by the six webhooks.* routes of shopify.app.toml: POST only
// (405 with Allow: POST otherwise; GET reaches the route's loader, which answers the same), the
// signature, headers, body and shop checked by verifyWebhook (docs/decisions/041), and a refusal
// answered with its sentence and logged once as a warning, never as an error.
import { AppError } from "~/domain/errors";
import type { ShopifyWebhookTopic } from "~/domain/shopify/webhooks";
import { methodNotAllowed, toErrorResponse } from "~/pages/http/http.server";
import { shopifyWebhookLog as webhookLog } from "~/services/index.server";
import { verifyWebhook, type VerifiedWebhook } from "~/shopify.server";

/** The loader of every webhook route: a GET is not a webhook. */
export function webhookLoader() {
  return methodNotAllowed("POST");
}

/**
 * Verifies the delivery and applies it; 200 once the effect is committed (or was already), so Shopify
 * retries anything that failed. An expected refusal (AppError: 400, 401, 502 ...) changes nothing.
 */
export async function handleShopifyWebhook(
  request: Request,
  topic: ShopifyWebhookTopic,
  apply: (delivery: VerifiedWebhook) => Promise<unknown>,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed("POST");
  try {
    await apply(await verifyWebhook(request, topic));
    return new Response(null, { status: 200 });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    webhookLog.warn(
      {
        topic,
        shopHeader: request.headers.get("x-shopify-shop-domain"),
        webhookId: request.headers.get("x-shopify-webhook-id"),
        status: error.status,
        cause: error.details.cause,
      },
      `webhook refused: ${error.message}`,
    );
    return toErrorResponse(error);
  }
}
