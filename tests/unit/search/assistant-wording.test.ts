// Issue 25, item 13: the assistant's sentences read as English for a count of one.
import { describe, expect, it } from "vitest";
import { describeFilters, whyItFits } from "~/domain/products/product-question";

const facts = {
  objectID: "p",
  title: "Leash",
  niches: ["pets"],
  priceCents: 999,
  orders: 1,
  storesSelling: 1,
  winningScore: 40,
  lifecycleStage: "peak",
  marginBps: null,
};

describe("the assistant's wording of a count of one", () => {
  it("why a product fits", () => {
    const why = whyItFits(facts, { maxStores: 1 });
    expect(why).toContain("1 order in 30 days");
    expect(why).toContain("sold by 1 store");
  });

  it("what it searched", () => {
    expect(describeFilters({ minStores: 1, maxStores: 1 })).toContain("sold by 1 store");
    expect(describeFilters({ minOrders: 1, maxOrders: 1 })).toContain("1 order (30 days)");
    expect(describeFilters({ minStores: 2, maxStores: 5 })).toContain("sold by 2 to 5 stores");
  });
});
