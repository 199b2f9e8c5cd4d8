// Billing, the Shopify rail (docs/decisions/034): plans and credit top-ups sold inside Shopify admin
// through Shopify's Billing API, on the shop's offline session. What it writes is a BillingSubscription
// row with provider "shopify" on the user the shop is linked to; the user's flags come from all their rows
// through the same syncUserFlags as Paddle's, and credits follow the same allowances. Composed from its
// jobs in app/services/shopify-billing/, each a module of plain functions taking its dependencies first:
// - subscriptions.server.ts: subscribing and changing plans, reading back what the merchant approved,
//   cancelling, extending the trial, ending a shop's rows on uninstall;
// - top-ups.server.ts: credit packs as one-time charges, granted once;
// - webhooks.server.ts: app_subscriptions/update and app_purchases_one_time/update;
// - state.server.ts: one subscription's state on our rows, and the flags and credits that follow;
// - rails.server.ts: where a user's plan is billed, for the billing pages;
// - shared.server.ts: the resolved dependencies, asking Shopify, the rows' reads.
import { AppError } from "~/domain/errors";
import type { Db, DbClient } from "~/db.server";
import type { ShopifyAdmin } from "~/integrations/shopify-admin.server";
import type { ShopifyBillingApi } from "~/integrations/shopify-billing.server";
import { bindDeps } from "~/services/bind";
import { rails } from "~/services/shopify-billing/rails.server";
import type { ShopifyBillingRuntime } from "~/services/shopify-billing/shared.server";
import { cancel, endShop, extendTrial, subscribe, syncFromShopify } from "~/services/shopify-billing/subscriptions.server";
import { buyTopUp } from "~/services/shopify-billing/top-ups.server";
import { applyPurchaseWebhook, applySubscriptionWebhook } from "~/services/shopify-billing/webhooks.server";

export type { ShopifyWebhookOutcome } from "~/services/shopify-billing/shared.server";

export interface ShopifyBillingDeps {
  db: Db;
  /**
   * The Admin GraphQL client for a shop, on its offline session; null when this server holds no session
   * for the shop (the merchant is asked to open the app from that store once). May throw an AppError.
   */
  adminFor: (shop: string) => Promise<ShopifyAdmin | null>;
  /** Shopify's Billing GraphQL calls (the adapter's shopifyBillingApi). */
  api: ShopifyBillingApi;
  /** Recomputes a user's flags from all their subscription rows (billing-events' syncUserFlags). */
  syncUserFlags: (tx: DbClient, userId: string) => Promise<{ id: string } | null>;
  /** Where Shopify sends the merchant back after the confirmation page (/app/billing inside the admin). */
  returnUrlFor: (shop: string) => string;
  /** Test charges (never real money): everywhere but production. */
  test: boolean;
  now?: () => Date;
}

export function createShopifyBilling(deps: ShopifyBillingDeps) {
  // Every module's dependencies, defaults filled in once.
  const resolved: ShopifyBillingRuntime = {
    db: deps.db,
    adminFor: async (shop) => {
      const admin = await deps.adminFor(shop);
      if (!admin) throw new AppError(409, "Open Winning Products from this store's Shopify admin once, then try again.");
      return admin;
    },
    api: deps.api,
    syncUserFlags: deps.syncUserFlags,
    returnUrlFor: deps.returnUrlFor,
    test: deps.test,
    now: () => deps.now?.() ?? new Date(),
  };
  return bindDeps(resolved, {
    subscribe,
    syncFromShopify,
    cancel,
    extendTrial,
    buyTopUp,
    applySubscriptionWebhook,
    applyPurchaseWebhook,
    endShop,
    rails,
  });
}

export type ShopifyBilling = ReturnType<typeof createShopifyBilling>;
