// Marketing status sent to the e-mail platform, derived from the user's subscription flags (seed §4).

export type MarketingStatus = "declined" | "unactive" | "active" | "canceled" | null;

export interface MarketingFlags {
  chargeDeclined?: boolean | null;
  userSubscribed?: string | null;
  subscriptionCancelled?: boolean | null;
}

/**
 * declined if the last charge was declined; unactive if userSubscribed is 'no'; active if 'yes' and
 * not cancelled; canceled if 'yes' and cancelled; otherwise null (never subscribed, unknown value).
 * The seed spells "unactive" and "canceled"; those strings are what the e-mail platform receives.
 */
export function marketingStatus(flags: MarketingFlags): MarketingStatus {
  if (flags.chargeDeclined) return "declined";
  if (flags.userSubscribed === "no") return "unactive";
  if (flags.userSubscribed === "yes") return flags.subscriptionCancelled ? "canceled" : "active";
  return null;
}
