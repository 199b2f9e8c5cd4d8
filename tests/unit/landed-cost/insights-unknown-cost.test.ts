// Insights of a product whose supplier cost is unknown, or that has no sales data (docs/decisions/026): over
// generated histories, no margin is invented (not 0%, not 100%), the score is built from the measured parts
// only, scaled to 100, and no reason speaks of a figure we do not have.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeInsights, noSalesDataNote, WINNING_WEIGHTS, type DailySeries, type ScoreComponent } from "~/domain/products/insights";

const NOW = new Date("2026-04-01T08:00:00Z");
const DAYS = 90;

const product = fc.record({
  orders: fc.oneof(
    fc.array(fc.integer({ min: 0, max: 3 }), { minLength: DAYS, maxLength: DAYS }),
    fc.array(fc.integer({ min: 0, max: 200 }), { minLength: DAYS, maxLength: DAYS }),
  ),
  priceCents: fc.integer({ min: 1, max: 90_000 }),
  costCents: fc.integer({ min: 0, max: 120_000 }),
  shippingCents: fc.integer({ min: 0, max: 2_000 }),
  views: fc.integer({ min: 0, max: 400_000 }),
  stores: fc.integer({ min: 0, max: 60 }),
});

function historyOf(p: { orders: number[]; priceCents: number; views: number; stores: number }): DailySeries {
  const n = p.orders.length;
  const same = (v: number) => Array.from({ length: n }, () => v);
  return {
    startDay: "2026-01-01",
    orders: p.orders,
    revenueCents: p.orders.map((o) => o * p.priceCents),
    views: same(p.views),
    likes: same(Math.floor(p.views / 40)),
    comments: same(0),
    shares: same(0),
    storesSelling: same(p.stores),
  };
}

const MEASURED_WITHOUT_COST: ScoreComponent[] = ["growth", "demand", "engagement", "lowSaturation"];

describe("insights with an unknown cost", () => {
  it("have no margin, score the other four parts scaled to 100, and never give a margin reason", () => {
    fc.assert(
      fc.property(product, (p) => {
        const history = historyOf(p);
        const base = { priceCents: p.priceCents, shippingCents: p.shippingCents, history, now: NOW };
        const unknown = computeInsights({ ...base, costCents: null });
        const known = computeInsights({ ...base, costCents: p.costCents });

        expect(unknown.marginBps).toBeNull();
        expect(unknown.salesData).toBe(true);
        expect(Object.keys(unknown.scoreParts).sort()).toEqual([...MEASURED_WITHOUT_COST].sort());
        // The same measured parts as with a cost, rescaled from their 75 points to 100.
        const weight = MEASURED_WITHOUT_COST.reduce((sum, c) => sum + WINNING_WEIGHTS[c], 0);
        const measured = MEASURED_WITHOUT_COST.reduce((sum, c) => sum + known.scoreParts[c]!, 0);
        expect(unknown.winningScore).toBe(Math.max(0, Math.min(100, Math.round((measured * 100) / weight))));
        for (const c of MEASURED_WITHOUT_COST) expect(unknown.scoreParts[c]).toBeCloseTo((known.scoreParts[c]! * 100) / weight, 9);
        expect(unknown.reasons).toHaveLength(3);
        for (const reason of unknown.reasons) expect(reason).not.toMatch(/margin|%.*cost|100%/);
        // Everything measured from sales is the same with or without a cost.
        for (const k of ["orders", "orders7d", "ordersPrev7d", "ordersGrowth7d", "lifecycleStage", "saturation", "trendingScore"] as const) {
          expect(unknown[k]).toEqual(known[k]);
        }
      }),
      { numRuns: 1500, seed: 20261124 },
    );
  });

  it("score a product whose cost we do not know between its score with the worst and the best margin", () => {
    fc.assert(
      fc.property(product, (p) => {
        const base = { priceCents: p.priceCents, shippingCents: 0, history: historyOf(p), now: NOW };
        const unknown = computeInsights({ ...base, costCents: null });
        // Cost = price: margin 0%, no margin points. Cost = 0: margin 100%, full margin points.
        const worst = computeInsights({ ...base, costCents: p.priceCents });
        const best = computeInsights({ ...base, costCents: 0 });
        expect([worst.marginBps, best.marginBps]).toEqual([0, 10_000]);
        expect(worst.scoreParts.margin).toBe(0);
        expect(best.scoreParts.margin).toBe(WINNING_WEIGHTS.margin);
        // Neither punished as a 0% margin nor rewarded as a 100% one (whole points: rounding may tie).
        expect(unknown.winningScore!).toBeGreaterThanOrEqual(worst.winningScore!);
        expect(unknown.winningScore!).toBeLessThanOrEqual(best.winningScore!);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it("a product with every part at full marks still reaches 100 without a cost", () => {
    const orders = [...Array(76).fill(100), ...Array(7).fill(10), ...Array(7).fill(300)];
    const r = computeInsights({
      priceCents: 2000,
      costCents: null,
      shippingCents: 0,
      now: NOW,
      history: { ...historyOf({ orders, priceCents: 2000, views: 400_000, stores: 0 }), likes: Array(90).fill(100_000) },
    });
    expect(r.scoreParts.margin).toBeUndefined();
    expect(r.winningScore).toBe(100);
  });
});

describe("insights without sales data", () => {
  it("claim no orders, growth, stage, score or reasons, and keep the margin only when the cost is known", () => {
    fc.assert(
      fc.property(product, fc.boolean(), (p, costKnown) => {
        const r = computeInsights({
          priceCents: p.priceCents,
          costCents: costKnown ? p.costCents : null,
          shippingCents: p.shippingCents,
          history: null,
          now: NOW,
        });
        expect(r).toMatchObject({ salesData: false, winningScore: null, lifecycleStage: null, ordersGrowth7d: null, dataAsOf: null, reasons: [], scoreParts: {} });
        if (costKnown) expect(r.marginBps).toBe(Math.round(((p.priceCents - p.costCents - p.shippingCents) * 10_000) / p.priceCents) || 0);
        else expect(r.marginBps).toBeNull();
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it("still refuses prices that are not prices", () => {
    expect(() => computeInsights({ priceCents: 0, costCents: null, shippingCents: 0, history: null, now: NOW })).toThrow(/priceCents/);
    expect(() => computeInsights({ priceCents: 100, costCents: null, shippingCents: -1, history: null, now: NOW })).toThrow(/shippingCents/);
  });

  it("say where the product came from and when", () => {
    expect(noSalesDataNote(new Date("2026-11-23T22:00:00Z"), "glow.example")).toBe(
      "No sales data: imported from a tracked store on Nov 23, 2026 (glow.example)",
    );
    expect(noSalesDataNote(new Date("2026-11-23T22:00:00Z"), null)).toBe("No sales data: imported from a tracked store on Nov 23, 2026");
  });
});
