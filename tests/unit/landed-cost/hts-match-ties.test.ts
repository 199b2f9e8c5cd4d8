// Ties in the HTS guess (app/domain/landed-cost/hts-match.ts, issue 35 item 15, decision 092): two lines the product's
// words match equally are ordered by rule, never by where they sit in the table: the line that names something before
// a residual "Other" line (the HTS's own rule 3(a): the most specific description is preferred), then the deeper
// description, then the longer (more specific) code, then the code. Examples, and properties over random tables.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareHtsCandidates, guessHtsFromWords, indexHtsLines, type HtsLine } from "~/domain/landed-cost/hts-match";

const codes = (lines: HtsLine[], title: string) => {
  const g = guessHtsFromWords(indexHtsLines(lines), { title }, 10);
  return [g.best?.htsCode, ...g.alternatives.map((a) => a.htsCode)];
};

describe("tied lines", () => {
  it("a line that names the product beats a residual Other line, wherever the codes sort", () => {
    const lines = [
      { htsCode: "9603.10.00", description: "Brooms and brushes > Other", terms: "brush" },
      { htsCode: "9603.90.80", description: "Brooms and brushes > Pet brushes" },
    ];
    expect(codes(lines, "Brush")).toEqual(["9603.90.80", "9603.10.00"]);
    expect(codes([...lines].reverse(), "Brush")).toEqual(["9603.90.80", "9603.10.00"]);
  });

  it("then the deeper description: a line under more headings says more", () => {
    const lines = [
      { htsCode: "6306.22.10", description: "Tents > Of synthetic fibers", terms: "tent" },
      { htsCode: "6306.22.90", description: "Camping goods > Tents > Of synthetic fibers", terms: "tent" },
    ];
    // "tent" is in the parents of both; the line itself is what matched, at the same weight.
    expect(codes(lines, "Tent")).toEqual(["6306.22.90", "6306.22.10"]);
  });

  it("then the longer code: a statistical suffix is more specific than its subheading", () => {
    const lines = [
      { htsCode: "4202.92.31", description: "Bags > Travel bags" },
      { htsCode: "4202.92.3120", description: "Bags > Travel bags" },
    ];
    expect(codes(lines, "Travel bag")).toEqual(["4202.92.3120", "4202.92.31"]);
  });

  it("then the code, in HTS order", () => {
    const lines = [
      { htsCode: "9506.99.60", description: "Sports > Yoga mats" },
      { htsCode: "9506.91.00", description: "Sports > Yoga mats" },
    ];
    expect(codes(lines, "Yoga mat")).toEqual(["9506.91.00", "9506.99.60"]);
  });

  it("a higher score always comes first, however general its line", () => {
    const lines = [
      { htsCode: "9603.90.80", description: "Brushes > Other", terms: "pet brush" },
      { htsCode: "9603.29.8050", description: "Articles > Brushes > Hair brushes > Valued over 40 cents" },
    ];
    expect(codes(lines, "Pet brush")[0]).toBe("9603.90.80");
  });
});

// A small vocabulary, so that random lines and titles tie often.
const VOCAB = ["brush", "pet", "tent", "bag", "travel", "mat", "yoga", "lamp", "case", "toy"];
const segment = fc.oneof(fc.constant("Other"), fc.subarray(VOCAB, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")));
const line = fc.record({
  heading: fc.integer({ min: 3900, max: 9699 }),
  rest: fc.integer({ min: 0, max: 999_999 }),
  long: fc.boolean(),
  segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
  terms: fc.option(fc.subarray(VOCAB, { maxLength: 2 }).map((w) => w.join(" ")), { nil: undefined }),
});
const table = fc.uniqueArray(line, { minLength: 1, maxLength: 12, selector: (l) => `${l.heading}.${l.rest}.${l.long}` }).map((ls) =>
  ls.map<HtsLine>((l) => {
    const digits = String(l.rest).padStart(6, "0");
    const code = `${l.heading}.${digits.slice(0, 2)}.${digits.slice(2, l.long ? 6 : 4)}`;
    return { htsCode: code, description: l.segments.join(" > "), terms: l.terms };
  }),
);
const title = fc.subarray(VOCAB, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));

describe("properties over random tables", () => {
  it("the guess and its alternatives do not depend on the order of the table's lines", () => {
    fc.assert(
      fc.property(table, title, fc.integer(), (lines, t, seed) => {
        fc.pre(new Set(lines.map((l) => l.htsCode)).size === lines.length);
        // A permutation drawn from the seed: each line's key is a hash of its code and the seed.
        const key = (code: string) => [...code].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, seed >>> 0);
        const shuffled = [...lines].sort((a, b) => key(a.htsCode) - key(b.htsCode));
        expect(codes(shuffled, t)).toEqual(codes(lines, t));
        expect(codes([...lines].reverse(), t)).toEqual(codes(lines, t));
      }),
    );
  });

  it("the ranking is in the comparator's order: score first, then the tie rules, a strict order", () => {
    fc.assert(
      fc.property(table, title, (lines, t) => {
        fc.pre(new Set(lines.map((l) => l.htsCode)).size === lines.length);
        const g = guessHtsFromWords(indexHtsLines(lines), { title: t }, 12);
        const ranked = g.best ? [g.best, ...g.alternatives] : [];
        for (let i = 1; i < ranked.length; i++) {
          expect(ranked[i].score).toBeLessThanOrEqual(ranked[i - 1].score + 1e-9);
          expect(compareHtsCandidates(ranked[i - 1], ranked[i])).toBeLessThan(0);
        }
      }),
    );
  });
});
