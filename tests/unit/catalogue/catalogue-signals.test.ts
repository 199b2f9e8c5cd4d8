// Measured signals and insights of a product from its listings across stores (app/domain/catalogue/signals.ts,
// docs/decisions/046): a worked example counted by hand, thin evidence, and a property that the stage never
// contradicts the adoption figures printed beside it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measuredInsights, measuredSeries, SIGNAL_RULES, type ListingHistory } from "~/domain/catalogue/signals";

const listing = (storeId: number, addedAt: string, extra: Partial<ListingHistory> = {}): ListingHistory => ({
  storeId,
  addedAt,
  addedCounts: true,
  removedAt: null,
  prices: [{ at: addedAt, cents: 1999 }],
  availability: [{ at: addedAt, available: true }],
  publishedAt: null,
  ...extra,
});

describe("measuredSeries", () => {
  it("counts stores, additions, drops, prices, sell-outs and restocks day by day", () => {
    const series = measuredSeries(
      [
        listing(1, "2026-11-01T10:00:00Z", { addedCounts: false, prices: [{ at: "2026-11-01T10:00:00Z", cents: 1999 }, { at: "2026-11-03T10:00:00Z", cents: 1799 }] }),
        listing(2, "2026-11-02T10:00:00Z", { prices: [{ at: "2026-11-02T10:00:00Z", cents: 2495 }], availability: [{ at: "2026-11-02T10:00:00Z", available: true }, { at: "2026-11-03T09:00:00Z", available: false }, { at: "2026-11-04T09:00:00Z", available: true }] }),
        listing(3, "2026-11-02T12:00:00Z", { removedAt: "2026-11-04T08:00:00Z", prices: [{ at: "2026-11-02T12:00:00Z", cents: 2999 }] }),
      ],
      "2026-11-01",
      "2026-11-04",
    );
    // Day by day, by hand:
    // 11-01: store 1 present (found on its first read: not an addition) -> 1 store, $19.99.
    // 11-02: stores 2 and 3 added -> 3 stores; prices 1999, 2495, 2999 -> min 1999, median 2495, max 2999.
    // 11-03: store 1 now 1799 (a price change); store 2 sold out -> 3 stores, 1 out of stock; 1799/2495/2999.
    // 11-04: store 3 removed, store 2 restocked -> 2 stores; 1799 and 2495 -> median rounds (1799+2495)/2 = 2147.
    expect(series).toEqual({
      startDay: "2026-11-01",
      endDay: "2026-11-04",
      storesSelling: [1, 3, 3, 2],
      added: [0, 2, 0, 0],
      dropped: [0, 0, 0, 1],
      priceMin: [1999, 1999, 1799, 1799],
      priceMedian: [1999, 2495, 2495, 2147],
      priceMax: [1999, 2999, 2999, 2495],
      outOfStock: [0, 0, 1, 0],
      restocked: [0, 0, 0, 1],
      priceChanges: [0, 0, 1, 0],
    });
  });
});

describe("measuredInsights", () => {
  it("one store is not a trend: says so, stays emerging, and caps the score", () => {
    const series = measuredSeries([listing(1, "2026-11-01T10:00:00Z")], "2026-11-01", "2026-11-20");
    const insights = measuredInsights(series, "2026-11-01", "2026-11-01T10:00:00Z");
    expect(insights.thinEvidence).toBe("sold by 1 store: too few to call a trend (we need 3)");
    expect(insights.lifecycleStage).toBe("emerging");
    expect(insights.winningScore).toBeLessThanOrEqual(SIGNAL_RULES.thinScoreCap);
    expect(insights.reasons[0]).toBe(insights.thinEvidence);
  });

  it("prints adoption as a sentence from the figures", () => {
    const early = [1, 2, 3].map((s) => listing(s, "2026-10-01T10:00:00Z"));
    const late = [4, 5, 6, 7, 8, 9].map((s) => listing(s, `2026-11-${14 + s}T10:00:00Z`));
    const series = measuredSeries([...early, ...late], "2026-10-01", "2026-11-24");
    const insights = measuredInsights(series, "2026-10-01", "2026-09-15T00:00:00Z");
    expect(insights).toMatchObject({ storesSelling: 9, storesAdded7d: 6, storesSelling7dAgo: 3, lifecycleStage: "rising", thinEvidence: null });
    expect(insights.reasons[0]).toBe("added by 6 stores in 7 days: 3 -> 9");
    expect(insights.reasons).toContain("first seen anywhere 2026-09-15 (70 days ago)");
  });

  it("the stage never disagrees with the adoption figures beside it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ store: fc.integer({ min: 1, max: 40 }), addDay: fc.integer({ min: 0, max: 59 }), removeAfter: fc.option(fc.integer({ min: 1, max: 60 })) }), { maxLength: 40 }),
        (rows) => {
          const day = (n: number) => new Date(Date.UTC(2026, 8, 1) + n * 86_400_000).toISOString();
          const listings = rows.map((r) => listing(r.store, day(r.addDay), { removedAt: r.removeAfter === null ? null : day(r.addDay + r.removeAfter) }));
          const series = measuredSeries(listings, "2026-09-01", "2026-10-30");
          const i = measuredInsights(series, "2026-09-01", listings.length ? day(Math.min(...rows.map((r) => r.addDay))) : null);
          const net = i.storesAdded7d - i.storesDropped7d;
          if (i.lifecycleStage === "rising") expect(net).toBeGreaterThanOrEqual(SIGNAL_RULES.minNetMove);
          if (i.lifecycleStage === "declining") expect(net).toBeLessThanOrEqual(0);
          if (i.thinEvidence === null) expect(i.storesSelling).toBeGreaterThanOrEqual(SIGNAL_RULES.minStoresForTrend);
          expect(i.winningScore).toBeGreaterThanOrEqual(0);
          expect(i.winningScore).toBeLessThanOrEqual(100);
          expect(i.storesSelling).toBe(series.storesSelling.at(-1));
        },
      ),
    );
  });
});
