// The read tiers (decision 101): an operator-only store that changed this week is read more often than the
// operator's interval, one dormant for a month less often, and everything else at the interval.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { READ_TIER_RULES, activityIntervalMs, readTier, tierIntervalMs } from "~/domain/crawl/read-tier";

const DAY = 24 * 60 * 60_000;
const now = Date.parse("2026-12-07T10:00:00Z");
const base = DAY;

describe("readTier", () => {
  it.each([
    ["changed today", { lastChangeMs: now - 2 * 60 * 60_000, observedSinceMs: now - 90 * DAY }, "active"],
    ["changed six days ago", { lastChangeMs: now - 6 * DAY, observedSinceMs: now - 90 * DAY }, "active"],
    ["changed ten days ago", { lastChangeMs: now - 10 * DAY, observedSinceMs: now - 90 * DAY }, "steady"],
    ["changed 45 days ago", { lastChangeMs: now - 45 * DAY, observedSinceMs: now - 90 * DAY }, "dormant"],
    ["never changed in 40 days of reads", { lastChangeMs: null, observedSinceMs: now - 40 * DAY }, "dormant"],
    ["new, never changed yet", { lastChangeMs: null, observedSinceMs: now - 2 * DAY }, "steady"],
    ["never changed in 20 days", { lastChangeMs: null, observedSinceMs: now - 20 * DAY }, "steady"],
  ] as const)("%s: %s", (_name, activity, tier) => {
    expect(readTier(activity, now)).toBe(tier);
  });
});

describe("tierIntervalMs", () => {
  it("reads an active store four times as often, a dormant one a third as often, never more than hourly", () => {
    expect(tierIntervalMs("active", base)).toBe(6 * 60 * 60_000);
    expect(tierIntervalMs("steady", base)).toBe(base);
    expect(tierIntervalMs("dormant", base)).toBe(3 * base);
    expect(tierIntervalMs("active", 2 * 60 * 60_000)).toBe(READ_TIER_RULES.minIntervalMs);
  });

  it("a store that changed more lately is never read less often (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 168 }), (a, b, hours) => {
        const observedSinceMs = now - 500 * DAY;
        const [recent, older] = a <= b ? [a, b] : [b, a];
        const interval = (days: number) => activityIntervalMs({ lastChangeMs: now - days * DAY, observedSinceMs }, now, hours * 60 * 60_000);
        expect(interval(recent)).toBeLessThanOrEqual(interval(older));
      }),
    );
  });
});
