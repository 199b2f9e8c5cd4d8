// What the billing pages of both surfaces show about where a user's plan is billed (docs/decisions/034):
// Paddle, Shopify (with the store and its billing page in Shopify admin) or nothing, and two paid
// subscriptions on at once.
import { primarySubscription } from "~/domain/billing/billing";
import type { User } from "~/services/accounts/auth.server";
import { ON, rowsOf, type ShopifyBillingRuntime } from "~/services/shopify-billing/shared.server";

/**
 * Where the user's plan is billed, for both surfaces: "paddle", "shopify" (with the store and its
 * billing page in Shopify admin) or null; and whether two paid subscriptions are on at once.
 */
export async function rails(rt: Pick<ShopifyBillingRuntime, "db" | "returnUrlFor">, user: User) {
  const rows = await rowsOf(rt.db, user.id);
  const on = rows.filter((r) => ON.has(r.status));
  const primary = primarySubscription(rows);
  const shopify = on.filter((r) => r.provider === "shopify");
  const paddle = on.filter((r) => r.provider !== "shopify");
  const shopifyShop = shopify[0]?.shop ?? null;
  return {
    primaryProvider: primary && ON.has(primary.status) ? (primary.provider === "shopify" ? "shopify" : "paddle") : null,
    shopifyShop,
    /** The app's Billing & credits page in that store's Shopify admin, where the plan is changed. */
    shopifyManageUrl: shopifyShop ? rt.returnUrlFor(shopifyShop) : null,
    duplicate:
      shopify.length > 0 && paddle.length > 0
        ? { shopify: shopify[0].id, shopifyShop: shopify[0].shop, paddle: paddle[0].id }
        : null,
  };
}
