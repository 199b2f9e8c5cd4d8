// Person properties sent to product analytics when a signed-in user is identified (seed §4).
import { z } from "zod";

export interface AnalyticsPersonInput {
  userSubscribed?: string | null;
  subscription_id?: string | null;
  paddleSubscriptionId?: string | null;
  boughtCaseStudy?: boolean | null;
  innerCircle?: boolean | null;
  shopifyStoreName?: string | null;
  /** Shops linked to the user through the embedded app (added by the Shopify issue). */
  linkedShopCount?: number;
}

export interface AnalyticsPersonProperties {
  subscribed: boolean;
  once_subscribed: boolean;
  purchaser: boolean;
  shopify_connected: boolean;
}

/**
 * subscribed: the subscription is on now ('yes').
 * once_subscribed: a subscription was ever created (its id stays after cancellation).
 * purchaser: paid us anything: a subscription now or before, the case study, or the inner circle.
 * shopify_connected: at least one Shopify store is linked (legacy single-store field included).
 */
export function analyticsPersonProperties(user: AnalyticsPersonInput): AnalyticsPersonProperties {
  const subscribed = user.userSubscribed === "yes";
  const onceSubscribed = subscribed || Boolean(user.subscription_id || user.paddleSubscriptionId);
  return {
    subscribed,
    once_subscribed: onceSubscribed,
    purchaser: onceSubscribed || Boolean(user.boughtCaseStudy) || Boolean(user.innerCircle),
    shopify_connected: Boolean(user.shopifyStoreName) || (user.linkedShopCount ?? 0) > 0,
  };
}

/** Query parameters that carry a secret: a reset or confirmation link's token, a signed link's signature. */
const SECRET_PARAMS = ["token", "sig"];

/**
 * The address with its secret parameters' values replaced by "redacted": a page opened from an e-mailed link
 * (/reset-password?token=...) is reported, its token never is (decision 079).
 */
export function withoutSecrets(address: string): string {
  const query = address.indexOf("?");
  if (query < 0) return address;
  const hash = address.indexOf("#", query);
  const end = hash < 0 ? address.length : hash;
  const params = new URLSearchParams(address.slice(query + 1, end));
  if (!SECRET_PARAMS.some((name) => params.has(name))) return address;
  for (const name of SECRET_PARAMS) if (params.has(name)) params.set(name, "redacted");
  return `${address.slice(0, query)}?${params.toString()}${address.slice(end)}`;
}

/** A page view or leave the browser reports (POST /api/analytics). */
export const PageEventSchema = z.object({
  event: z.enum(["$pageview", "$pageleave"]),
  path: z.string().min(1).max(2000).regex(/^\/(?![/\\])/, "must be a path on this site, like /dashboard").transform(withoutSecrets),
  anonymousId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, "anonymousId must be 8-64 letters, digits or dashes"),
  referrer: z.string().max(2000).transform(withoutSecrets).optional(),
});
export type PageEvent = z.infer<typeof PageEventSchema>;
