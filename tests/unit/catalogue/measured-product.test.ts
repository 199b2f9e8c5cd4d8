// Measured products in the pure rules that read them (docs/decisions/048): which figures a source has, the card's
// words, the signals read from a stored series, the assistant's questions and answers, a drop's reason, and the
// Algolia adapter's record, filters and order.
import { describe, expect, it } from "vitest";
import { measuredSeries } from "~/domain/catalogue/signals";
import {
  hasSalesFigures,
  hasStoreFigures,
  listingUrl,
  matchesSourceFilter,
  matchReason,
  parseMeasuredSeries,
  signalsFromSeries,
  soldByStores,
  storesLine,
} from "~/domain/catalogue/measured-product";
import { dropReason } from "~/domain/products/product-drops";
import { parseProductQuery } from "~/domain/products/product-query";
import { describeFilters, filtersProblem, filtersToParams, parseQuestion, whyItFits } from "~/domain/products/product-question";
import { algoliaFilters, matchesFilters, sortHits, toAlgoliaRecord } from "~/integrations/algolia.server";

describe("figures by source", () => {
  it("sample products have every figure, measured ones stores but no sales, tracked-store ones neither", () => {
    expect([hasSalesFigures("catalog"), hasStoreFigures("catalog")]).toEqual([true, true]);
    expect([hasSalesFigures("measured"), hasStoreFigures("measured")]).toEqual([false, true]);
    expect([hasSalesFigures("tracked-store"), hasStoreFigures("tracked-store")]).toEqual([false, false]);
  });

  it("the source filter: measured, sample (catalog only) or all", () => {
    expect(["catalog", "measured", "tracked-store"].filter((s) => matchesSourceFilter("measured", s))).toEqual(["measured"]);
    expect(["catalog", "measured", "tracked-store"].filter((s) => matchesSourceFilter("sample", s))).toEqual(["catalog"]);
    expect(["catalog", "measured", "tracked-store"].filter((s) => matchesSourceFilter("all", s))).toHaveLength(3);
  });

  it("says stores in correct English", () => {
    expect(soldByStores(1)).toBe("sold by 1 store");
    expect(soldByStores(3)).toBe("sold by 3 stores");
    expect(soldByStores(1200)).toBe("sold by 1,200 stores");
    expect(storesLine(3, 2)).toBe("Sold by 3 stores · +2 this week");
    expect(storesLine(1, 0)).toBe("Sold by 1 store");
  });

  it("a match's reason: the anchor is the first listing, a picture match its evidence sentence", () => {
    expect(matchReason("anchor", null)).toBe("first listing of this product");
    expect(matchReason("picture", JSON.stringify({ reason: "same picture: 3 of 64 bits differ" }))).toBe("same picture: 3 of 64 bits differ");
    expect(matchReason("operator", null)).toBe("merged by an operator");
    expect(matchReason("picture", "{not json")).toBe("matched (no evidence kept)");
    expect(listingUrl("rival.com", "neck-fan")).toBe("https://rival.com/products/neck-fan");
  });
});

