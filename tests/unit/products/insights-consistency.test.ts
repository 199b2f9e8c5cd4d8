// "Honest numbers" across one product's page: over generated 90-day order histories, the stage badge,
// the 7-day growth the grid and the page show, and the score reasons never contradict each other, and
// no percentage is shown on a base below the threshold (docs/decisions/025-trend-stage-rules.md).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeInsights, GROWTH_PERCENT_MIN_BASE, growthShown, type Insights } from "~/domain/products/insights";

const START = "2026-01-01";
const NOW = new Date("2026-04-01T08:00:00Z"); // the last day of a 90-day series is 2026-03-31
const DAYS = 90;

/** What the page shows as the 7-day change, parsed back from the text a seller reads. */
type Shown = { kind: "percent"; pct: number; from: number; to: number } | { kind: "counts"; from: number; to: number };

/**
 * The contract, stated on the shown numbers themselves: a shown percentage of +20% or more is a rise,
 * -25% or less a fall; shown counts rise with 4 more orders and at least 10 this week (fall with 5
 * fewer) beyond noise, twice the square root of the earlier count (issue 25: 0 -> 3 orders is no rise).
 */
function direction(shown: Shown): "rise" | "fall" | "steady" {
  if (shown.kind === "percent") return shown.pct >= 20 ? "rise" : shown.pct <= -25 ? "fall" : "steady";
  const { from, to } = shown;
  const beyondNoise = Math.abs(to - from) > 2 * Math.sqrt(Math.max(from, 1));
  if (beyondNoise && to - from >= 4 && to >= 10) return "rise";
  if (beyondNoise && from - to >= 5) return "fall";
  return "steady";
}

function shownGrowth(r: Insights): Shown {
  const text = growthShown(r.ordersPrev7d, r.orders7d, r.ordersGrowth7d);
  const pct = /^([+-]?[\d,]+)%$/.exec(text);
  if (pct) return { kind: "percent", pct: Number(pct[1].replace(/,/g, "")), from: r.ordersPrev7d, to: r.orders7d };
  const counts = /^([\d,]+) → ([\d,]+) orders?$/.exec(text);
  if (counts) return { kind: "counts", from: Number(counts[1].replace(/,/g, "")), to: Number(counts[2].replace(/,/g, "")) };
  if (text === "no change") return { kind: "percent", pct: 0, from: r.ordersPrev7d, to: r.orders7d };
  throw new Error(`growth shown as "${text}", which says neither a percentage nor counts`);
}

/** The 7-day change a growth reason states, if the reasons have one. */
function reasonGrowth(reasons: readonly string[]): Shown | null {
  const n = (s: string) => Number(s.replace(/,/g, ""));
  for (const reason of reasons) {
    let m: RegExpExecArray | null;
    if ((m = /^orders ([+-]?\d+)% in 7 days(?: \(([\d,]+) → ([\d,]+)\))?$/.exec(reason))) {
      return { kind: "percent", pct: Number(m[1]), from: m[2] ? n(m[2]) : 0, to: m[3] ? n(m[3]) : 0 };
    }
    if ((m = /^orders flat week on week \(([\d,]+) in 7 days\)$/.exec(reason))) return { kind: "percent", pct: 0, from: n(m[1]), to: n(m[1]) };
    if ((m = /^([\d,]+) → ([\d,]+) orders? in 7 days$/.exec(reason))) return { kind: "counts", from: n(m[1]), to: n(m[2]) };
    if ((m = /^([\d,]+) orders? in 7 days, none the week before$/.exec(reason))) return { kind: "counts", from: 0, to: n(m[1]) };
    if (reason === "no orders in the last 14 days") return { kind: "counts", from: 0, to: 0 };
  }
  return null;
}

/** Each way a product can contradict itself, as a sentence (empty when it does not). */
function contradictions(r: Insights): string[] {
  const out: string[] = [];
  const shown = shownGrowth(r);
  if (shown.kind === "percent" && shown.from < GROWTH_PERCENT_MIN_BASE && shown.pct !== 0) {
    out.push(`a percentage (${shown.pct}%) on a base of ${shown.from} orders`);
  }
  const move = direction(shown);
  const stage = r.lifecycleStage;
  if (stage === "declining" && move === "rise") out.push(`declining next to a rise ${shown.from} → ${shown.to}`);
  if (stage === "rising" && move !== "rise") out.push(`rising next to ${move} ${shown.from} → ${shown.to}`);
  if (stage === "peak" && move !== "steady") out.push(`peak next to a ${move} ${shown.from} → ${shown.to}`);
  if (stage === "emerging" && move === "fall") out.push(`emerging next to a fall ${shown.from} → ${shown.to}`);

  const said = reasonGrowth(r.reasons);
  if (said) {
    const saidMove = direction(said);
    if (stage === "declining" && saidMove === "rise") out.push(`declining with the reason "${r.reasons.join('", "')}"`);
    if (stage === "rising" && saidMove === "fall") out.push(`rising with the reason "${r.reasons.join('", "')}"`);
    if (stage === "peak" && saidMove !== "steady") out.push(`peak with the reason "${r.reasons.join('", "')}"`);
  }
  const saysDecline = r.reasons.some((reason) => reason.startsWith("declining"));
  if (saysDecline !== (stage === "declining")) out.push(`${stage} with reasons "${r.reasons.join('", "')}"`);
  for (const reason of r.reasons) {
    const m = /^orders [+-]?\d+% in 7 days/.exec(reason);
    if (m && r.ordersPrev7d < GROWTH_PERCENT_MIN_BASE) out.push(`reason "${reason}" gives a percentage on ${r.ordersPrev7d} orders`);
  }
  return out;
}

