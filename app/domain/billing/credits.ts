// Credit rules (seed §4, §9): what each use costs, what "unlimited" means, when upsells open.
import { UNLIMITED_THRESHOLD } from "~/domain/billing/plans";

/** Cost per use: automatic-mode 4, ai-ads 5, every other feature 1. */
export function creditCost(feature: string): number {
  if (feature === "automatic-mode") return 4;
  if (feature === "ai-ads") return 5;
  return 1;
}

export function isUnlimited(balance: number | null | undefined): boolean {
  return (balance ?? 0) > UNLIMITED_THRESHOLD;
}

/** The client shows a credit counter unless the balance is unlimited (seed: render-credits flag). */
export function renderCredits(balance: number | null | undefined): boolean {
  return !isUnlimited(balance);
}

/** The credits upsell opens when a feature's balance is exactly 0. */
export function creditsUpsellOpen(balance: number | null | undefined): boolean {
  return balance === 0;
}

/** The AI-ads upsell opens when its credits are 0 or missing and aiAds.firstUse is true. */
export function aiAdsUpsellOpen(credits: number | null | undefined, firstUse: boolean): boolean {
  return (credits === 0 || credits === null || credits === undefined) && firstUse;
}

/** Feature names are short kebab-case words; anything else is refused before touching the database. */
export const FEATURE_PATTERN = /^[a-z][a-z0-9-]{1,39}$/;
