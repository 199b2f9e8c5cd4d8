// Exact event times (docs/decisions/043): any RFC 3339 instant becomes one fixed-width UTC string with
// nanoseconds, so comparing two as text orders the instants, whatever digits and zone each was sent with.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStale } from "~/domain/billing/billing";
import { compareExact, exactTime, exactTimeOf, toDate } from "~/domain/event-time";

describe("exactTime", () => {
  it("Paddle's microseconds, and more or fewer digits, padded to nanoseconds", () => {
    expect(exactTime("2023-08-22T07:13:34.599095Z")).toBe("2023-08-22T07:13:34.599095000Z");
    expect(exactTime("2023-08-22T07:13:34.599095123Z")).toBe("2023-08-22T07:13:34.599095123Z");
    expect(exactTime("2023-08-22T07:13:34.5Z")).toBe("2023-08-22T07:13:34.500000000Z");
    expect(exactTime("2023-08-22T07:13:34Z")).toBe("2023-08-22T07:13:34.000000000Z");
    expect(exactTime("2023-08-22t07:13:34z")).toBe("2023-08-22T07:13:34.000000000Z");
  });

  it("beyond nanoseconds, the extra digits are dropped", () => {
    expect(exactTime("2023-08-22T07:13:34.1234567891Z")).toBe("2023-08-22T07:13:34.123456789Z");
  });

  it("an offset is moved to UTC, across a day, month and year", () => {
    expect(exactTime("2026-11-26T10:00:00.1234561+02:00")).toBe("2026-11-26T08:00:00.123456100Z");
    expect(exactTime("2026-01-01T01:30:00.000001+0230")).toBe("2025-12-31T23:00:00.000001000Z");
    expect(exactTime("2026-12-31T20:00:00.5-05:00")).toBe("2027-01-01T01:00:00.500000000Z");
    expect(exactTime("2024-02-29T23:59:59.999999-00:01")).toBe("2024-03-01T00:00:59.999999000Z");
  });

  it("not an instant -> null", () => {
    for (const value of [
      "",
      "yesterday",
      "2026-11-26T08:00:00",
      "2026-11-26 08:00:00Z",
      "2026-11-26T08:00Z",
      "2026-02-30T08:00:00Z",
      "2025-02-29T08:00:00Z",
      "2026-13-01T08:00:00Z",
      "2026-11-26T24:00:00Z",
      "2026-11-26T08:60:00Z",
      "2026-11-26T08:00:60Z",
      "2026-11-26T08:00:00.Z",
      "2026-11-26T08:00:00.12a Z",
      "2026-11-26T08:00:00+25:00",
      "2026-11-26T08:00:00.123Z ",
      "+2026-11-26T08:00:00Z",
    ]) {
      expect(exactTime(value), value).toBeNull();
    }
  });

  it("a Date's own string comes back to the millisecond", () => {
    const d = new Date("2026-11-26T08:00:00.123Z");
    expect(exactTimeOf(d)).toBe("2026-11-26T08:00:00.123000000Z");
    expect(exactTime(d.toISOString())).toBe(exactTimeOf(d));
    expect(toDate(exactTime("2026-11-26T08:00:00.123999Z")!).toISOString()).toBe("2026-11-26T08:00:00.123Z");
  });

  it("property: text order is the order of the instants, whatever the zone and digits", () => {
    // An instant in nanoseconds since 2000, written with any offset and 0-9 fraction digits it can carry exactly.
    const instant = fc.bigInt({ min: 0n, max: 40n * 365n * 86_400n * 1_000_000_000n });
    const written = fc.record({ ns: instant, offsetMinutes: fc.integer({ min: -14 * 60, max: 14 * 60 }), digits: fc.integer({ min: 0, max: 9 }) });
    const write = ({ ns, offsetMinutes, digits }: { ns: bigint; offsetMinutes: number; digits: number }) => {
      const unit = 10n ** BigInt(9 - digits);
      const kept = (ns / unit) * unit;
      const seconds = kept / 1_000_000_000n;
      const local = new Date(Date.UTC(2000, 0, 1) + Number(seconds) * 1000 + offsetMinutes * 60_000);
      const fraction = String(kept % 1_000_000_000n).padStart(9, "0").slice(0, digits);
      const zone =
        offsetMinutes === 0
          ? "Z"
          : `${offsetMinutes < 0 ? "-" : "+"}${String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, "0")}:${String(Math.abs(offsetMinutes) % 60).padStart(2, "0")}`;
      return { kept, text: `${local.toISOString().slice(0, 19)}${digits ? `.${fraction}` : ""}${zone}` };
    };
    fc.assert(
      fc.property(written, written, (a, b) => {
        const x = write(a);
        const y = write(b);
        const ex = exactTime(x.text)!;
        const ey = exactTime(y.text)!;
        expect(ex).not.toBeNull();
        expect(Math.sign(compareExact(ex, ey))).toBe(x.kept < y.kept ? -1 : x.kept > y.kept ? 1 : 0);
      }),
      { seed: 20261126, numRuns: 500 },
    );
  });
});

describe("isStale at full precision", () => {
  it("0.4 ms earlier is stale; a Date and an exact time compare too", () => {
    expect(isStale("2026-11-26T08:00:00.123856000Z", "2026-11-26T08:00:00.123456000Z")).toBe(true);
    expect(isStale("2026-11-26T08:00:00.123456000Z", "2026-11-26T08:00:00.123856000Z")).toBe(false);
    expect(isStale("2026-11-26T08:00:00.123456000Z", "2026-11-26T08:00:00.123456000Z")).toBe(false);
    expect(isStale(new Date("2026-11-26T08:00:00.124Z"), "2026-11-26T08:00:00.123999000Z")).toBe(true);
  });
});
