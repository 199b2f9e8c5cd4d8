// What every part of the Shopify rail of billing shares (docs/decisions/034): the resolved dependencies,
// which statuses are "on", a subscription's facts as Shopify reports them, asking Shopify (a 502 sentence
// when it cannot be reached), and the rows a user or a shop's charge is found by.
import { AppError } from "~/domain/errors";
import { centsOf, type ShopifySubscriptionFacts } from "~/domain/billing/shopify-billing";
import type { Db, DbClient } from "~/db.server";
import type { ShopifyAdmin } from "~/integrations/shopify-admin.server";
import type * as api from "~/integrations/shopify-billing.server";
import { childLogger } from "~/logger.server";

export const log = childLogger("shopify-billing");

/** The dependencies every module takes first, defaults filled in by createShopifyBilling. */
export interface ShopifyBillingRuntime {
  db: Db;
  /** The Admin GraphQL client for a shop, on its offline session (AppError when the shop has none). */
  adminFor: (shop: string) => Promise<ShopifyAdmin>;
  /** Shopify's Billing GraphQL calls on that client (the adapter's shopifyBillingApi). */
  api: api.ShopifyBillingApi;
  /** Recomputes a user's flags from all their subscription rows (billing-events' syncUserFlags). */
  syncUserFlags: (tx: DbClient, userId: string) => Promise<{ id: string } | null>;
  /** Where Shopify sends the merchant back after the confirmation page (/app/billing inside the admin). */
  returnUrlFor: (shop: string) => string;
  /** Test charges (never real money): everywhere but production. */
  test: boolean;
  now: () => Date;
}

export type ShopifyWebhookOutcome = "applied" | "stale" | "unmatched" | "ignored";

/** The statuses of a subscription that is on (entitles, and may be charged). */
export const ON = new Set(["active", "trialing", "past_due"]);

export function factsFrom(sub: api.ShopifyAppSubscription): ShopifySubscriptionFacts {
  const price = sub.lineItems[0]?.plan.pricingDetails.price;
  return {
    id: sub.id,
    name: sub.name,
    status: sub.status,
    createdAt: new Date(sub.createdAt),
    trialDays: sub.trialDays,
    priceCents: centsOf(price?.amount),
    currencyCode: price?.currencyCode ?? null,
  };
}

function unreachable(what: string, error: unknown): AppError {
  log.warn({ err: error }, `${what} failed`);
  return new AppError(502, `Shopify could not be reached to ${what}. Nothing was charged; try again in a minute.`, {
    cause: String(error),
  });
}

/** Shopify's answer to a call, or a 502 sentence when Shopify could not be reached or refused the call. */
export async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreachable(what, error);
  }
}

/** The shop's Admin API client for a webhook: null when the shop has no session (uninstalled), 502 when it cannot be had. */
export async function adminOrNull(rt: Pick<ShopifyBillingRuntime, "adminFor">, shop: string, what: string): Promise<ShopifyAdmin | null> {
  try {
    return await rt.adminFor(shop);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw unreachable(what, error);
  }
}

/** Every subscription row of the user, both rails, with what the rules read. */
export async function rowsOf(tx: DbClient | Db, userId: string) {
  return tx.billingSubscription.findMany({
    where: { userId },
    select: {
      id: true,
      provider: true,
      shop: true,
      status: true,
      planId: true,
      customerId: true,
      scheduledChange: true,
      currentPeriodStart: true,
      lastEventAt: true,
      lastEventAtExact: true,
      trialExtended: true,
    },
  });
}

/** The user a shop's charge belongs to: the one its rows already name, else the shop's linked user. */
export async function ownerOf(tx: DbClient, shop: string, subscriptionId: string | null): Promise<string | null> {
  if (subscriptionId) {
    const row = await tx.billingSubscription.findUnique({ where: { id: subscriptionId }, select: { userId: true } });
    if (row) return row.userId;
  }
  const store = await tx.shopifyStore.findUnique({ where: { shop }, select: { userId: true, connected: true } });
  return store?.connected ? store.userId : null;
}
