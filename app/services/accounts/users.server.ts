// What a signed-in user looks like to callers (GET /api/me): identity, the seed's subscription flags,
// paid state and credit balances (featureCredits uses the seed's {product}Credits names).
import { marketingStatus } from "~/domain/marketing/marketing-status";
import { analyticsPersonProperties } from "~/domain/marketing/analytics-properties";
import type { Db } from "~/db.server";
import type { User } from "~/services/accounts/auth.server";
import { paidState } from "~/domain/billing/billing";
import { getBalances } from "~/services/billing/credits.server";

export async function describeMe(db: Db, user: User) {
  const balances = await getBalances(db, user.id);
  return {
    uid: user.id,
    email: user.email,
    userSubscribed: user.userSubscribed,
    trialing: user.trialing,
    subscriptionCancelled: user.subscriptionCancelled,
    chargeDeclined: user.chargeDeclined,
    subscription_id: user.subscription_id,
    paddleSubscriptionId: user.paddleSubscriptionId,
    paddleCtmId: user.paddleCustomerId,
    innerCircle: user.innerCircle,
    extendedTrial: user.extendedTrial,
    claimedDiscount: user.claimedDiscount,
    boughtCaseStudy: user.boughtCaseStudy,
    usedGlitchModeOnTrial: user.usedGlitchModeOnTrial,
    zendropConnected: user.zendropConnected,
    shopifyStoreName: user.shopifyStoreName,
    popupTriggered: user.popupTriggered,
    klaviyoId: user.klaviyoId,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    marketingStatus: marketingStatus(user),
    analytics: analyticsPersonProperties(user),
    paid: paidState(user),
    aiAds: { firstUse: user.aiAdsFirstUse, credits: balances.find((b) => b.feature === "ai-ads")?.balance ?? 0 },
    featureCredits: Object.fromEntries(balances.map((b) => [`${b.feature}Credits`, b.balance])),
    credits: balances,
  };
}
export type Me = Awaited<ReturnType<typeof describeMe>>;

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { describeMe };