// ---- Generated order histories: launches, booms, plateaus, collapses, rebounds, tiny sellers -------

const level = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 400 }));

/** 13 weekly levels (a piecewise curve), each day Poisson-ish noise around its week's level. */
const weeklyShape = fc
  .record({
    weeks: fc.array(level, { minLength: 13, maxLength: 13 }),
    jitter: fc.array(fc.integer({ min: -2, max: 2 }), { minLength: DAYS, maxLength: DAYS }),
  })
  .map(({ weeks, jitter }) =>
    Array.from({ length: DAYS }, (_, d) => {
      const week = weeks[Math.min(12, Math.floor((d + 1) / 7))];
      return Math.max(0, week + Math.round((jitter[d] * Math.sqrt(week)) / 2));
    }),
  );

/** Any daily counts, small or large. */
const rawDays = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 3 }), { minLength: DAYS, maxLength: DAYS }),
  fc.array(fc.integer({ min: 0, max: 60 }), { minLength: DAYS, maxLength: DAYS }),
);

/** A peak earlier in the window and a last fortnight drawn freely: the case that showed "Declining +127%". */
const reboundAfterPeak = fc
  .record({
    peak: fc.integer({ min: 20, max: 300 }),
    prevWeek: fc.integer({ min: 0, max: 120 }),
    lastWeek: fc.integer({ min: 0, max: 300 }),
  })
  .map(({ peak, prevWeek, lastWeek }) => {
    const days = Array.from({ length: DAYS }, (_, d) => (d >= 30 && d < 50 ? peak : Math.round(peak / 4)));
    const spread = (total: number) => Array.from({ length: 7 }, (_, i) => Math.floor(total / 7) + (i < total % 7 ? 1 : 0));
    days.splice(76, 14, ...spread(prevWeek), ...spread(lastWeek));
    return days;
  });

const product = fc.record({
  orders: fc.oneof(weeklyShape, rawDays, reboundAfterPeak),
  firstSeenDaysAgo: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
  priceCents: fc.integer({ min: 500, max: 9000 }),
  costShare: fc.integer({ min: 5, max: 120 }),
  views: fc.integer({ min: 0, max: 400_000 }),
  stores: fc.integer({ min: 0, max: 60 }),
});

interface GeneratedProduct {
  orders: number[];
  firstSeenDaysAgo: number | null;
  priceCents: number;
  costShare: number;
  views: number;
  stores: number;
}

function insightsOf(p: GeneratedProduct) {
  const n = p.orders.length;
  return computeInsights({
    priceCents: p.priceCents,
    costCents: Math.floor((p.priceCents * p.costShare) / 100),
    shippingCents: 0,
    amazonPriceCents: null,
    now: NOW,
    firstSeenAt: p.firstSeenDaysAgo === null ? null : new Date(NOW.getTime() - p.firstSeenDaysAgo * 86_400_000),
    history: {
      startDay: START,
      orders: p.orders,
      revenueCents: p.orders.map((o) => o * p.priceCents),
      views: Array.from({ length: n }, () => p.views),
      likes: Array.from({ length: n }, () => Math.floor(p.views / 40)),
      comments: Array.from({ length: n }, () => 0),
      shares: Array.from({ length: n }, () => 0),
      storesSelling: Array.from({ length: n }, () => p.stores),
    },
  });
}

describe("a product's stage, shown growth and reasons", () => {
  it("never contradict each other, and no percentage is shown on a base below the threshold", () => {
    fc.assert(
      fc.property(product, (p) => {
        const r = insightsOf(p);
        expect(contradictions(r)).toEqual([]);
      }),
      { numRuns: 3000, seed: 20261123 },
    );
  });

  it("the seller's examples: a rebound after a peak is not declining, a boom is not peak, 2 → 14 is counts", () => {
    // Best weeks at 100 a day, then 30 and 68 in the last two weeks (+127%).
    const orders = [...Array(30).fill(25), ...Array(20).fill(100), ...Array(26).fill(25), ...[5, 4, 4, 4, 4, 4, 5], ...[10, 10, 10, 10, 9, 9, 10]];
    const rebound = insightsOf({ orders, firstSeenDaysAgo: 200, priceCents: 2500, costShare: 30, views: 1000, stores: 5 });
    expect([rebound.ordersPrev7d, rebound.orders7d, rebound.ordersGrowth7d]).toEqual([30, 68, 127]);
    expect(rebound.lifecycleStage).toBe("rising");
    expect(growthShown(rebound.ordersPrev7d, rebound.orders7d, rebound.ordersGrowth7d)).toBe("+127%");

    const small = [...Array(76).fill(0), 1, 0, 0, 1, 0, 0, 0, 2, 2, 2, 2, 2, 2, 2];
    const tiny = insightsOf({ orders: small, firstSeenDaysAgo: null, priceCents: 1000, costShare: 90, views: 0, stores: 0 });
    expect([tiny.ordersPrev7d, tiny.orders7d]).toEqual([2, 14]);
    expect(tiny.ordersGrowth7d).toBeNull();
    expect(growthShown(tiny.ordersPrev7d, tiny.orders7d, tiny.ordersGrowth7d)).toBe("2 → 14 orders");
    expect(tiny.reasons[0]).toBe("2 → 14 orders in 7 days");
  });
});
