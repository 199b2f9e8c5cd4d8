// The pure rules of weekly product drops (docs/decisions/030): drop dates, the next drop and its countdown,
// the reason built from a product's own evidence, and the weekly pick (variety, no repeats, best first).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  countdownText,
  dropDateOnOrAfter,
  dropReason,
  DROP_RULES,
  effectiveNextDropDate,
  nextDropDateAfter,
  operatorReason,
  parseDropDate,
  pickWeekly,
  type DropCandidate,
} from "~/domain/products/product-drops";

describe("drop dates", () => {
  it.each([
    ["2026-11-23", "2026-11-23"],
    ["2024-02-29", "2024-02-29"],
    ["2026-02-29", null],
    ["2026-13-01", null],
    ["2026-1-01", null],
    ["23-11-2026", null],
    ["2026-11-23T00:00:00Z", null],
    ["", null],
  ])("%j -> %j", (text, expected) => {
    expect(parseDropDate(text)).toBe(expected);
  });

  it("the next drop is the following Monday, a week on from a Monday", () => {
    expect(nextDropDateAfter("2026-11-23")).toBe("2026-11-30"); // a Monday
    expect(nextDropDateAfter("2026-11-24")).toBe("2026-11-30");
    expect(nextDropDateAfter("2026-11-29")).toBe("2026-11-30");
    expect(dropDateOnOrAfter("2026-11-23")).toBe("2026-11-23");
    expect(dropDateOnOrAfter("2026-11-24")).toBe("2026-11-30");
  });

  it("a stored next date that passed gives way to the next Monday from today", () => {
    expect(effectiveNextDropDate("2026-12-07", "2026-11-25")).toBe("2026-12-07");
    expect(effectiveNextDropDate("2026-11-16", "2026-11-25")).toBe("2026-11-30");
    expect(effectiveNextDropDate(null, "2026-11-25")).toBe("2026-11-30");
  });

  it("counts down in days and hours, then hours and minutes, then says today", () => {
    expect(countdownText("2026-11-30", new Date("2026-11-26T20:00:00Z"))).toBe("in 3 days 4 hours");
    expect(countdownText("2026-11-30", new Date("2026-11-29T00:00:00Z"))).toBe("in 1 day");
    expect(countdownText("2026-11-30", new Date("2026-11-29T18:30:00Z"))).toBe("in 5 hours 30 minutes");
    expect(countdownText("2026-11-30", new Date("2026-11-29T23:59:30Z"))).toBe("in 1 minute");
    expect(countdownText("2026-11-30", new Date("2026-11-30T10:00:00Z"))).toBe("today");
  });
});

describe("reasons", () => {
  it("quotes the stage, the score, its first two reasons and the margin after duty and fees (issue 24)", () => {
    expect(
      dropReason({ winningScore: 87, lifecycleStage: "rising", marginBps: 6240, landedMarginBps: 4180, reasons: ["orders +48% in 7 days", "1,200 orders in 30 days", "sold by 3 stores"] }),
    ).toBe("Rising, winning score 87: orders +48% in 7 days; 1,200 orders in 30 days; margin after duty and fees 42%");
  });

  it("quotes no gross margin: a score reason naming it gives way to the margin after duty and fees", () => {
    expect(dropReason({ winningScore: 70, lifecycleStage: "emerging", marginBps: 5000, landedMarginBps: 2950, reasons: ["margin 50%", "no store sells it yet", "sold by 2 stores"] })).toBe(
      "Emerging, winning score 70: no store sells it yet; sold by 2 stores; margin after duty and fees 30%",
    );
  });

  it("a product without a known cost says add your cost; one whose duty cannot be figured keeps its margin, named as before duty", () => {
    expect(dropReason({ winningScore: 60, lifecycleStage: "peak", marginBps: null, landedMarginBps: null, reasons: ["900 orders in 30 days"] })).toBe(
      "At its peak, winning score 60: 900 orders in 30 days; cost unknown: add your cost",
    );
    expect(dropReason({ winningScore: 60, lifecycleStage: "peak", marginBps: 5100, landedMarginBps: null, reasons: ["900 orders in 30 days"] })).toBe(
      "At its peak, winning score 60: 900 orders in 30 days; margin 51% before duty (no duty rate for its code)",
    );
  });

  it("an operator's reason is one trimmed line of at most 200 characters", () => {
    expect(operatorReason("  Great \n for   gifting ")).toBe("Great for gifting");
    expect(operatorReason("   ")).toBeNull();
    expect(operatorReason("x".repeat(300))).toHaveLength(DROP_RULES.maxReasonLength);
  });
});

