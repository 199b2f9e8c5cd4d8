// The grid's filter panel folds its rarely used filters under "More filters" (decision 073): which parameters are
// folded, and how many of them a URL sets (the button's "(N set)", and whether the fold opens by itself), counted as
// the panel's title and the chips count.
import { describe, expect, it } from "vitest";
import { activeFilterCount, FILTER_KEYS, MORE_FILTER_KEYS } from "~/ui/research/product-filter-params";

describe("More filters", () => {
  it("folds the rarely used ranges, the Amazon box and the first-seen date, and none of the common filters", () => {
    expect(MORE_FILTER_KEYS).toEqual(
      expect.arrayContaining(["minRevenue", "maxRevenue", "minEngagement", "minViews", "minStores", "maxStores", "minStoresAdded7d", "minAmazonPrice", "maxAmazonPrice", "hasAmazonPrice", "firstSeenDays", "firstSeenAfter", "firstSeenBefore"]),
    );
    for (const common of ["minPrice", "maxPrice", "minCost", "maxCost", "minMargin", "maxMargin", "minOrders", "maxOrders", "source", "niche", "stage"]) {
      expect(MORE_FILTER_KEYS).not.toContain(common);
    }
    // Every folded parameter is one the panel applies (and clears).
    for (const key of MORE_FILTER_KEYS) expect(FILTER_KEYS).toContain(key);
  });

  it("counts the folded filters a URL sets as the chips show them: a range once, a date range once", () => {
    const more = (query: string) => activeFilterCount(new URLSearchParams(query), MORE_FILTER_KEYS);
    expect(more("maxPrice=30&niche=pets&q=lamp")).toBe(0);
    expect(more("minViews=100")).toBe(1);
    expect(more("minViews=&minRevenue=")).toBe(0);
    expect(more("minRevenue=5&maxRevenue=9&hasAmazonPrice=true")).toBe(2);
    expect(more("firstSeenAfter=2026-01-01&firstSeenBefore=2026-02-01")).toBe(1);
    // The panel's title counts every filter the same way.
    expect(activeFilterCount(new URLSearchParams("maxPrice=30&minPrice=10&minViews=100&firstSeenDays=7"))).toBe(3);
  });
});
