// The insight rules (app/domain/products/insights.ts) on hand-made daily series: 30-day figures, growth,
// margin, each lifecycle stage, saturation, trending and winning scores, and reasons that only ever
// restate the computed numbers.
import { describe, expect, it } from "vitest";
import {
  assertSeries,
  computeInsights,
  dayNumber,
  declineReason,
  formatCompact,
  formatCount,
  GROWTH_PERCENT_MIN_BASE,
  growthShown,
  INSIGHT_NOTES,
  INSIGHT_RULES,
  isRealChange,
  lifecycleStageOf,
  marginBpsOf,
  saturationOf,
  trendingScoreOf,
  weekMove,
  WINNING_WEIGHTS,
  type DailySeries,
  type InsightsInput,
} from "~/domain/products/insights";

const START = "2026-01-01"; // 90 days: 2026-01-01 .. 2026-03-31
const NOW = new Date("2026-04-01T08:00:00Z");

const fill = (n: number, v: number) => Array.from({ length: n }, () => v);

function series(orders: number[], extra: Partial<Omit<DailySeries, "orders">> = {}): DailySeries {
  const n = orders.length;
  return {
    startDay: START,
    orders,
    revenueCents: orders.map((o) => o * 2500),
    views: orders.map((o) => o * 100),
    likes: orders.map((o) => o * 3),
    comments: fill(n, 0),
    shares: fill(n, 0),
    storesSelling: fill(n, 5),
    ...extra,
  };
}

function insights(history: DailySeries, over: Partial<InsightsInput> = {}) {
  return computeInsights({ priceCents: 2500, costCents: 700, shippingCents: 300, amazonPriceCents: null, history, now: NOW, ...over });
}

/** Days 0..89 with `before` orders a day, then the last `days` days with `after`. */
const step = (before: number, after: number, days: number) => [...fill(90 - days, before), ...fill(days, after)];

describe("30-day figures", () => {
  it("sums the last 30 days only and reads stores selling on the last day", () => {
    const orders = [...fill(60, 100), ...Array.from({ length: 30 }, (_, i) => i + 1)]; // 1..30 in the last 30 days
    const stores = [...fill(89, 3), 17];
    const r = insights(series(orders, { storesSelling: stores }));
    expect(r.orders).toBe(465);
    expect(r.revenueCents).toBe(465 * 2500);
    expect(r.views).toBe(46_500);
    expect(r.likes).toBe(1395);
    expect(r.comments).toBe(0);
    expect(r.storesSelling).toBe(17);
    expect(r.orders7d).toBe(24 + 25 + 26 + 27 + 28 + 29 + 30);
    expect(r.ordersPrev7d).toBe(17 + 18 + 19 + 20 + 21 + 22 + 23);
    expect(r.dataAsOf).toBe("2026-03-31");
    expect(r.staleDays).toBe(1);
  });

  it("ignores days after `now` and says which day the figures are from", () => {
    const orders = [...fill(80, 1), ...fill(10, 1000)];
    const r = insights(series(orders), { now: new Date("2026-03-21T23:59:59Z") }); // day index 79
    expect(r.dataAsOf).toBe("2026-03-21");
    expect(r.staleDays).toBe(0);
    expect(r.orders).toBe(30);
    expect(r.orders7d).toBe(7);
  });

  it("counts days before a short series as zero", () => {
    const r = insights(series([5, 5, 5]), { now: new Date("2026-01-03T12:00:00Z") });
    expect(r.orders).toBe(15);
    expect(r.orders7d).toBe(15);
    expect(r.ordersPrev7d).toBe(0);
  });

  it("has no figures when `now` is before the series starts", () => {
    const r = insights(series(fill(10, 4)), { now: new Date("2025-12-30T00:00:00Z") });
    expect(r.dataAsOf).toBeNull();
    expect(r.staleDays).toBeNull();
    expect(r.orders).toBe(0);
    expect(r.storesSelling).toBe(0);
    expect(r.lifecycleStage).toBe("emerging");
    expect(r.reasons).toHaveLength(3);
  });
});

