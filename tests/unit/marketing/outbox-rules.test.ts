// The outbox's pure rules (app/domain/marketing/outbox.ts): what an answer means for a row, Retry-After, the
// rate limiter, the retry schedule, and the lifecycle events a billing change causes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  billingLifecycle,
  classifyAnswer,
  MAX_RETRY_AFTER_MS,
  nextAttempt,
  OUTBOX_BACKOFF,
  retryAfterMs,
  TokenBucket,
  alertMetricName,
} from "~/domain/marketing/outbox";

const NOW = Date.parse("2026-11-23T12:00:00Z");

describe("classifyAnswer", () => {
  it.each<[number | null, string | null, string, boolean | null]>([
    [200, null, "sent", null],
    [202, null, "sent", null],
    [429, "12", "retry", false],
    [503, null, "retry", true],
    [408, null, "retry", true],
    [null, null, "retry", true],
    [401, null, "retry", true],
    [400, null, "park", null],
    [404, null, "park", null],
    [422, null, "park", null],
  ])("%s (Retry-After %s) -> %s", (status, retryAfter, kind, counts) => {
    const outcome = classifyAnswer(status, retryAfter, NOW);
    expect(outcome.kind).toBe(kind);
    if (outcome.kind === "retry") expect(outcome.countsAsAttempt).toBe(counts);
  });

  it("a 429 waits exactly its Retry-After, seconds or HTTP date, and pauses the service as long", () => {
    expect(classifyAnswer(429, "12", NOW)).toMatchObject({ afterMs: 12_000, pauseServiceMs: 12_000 });
    expect(classifyAnswer(429, new Date(NOW + 30_000).toUTCString(), NOW)).toMatchObject({ afterMs: 30_000 });
    expect(classifyAnswer(429, null, NOW)).toMatchObject({ afterMs: 10_000 });
  });
});

describe("retryAfterMs", () => {
  it("is never negative nor past the cap, whatever the header says", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.nat().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())), (header) => {
        const ms = retryAfterMs(header, NOW);
        expect(ms === null || (ms >= 0 && ms <= MAX_RETRY_AFTER_MS)).toBe(true);
      }),
    );
  });
});

describe("nextAttempt", () => {
  it("parks exactly when the attempts are used up, and otherwise waits at least the backoff's lower half and any Retry-After", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 0.999, noNaN: true }), fc.nat(100_000), (attempts, max, random, afterMs) => {
        const next = nextAttempt({ attempts, maxAttempts: max, afterMs, random });
        if (attempts >= max) expect(next).toEqual({ park: true });
        else if (!next.park) {
          const window = Math.min(OUTBOX_BACKOFF.maxMs, OUTBOX_BACKOFF.baseMs * 2 ** (attempts - 1));
          expect(next.inMs).toBeGreaterThanOrEqual(Math.max(window / 2, afterMs) - 1);
          expect(next.inMs).toBeLessThanOrEqual(Math.max(window, afterMs));
        } else throw new Error("parked too early");
      }),
    );
  });
});

describe("TokenBucket", () => {
  it("never lets more than burst + rate x elapsed through", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 300 }), (gaps) => {
        const bucket = new TokenBucket({ perSecond: 10, burst: 5 }, 0);
        let t = 0;
        let taken = 0;
        for (const gap of gaps) {
          t += gap;
          if (bucket.take(t) === 0) taken++;
        }
        expect(taken).toBeLessThanOrEqual(5 + Math.floor((t / 1000) * 10) + 1);
      }),
    );
  });
});

describe("billingLifecycle", () => {
  const none = { userSubscribed: "no", trialing: false, subscriptionCancelled: false, chargeDeclined: false };
  it("names each change once: trial, paid start (a trial converting counts), cancellation, declined charge", () => {
    const trial = { ...none, userSubscribed: "yes", trialing: true };
    const active = { ...none, userSubscribed: "yes" };
    expect(billingLifecycle(none, trial)).toEqual({ events: ["Trial Started"], status: "active", statusChanged: true });
    expect(billingLifecycle(trial, active).events).toEqual(["Subscription Started"]);
    expect(billingLifecycle(active, { ...active, subscriptionCancelled: true })).toEqual({ events: ["Subscription Cancelled"], status: "canceled", statusChanged: true });
    expect(billingLifecycle(active, { ...active, chargeDeclined: true }).events).toEqual(["Payment Declined"]);
    expect(billingLifecycle(active, active)).toEqual({ events: [], status: "active", statusChanged: false });
  });

  it("the same flags before and after never cause an event", () => {
    const flags = fc.record({ userSubscribed: fc.constantFrom("yes", "no", null), trialing: fc.boolean(), subscriptionCancelled: fc.boolean(), chargeDeclined: fc.boolean() });
    fc.assert(
      fc.property(flags, (f) => {
        expect(billingLifecycle(f, f)).toMatchObject({ events: [], statusChanged: false });
      }),
    );
  });
});

it("alert kinds become Klaviyo metric names", () => {
  expect(alertMetricName("competitor.launch")).toBe("Competitor Launch Alert");
  expect(alertMetricName("drops.new-drop")).toBe("Drops New Drop Alert");
});
