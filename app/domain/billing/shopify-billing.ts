// How a Shopify Billing subscription (AppSubscription) becomes one of our BillingSubscription rows, so
// the same entitlement rules (primarySubscription, subscriptionFlags, paidState) and credit allowances
// apply as for Paddle (docs/decisions/034). Pure: the dates come in, nothing is read from the clock.
import { z } from "zod";
import type { SubscriptionStatus } from "~/domain/billing/billing";
import { OFFERS, PLANS, type Plan } from "~/domain/billing/plans";

const DAY_MS = 24 * 3600_000;
/** Shopify bills app subscriptions every 30 days (interval EVERY_30_DAYS). */
export const SHOPIFY_CYCLE_DAYS = 30;

/** The subscription's name on the merchant's Shopify invoice; also how a webhook names the plan. */
export function shopifySubscriptionName(plan: Plan): string {
  return `Winning Products ${plan.name}`;
}

/** The catalogue plan a Shopify subscription sells, from its name. */
export function planForShopifyName(name: string | null | undefined): Plan | undefined {
  return PLANS.find((p) => p.billing === "monthly" && shopifySubscriptionName(p) === name);
}

/** Whether an id is a Shopify AppSubscription gid (a Paddle id is "sub_..."). */
export function isShopifySubscriptionId(id: string): boolean {
  return /^gid:\/\/shopify\/AppSubscription\/\d+$/.test(id);
}

/** "29.99" from integer cents (Shopify's Decimal money amount). */
export function decimalAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Integer cents from Shopify's decimal amount ("29.99", "29.9", "30"), or null. */
export function centsOf(amount: string | number | null | undefined): number | null {
  if (amount === null || amount === undefined) return null;
  const m = /^(\d{1,9})(?:\.(\d{1,2})\d*)?$/.exec(String(amount).trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

/** What we know of one Shopify subscription, from a webhook or from currentAppInstallation. */
export interface ShopifySubscriptionFacts {
  id: string;
  name: string;
  /** AppSubscriptionStatus: PENDING, ACTIVE, DECLINED, EXPIRED, FROZEN, CANCELLED (ACCEPTED in old versions). */
  status: string;
  createdAt: Date;
  /** The trial's days in all (an extension included). */
  trialDays: number;
  priceCents: number | null;
  currencyCode: string | null;
}

/** Our status for Shopify's; null while the merchant has not approved it (nothing to write). */
export function statusFromShopify(status: string, trialing: boolean): SubscriptionStatus | null {
  switch (status.toUpperCase()) {
    case "ACTIVE":
      return trialing ? "trialing" : "active";
    case "FROZEN":
      // The shop's own Shopify bill is unpaid: Shopify holds our charge too. Access continues as with a
      // failed Paddle renewal, and the page asks the merchant to settle the bill.
      return "past_due";
    case "CANCELLED":
    case "DECLINED":
    case "EXPIRED":
      return "canceled";
    default:
      return null;
  }
}

export interface ShopifyRowState {
  status: SubscriptionStatus;
  planId: Plan["id"] | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  nextBilledAt: Date | null;
  priceAmountCents: number | null;
  priceCurrencyCode: string | null;
  trialExtended: boolean;
}

/**
 * The row for a subscription as of `at` (the webhook's updated_at, or now when read from Shopify). The
 * periods follow from the creation time and the trial alone (the trial, then 30-day cycles), so a
 * webhook and a read of activeSubscriptions name the same period, and the credits keyed on it are
 * granted once whichever comes first.
 */
export function rowFromShopify(facts: ShopifySubscriptionFacts, at: Date): ShopifyRowState | null {
  const plan = planForShopifyName(facts.name);
  const trialEnd = new Date(facts.createdAt.getTime() + facts.trialDays * DAY_MS);
  const inTrial = at.getTime() < trialEnd.getTime();
  const status = statusFromShopify(facts.status, inTrial);
  if (!status) return null;
  let start: Date;
  let end: Date;
  if (inTrial) {
    start = facts.createdAt;
    end = trialEnd;
  } else {
    const cycle = SHOPIFY_CYCLE_DAYS * DAY_MS;
    const k = Math.max(0, Math.floor((at.getTime() - trialEnd.getTime()) / cycle));
    start = new Date(trialEnd.getTime() + k * cycle);
    end = new Date(start.getTime() + cycle);
  }
  return {
    status,
    planId: plan?.id ?? null,
    currentPeriodStart: start,
    currentPeriodEnd: end,
    nextBilledAt: status === "canceled" ? null : end,
    priceAmountCents: facts.priceCents,
    priceCurrencyCode: facts.currencyCode,
    trialExtended: Boolean(plan && facts.trialDays > plan.trialDays),
  };
}

/** The trial days a subscription has in all, when a webhook does not say: the plan's, plus one extension. */
export function trialDaysFor(planName: string, trialExtended: boolean): number {
  const plan = planForShopifyName(planName);
  return (plan?.trialDays ?? 0) + (trialExtended ? OFFERS.trialExtensionDays : 0);
}

/** The app_subscriptions/update webhook's body (documented payload; fields we do not read are allowed). */
export const AppSubscriptionWebhookSchema = z.object({
  app_subscription: z.object({
    admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/AppSubscription\/\d+$/),
    name: z.string(),
    status: z.string(),
    created_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "must be a date"),
    updated_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "must be a date"),
    currency: z.string().nullish(),
    price: z.union([z.string(), z.number()]).nullish(),
  }),
});
export type AppSubscriptionWebhook = z.infer<typeof AppSubscriptionWebhookSchema>;

/** The app_purchases_one_time/update webhook's body. */
export const AppPurchaseWebhookSchema = z.object({
  app_purchase_one_time: z.object({
    admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/AppPurchaseOneTime\/\d+$/),
    name: z.string(),
    status: z.string(),
    updated_at: z.string().refine((v) => !Number.isNaN(Date.parse(v)), "must be a date"),
  }),
});

/**
 * A sentence for the merchant from Shopify's userErrors (the messages are Shopify's, written for
 * developers). The frozen-shop case is the one a merchant can fix.
 */
export function billingErrorSentence(errors: { message: string }[], what: "subscription" | "purchase" | "change"): string {
  const text = errors.map((e) => e.message).join(" ");
  if (/frozen|unpaid|outstanding/i.test(text)) {
    return "Shopify cannot add a charge while your store has an unpaid Shopify bill (the store is frozen). Settle your Shopify bill in Settings > Billing, then try again.";
  }
  if (/trial/i.test(text) && what === "change") {
    return "Shopify would not extend this trial. It can be extended only while the trial is running.";
  }
  const thing = what === "purchase" ? "this purchase" : what === "change" ? "this change" : "this subscription";
  return `Shopify did not accept ${thing}: ${text || "no reason was given"}. Nothing was charged; try again, or contact us if it keeps happening.`;
}

/** What a one-time purchase name looks like on the invoice; a top-up is recognised by it. */
export function topUpPurchaseName(name: string): string {
  return `Winning Products: ${name}`;
}