describe("ordersGrowth7d", () => {
  it("is the percent change of the last 7 days against the 7 before", () => {
    // 20 a week before, 56 in the last week -> +180%
    const orders = [...fill(76, 0), 20, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8];
    expect(insights(series(orders)).ordersGrowth7d).toBe(180);
    const falling = [...fill(76, 0), 20, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0];
    expect(insights(series(falling)).ordersGrowth7d).toBe(-50);
  });

  it("is null below GROWTH_PERCENT_MIN_BASE orders the week before: the page shows the counts", () => {
    const orders = [...fill(76, 0), 2, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2];
    const r = insights(series(orders));
    expect([r.ordersPrev7d, r.orders7d, r.ordersGrowth7d]).toEqual([2, 14, null]);
    expect(growthShown(r.ordersPrev7d, r.orders7d, r.ordersGrowth7d)).toBe("2 → 14 orders");
    // Issue 25: "+110%" on a base of 10 read as a boom; the base is now 20 orders.
    const ten = insights(series([...fill(76, 0), 10, 0, 0, 0, 0, 0, 0, 21, 0, 0, 0, 0, 0, 0]));
    expect(growthShown(ten.ordersPrev7d, ten.orders7d, ten.ordersGrowth7d)).toBe("10 → 21 orders");
    const nineteen = insights(series([...fill(76, 0), 19, 0, 0, 0, 0, 0, 0, 38, 0, 0, 0, 0, 0, 0]));
    expect(nineteen.ordersGrowth7d).toBeNull();
    const twenty = insights(series([...fill(76, 0), GROWTH_PERCENT_MIN_BASE, 0, 0, 0, 0, 0, 0, 40, 0, 0, 0, 0, 0, 0]));
    expect(twenty.ordersGrowth7d).toBe(100);
    expect(growthShown(twenty.ordersPrev7d, twenty.orders7d, twenty.ordersGrowth7d)).toBe("+100%");
  });

  it("is null when the previous 7 days had no orders", () => {
    const orders = [...fill(83, 0), 1, 1, 1, 1, 1, 1, 1];
    const r = insights(series(orders));
    expect(r.ordersGrowth7d).toBeNull();
    expect(r.orders7d).toBe(7);
    expect(insights(series(fill(90, 0))).ordersGrowth7d).toBeNull();
  });

  it("rounds half away from zero (+12.5% -> 13, -12.5% -> -13)", () => {
    const up = [...fill(76, 0), 40, 0, 0, 0, 0, 0, 0, 45, 0, 0, 0, 0, 0, 0];
    const down = [...fill(76, 0), 40, 0, 0, 0, 0, 0, 0, 35, 0, 0, 0, 0, 0, 0];
    expect(insights(series(up)).ordersGrowth7d).toBe(13);
    expect(insights(series(down)).ordersGrowth7d).toBe(-13);
  });
});

describe("marginBps", () => {
  it("is (price - cost - shipping) / price in basis points", () => {
    expect(marginBpsOf(2000, 500, 260)).toBe(6200);
    expect(insights(series(fill(90, 1)), { priceCents: 2000, costCents: 500, shippingCents: 260 }).marginBps).toBe(6200);
  });
  it("is negative when the product sells below cost plus shipping", () => {
    expect(marginBpsOf(1000, 900, 300)).toBe(-2000);
    const r = insights(series(fill(90, 1)), { priceCents: 1000, costCents: 900, shippingCents: 300 });
    expect(r.marginBps).toBe(-2000);
    expect(r.scoreParts.margin).toBe(0);
  });
  it("rounds to the nearest basis point", () => {
    expect(marginBpsOf(3, 1, 0)).toBe(6667);
    expect(marginBpsOf(3, 5, 0)).toBe(-6667);
  });
  it("refuses a price of 0 or amounts that are not whole cents", () => {
    expect(() => marginBpsOf(0, 0, 0)).toThrow(RangeError);
    expect(() => marginBpsOf(100, -1, 0)).toThrow(RangeError);
    expect(() => marginBpsOf(19.99, 1, 0)).toThrow(RangeError);
  });
  it("reports the gap to the Amazon price", () => {
    expect(insights(series(fill(90, 1)), { amazonPriceCents: 3999 }).amazonPriceGapCents).toBe(1499);
    expect(insights(series(fill(90, 1))).amazonPriceGapCents).toBeNull();
  });
});

