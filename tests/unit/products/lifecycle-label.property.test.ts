// Issue 25, item 10: a card's lifecycle label never disagrees with a number on the same card, for sample
// products (every product the generator makes, and random order histories) and measured products alike.
// The contract is restated here on what the card shows (its text), not through the rule's own helpers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { measuredInsights, type MeasuredSeries } from "~/domain/catalogue/signals";
import { computeInsights, growthShown, type Insights } from "~/domain/products/insights";
import { storesLine } from "~/domain/catalogue/measured-product";
import { generateProduct } from "../../../scripts/lib/product-generator";

const NOW = new Date("2026-06-01T08:00:00Z");
const END_DAY = "2026-05-31";

/** A percentage in bold means something only on a real base: at least this many orders the week before. */
const PERCENT_BASE = 20;
/** "Emerging" is a product few stores have picked up yet. */
const EMERGING_MAX_STORES = 19;
/** "Rising" needs a week that is more than a handful of orders. */
const RISING_MIN_ORDERS = 10;

type Move = "up" | "down" | "flat";

/** Parses the card's 7-day growth text back into the two counts and, when a percentage, its value. */
function shownGrowth(r: Insights): { move: Move; from: number; to: number; pct: number | null; text: string } {
  const text = growthShown(r.ordersPrev7d, r.orders7d, r.ordersGrowth7d);
  const n = (s: string) => Number(s.replace(/,/g, ""));
  const pct = /^([+-]?[\d,]+)%$/.exec(text);
  if (pct) {
    const p = n(pct[1]);
    return { move: p > 0 ? "up" : p < 0 ? "down" : "flat", from: r.ordersPrev7d, to: r.orders7d, pct: p, text };
  }
  const counts = /^([\d,]+) → ([\d,]+) orders?$/.exec(text);
  if (!counts) throw new Error(`growth shown as "${text}"`);
  const [from, to] = [n(counts[1]), n(counts[2])];
  return { move: to > from ? "up" : to < from ? "down" : "flat", from, to, pct: null, text };
}

/** Every way a sample product's card contradicts itself, as sentences. */
function cardContradictions(r: Insights): string[] {
  if (!r.salesData || !r.lifecycleStage) return [];
  const out: string[] = [];
  const g = shownGrowth(r);
  const stage = r.lifecycleStage;
  const label = `${stage} next to ${g.text} and ${r.storesSelling} stores`;
  if (g.pct !== null && g.from < PERCENT_BASE) out.push(`"${g.text}" shown on a base of ${g.from} orders`);
  if (stage === "declining" && g.move === "up") out.push(label);
  if (stage === "rising" && (g.move !== "up" || g.to < RISING_MIN_ORDERS)) out.push(label);
  if (stage === "emerging" && (g.move === "down" || r.storesSelling > EMERGING_MAX_STORES)) out.push(label);
  if (stage === "peak" && g.pct !== null && (g.pct >= 20 || g.pct <= -25)) out.push(label);
  return out;
}

function insightsOfGenerated(seed: number, index: number): Insights {
  const p = generateProduct(index, { seed, endDay: END_DAY });
  return computeInsights({
    priceCents: p.priceCents,
    costCents: p.costCents ?? null,
    shippingCents: p.shippingCents ?? 0,
    amazonPriceCents: p.amazonPriceCents ?? null,
    firstSeenAt: new Date(p.firstSeenAt),
    now: NOW,
    history: p.history,
  });
}

