// What a signed-in user looks like to callers (GET /api/me). Later issues add credit balances here.
import { marketingStatus } from "~/domain/marketing-status";
import { analyticsPersonProperties } from "~/domain/analytics-properties";
import type { Db } from "~/db.server";
import type { User } from "~/services/auth.server";

export async function describeMe(_db: Db, user: User) {
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
  };
}
export type Me = Awaited<ReturnType<typeof describeMe>>;
