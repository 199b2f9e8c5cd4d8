// The rules of competitor tracking around the catalogue (app/domain/competitors/competitors.ts): who may follow how many
// stores, the backoff of a failing store, the words of the two alerts, and Retry-After.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LaunchChange, PriceChange } from "~/domain/competitors/insights";
import {
  capSentence,
  COMPETITOR_RULES,
  competitorAccess,
  failureBackoffMs,
  launchAlert,
  priceDropAlert,
  retryAfterSeconds,
  UPGRADE_URL,
} from "~/domain/competitors/competitors";
import { PLANS } from "~/domain/billing/plans";

const window = { from: "2026-11-20T00:00:00Z", to: "2026-11-20T06:00:00Z" };
const launch = (title: string): LaunchChange => ({
  kind: "launch",
  product: { id: title, handle: title.toLowerCase(), title },
  window,
  launchedAt: null,
  dateSource: "first-seen",
});
const drop = (oldCents: number, newCents: number, variant = "Small"): PriceChange => ({
  kind: "price-change",
  product: { id: "1", handle: "posture-pro", title: "Posture Pro" },
  window,
  variant: { id: variant, title: variant, sku: null },
  currency: "USD",
  oldCents,
  newCents,
  direction: newCents < oldCents ? "down" : "up",
});

describe("competitorAccess", () => {
  it("locks every state without paid access, with the upgrade path", () => {
    for (const user of [{}, { userSubscribed: "no" }, { trialing: true }, { claimedDiscount: true }]) {
      expect(competitorAccess(user, "pro")).toMatchObject({ follow: false, limit: 0, upgradeUrl: UPGRADE_URL });
      expect(competitorAccess(user, "pro").lockedReason).toMatch(/free trial/);
    }
  });

  it("caps by the subscription's plan: Basic 10, Pro 25, Inner Circle 100; an unknown plan gets the smallest", () => {
    const subscribed = { userSubscribed: "yes" };
    expect(competitorAccess(subscribed, "basic")).toMatchObject({ follow: true, limit: 10, planName: "Basic", upgradeUrl: UPGRADE_URL });
    expect(competitorAccess({ ...subscribed, trialing: true }, "pro")).toMatchObject({ limit: 25, planName: "Pro", upgradeUrl: UPGRADE_URL });
    expect(competitorAccess({ innerCircle: true }, null)).toMatchObject({ limit: 100, planName: "Inner Circle", upgradeUrl: null });
    expect(competitorAccess(subscribed, null)).toMatchObject({ limit: 10, planName: "Basic" });
    expect(competitorAccess(subscribed, "gold")).toMatchObject({ limit: 10 });
  });

  it("gives every plan a cap, larger for dearer plans", () => {
    const limits = [...PLANS].sort((a, b) => a.priceCents - b.priceCents).map((p) => p.competitorLimit);
    expect(limits).toEqual([10, 25, 100]);
  });

  it("words the cap with or without an upgrade", () => {
    expect(capSentence(competitorAccess({ userSubscribed: "yes" }, "basic"), 10)).toBe(
      "You follow 10 stores, the most the Basic plan allows. Upgrade your plan to follow more, or stop following one first.",
    );
    expect(capSentence(competitorAccess({ innerCircle: true }, null), 100)).toMatch(/Inner Circle plan allows\. Stop following/);
  });
});

describe("failureBackoffMs", () => {
  it("waits 30 minutes after a first failure, doubling up to a day", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => failureBackoffMs(n) / 60_000)).toEqual([30, 60, 120, 240, 480, 960, 1440]);
  });

  it("never shrinks as failures add up, and never passes its cap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (n) => {
        const wait = failureBackoffMs(n);
        expect(wait).toBeGreaterThanOrEqual(failureBackoffMs(Math.max(1, n - 1)));
        expect(wait).toBeLessThanOrEqual(COMPETITOR_RULES.maxBackoffMs);
        expect(wait).toBeGreaterThanOrEqual(COMPETITOR_RULES.backoffBaseMs);
      }),
    );
  });
});

describe("alerts", () => {
  it("names how many launched and the first titles", () => {
    expect(launchAlert("Rival", [launch("Lamp")])).toEqual({ title: "Rival launched 1 new product", body: 'New in Rival: "Lamp".' });
    expect(launchAlert("Rival", ["A", "B", "C", "D", "E"].map(launch))).toEqual({
      title: "Rival launched 5 new products",
      body: 'New in Rival: "A", "B", "C" and 2 more.',
    });
  });

  it("names the biggest drop of a product and how many other variants dropped", () => {
    expect(priceDropAlert("Rival", [drop(2999, 2499)])).toEqual({
      title: 'Price drop: "Posture Pro" at Rival',
      body: '"Posture Pro" (Small) went down from 29.99 USD to 24.99 USD.',
    });
    expect(priceDropAlert("Rival", [drop(2999, 2899), drop(3999, 1999, "Large"), drop(999, 899, "Tiny")]).body).toBe(
      '"Posture Pro" (Large) went down from 39.99 USD to 19.99 USD, and 2 more variants dropped.',
    );
  });
});

describe("retryAfterSeconds", () => {
  it("counts whole seconds until the oldest request leaves the window, at least one", () => {
    expect(retryAfterSeconds(0, 600_000, 1_000)).toBe(599);
    expect(retryAfterSeconds(0, 600_000, 599_500)).toBe(1);
    expect(retryAfterSeconds(0, 600_000, 700_000)).toBe(1);
  });
});