describe("lifecycleStage", () => {
  it("emerging: first order less than 30 days ago, small and not falling", () => {
    const orders = [...fill(70, 0), ...Array.from({ length: 20 }, (_, i) => Math.floor(i / 4) + 1)];
    const r = insights(series(orders));
    expect(r.lifecycleStage).toBe("emerging");
    expect(r.orders7d).toBeLessThan(INSIGHT_RULES.smallOrders7d);
  });

  it("emerging when nothing has sold yet and the product's age is unknown", () => {
    expect(insights(series(fill(90, 0))).lifecycleStage).toBe("emerging");
  });

  it("declining when nothing sold in 90 days of a product first seen long before", () => {
    const r = insights(series(fill(90, 0)), { firstSeenAt: new Date("2025-06-01T00:00:00Z") });
    expect(r.lifecycleStage).toBe("declining");
    expect(r.reasons[2]).toBe("declining: no orders in 90 days");
  });

  it("a young product that is already big is rising, not emerging", () => {
    const orders = [...fill(72, 0), ...Array.from({ length: 18 }, (_, i) => 5 + i * 3)];
    const r = insights(series(orders));
    expect(r.orders7d).toBeGreaterThanOrEqual(INSIGHT_RULES.smallOrders7d);
    expect(r.lifecycleStage).toBe("rising");
  });

  it("an old product whose series starts with orders is not young", () => {
    // Sales from the first day of a 90-day series: at least 90 days old, so never emerging.
    const orders = [...fill(76, 1), ...fill(14, 2)];
    expect(insights(series(orders)).lifecycleStage).not.toBe("emerging");
  });

  it("firstSeenAt older than the first order makes a product old", () => {
    const orders = [...fill(80, 0), ...fill(10, 2)];
    expect(insights(series(orders)).lifecycleStage).toBe("emerging");
    expect(insights(series(orders), { firstSeenAt: new Date("2025-01-01T00:00:00Z") }).lifecycleStage).toBe("rising");
  });

  it("rising: sustained growth over two weeks", () => {
    const orders = [...fill(62, 10), ...Array.from({ length: 28 }, (_, i) => 10 + i)];
    const r = insights(series(orders));
    expect(r.lifecycleStage).toBe("rising");
    expect(r.trendingScore).toBeGreaterThan(0);
  });

  it("peak: flat near its best week", () => {
    const r = insights(series(fill(90, 20)));
    expect(r.lifecycleStage).toBe("peak");
    expect(r.peakOrders7d).toBe(140);
    expect(r.trendingScore).toBe(0);
  });

  it("declining: well below its peak and falling", () => {
    const orders = [...fill(30, 10), ...fill(20, 50), ...Array.from({ length: 40 }, (_, i) => Math.max(5, 50 - i))];
    const r = insights(series(orders));
    expect(r.lifecycleStage).toBe("declining");
    expect(r.peakOrders7d).toBe(350);
    const fall = Math.round(((350 - r.orders7d) * 100) / 350);
    expect(r.reasons[2]).toBe(`declining: orders -${fall}% from peak`);
  });

  it("declining when the 7-day growth shown fell by a quarter, even within 40% of the best week", () => {
    const orders = step(100, 70, 7); // 7-day peak 700, now 490 (70%), -30% week on week
    const r = insights(series(orders));
    expect(r.ordersGrowth7d).toBe(-30);
    expect(r.lifecycleStage).toBe("declining");
    // The same fall spread over two weeks shows 490 -> 490 (0%): steady, and within 40% of the best week.
    expect(insights(series(step(100, 70, 14))).lifecycleStage).toBe("peak");
  });

  it("a rebound after a fall from peak is rising, never declining next to a rise", () => {
    // Best week 700, then 210 and 476 in the last two weeks (+127%, still 32% below the best week).
    const orders = [...fill(62, 100), ...fill(14, 50), ...fill(7, 30), ...fill(7, 68)];
    const r = insights(series(orders));
    expect([r.ordersPrev7d, r.orders7d, r.ordersGrowth7d]).toEqual([210, 476, 127]);
    expect(r.lifecycleStage).toBe("rising");
    expect(r.reasons.some((reason) => reason.startsWith("declining"))).toBe(false);
  });

  it("peak never stands next to a rise or a fall shown on the page", () => {
    const boom = insights(series([...fill(83, 20), ...fill(7, 48)])); // +140%
    expect(boom.ordersGrowth7d).toBe(140);
    expect(boom.lifecycleStage).toBe("rising");
    expect(weekMove(100, 119)).toBe("steady");
    expect(weekMove(100, 120)).toBe("rise");
    expect(weekMove(100, 76)).toBe("steady");
    expect(weekMove(100, 75)).toBe("fall");
    expect(weekMove(1, 3)).toBe("steady"); // shown as counts, within noise
    expect(weekMove(2, 5)).toBe("steady"); // under 10 orders this week: no trend to call (issue 25)
    expect(weekMove(4, 12)).toBe("rise");
    expect(weekMove(0, 3)).toBe("steady"); // "Rising on 0 -> 3 orders" (issue 25)
  });

  it("a quiet week of a tiny seller is noise, not a decline", () => {
    // An order every other day (3-4 a week), one 7-order week, and 2 orders last week: not a real change.
    const orders = fill(90, 0);
    for (let d = 0; d < 90; d += 2) orders[d] = 1;
    orders[40] = 4;
    orders[86] = 0;
    const r = insights(series(orders));
    expect([r.peakOrders7d, r.orders7d]).toEqual([7, 2]);
    expect(r.orders7d).toBeLessThanOrEqual(INSIGHT_RULES.declineFromPeakRatio * r.peakOrders7d);
    expect(isRealChange(r.peakOrders7d, r.orders7d)).toBe(false);
    expect(r.lifecycleStage).toBe("peak");
  });

  it("follows the documented order of rules", () => {
    const base = { orders7d: 50, ordersPrev7d: 50, peakOrders7d: 50, totalOrders: 600, ageDays: 200 };
    expect(lifecycleStageOf(base)).toBe("peak");
    expect(lifecycleStageOf({ ...base, ageDays: 20 })).toBe("emerging");
    expect(lifecycleStageOf({ ...base, ageDays: 20, orders7d: 40 })).not.toBe("emerging"); // falling week
    expect(lifecycleStageOf({ ...base, orders7d: 72, ordersPrev7d: 60, peakOrders7d: 72 })).toBe("rising"); // +20% shown
    expect(lifecycleStageOf({ ...base, orders7d: 71, ordersPrev7d: 60, peakOrders7d: 71 })).toBe("peak"); // +18%: steady
    expect(lifecycleStageOf({ ...base, orders7d: 60, ordersPrev7d: 70 })).not.toBe("rising"); // last week dropped
    expect(lifecycleStageOf({ ...base, peakOrders7d: 200 })).toBe("declining");
    expect(lifecycleStageOf({ ...base, orders7d: 35, ordersPrev7d: 50 })).toBe("declining"); // -30% shown
    expect(lifecycleStageOf({ ...base, peakOrders7d: 200, orders7d: 55 })).toBe("peak"); // +10%: orders went up, never "declining" (issue 25)
    expect(lifecycleStageOf({ ...base, peakOrders7d: 200, orders7d: 45 })).toBe("declining"); // -10%: steady, far below peak
    expect(lifecycleStageOf({ ...base, ageDays: 20, storesSelling: 60 })).toBe("peak"); // young but sold by 60 stores: not emerging
    expect(lifecycleStageOf({ ...base, peakOrders7d: 200, orders7d: 60 })).toBe("rising"); // +20% is a rise, even far below peak
    expect(lifecycleStageOf({ ...base, totalOrders: 0, ageDays: null })).toBe("emerging");
  });
});