describe("signals from a stored series", () => {
  const series = measuredSeries(
    [
      { storeId: 1, addedAt: "2026-11-01T10:00:00Z", addedCounts: true, removedAt: null, prices: [{ at: "2026-11-01T10:00:00Z", cents: 1999 }], availability: [], publishedAt: null },
      { storeId: 2, addedAt: "2026-11-03T10:00:00Z", addedCounts: true, removedAt: null, prices: [{ at: "2026-11-03T10:00:00Z", cents: 2500 }], availability: [{ at: "2026-11-03T10:00:00Z", available: false }], publishedAt: null },
      { storeId: 3, addedAt: "2026-11-01T10:00:00Z", addedCounts: false, removedAt: "2026-11-02T10:00:00Z", prices: [{ at: "2026-11-01T10:00:00Z", cents: 1500 }], availability: [], publishedAt: null },
    ],
    "2026-11-01",
    "2026-11-03",
  );

  it("reads the last day's counts and prices, each measured as of the series' last day", () => {
    const s = signalsFromSeries(parseMeasuredSeries(JSON.stringify(series))!, "2026-10-20T00:00:00.000Z", { currency: "USD", rateDate: null });
    expect(s).toMatchObject({
      asOf: "2026-11-03",
      storesSelling: { value: 2, measured: true, asOf: "2026-11-03" },
      storesAdded7d: { value: 2, measured: true },
      storesDropped7d: { value: 1, measured: true },
      priceMinCents: { value: 1999 },
      priceMedianCents: { value: 2250 },
      priceMaxCents: { value: 2500 },
      priceCurrency: "USD",
      priceRateDate: null,
      outOfStock: { value: 1 },
      firstSeenAnywhere: { value: "2026-10-20T00:00:00.000Z", measured: true },
    });
    expect(s.series.storesSelling).toEqual([2, 1, 2]);
  });

  it("refuses a stored series that is not one", () => {
    expect(parseMeasuredSeries("{")).toBeNull();
    expect(parseMeasuredSeries(JSON.stringify({ ...series, added: [1] }))).toBeNull();
    expect(parseMeasuredSeries(JSON.stringify({ ...series, storesSelling: ["3"] }))).toBeNull();
    expect(parseMeasuredSeries(JSON.stringify({ ...series, storesSelling: [], added: [], dropped: [], outOfStock: [], restocked: [], priceChanges: [], priceMin: [], priceMedian: [], priceMax: [] }))).toBeNull();
  });
});

describe("the assistant and measured products", () => {
  const context = { niches: ["pets", "kitchen"] };

  it("understands sold by more than 5 stores, added by stores this week and measured products", () => {
    expect(parseQuestion("sold by more than 5 stores", context).filters).toEqual({ minStores: 6 });
    expect(parseQuestion("sold by at least 5 stores", context).filters).toEqual({ minStores: 5 });
    expect(parseQuestion("sold by more than 1 store", context).filters).toEqual({ minStores: 2 });
    const added = parseQuestion("products added by stores this week", context);
    expect(added.filters).toEqual({ minStoresAdded7d: 1, sort: "storesAdded7d" });
    expect(added.filters.firstSeenDays).toBeUndefined();
    expect(parseQuestion("added by 3 or more stores this week", context).filters).toMatchObject({ minStoresAdded7d: 3 });
    expect(parseQuestion("measured products in pets", context).filters).toEqual({ source: "measured", niche: ["pets"] });
    expect(parseQuestion("only sample data", context).filters).toMatchObject({ source: "sample" });
  });

  it("its filters open as they are in the grid, and say what they are", () => {
    const f = parseQuestion("measured products added by 2 stores this week", context).filters;
    expect(filtersProblem(f)).toBeNull();
    expect(parseProductQuery(filtersToParams(f))).toMatchObject({ source: "measured", storesAdded7d: { min: 2 }, sort: "storesAdded7d" });
    expect(describeFilters(f)).toEqual(["measured products (what the stores we observe sell)", "added by 2 or more stores this week", "sorted by stores added this week"]);
  });

  it("answers sold by 1 store / 3 stores, and never an orders figure for a measured product", () => {
    const facts = { objectID: "measured-1", title: "Neck fan", niches: ["pets"], priceCents: 2075, orders: null, storesSelling: 1, winningScore: 30, lifecycleStage: "emerging", marginBps: null, source: "measured", storesAdded7d: 0 };
    const one = whyItFits(facts, {});
    expect(one).toContain("sold by 1 store");
    expect(one.join(" ")).not.toMatch(/orders in 30 days|no sales data/);
    const three = whyItFits({ ...facts, storesSelling: 3, storesAdded7d: 2 }, { minStores: 3 });
    expect(three).toContain("sold by 3 stores");
    expect(three).toContain("added by 2 stores this week");
    const sample = whyItFits({ ...facts, source: "catalog", orders: 120, storesSelling: 1 }, { maxStores: 1 });
    expect(sample).toContain("120 orders in 30 days");
    expect(sample).toContain("sold by 1 store");
  });
});

