// The grid's filter panel folds its rarely used filters under "More filters" (decision 073): which parameters are
// folded, and how many of them a URL sets (the button's "(N set)", and whether the fold opens by itself).
import { describe, expect, it } from "vitest";
import { FILTER_KEYS, MORE_FILTER_KEYS, moreFiltersSet } from "~/ui/product-filters";

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

  it("counts the folded filters a URL sets, a date range once, blanks and common filters not at all", () => {
    expect(moreFiltersSet(new URLSearchParams("maxPrice=30&niche=pets&q=lamp"))).toBe(0);
    expect(moreFiltersSet(new URLSearchParams("minViews=100"))).toBe(1);
    expect(moreFiltersSet(new URLSearchParams("minViews=%20&minRevenue="))).toBe(0);
    expect(moreFiltersSet(new URLSearchParams("minRevenue=5&maxRevenue=9&hasAmazonPrice=true"))).toBe(3);
    expect(moreFiltersSet(new URLSearchParams("firstSeenAfter=2026-01-01&firstSeenBefore=2026-02-01"))).toBe(1);
  });
});
