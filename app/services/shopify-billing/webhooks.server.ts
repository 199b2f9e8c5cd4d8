// Shopify's billing webhooks (docs/decisions/034, 041): app_subscriptions/update and
// app_purchases_one_time/update, HMAC-verified and applied once per webhook id and body by the route.
// Their bodies name the charge but only the shop's GID, which we do not store, so the charge is tied to
// the shop through our row for it or the shop's own Shopify; a body that is not the documented shape is
// a 400 (AppError), a Shopify that cannot be asked a 502 so Shopify retries.
import { AppError } from "~/domain/errors";
import { AppPurchaseWebhookSchema, AppSubscriptionWebhookSchema, centsOf, trialDaysFor } from "~/domain/billing/shopify-billing";
import { writeTransaction } from "~/db.server";
import { applyFacts } from "~/services/shopify-billing/state.server";
import {
  adminOrNull,
  ask,
  log,
  ownerOf,
  type ShopifyBillingRuntime,
  type ShopifyWebhookOutcome,
} from "~/services/shopify-billing/shared.server";
import { grantTopUp } from "~/services/shopify-billing/top-ups.server";

/**
 * What the shop's Shopify says of a subscription that is on (ACTIVE or FROZEN): whether
 * currentAppInstallation.activeSubscriptions lists it, and its trial's length (the webhook does not
 * carry it: a replacement has none; an extension adds days). "not-asked" for a subscription that is
 * not on, or when the shop has no session (uninstalled). When Shopify cannot be asked, a 502 (AppError),
 * so the webhook fails and Shopify retries.
 */
async function liveSubscription(
  rt: ShopifyBillingRuntime,
  shop: string,
  id: string,
  status: string,
): Promise<{ listed: boolean; trialDays: number | null } | "not-asked"> {
  if (!["ACTIVE", "FROZEN"].includes(status.toUpperCase())) return "not-asked";
  const admin = await adminOrNull(rt, shop, "read the subscription");
  if (!admin) return "not-asked";
  const installation = await ask("read the subscription", () => rt.api.currentAppInstallation(admin));
  const live = installation.activeSubscriptions.find((sub) => sub.id === id);
  return { listed: Boolean(live), trialDays: live?.trialDays ?? null };
}

/**
 * app_subscriptions/update (HMAC verified, once per webhook id and body: the route). The body names
 * the subscription but only the shop's GID, which we do not store, so the subscription ties it to
 * the shop (docs/decisions/041): a row we hold for it must be the shop's (else 401, nothing changes),
 * and one we do not hold yet is only attached to the shop when it is on and the shop's own Shopify
 * lists it. Applied in one transaction; `updated_at` orders deliveries, so an older one arriving late
 * changes nothing. A body that is not the documented shape is a 400 (AppError).
 */
export async function applySubscriptionWebhook(rt: ShopifyBillingRuntime, shop: string, payload: unknown): Promise<ShopifyWebhookOutcome> {
  const parsed = AppSubscriptionWebhookSchema.safeParse(payload);
  if (!parsed.success) throw new AppError(400, "The app_subscriptions/update body is not the documented shape.");
  const s = parsed.data.app_subscription;
  const held = await rt.db.billingSubscription.findUnique({ where: { id: s.admin_graphql_api_id }, select: { shop: true } });
  if (held && held.shop !== shop) {
    throw new AppError(401, "The signed body names a subscription that is not this shop's; nothing was changed.", {
      cause: `X-Shopify-Shop-Domain ${shop}, subscription ${s.admin_graphql_api_id} of ${held.shop ?? "a Paddle customer"}`,
    });
  }
  const live = await liveSubscription(rt, shop, s.admin_graphql_api_id, s.status);
  if (!held && live !== "not-asked" && !live.listed) {
    log.warn({ shop, subscription: s.admin_graphql_api_id, status: s.status }, "app subscription update ignored: the shop's Shopify does not list it");
    return "unmatched";
  }
  const trialDays = live === "not-asked" ? null : live.trialDays;
  const outcome = await writeTransaction(rt.db, async (tx) => {
    const userId = await ownerOf(tx, shop, s.admin_graphql_api_id);
    if (!userId) return "unmatched" as const;
    const existing = await tx.billingSubscription.findUnique({
      where: { id: s.admin_graphql_api_id },
      select: { trialExtended: true },
    });
    return applyFacts(rt, tx, {
      userId,
      shop,
      at: new Date(s.updated_at),
      facts: {
        id: s.admin_graphql_api_id,
        name: s.name,
        status: s.status,
        createdAt: new Date(s.created_at),
        trialDays: trialDays ?? trialDaysFor(s.name, Boolean(existing?.trialExtended)),
        priceCents: centsOf(s.price ?? null),
        currencyCode: s.currency ?? null,
      },
    });
  });
  log.info({ shop, subscription: s.admin_graphql_api_id, status: s.status, outcome }, "app subscription update");
  return outcome;
}

/**
 * app_purchases_one_time/update: an approved top-up grants its credits (once, whichever of this and
 * the return comes first). The body names the purchase and only the shop's GID, so the purchase is
 * granted to the header's shop only when that shop's Shopify lists it as approved (docs/decisions/041):
 * another shop's signed body sent with this shop's header grants nothing.
 */
export async function applyPurchaseWebhook(rt: ShopifyBillingRuntime, shop: string, payload: unknown): Promise<ShopifyWebhookOutcome> {
  const parsed = AppPurchaseWebhookSchema.safeParse(payload);
  if (!parsed.success) throw new AppError(400, "The app_purchases_one_time/update body is not the documented shape.");
  const p = parsed.data.app_purchase_one_time;
  if (p.status.toUpperCase() !== "ACTIVE") return "ignored";
  const admin = await adminOrNull(rt, shop, "confirm the purchase");
  if (!admin) return "unmatched"; // no session: the app is not installed there
  const installation = await ask("confirm the purchase", () => rt.api.currentAppInstallation(admin));
  const listed = installation.oneTimePurchases.nodes.find((n) => n.id === p.admin_graphql_api_id && n.status.toUpperCase() === "ACTIVE");
  if (!listed) {
    log.warn({ shop, purchase: p.admin_graphql_api_id }, "app purchase update ignored: the shop's Shopify does not list it as approved");
    return "unmatched";
  }
  return writeTransaction(rt.db, async (tx) => {
    const userId = await ownerOf(tx, shop, null);
    if (!userId) return "unmatched" as const;
    return (await grantTopUp(tx, userId, listed.id, listed.name)) ? "applied" : "ignored";
  });
}
