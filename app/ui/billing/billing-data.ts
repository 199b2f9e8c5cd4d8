// The Billing & credits page's data as the browser gets it from the loader (app/pages/billing/billing.server.ts),
// what its action answers, and where a plan is billed: the pieces the page's parts pass each other.
import type { SerializeFrom } from "@remix-run/node";
import type { loadBillingPage } from "~/pages/billing/billing.server";

export type BillingPageData = SerializeFrom<typeof loadBillingPage>;

/** The subscription the page shows (the user's primary one), or null. */
export type BillingSubscription = BillingPageData["overview"]["subscription"];

export interface BillingOutcome {
  error: string | null;
  message: string | null;
  transactionId: string | null;
  /** Shopify's confirmation page, opened in the admin's top frame. */
  topUrl?: string | null;
}

/** Which rail bills the plan: Shopify's Billing API or Paddle (docs/decisions/034). */
export type BilledBy = "shopify" | "paddle";
