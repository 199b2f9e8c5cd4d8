// A typed ProductQuery built without a URL (MCP's typed arguments, the assistant): the same defaults and the same
// rules across fields as the URL parser (issue 36).
import { describe, expect, it } from "vitest";
import { dollarsToCents, EMPTY_PRODUCT_QUERY, parseProductQuery, productQuery, QueryError } from "~/domain/products/product-query";

const NOW = new Date("2026-12-07T00:00:00Z");

describe("productQuery", () => {
  it("fills what is not set as the URL parser does for an empty query string", () => {
    expect(productQuery({})).toEqual(parseProductQuery(new URLSearchParams(), NOW));
    expect(EMPTY_PRODUCT_QUERY).toEqual(parseProductQuery(new URLSearchParams(), NOW));
  });

  it("gives the URL parser's answer for the same search", () => {
    const fromUrl = parseProductQuery(new URLSearchParams("q=dog+toys&niche=pets&minPrice=10&maxPrice=24.5&minMargin=30&sort=relevance&minStores=2"), NOW);
    const typed = productQuery({
      q: "dog toys",
      niches: ["pets"],
      price: { min: dollarsToCents("10", "minPrice"), max: dollarsToCents("24.5", "maxPrice") },
      margin: { min: 3000 },
      sort: "relevance",
      stores: { min: 2 },
    });
    expect(typed).toEqual(fromUrl);
  });

  it("refuses a range whose minimum is above its maximum, naming the parameter", () => {
    expect(() => productQuery({ price: { min: 3000, max: 1000 } })).toThrow(QueryError);
    expect(() => productQuery({ margin: { min: 5000, max: 1000 } })).toThrow(/maxMargin/);
  });

  it("refuses relevance without a text, and a text over 200 characters", () => {
    expect(() => productQuery({ sort: "relevance" })).toThrow(/relevance needs a search text/);
    expect(() => productQuery({ q: "x".repeat(201) })).toThrow(/at most 200/);
  });

  it("reads dollars as typed into cents without float drift, and refuses anything else", () => {
    expect(dollarsToCents("19.99", "minPrice")).toBe(1999);
    expect(dollarsToCents(" 0.1 ", "minPrice")).toBe(10);
    expect(dollarsToCents(undefined, "minPrice")).toBeUndefined();
    expect(() => dollarsToCents("1e3", "minPrice")).toThrow(/minPrice/);
  });
});
