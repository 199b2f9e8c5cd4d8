// A product page's review count as schema.org JSON-LD publishes it (app/domain/catalogue/review-count.ts, issue 37
// item 6, decision 094): the shapes real themes and review apps write (numbers, "1,234", @graph, arrays, mainEntity,
// slightly broken JSON), the bad input of the issue ("1,234", -5, 10^12) and properties: any whole count in range
// written in any of the accepted forms reads back exactly; anything negative, fractional or past the cap never reads
// as a count; no page text makes the reader throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonLdBlocks, parseReviewCount, readReviewCount, REVIEW_COUNT_RULES } from "~/domain/catalogue/review-count";

const page = (...blocks: string[]) =>
  `<!doctype html><html><head><title>Shop</title>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join("\n")}</head><body><h1>A product</h1></body></html>`;
const product = (rating: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Neck fan", url: "https://shop.example/products/neck-fan", aggregateRating: rating, ...extra });

describe("parseReviewCount", () => {
  it("reads whole numbers and the ways pages group thousands", () => {
    expect(parseReviewCount(38)).toEqual({ ok: true, count: 38 });
    expect(parseReviewCount(0)).toEqual({ ok: true, count: 0 });
    expect(parseReviewCount("1,234")).toEqual({ ok: true, count: 1234 });
    expect(parseReviewCount("1.234")).toEqual({ ok: true, count: 1234 });
    expect(parseReviewCount("1 234 567")).toEqual({ ok: true, count: 1_234_567 });
    expect(parseReviewCount("1\u202f234")).toEqual({ ok: true, count: 1234 });
    expect(parseReviewCount(" 57 ")).toEqual({ ok: true, count: 57 });
    expect(parseReviewCount("12.0")).toEqual({ ok: true, count: 12 });
    expect(parseReviewCount(12.0)).toEqual({ ok: true, count: 12 });
  });

  it("refuses what is not a count, with a reason", () => {
    const reason = (v: unknown) => {
      const r = parseReviewCount(v);
      expect(r.ok).toBe(false);
      return (r as { reason: string }).reason;
    };
    expect(reason(-5)).toMatch(/negative/);
    expect(reason("-5")).toMatch(/negative/);
    expect(reason(1e12)).toMatch(/more reviews than any product has/);
    expect(reason("1000000000000")).toMatch(/more reviews than any product has/);
    expect(reason(12.5)).toMatch(/fraction/);
    expect(reason("4,5")).toMatch(/fraction/);
    expect(reason("1.2k")).toMatch(/rounded/);
    expect(reason("lots")).toMatch(/not a number/);
    expect(reason("1,23,4")).toMatch(/not a number/);
    expect(reason("")).toMatch(/empty/);
    expect(reason(null)).toMatch(/empty/);
    expect(reason(Number.NaN)).toMatch(/finite/);
    expect(reason(Number.POSITIVE_INFINITY)).toMatch(/finite/);
    expect(reason({ value: 3 })).toMatch(/not a number/);
    expect(reason(true)).toMatch(/not a number/);
  });

  it("reads back any count in range written as a number or grouped text", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: REVIEW_COUNT_RULES.maxCount }), fc.constantFrom("number", "plain", ",", ".", " ", "'"), (n, form) => {
        const written = form === "number" ? n : form === "plain" ? String(n) : n.toLocaleString("en-US").replace(/,/g, form);
        expect(parseReviewCount(written)).toEqual({ ok: true, count: n });
      }),
    );
  });

  it("never reads a negative, a fraction or a figure past the cap as a count", () => {
    const bad = fc.oneof(
      fc.integer({ min: -1e9, max: -1 }),
      fc.integer({ min: REVIEW_COUNT_RULES.maxCount + 1, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ noNaN: true }).filter((d) => !Number.isInteger(d)),
    );
    fc.assert(
      fc.property(bad, fc.boolean(), (n, asText) => {
        expect(parseReviewCount(asText ? String(n) : n).ok).toBe(false);
      }),
    );
  });

  it("never throws, and any count it reads is a whole number within the cap", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double(), fc.anything()), (v) => {
        const r = parseReviewCount(v);
        if (r.ok) expect(Number.isInteger(r.count) && r.count >= 0 && r.count <= REVIEW_COUNT_RULES.maxCount).toBe(true);
        else expect(r.reason.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("readReviewCount", () => {
  it("reads aggregateRating.reviewCount, else ratingCount", () => {
    expect(readReviewCount(page(product({ "@type": "AggregateRating", ratingValue: 4.8, reviewCount: 38 })), "neck-fan")).toEqual({ kind: "count", count: 38, source: "reviewCount" });
    expect(readReviewCount(page(product({ "@type": "AggregateRating", ratingValue: "4.8", ratingCount: "1,234" })), "neck-fan")).toEqual({ kind: "count", count: 1234, source: "ratingCount" });
    expect(readReviewCount(page(product({ reviewCount: "", ratingCount: 9 })), "neck-fan")).toMatchObject({ count: 9, source: "ratingCount" });
  });

  it("finds the Product in @graph, arrays, mainEntity and a typed list, with schema.org's long type names", () => {
    const graph = JSON.stringify({ "@context": "https://schema.org", "@graph": [{ "@type": "Organization", name: "Shop" }, { "@type": "Product", aggregateRating: { reviewCount: 7 } }] });
    expect(readReviewCount(page(graph), "x")).toMatchObject({ kind: "count", count: 7 });
    const array = JSON.stringify([{ "@type": "BreadcrumbList" }, { "@type": ["Product", "Thing"], aggregateRating: [{ reviewCount: "12" }] }]);
    expect(readReviewCount(page(array), "x")).toMatchObject({ count: 12 });
    const main = JSON.stringify({ "@type": "ItemPage", mainEntity: { "@type": "http://schema.org/Product", aggregateRating: { reviewCount: 3 } } });
    expect(readReviewCount(page(main), "x")).toMatchObject({ count: 3 });
    const group = JSON.stringify({ "@type": "ProductGroup", aggregateRating: { reviewCount: 4 } });
    expect(readReviewCount(page(group), "x")).toMatchObject({ count: 4 });
  });

  it("reads JSON-LD with the slips real pages make: a raw line break in a string, a trailing comma, an HTML comment", () => {
    const sloppy = `<!--\n{"@type": "Product", "description": "Line one\nline two", "aggregateRating": {"reviewCount": "57",},}\n-->`;
    expect(readReviewCount(page(sloppy), "x")).toMatchObject({ kind: "count", count: 57 });
  });

  it("says 'no review data' (never 0) for pages without a count, with why", () => {
    expect(readReviewCount("<html><body>Hello</body></html>", "x")).toEqual({ kind: "none", reason: expect.stringMatching(/no structured data/) });
    expect(readReviewCount(page(product(undefined)), "neck-fan")).toEqual({ kind: "none", reason: expect.stringMatching(/no review count/) });
    expect(readReviewCount(page(JSON.stringify({ "@type": "Organization" })), "x")).toEqual({ kind: "none", reason: expect.stringMatching(/names no Product/) });
    expect(readReviewCount(page("{ not json"), "x")).toEqual({ kind: "none", reason: expect.stringMatching(/could not be read/) });
  });

  it("refuses the issue's bad counts with a reason: -5 and 10^12", () => {
    expect(readReviewCount(page(product({ reviewCount: -5 })), "neck-fan")).toEqual({ kind: "invalid", reason: expect.stringMatching(/reviewCount is not a review count: -5 is negative/) });
    expect(readReviewCount(page(product({ reviewCount: 1e12 })), "neck-fan")).toEqual({ kind: "invalid", reason: expect.stringMatching(/more reviews than any product has/) });
    expect(readReviewCount(page(product({ reviewCount: "1,234" })), "neck-fan")).toEqual({ kind: "count", count: 1234, source: "reviewCount" });
  });

  it("takes the listing's own product when the page also shows others, and refuses to guess between different counts", () => {
    const own = product({ reviewCount: 38 });
    const other = JSON.stringify({ "@type": "Product", url: "https://shop.example/products/fan-cover", aggregateRating: { reviewCount: 900 } });
    expect(readReviewCount(page(other, own), "neck-fan")).toMatchObject({ kind: "count", count: 38 });
    expect(readReviewCount(page(other, own), "NECK-FAN")).toMatchObject({ count: 38 });
    const anonymousA = JSON.stringify({ "@type": "Product", aggregateRating: { reviewCount: 1 } });
    const anonymousB = JSON.stringify({ "@type": "Product", aggregateRating: { reviewCount: 2 } });
    expect(readReviewCount(page(anonymousA, anonymousB), "neck-fan")).toEqual({ kind: "invalid", reason: expect.stringMatching(/different review counts/) });
    // The theme's block and the review app's block agree: one count.
    expect(readReviewCount(page(anonymousA, anonymousA), "neck-fan")).toMatchObject({ kind: "count", count: 1 });
  });

  it("reads only ld+json scripts, in any case and quoting, and stops at maxBlocks", () => {
    const html = `<SCRIPT TYPE='application/ld+json'>{"@type":"Product","aggregateRating":{"reviewCount":5}}</SCRIPT><script>var x = {"@type":"Product","aggregateRating":{"reviewCount":99}}</script>`;
    expect(jsonLdBlocks(html)).toHaveLength(1);
    expect(readReviewCount(html, "x")).toMatchObject({ count: 5 });
    const many = page(...Array.from({ length: REVIEW_COUNT_RULES.maxBlocks + 10 }, () => "{}"));
    expect(jsonLdBlocks(many)).toHaveLength(REVIEW_COUNT_RULES.maxBlocks);
    // A script never closed (a page cut at the byte cap) is not read half-way.
    expect(jsonLdBlocks(`<script type="application/ld+json">{"@type":"Product","aggregateRating":{"reviewCount":5`)).toEqual([]);
  });

  it("never throws on any page text", () => {
    const fragment = fc.oneof(
      fc.string(),
      fc.constantFrom('<script type="application/ld+json">', "</script>", "{", "}", '"@type":"Product"', '"aggregateRating":{', '"reviewCount":', "[", "]", ",", "<!--", "-->"),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), fc.string(), (parts, handle) => {
        const r = readReviewCount(parts.join(""), handle);
        expect(["count", "none", "invalid"]).toContain(r.kind);
        if (r.kind === "count") expect(r.count).toBeLessThanOrEqual(REVIEW_COUNT_RULES.maxCount);
      }),
    );
  });
});
