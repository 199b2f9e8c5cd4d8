// "Each reason must be derived from the numbers, never invented": every reason of 2,000 generated
// products is parsed back and checked against the figures computed for that product.
import { describe, expect, it } from "vitest";
import { computeInsights, formatCompact, INSIGHT_RULES, roundHalfAway, type Insights, type ScoreComponent } from "~/domain/products/insights";
import { parseProductRow } from "~/domain/products/product-import";
import { generateProducts } from "../../../scripts/lib/product-generator";

const count = (text: string) => Number(text.replace(/,/g, ""));

/** Which part a reason speaks for, after checking its numbers against the insights. */
function checkReason(reason: string, r: Insights): ScoreComponent | "decline" {
  let m: RegExpExecArray | null;
  if ((m = /^orders ([+-]\d+)% in 7 days$/.exec(reason))) {
    expect(Number(m[1])).toBe(r.ordersGrowth7d);
    expect(r.ordersPrev7d).toBeGreaterThanOrEqual(INSIGHT_RULES.growthFloorOrders);
    return "growth";
  }
  if ((m = /^([\d,]+) → ([\d,]+) orders? in 7 days$/.exec(reason))) {
    // Below the base a percentage would overstate: the counts only.
    expect(count(m[1])).toBe(r.ordersPrev7d);
    expect(count(m[2])).toBe(r.orders7d);
    expect(r.ordersPrev7d).toBeLessThan(INSIGHT_RULES.growthFloorOrders);
    expect(r.ordersGrowth7d).toBeNull();
    return "growth";
  }
  if ((m = /^orders flat week on week \(([\d,]+) in 7 days\)$/.exec(reason))) {
    expect(r.ordersGrowth7d).toBe(0);
    expect(count(m[1])).toBe(r.orders7d);
    return "growth";
  }
  if ((m = /^([\d,]+) orders? in 7 days, none the week before$/.exec(reason))) {
    expect(r.ordersPrev7d).toBe(0);
    expect(count(m[1])).toBe(r.orders7d);
    return "growth";
  }
  if (reason === "no orders in the last 14 days") {
    expect(r.orders7d + r.ordersPrev7d).toBe(0);
    return "growth";
  }
  if ((m = /^margin (-?\d+)%$/.exec(reason))) {
    expect(Number(m[1])).toBe(roundHalfAway(r.marginBps! / 100));
    return "margin";
  }
  if ((m = /^([\d,]+) orders? in 30 days$/.exec(reason))) {
    expect(count(m[1])).toBe(r.orders);
    return "demand";
  }
  if (reason === "no orders in 30 days") {
    expect(r.orders).toBe(0);
    return "demand";
  }
  if ((m = /^([\d.]+[KMB]?) views? in 30 days$/.exec(reason))) {
    expect(m[1]).toBe(formatCompact(r.views));
    const unit = { K: 1e3, M: 1e6, B: 1e9 }[m[1].slice(-1)] ?? 1;
    expect(parseFloat(m[1]) * unit).toBeLessThanOrEqual(r.views); // never overstated
    return "engagement";
  }
  if (reason === "no views in 30 days") {
    expect(r.views).toBe(0);
    return "engagement";
  }
  if (reason === "no store sells it yet") {
    expect(r.storesSelling).toBe(0);
    return "lowSaturation";
  }
  if ((m = /^sold by (only )?([\d,]+) stores?$/.exec(reason))) {
    expect(count(m[2])).toBe(r.storesSelling);
    expect(Boolean(m[1])).toBe(r.saturation <= INSIGHT_RULES.onlyStoresMaxSaturation);
    return "lowSaturation";
  }
  if ((m = /^declining: orders -(\d+)% from peak$/.exec(reason))) {
    expect(r.lifecycleStage).toBe("declining");
    expect(Number(m[1])).toBe(roundHalfAway(((r.peakOrders7d - r.orders7d) * 100) / r.peakOrders7d));
    return "decline";
  }
  if (reason === "declining: no orders in 90 days") {
    expect(r.lifecycleStage).toBe("declining");
    expect(r.peakOrders7d).toBe(0);
    return "decline";
  }
  throw new Error(`reason with no known source: "${reason}"`);
}

describe("reasons of a generated catalogue", () => {
  it("restate computed figures, biggest parts first, with the decline named for declining products", () => {
    const now = new Date("2026-06-01T09:00:00Z");
    const stages = new Set<string>();
    for (const input of generateProducts(2000, { seed: 11, endDay: "2026-05-31" })) {
      const parsed = parseProductRow(input);
      if (!parsed.ok) throw new Error(parsed.reason);
      const row = parsed.row;
      const r = computeInsights({ ...row, now, firstSeenAt: row.firstSeenAt });
      stages.add(r.lifecycleStage!);
      expect(r.reasons).toHaveLength(3);
      const parts = r.reasons.map((reason) => checkReason(reason, r));
      expect(new Set(parts).size).toBe(3);
      const scored = parts.filter((p): p is ScoreComponent => p !== "decline");
      const ranked = (Object.keys(r.scoreParts) as ScoreComponent[]).sort((a, b) => r.scoreParts[b]! - r.scoreParts[a]!);
      // The score parts named are the biggest ones (ties may name either).
      for (const part of scored) expect(r.scoreParts[part]).toBeGreaterThanOrEqual(r.scoreParts[ranked[scored.length - 1]]!);
      expect(parts.includes("decline")).toBe(r.lifecycleStage === "declining");
    }
    expect([...stages].sort()).toEqual(["declining", "emerging", "peak", "rising"]);
  });
});
