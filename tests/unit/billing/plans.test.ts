import { describe, expect, it } from "vitest";
import {
  CREDIT_FEATURES,
  findPlan,
  formatUsd,
  isValidPlanChoice,
  OFFERS,
  PLANS,
  UNLIMITED_CREDITS,
  UNLIMITED_THRESHOLD,
} from "~/domain/billing/plans";

describe("plan catalogue", () => {
  it("offers basic, pro and inner circle, in that order, once each", () => {
    expect(PLANS.map((p) => p.id)).toEqual(["basic", "pro", "inner-circle"]);
  });

  it("prices are integer USD cents: 29.99, 39.99 and 299.99", () => {
    expect(PLANS.map((p) => [p.id, p.priceCents, p.currency])).toEqual([
      ["basic", 2999, "USD"],
      ["pro", 3999, "USD"],
      ["inner-circle", 29999, "USD"],
    ]);
    for (const plan of PLANS) expect(Number.isInteger(plan.priceCents)).toBe(true);
  });

  it("basic and pro are monthly with a 7-day trial; inner circle is one payment with no trial", () => {
    expect(PLANS.map((p) => [p.id, p.billing, p.trialDays])).toEqual([
      ["basic", "monthly", 7],
      ["pro", "monthly", 7],
      ["inner-circle", "one_time", 0],
    ]);
  });

  it("maps each plan to its key in the seed's previewPrices response", () => {
    expect(Object.fromEntries(PLANS.map((p) => [p.id, p.priceKey]))).toEqual({
      basic: "newPrice",
      pro: "newPrice2",
      "inner-circle": "innerCircle",
    });
  });

  it("highlights pro, and only pro", () => {
    expect(PLANS.filter((p) => p.highlighted).map((p) => p.id)).toEqual(["pro"]);
  });

  it("every plan grants every credit feature, as a non-negative integer", () => {
    for (const plan of PLANS) {
      for (const credits of [plan.credits, plan.trialCredits]) {
        expect(Object.keys(credits).sort()).toEqual([...CREDIT_FEATURES].sort());
        for (const n of Object.values(credits)) expect(Number.isInteger(n) && n >= 0).toBe(true);
      }
    }
  });

  it("pro grants at least as much of everything as basic", () => {
    const basic = findPlan("basic")!;
    const pro = findPlan("pro")!;
    for (const feature of CREDIT_FEATURES) expect(pro.credits[feature]).toBeGreaterThanOrEqual(basic.credits[feature]);
  });

  it("only inner circle is unlimited; monthly allowances are counted", () => {
    expect(UNLIMITED_CREDITS).toBeGreaterThan(UNLIMITED_THRESHOLD);
    for (const feature of CREDIT_FEATURES) {
      expect(findPlan("inner-circle")!.credits[feature]).toBeGreaterThan(UNLIMITED_THRESHOLD);
      expect(findPlan("basic")!.credits[feature]).toBeLessThanOrEqual(UNLIMITED_THRESHOLD);
      expect(findPlan("pro")!.credits[feature]).toBeLessThanOrEqual(UNLIMITED_THRESHOLD);
    }
  });

  it("a trial grants credits only on plans that have a trial", () => {
    for (const plan of PLANS) {
      const trialTotal = Object.values(plan.trialCredits).reduce((a, b) => a + b, 0);
      expect(trialTotal > 0).toBe(plan.trialDays > 0);
    }
  });

  it("each plan has a name, a tagline and a feature list to show", () => {
    for (const plan of PLANS) {
      expect(plan.name.trim()).not.toBe("");
      expect(plan.tagline.trim()).not.toBe("");
      expect(plan.features.length).toBeGreaterThan(0);
    }
  });

  it("offers are priced in integer cents below every plan", () => {
    expect(OFFERS.caseStudy.priceCents).toBe(1999);
    expect(OFFERS.retentionDiscount.priceCents).toBe(999);
    for (const plan of PLANS) expect(OFFERS.caseStudy.priceCents).toBeLessThan(plan.priceCents);
  });
});

describe("findPlan", () => {
  it.each(["basic", "pro", "inner-circle"])("finds %s", (id) => expect(findPlan(id)?.id).toBe(id));
  it.each([null, undefined, "", "Pro", "PRO", "premium", "inner_circle", " pro"])("finds nothing for %j", (id) => {
    expect(findPlan(id)).toBeUndefined();
  });
});

describe("isValidPlanChoice", () => {
  it.each([
    ["basic", "monthly", true],
    ["pro", "monthly", true],
    ["inner-circle", "one_time", true],
    ["basic", "one_time", false],
    ["pro", "one_time", false],
    ["inner-circle", "monthly", false],
    ["pro", "yearly", false],
    ["pro", "", false],
    ["pro", null, false],
    ["pro", undefined, false],
    ["gold", "monthly", false],
    [null, "monthly", false],
    [undefined, undefined, false],
  ])("%j + %j -> %s", (plan, billing, expected) => {
    expect(isValidPlanChoice(plan, billing)).toBe(expected);
  });
});

describe("formatUsd", () => {
  it.each([
    [2999, "$29.99"],
    [3999, "$39.99"],
    [29999, "$299.99"],
    [999, "$9.99"],
    [100, "$1.00"],
    [5, "$0.05"],
    [0, "$0.00"],
  ])("%i cents -> %s", (cents, text) => expect(formatUsd(cents)).toBe(text));
});