describe("saturation", () => {
  it("is 0 when no store sells it", () => {
    expect(saturationOf(0, 500)).toBe(0);
  });
  it("is 100 when stores sell it but nothing sold in 30 days", () => {
    expect(saturationOf(3, 0)).toBe(100);
  });
  it("is 50 when stores match what the demand supports at 10 orders a store", () => {
    expect(saturationOf(20, 200)).toBe(50);
    expect(saturationOf(4, 360)).toBe(10);
  });
});

describe("trendingScore", () => {
  it("is this week's gain plus half of last week's gain", () => {
    expect(trendingScoreOf(30, 20, 10)).toBe(15);
    expect(trendingScoreOf(10, 20, 30)).toBe(-15);
    expect(trendingScoreOf(20, 20, 20)).toBe(0);
    expect(trendingScoreOf(21, 20, 20)).toBe(1);
    expect(trendingScoreOf(20, 21, 20)).toBe(-1); // -0.5 rounds away from zero
  });
});

describe("winningScore", () => {
  it("weights add up to 100 points", () => {
    expect(Object.values(WINNING_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it("is 100 for a product strong on every part and 0 for one with nothing going for it", () => {
    const orders = [...fill(76, 100), ...fill(7, 100), ...fill(7, 300)];
    const best = insights(
      series(orders, { views: fill(90, 400_000), likes: fill(90, 30_000), storesSelling: fill(90, 0) }),
      { priceCents: 5000, costCents: 1000, shippingCents: 0 },
    );
    expect(best.winningScore).toBe(100);
    const worst = insights(series(fill(90, 0), { storesSelling: fill(90, 12) }), { priceCents: 1000, costCents: 950, shippingCents: 100 });
    expect(worst.winningScore).toBe(0);
    expect(worst.scoreParts).toEqual({ growth: 0, margin: 0, demand: 0, engagement: 0, lowSaturation: 0 });
  });

  it("is the rounded sum of its parts, an integer from 0 to 100", () => {
    const r = insights(series(step(10, 14, 7)));
    const sum = Object.values(r.scoreParts).reduce((a, b) => a + b, 0);
    expect(r.winningScore).toBe(Math.round(sum));
    expect(Number.isInteger(r.winningScore)).toBe(true);
  });

  it("growth points are measured against at least 20 orders", () => {
    const tiny = insights(series([...fill(83, 0), ...fill(7, 1)])); // 0 -> 7 orders: +35% of the floor
    expect(tiny.scoreParts.growth).toBeCloseTo(30 * ((35 + 20) / 120), 10);
  });
});

describe("reasons", () => {
  it("are exactly three sentences naming the biggest parts, with their numbers", () => {
    // prev week 20, this week 56 -> +180%; margin 62%; 4 stores for ~76 orders/month
    const orders = [...fill(76, 0), 20, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8];
    const r = insights(series(orders, { views: fill(90, 40_000), likes: fill(90, 2_400), storesSelling: fill(90, 4) }), {
      priceCents: 2000,
      costCents: 500,
      shippingCents: 260,
    });
    expect(r.reasons).toHaveLength(3);
    expect(r.reasons).toContain("orders +180% in 7 days");
    expect(r.reasons).toContain("margin 62%");
    expect(r.reasons).toContain("1.2M views in 30 days");
  });

  it("say 'sold by only N stores' when few stores share the demand", () => {
    const orders = fill(90, 40);
    const r = insights(series(orders, { views: fill(90, 0), likes: fill(90, 0), storesSelling: fill(90, 4) }), {
      priceCents: 1000,
      costCents: 800,
      shippingCents: 150,
    });
    expect(r.saturation).toBe(3);
    expect(r.reasons).toContain("sold by only 4 stores");
  });

  it("show the counts, not a percentage, for growth on a base below GROWTH_PERCENT_MIN_BASE orders", () => {
    const orders = [...fill(76, 0), 1, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0];
    const r = insights(series(orders, { views: fill(90, 0), storesSelling: fill(90, 0) }), { priceCents: 1000, costCents: 900, shippingCents: 100 });
    expect(r.reasons[0]).toBe("1 → 7 orders in 7 days");
    expect(r.reasons.join(" ")).not.toContain("%");
  });

  it("name a decline from peak as the third reason of a declining product", () => {
    const r = insights(series(step(100, 30, 14)));
    expect(r.lifecycleStage).toBe("declining");
    expect(r.reasons[2]).toBe(declineReason(r.orders7d, r.peakOrders7d));
    expect(r.reasons[2]).toBe("declining: orders -70% from peak");
  });

  it("state absences plainly instead of inventing figures", () => {
    const r = insights(series(fill(90, 0), { views: fill(90, 0), likes: fill(90, 0), storesSelling: fill(90, 0) }), {
      priceCents: 1000,
      costCents: 900,
      shippingCents: 200,
    });
    expect(r.reasons).toHaveLength(3);
    for (const reason of r.reasons) {
      expect(["no orders in the last 14 days", "margin -10%", "no orders in 30 days", "no views in 30 days", "no store sells it yet"]).toContain(reason);
    }
  });
});

describe("formatting used in reasons", () => {
  it("shortens counts by rounding down, never overstating", () => {
    expect(formatCompact(0)).toBe("0");
    expect(formatCompact(999)).toBe("999");
    expect(formatCompact(1000)).toBe("1K");
    expect(formatCompact(1299)).toBe("1.2K");
    expect(formatCompact(9999)).toBe("9.9K");
    expect(formatCompact(45_999)).toBe("45K");
    expect(formatCompact(999_999)).toBe("999K");
    expect(formatCompact(1_000_000)).toBe("1M");
    expect(formatCompact(1_290_000)).toBe("1.2M");
    expect(formatCompact(2_500_000_000)).toBe("2.5B");
  });
  it("groups thousands", () => {
    expect(formatCount(1_234_567)).toBe("1,234,567");
    expect(formatCount(12)).toBe("12");
    expect(formatCount(-4500)).toBe("-4,500");
  });
});

describe("input checks", () => {
  it("refuses series of different lengths, negative or fractional values, and bad days", () => {
    expect(() => assertSeries({ ...series([1, 2]), views: [1] })).toThrow(/history.views/);
    expect(() => assertSeries(series([1, -2]))).toThrow(/history.orders\[1\]/);
    expect(() => assertSeries(series([1, 2.5]))).toThrow(/history.orders\[1\]/);
    expect(() => assertSeries(series([]))).toThrow(/at least one day/);
    expect(() => assertSeries({ ...series([1]), startDay: "2026-02-30" })).toThrow(/calendar day/);
    expect(() => dayNumber("26-1-1")).toThrow(RangeError);
  });
});

describe("INSIGHT_NOTES", () => {
  it("marks every estimate as one and explains each in words", () => {
    for (const key of ["winningScore", "lifecycleStage", "saturation", "trendingScore"] as const) {
      expect(INSIGHT_NOTES[key].estimate).toBe(true);
      expect(INSIGHT_NOTES[key].how.length).toBeGreaterThan(60);
    }
    expect(INSIGHT_NOTES.marginBps.estimate).toBe(false);
  });
  it("quotes the weights the score really uses", () => {
    for (const [part, weight] of Object.entries(WINNING_WEIGHTS)) {
      expect(INSIGHT_NOTES.winningScore.how, part).toContain(`${weight}`);
    }
  });
});
