// The plan catalogue (docs/decisions/006-plan-catalogue.md). The seed shows five default USD prices
// without saying which is which; this file is where we decided. These are also the prices shown when
// Paddle's localised preview fails (seed §8).

export const CREDIT_FEATURES = ["ai-ads", "automatic-mode", "glitch-mode", "product-pages"] as const;
export type CreditFeature = (typeof CREDIT_FEATURES)[number];

/** How each credit feature is named to people. */
export const FEATURE_LABELS: Record<CreditFeature, string> = {
  "ai-ads": "AI video ads",
  "automatic-mode": "Automatic mode",
  "glitch-mode": "Glitch mode",
  "product-pages": "AI product pages",
};

export function featureLabel(feature: string): string {
  return (FEATURE_LABELS as Record<string, string>)[feature] ?? feature;
}

/** Any balance above this is unlimited: never decremented, and no credit counter is rendered. */
export const UNLIMITED_THRESHOLD = 1e9;
export const UNLIMITED_CREDITS = 2_000_000_000;

export type PlanId = "basic" | "pro" | "inner-circle";
export type Billing = "monthly" | "one_time";

export interface Plan {
  id: PlanId;
  name: string;
  /** Key in the seed's previewPrices response. */
  priceKey: "newPrice" | "newPrice2" | "innerCircle";
  billing: Billing;
  /** Integer cents, USD. */
  priceCents: number;
  currency: "USD";
  trialDays: number;
  tagline: string;
  features: string[];
  /** Credits granted each billing cycle (or once, for one-time plans). */
  credits: Record<CreditFeature, number>;
  /** Credits granted when a trial starts. */
  trialCredits: Record<CreditFeature, number>;
  /** Rival stores a user may follow at once (competitor tracking, docs/decisions/024). */
  competitorLimit: number;
  highlighted?: boolean;
}

export const PLANS: readonly Plan[] = [
  {
    id: "basic",
    name: "Basic",
    priceKey: "newPrice",
    billing: "monthly",
    priceCents: 2999,
    currency: "USD",
    trialDays: 7,
    tagline: "Find and validate your next product.",
    features: [
      "Full product database with search and filters",
      "Winning score with the reasons behind it",
      "Save products and track competitors",
      "20 AI ad credits a month (4 videos)",
      "Weekly product drops and the full course",
    ],
    credits: { "ai-ads": 20, "automatic-mode": 20, "glitch-mode": 30, "product-pages": 30 },
    trialCredits: { "ai-ads": 10, "automatic-mode": 8, "glitch-mode": 5, "product-pages": 10 },
    competitorLimit: 10,
  },
  {
    id: "pro",
    name: "Pro",
    priceKey: "newPrice2",
    billing: "monthly",
    priceCents: 3999,
    currency: "USD",
    trialDays: 7,
    highlighted: true,
    tagline: "Launch and scale with AI ads and automatic mode.",
    features: [
      "Everything in Basic",
      "100 AI ad credits a month (20 videos)",
      "Automatic mode: AI product page pushed to your store",
      "Glitch mode with 100 credits a month",
      "Priority support",
    ],
    credits: { "ai-ads": 100, "automatic-mode": 80, "glitch-mode": 100, "product-pages": 100 },
    trialCredits: { "ai-ads": 10, "automatic-mode": 8, "glitch-mode": 5, "product-pages": 10 },
    competitorLimit: 25,
  },
  {
    id: "inner-circle",
    name: "Inner Circle",
    priceKey: "innerCircle",
    billing: "one_time",
    priceCents: 29999,
    currency: "USD",
    trialDays: 0,
    tagline: "Lifetime access with unlimited AI features.",
    features: [
      "Everything in Pro, for life",
      "Unlimited AI ads, glitch mode and automatic mode",
      "Inner circle community and case studies",
    ],
    credits: {
      "ai-ads": UNLIMITED_CREDITS,
      "automatic-mode": UNLIMITED_CREDITS,
      "glitch-mode": UNLIMITED_CREDITS,
      "product-pages": UNLIMITED_CREDITS,
    },
    trialCredits: { "ai-ads": 0, "automatic-mode": 0, "glitch-mode": 0, "product-pages": 0 },
    competitorLimit: 100,
  },
] as const;

/** One-time purchases and offers that are not plans. Integer cents, USD. */
export const OFFERS = {
  caseStudy: { name: "Case study", priceCents: 1999 },
  retentionDiscount: { name: "Stay for $9.99 next cycle", priceCents: 999 },
  trialExtensionDays: 7,
} as const;

/**
 * Credit top-ups sold inside Shopify admin as one-time purchases (docs/decisions/034): credits added to
 * one feature's balance, on top of the plan's allowance, until the next period resets it.
 */
export type CreditTopUpId = "ai-ads-50" | "product-pages-50";

export interface CreditTopUp {
  id: CreditTopUpId;
  name: string;
  feature: CreditFeature;
  credits: number;
  /** Integer cents, USD. */
  priceCents: number;
}

export const CREDIT_TOP_UPS: readonly CreditTopUp[] = [
  { id: "ai-ads-50", name: "50 AI ad credits", feature: "ai-ads", credits: 50, priceCents: 1499 },
  { id: "product-pages-50", name: "50 AI product page credits", feature: "product-pages", credits: 50, priceCents: 999 },
] as const;

export function findTopUp(id: string | null | undefined): CreditTopUp | undefined {
  return CREDIT_TOP_UPS.find((t) => t.id === id);
}

export function findPlan(id: string | null | undefined): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export function isValidPlanChoice(plan: string | null | undefined, billing: string | null | undefined) {
  const found = findPlan(plan);
  return Boolean(found && found.billing === billing);
}

/** "$29.99" from integer cents. */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