describe("a drop's reason for a measured product", () => {
  it("quotes its measured reasons and says its score comes from store counts", () => {
    const reason = dropReason({ winningScore: 40, lifecycleStage: "emerging", marginBps: null, reasons: ["added by 2 stores in 7 days: 1 -> 3", "first seen anywhere 2026-10-29 (5 days ago)"], source: "measured" });
    // Its supplier cost is unknown: the reason says so instead of a margin (issue 24).
    expect(reason).toBe("Emerging, winning score 40 (from store counts): added by 2 stores in 7 days: 1 -> 3; first seen anywhere 2026-10-29 (5 days ago); cost unknown: add your cost");
    expect(reason).not.toMatch(/orders|margin/);
  });
});

describe("the Algolia adapter and measured products", () => {
  const row = {
    objectID: "measured-9",
    title: "Neck fan",
    description: "Sold by 3 stores we observe",
    niches: '["general"]',
    primaryNiche: "general",
    tags: "[]",
    images: "[]",
    priceCents: 2075,
    costCents: null,
    marginBps: null,
    landedMarginBps: null,
    amazonPriceCents: null,
    orders: 0,
    revenueCents: 0n,
    likes: 0,
    comments: 0,
    shares: 0,
    views: 0,
    storesSelling: 3,
    lifecycleStage: "emerging",
    firstSeenAt: new Date("2026-10-29T00:00:00Z"),
    winningScore: 35,
    trendingScore: 50,
    randomSortKey: 5,
    lastUpdatedAt: new Date("2026-11-03T00:00:00Z"),
    source: "measured",
    storesAdded7d: 2,
  };

  it("a measured record has its store figures and source, and no sales figures", () => {
    const record = toAlgoliaRecord(row);
    expect(record).toMatchObject({ source: "measured", storesSelling: 3, storesAdded7d: 2, winningScore: 35, lifecycleStage: "emerging" });
    for (const key of ["orders", "revenueCents", "engagement", "views", "trendingScore"]) expect(record).not.toHaveProperty(key);
    expect(toAlgoliaRecord({ ...row, source: "catalog" })).toMatchObject({ source: "sample", orders: 0 });
    expect(toAlgoliaRecord({ ...row, source: "catalog" })).not.toHaveProperty("storesAdded7d");
  });

  it("filters and orders as the built-in engine does", () => {
    const q = (s: string) => parseProductQuery(new URLSearchParams(s));
    expect(algoliaFilters(q("source=measured&minStoresAdded7d=1&minStores=2"))).toBe('source:"measured" AND storesSelling >= 2 AND storesAdded7d >= 1');
    expect(algoliaFilters(q("source=all"))).toBe("");
    const hit = { ...row, id: 9, niches: '["general"]' };
    const sample = { ...hit, id: 10, objectID: "s-10", source: "catalog", winningScore: 90, storesAdded7d: 0, orders: 500 };
    expect(matchesFilters(hit, q("source=measured"))).toBe(true);
    expect(matchesFilters(sample, q("source=measured"))).toBe(false);
    expect(matchesFilters(sample, q("minStoresAdded7d=0"))).toBe(false);
    expect(matchesFilters(hit, q("minOrders=0"))).toBe(false);
    expect(sortHits([sample, hit], q("")).map((h) => h.objectID)).toEqual(["measured-9", "s-10"]);
    expect(sortHits([hit, sample], q("sort=orders")).map((h) => h.objectID)).toEqual(["s-10", "measured-9"]);
    expect(sortHits([sample, hit], q("sort=storesAdded7d")).map((h) => h.objectID)).toEqual(["measured-9", "s-10"]);
  });
});