describe("a sample product's label and the numbers on its card", () => {
  it("never disagree over the first-start catalogue (3,000 products, seed 42)", () => {
    const found: string[] = [];
    for (let i = 0; i < 3000; i++) {
      for (const c of cardContradictions(insightsOfGenerated(42, i))) found.push(`#${i}: ${c}`);
    }
    expect(found.slice(0, 10)).toEqual([]);
  });

  it("never disagree for any generated product of any seed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (seed, index) => {
        expect(cardContradictions(insightsOfGenerated(seed, index))).toEqual([]);
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  it("the seller's examples read honestly", () => {
    const days = (lastTwoWeeks: number[]) => {
      const orders = [...Array(76).fill(0), ...lastTwoWeeks];
      const n = orders.length;
      return (stores: number, firstSeenDaysAgo: number) =>
        computeInsights({
          priceCents: 2000,
          costCents: 600,
          shippingCents: 0,
          amazonPriceCents: null,
          firstSeenAt: new Date(NOW.getTime() - firstSeenDaysAgo * 86_400_000),
          now: NOW,
          history: {
            startDay: "2026-03-03",
            orders,
            revenueCents: orders.map((o) => o * 2000),
            views: Array(n).fill(100),
            likes: Array(n).fill(3),
            comments: Array(n).fill(0),
            shares: Array(n).fill(0),
            storesSelling: Array(n).fill(stores),
          },
        });
    };
    // 0 -> 3 orders on an old product is not "Rising".
    expect(days([0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0])(2, 200).lifecycleStage).not.toBe("rising");
    // 10 -> 21: counts, not "+110%".
    const small = days([2, 1, 2, 1, 2, 1, 1, 3, 3, 3, 3, 3, 3, 3])(2, 200);
    expect(growthShown(small.ordersPrev7d, small.orders7d, small.ordersGrowth7d)).toBe("10 → 21 orders");
    // A young, small product sold by 60 stores is not "Emerging".
    expect(days([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2])(60, 10).lifecycleStage).not.toBe("emerging");
  });
});

// ---- Measured products: the card shows stores and stores added this week ----------------------------

const measuredSeries = fc
  .record({
    days: fc.integer({ min: 1, max: 60 }),
    start: fc.integer({ min: 0, max: 200 }),
    steps: fc.array(fc.record({ added: fc.integer({ min: 0, max: 12 }), dropped: fc.integer({ min: 0, max: 12 }) }), {
      minLength: 60,
      maxLength: 60,
    }),
    firstSeenDaysAgo: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
  })
  .map(({ days, start, steps, firstSeenDaysAgo }) => {
    const storesSelling: number[] = [];
    const added: number[] = [];
    const dropped: number[] = [];
    let stores = start;
    for (let d = 0; d < days; d++) {
      const drop = Math.min(stores, steps[d].dropped);
      stores += steps[d].added - drop;
      storesSelling.push(stores);
      added.push(steps[d].added);
      dropped.push(drop);
    }
    const zeros = Array(days).fill(0);
    const nulls = Array(days).fill(null);
    const series: MeasuredSeries = {
      startDay: "2026-04-01",
      endDay: new Date(Date.UTC(2026, 3, 1) + (days - 1) * 86_400_000).toISOString().slice(0, 10),
      storesSelling,
      added,
      dropped,
      priceMin: nulls,
      priceMedian: nulls,
      priceMax: nulls,
      outOfStock: zeros,
      restocked: zeros,
      priceChanges: zeros,
    };
    const firstSeen = firstSeenDaysAgo === null ? null : new Date(Date.parse(`${series.endDay}T00:00:00Z`) - firstSeenDaysAgo * 86_400_000).toISOString();
    return { series, firstSeen };
  });

describe("a measured product's label and the numbers on its card", () => {
  it("never disagree", () => {
    fc.assert(
      fc.property(measuredSeries, ({ series, firstSeen }) => {
        const m = measuredInsights(series, series.startDay, firstSeen);
        const line = storesLine(m.storesSelling, m.storesAdded7d);
        const net = m.storesAdded7d - m.storesDropped7d;
        const out: string[] = [];
        if (m.lifecycleStage === "emerging" && m.storesSelling > EMERGING_MAX_STORES) out.push(`emerging next to "${line}"`);
        if (m.lifecycleStage === "declining" && net > 0) out.push(`declining next to "${line}" (net +${net})`);
        if (m.lifecycleStage === "rising" && net <= 0) out.push(`rising next to "${line}" (net ${net})`);
        expect(out).toEqual([]);
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });
});
