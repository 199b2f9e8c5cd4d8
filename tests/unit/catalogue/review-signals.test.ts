// A measured product's reviews summed over its stores (app/domain/catalogue/review-signals.ts, decision 094): the
// sum of latest counts, the gains in 7 and 30 days per listing (never below 0), stale counts left out, "no review
// data" as null, the reason's sentence, and how the reviews part enters the score (a product without review data
// scores exactly as before). Properties: the gains never exceed what the listings' counts rose by, and never go negative.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseReviewSummary, REVIEW_RULES, reviewsReason, reviewSummary } from "~/domain/catalogue/review-signals";
import { measuredInsights, measuredSeries, type ListingHistory } from "~/domain/catalogue/signals";
import { dayNumber, dayString } from "~/domain/products/insights";

const day = (offset: number) => dayString(dayNumber("2026-12-07") + offset);

describe("reviewSummary", () => {
  it("is null when no listing publishes a count: no review data, never 0", () => {
    expect(reviewSummary([], "2026-12-07")).toBeNull();
    expect(reviewSummary([{ store: "a", points: [] }], "2026-12-07")).toBeNull();
  });

  it("sums the latest counts and the gains over 7 and 30 days across stores (from each listing's last read on or before the window's start)", () => {
    const r = reviewSummary(
      [
        { store: "a", points: [{ day: day(-40), count: 100 }, { day: day(-30), count: 110 }, { day: day(-7), count: 120 }, { day: day(0), count: 135 }] },
        { store: "b", points: [{ day: day(-31), count: 50 }, { day: day(-2), count: 62 }] },
        { store: "c", points: [{ day: day(-35), count: 7 }, { day: day(-1), count: 8 }] },
      ],
      day(0),
    );
    expect(r).toEqual({ value: 135 + 62 + 8, asOf: day(0), stores: 3, gained7d: 15 + 12 + 1, gained30d: 25 + 12 + 1, days7d: 7, days30d: 30 });
    expect(reviewsReason(r!)).toBe("+38 reviews in 30 days across 3 stores");
  });

  it("counts a listing read for fewer days than the window from its first read, and says the days", () => {
    const r = reviewSummary([{ store: "a", points: [{ day: day(-12), count: 10 }, { day: day(0), count: 14 }] }], day(0))!;
    // The 7-day window starts after its first read: the gain since that read is what is known.
    expect(r).toMatchObject({ gained30d: 4, gained7d: 4, days30d: 12 });
    expect(reviewsReason(r)).toBe("+4 reviews in 12 days across 1 store");
    const once = reviewSummary([{ store: "a", points: [{ day: day(0), count: 1234 }] }], day(0))!;
    expect(reviewsReason(once)).toBe("no new reviews since we started reading them (1,234 across 1 store)");
  });

  it("never counts a fall as negative demand, leaves out stale counts and points after the day asked", () => {
    const r = reviewSummary(
      [
        { store: "a", points: [{ day: day(-10), count: 90 }, { day: day(0), count: 40 }] },
        { store: "stale", points: [{ day: day(-REVIEW_RULES.staleDays - 1), count: 999 }] },
        { store: "future", points: [{ day: day(3), count: 5 }] },
      ],
      day(0),
    )!;
    expect(r).toMatchObject({ value: 40, stores: 1, gained7d: 0, gained30d: 0 });
  });

  it("never reports a gain beyond the counts' rise, nor below 0", () => {
    const points = fc.array(fc.record({ offset: fc.integer({ min: -60, max: 0 }), count: fc.integer({ min: 0, max: 1e6 }) }), { maxLength: 12 });
    fc.assert(
      fc.property(fc.array(points, { maxLength: 5 }), (listings) => {
        const r = reviewSummary(
          listings.map((ps, i) => ({ store: `s${i}`, points: ps.map((p) => ({ day: day(p.offset), count: p.count })) })),
          day(0),
        );
        if (r === null) return;
        expect(r.gained7d).toBeGreaterThanOrEqual(0);
        expect(r.gained30d).toBeGreaterThanOrEqual(0);
        const maxRise = listings.reduce((sum, ps) => sum + (ps.length ? Math.max(...ps.map((p) => p.count)) : 0), 0);
        expect(r.gained30d).toBeLessThanOrEqual(maxRise);
        expect(parseReviewSummary(JSON.parse(JSON.stringify(r)))).toEqual(r);
      }),
    );
  });
});

describe("reviews in the measured score", () => {
  const listing = (storeId: number): ListingHistory => ({
    storeId,
    addedAt: `${day(-20)}T00:00:00Z`,
    addedCounts: true,
    removedAt: null,
    prices: [{ at: `${day(-20)}T00:00:00Z`, cents: 1999 }],
    availability: [],
    publishedAt: null,
  });
  const series = measuredSeries([1, 2, 3, 4].map(listing), day(-29), day(0));
  const base = measuredInsights(series, day(-29), `${day(-20)}T00:00:00Z`);

  it("scores a product without review data exactly as before, with no reviews part", () => {
    expect(base.reviews).toBeNull();
    expect(base.scoreParts.reviews).toBeUndefined();
    expect(base.winningScore).toBe(base.scoreParts.adoption + base.scoreParts.breadth + base.scoreParts.restocks + base.scoreParts.freshness);
  });

  it("gives reviews gained their weight and puts the sentence in the reasons", () => {
    const gaining = reviewSummary([{ store: "a", points: [{ day: day(-30), count: 0 }, { day: day(-7), count: 20 }, { day: day(0), count: 120 }] }], day(0))!;
    const flat = reviewSummary([{ store: "a", points: [{ day: day(-30), count: 120 }, { day: day(0), count: 120 }] }], day(0))!;
    const up = measuredInsights(series, day(-29), `${day(-20)}T00:00:00Z`, gaining);
    const still = measuredInsights(series, day(-29), `${day(-20)}T00:00:00Z`, flat);
    expect(up.scoreParts.reviews).toBe(REVIEW_RULES.weight);
    expect(still.scoreParts.reviews).toBe(0);
    expect(up.winningScore).toBeGreaterThan(base.winningScore);
    expect(still.winningScore).toBeLessThanOrEqual(base.winningScore);
    expect(up.reasons).toContain("+120 reviews in 30 days across 1 store");
    expect(up.adoptionScore).toBe(base.adoptionScore);
  });
});
