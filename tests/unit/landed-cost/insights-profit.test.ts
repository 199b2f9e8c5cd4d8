// The profit calculator (app/domain/products/insights.ts profit()): whole cents, documented rounding, and a
// break-even ROAS only when an order makes money before ads.
import { describe, expect, it } from "vitest";
import { profit, PROFIT_NOTES, type ProfitInput } from "~/domain/products/insights";

const base: ProfitInput = {
  priceCents: 2999,
  costCents: 800,
  shippingCents: 300,
  feesBps: 290,
  feeFixedCents: 30,
  adCostPerPurchaseCents: 900,
};

describe("profit", () => {
  it("works out fees, margins, profit per order and ROAS for a typical product", () => {
    expect(profit(base)).toEqual({
      feesCents: 117, // round(2999 x 2.9% = 86.971) + 30
      grossProfitCents: 1899,
      grossMarginBps: 6332,
      profitBeforeAdsCents: 1782,
      profitPerOrderCents: 882,
      marginBps: 2941,
      breakEvenRoas: 1.69, // 2999 / 1782 = 1.6829 rounded up
      roasAtAdCost: 3.33, // 2999 / 900 = 3.332 rounded down
      profitable: true,
    });
  });

  it("rounds fees half up to the cent", () => {
    expect(profit({ ...base, priceCents: 1000, feesBps: 25, feeFixedCents: 0 }).feesCents).toBe(3); // 2.5 -> 3
    expect(profit({ ...base, priceCents: 1000, feesBps: 24, feeFixedCents: 0 }).feesCents).toBe(2); // 2.4 -> 2
  });

  it("has no break-even ROAS when an order loses money before ads", () => {
    const r = profit({ ...base, costCents: 2500, shippingCents: 500 });
    expect(r.profitBeforeAdsCents).toBeLessThan(0);
    expect(r.breakEvenRoas).toBeNull();
    expect(r.profitable).toBe(false);
    expect(r.grossMarginBps).toBeLessThan(0);
  });

  it("has no break-even ROAS at exactly zero before ads", () => {
    const r = profit({ priceCents: 1000, costCents: 600, shippingCents: 400, feesBps: 0, feeFixedCents: 0, adCostPerPurchaseCents: 0 });
    expect(r.profitBeforeAdsCents).toBe(0);
    expect(r.breakEvenRoas).toBeNull();
    expect(r.profitable).toBe(false);
  });

  it("an ad cost equal to the profit before ads breaks even: no profit", () => {
    const r = profit({ ...base, adCostPerPurchaseCents: 1782 });
    expect(r.profitPerOrderCents).toBe(0);
    expect(r.marginBps).toBe(0);
    expect(r.profitable).toBe(false);
    // Paying exactly the break-even ROAS's ad cost leaves nothing; its ROAS is the break-even one.
    expect(r.roasAtAdCost).toBeLessThanOrEqual(r.breakEvenRoas!);
  });

  it("gives no ROAS for a zero ad cost and a whole-number break-even when it divides exactly", () => {
    const r = profit({ priceCents: 3000, costCents: 1000, shippingCents: 1000, feesBps: 0, feeFixedCents: 0, adCostPerPurchaseCents: 0 });
    expect(r.roasAtAdCost).toBeNull();
    expect(r.breakEvenRoas).toBe(3);
    expect(r.profitPerOrderCents).toBe(1000);
    expect(r.marginBps).toBe(3333);
  });

  it("returns whole cents and basis points only", () => {
    const r = profit({ ...base, priceCents: 1234, feesBps: 333, feeFixedCents: 7, adCostPerPurchaseCents: 111 });
    for (const key of ["feesCents", "grossProfitCents", "grossMarginBps", "profitBeforeAdsCents", "profitPerOrderCents", "marginBps"] as const) {
      expect(Number.isInteger(r[key]), key).toBe(true);
    }
  });

  it("refuses impossible inputs", () => {
    expect(() => profit({ ...base, priceCents: 0 })).toThrow(RangeError);
    expect(() => profit({ ...base, costCents: -1 })).toThrow(RangeError);
    expect(() => profit({ ...base, shippingCents: 1.5 })).toThrow(RangeError);
    expect(() => profit({ ...base, feesBps: 10_001 })).toThrow(RangeError);
    expect(() => profit({ ...base, feesBps: 2.5 })).toThrow(RangeError);
    expect(() => profit({ ...base, adCostPerPurchaseCents: -5 })).toThrow(RangeError);
  });

  it("documents its rounding", () => {
    expect(PROFIT_NOTES.rounding).toMatch(/rounded up/);
    expect(PROFIT_NOTES.rounding).toMatch(/rounded down/);
  });
});