const candidate = fc.record({
  id: fc.integer({ min: 1, max: 400 }),
  primaryNiche: fc.constantFrom("pets", "kitchen", "beauty", "fitness", "baby", "garden", "tech"),
  winningScore: fc.integer({ min: 0, max: 100 }),
  lifecycleStage: fc.constantFrom("emerging", "rising", "peak", "declining"),
  orders7d: fc.integer({ min: 0, max: 1000 }),
}).map((c) => ({ ...c, title: `Product ${c.id}` }));

describe("the weekly pick", () => {
  it("takes the best by score, at most two a niche, never a recent or declining product, each once", () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 200 }), fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 60 }), (all, recent) => {
        const shown = new Set(recent);
        const picked = pickWeekly(all, shown);
        expect(picked.length).toBeLessThanOrEqual(DROP_RULES.weeklyProducts);
        expect(new Set(picked.map((p) => p.id)).size).toBe(picked.length);
        const perNiche = new Map<string, number>();
        for (const p of picked) {
          expect(shown.has(p.id)).toBe(false);
          expect(p.lifecycleStage).not.toBe("declining");
          perNiche.set(p.primaryNiche, (perNiche.get(p.primaryNiche) ?? 0) + 1);
        }
        for (const n of perNiche.values()) expect(n).toBeLessThanOrEqual(DROP_RULES.perNiche);
        // Best first: nothing left out beats a picked product unless its niche was full or the drop was.
        const pickedIds = new Set(picked.map((p) => p.id));
        const lowest = picked.at(-1)?.winningScore ?? -1;
        for (const c of all) {
          if (pickedIds.has(c.id) || shown.has(c.id) || c.lifecycleStage === "declining") continue;
          if (c.winningScore > lowest && picked.length < DROP_RULES.weeklyProducts) {
            expect(perNiche.get(c.primaryNiche)).toBe(DROP_RULES.perNiche);
          }
        }
        // Scores never rise down the list.
        for (let i = 1; i < picked.length; i++) expect(picked[i].winningScore).toBeLessThanOrEqual(picked[i - 1].winningScore);
      }),
    );
  });

  it("fills a drop of 12 from six niches, two each", () => {
    const niches = ["a", "b", "c", "d", "e", "f"];
    const all: DropCandidate[] = Array.from({ length: 60 }, (_, i) => ({
      id: i + 1,
      primaryNiche: niches[i % 6],
      winningScore: 100 - i,
      lifecycleStage: "rising",
      orders7d: 10,
      title: `Product ${i + 1}`,
    }));
    const picked = pickWeekly(all, new Set());
    expect(picked.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(pickWeekly(all, new Set([1, 2, 3])).map((p) => p.id)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });

  it("with a date: never a left-out product or a title twice, and a new mix each week (issue 25)", () => {
    const niches = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const all: DropCandidate[] = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      primaryNiche: niches[i % 8],
      winningScore: 100 - Math.floor(i / 4),
      lifecycleStage: "rising",
      orders7d: 10,
      title: i % 5 === 0 ? "Puzzle" : `Product ${i + 1}`,
    }));
    const leaveOut = new Set(Array.from({ length: 12 }, (_, i) => i + 1));
    const weeks = ["2026-11-02", "2026-11-09", "2026-11-16"].map((date) => pickWeekly(all, new Set(), { date, leaveOut }));
    for (const picked of weeks) {
      expect(picked).toHaveLength(12);
      expect(picked.filter((p) => leaveOut.has(p.id))).toEqual([]);
      expect(picked.filter((p) => p.title === "Puzzle").length).toBeLessThanOrEqual(1);
      // Still strong products: within the jitter of the best left.
      for (const p of picked) expect(p.winningScore).toBeGreaterThanOrEqual(97 - DROP_RULES.weeklyJitter);
    }
    expect(weeks[0].map((p) => p.id)).not.toEqual(weeks[1].map((p) => p.id));
    expect(weeks[1].map((p) => p.id)).not.toEqual(weeks[2].map((p) => p.id));
  });
});
