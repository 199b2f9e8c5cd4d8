// The observed stores' schedule rules (app/domain/competitors/competitors.ts, docs/decisions/047): each store's fixed phase,
// its next slot, the retention cut-offs and the parked sentence.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextSlotMs, parkedSentence, readIntervalMs, retentionCutoffs, storePhase } from "~/domain/competitors/competitors";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("storePhase", () => {
  it("is a stable fraction in [0, 1)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (id) => {
        const p = storePhase(id);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(1);
        expect(storePhase(id)).toBe(p);
      }),
    );
  });

  it("spreads 2,000 consecutive ids over the day: every hour has some, none has more than twice its share", () => {
    const perHour = new Array(24).fill(0);
    for (let id = 1; id <= 2_000; id++) perHour[Math.floor(storePhase(id) * 24)]++;
    expect(Math.min(...perHour)).toBeGreaterThan(0);
    expect(Math.max(...perHour)).toBeLessThanOrEqual((2 * 2_000) / 24);
  });
});

describe("nextSlotMs", () => {
  it("is strictly after the moment, within one interval, always at the store's own phase", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 2 ** 42 }), fc.integer({ min: HOUR, max: 7 * DAY }), (id, from, interval) => {
        const next = nextSlotMs(id, from, interval);
        expect(next).toBeGreaterThan(from);
        expect(next - from).toBeLessThanOrEqual(interval);
        expect((((next - Math.floor(storePhase(id) * interval)) % interval) + interval) % interval).toBe(0);
        // Reading at the slot (or a little late) schedules the next one a whole interval after the slot.
        expect(nextSlotMs(id, next, interval)).toBe(next + interval);
        expect(nextSlotMs(id, next + HOUR / 2, interval)).toBe(next + interval);
      }),
    );
  });
});

describe("readIntervalMs, retentionCutoffs, parkedSentence", () => {
  it("reads followed stores on the tracker's interval, others on the operator's", () => {
    expect(readIntervalMs(true, { followedMs: 6 * HOUR, operatorMs: DAY })).toBe(6 * HOUR);
    expect(readIntervalMs(false, { followedMs: 6 * HOUR, operatorMs: DAY })).toBe(DAY);
  });

  it("cuts at 30 and 400 days by default", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(retentionCutoffs(now)).toEqual({ thinBefore: new Date("2026-10-27T12:00:00Z"), deleteBefore: new Date("2025-10-22T12:00:00Z") });
  });

  it("says how many reads failed and what the last one said", () => {
    expect(parkedSentence(8, "rival.com answered 403.")).toBe("Parked after 8 failed reads in a row; we stopped reading it. The last one said: rival.com answered 403.");
  });
});
