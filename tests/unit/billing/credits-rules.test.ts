// The pure credit rules (app/domain/billing/credits.ts): what each use costs, what "unlimited" means, and
// exactly when each upsell opens.
import { describe, expect, it } from "vitest";
import {
  aiAdsUpsellOpen,
  creditCost,
  creditsUpsellOpen,
  FEATURE_PATTERN,
  isUnlimited,
  renderCredits,
} from "~/domain/billing/credits";
import { CREDIT_FEATURES, UNLIMITED_CREDITS } from "~/domain/billing/plans";

describe("creditCost", () => {
  it("automatic-mode costs 4, ai-ads 5", () => {
    expect(creditCost("automatic-mode")).toBe(4);
    expect(creditCost("ai-ads")).toBe(5);
  });
  it("every other feature costs 1", () => {
    for (const f of ["glitch-mode", "product-pages", "anything-else", "ai-ads-x", "automatic"])
      expect(creditCost(f)).toBe(1);
  });
  it("covers every catalogue feature with a positive integer", () => {
    for (const f of CREDIT_FEATURES) {
      expect(Number.isInteger(creditCost(f))).toBe(true);
      expect(creditCost(f)).toBeGreaterThan(0);
    }
  });
});

describe("isUnlimited and renderCredits", () => {
  it("exactly 1e9 is still counted", () => {
    expect(isUnlimited(1e9)).toBe(false);
    expect(renderCredits(1e9)).toBe(true);
  });
  it("1e9 + 1 is unlimited and no counter is rendered", () => {
    expect(isUnlimited(1e9 + 1)).toBe(true);
    expect(renderCredits(1e9 + 1)).toBe(false);
  });
  it("the catalogue's unlimited grant is unlimited", () => {
    expect(isUnlimited(UNLIMITED_CREDITS)).toBe(true);
    expect(renderCredits(UNLIMITED_CREDITS)).toBe(false);
  });
  it("ordinary, zero and missing balances are counted", () => {
    for (const b of [0, 1, 100, null, undefined]) {
      expect(isUnlimited(b)).toBe(false);
      expect(renderCredits(b)).toBe(true);
    }
  });
});

describe("creditsUpsellOpen", () => {
  it("opens only at exactly 0", () => {
    expect(creditsUpsellOpen(0)).toBe(true);
    for (const b of [1, 5, -1, 1e9 + 1, null, undefined]) expect(creditsUpsellOpen(b)).toBe(false);
  });
});

describe("aiAdsUpsellOpen", () => {
  it("opens when credits are 0 or missing and it is the first use", () => {
    expect(aiAdsUpsellOpen(0, true)).toBe(true);
    expect(aiAdsUpsellOpen(null, true)).toBe(true);
    expect(aiAdsUpsellOpen(undefined, true)).toBe(true);
  });
  it("stays closed after the first use, whatever the credits", () => {
    for (const c of [0, null, undefined, 5]) expect(aiAdsUpsellOpen(c, false)).toBe(false);
  });
  it("stays closed while there are credits", () => {
    for (const c of [1, 5, 100, 1e9 + 1]) expect(aiAdsUpsellOpen(c, true)).toBe(false);
  });
});

describe("FEATURE_PATTERN", () => {
  it("accepts the catalogue's feature names", () => {
    for (const f of CREDIT_FEATURES) expect(FEATURE_PATTERN.test(f)).toBe(true);
  });
  it("refuses anything else before it reaches the database", () => {
    for (const f of ["", "A", "ai ads", "ai_ads'; --", "-ai", "x".repeat(41), "1ai"])
      expect(FEATURE_PATTERN.test(f)).toBe(false);
  });
});
