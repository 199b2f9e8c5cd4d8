// The job system's pure rules (~/domain/jobs): how long a retry waits and when a job is parked.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, afterFailure, backoffMs, errorText, JobKindSchema } from "~/domain/jobs";

const attempt = fc.integer({ min: 1, max: 200 });
const random = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe("backoffMs", () => {
  it("doubles the window per attempt from 1 s, and waits between half the window and all of it", () => {
    expect(backoffMs(1, 0)).toBe(500);
    expect(backoffMs(1, 0.999999)).toBe(1_000);
    expect(backoffMs(2, 0.5)).toBe(1_500);
    expect(backoffMs(3, 0)).toBe(2_000);
    expect(backoffMs(5, 0)).toBe(8_000);
  });

  it("never waits more than the cap (an hour), however many attempts failed", () => {
    expect(backoffMs(13, 0.9999999)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1_000, 0.9999999)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(1_000, 0)).toBe(BACKOFF_MAX_MS / 2);
  });

  it("stays within [window/2, window] for any attempt and jitter", () => {
    fc.assert(
      fc.property(attempt, random, (n, r) => {
        const window = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (n - 1));
        const wait = backoffMs(n, r);
        return wait >= Math.floor(window / 2) && wait <= window;
      }),
    );
  });

  it("with the same jitter, a later attempt never waits less", () => {
    fc.assert(fc.property(attempt, random, (n, r) => backoffMs(n + 1, r) >= backoffMs(n, r)));
  });

  it("jitter spreads retries of jobs that failed together", () => {
    const waits = new Set([0, 0.25, 0.5, 0.75].map((r) => backoffMs(4, r)));
    expect(waits.size).toBe(4);
  });

  it("takes its own base and cap", () => {
    expect(backoffMs(3, 0, { baseMs: 100, maxMs: 300 })).toBe(150);
  });
});

describe("afterFailure", () => {
  it("parks exactly when the attempts are used up or the failure is permanent", () => {
    fc.assert(
      fc.property(attempt, fc.integer({ min: 1, max: 100 }), fc.boolean(), random, (n, max, permanent, r) => {
        const outcome = afterFailure({ attempt: n, maxAttempts: max, permanent, random: r });
        const shouldPark = permanent || n >= max;
        return shouldPark
          ? outcome.status === "parked"
          : outcome.status === "queued" && outcome.retryInMs === backoffMs(n, r);
      }),
    );
  });

  it("retries the first failure of five and parks the fifth", () => {
    expect(afterFailure({ attempt: 1, maxAttempts: 5, random: 0 })).toEqual({ status: "queued", retryInMs: 500 });
    expect(afterFailure({ attempt: 5, maxAttempts: 5, random: 0 })).toEqual({ status: "parked" });
  });
});

describe("errorText", () => {
  it("keeps an error's message, and bounds a huge one", () => {
    expect(errorText(new Error("supplier answered 503"))).toBe("supplier answered 503");
    expect(errorText("plain")).toBe("plain");
    expect(errorText({ code: 7 })).toBe('{"code":7}');
    expect(errorText(new Error(""))).toBe("Error");
    const long = errorText(new Error("x".repeat(10_000)));
    expect(long).toHaveLength(2_000);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("JobKindSchema", () => {
  it("accepts dotted lowercase kinds and refuses others", () => {
    for (const ok of ["jobs.test", "ai-ads.render", "competitors.snapshot", "x"])
      expect(JobKindSchema.safeParse(ok).success).toBe(true);
    for (const bad of ["", "Jobs", "a..b", ".a", "a b", "a.", "a/b"])
      expect(JobKindSchema.safeParse(bad).success).toBe(false);
  });
});
