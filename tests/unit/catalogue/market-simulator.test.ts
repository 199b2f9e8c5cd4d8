// The simulated market the catalogue bench measures recall on (scripts/lib/market-simulator.ts): a store lists a
// product once, as real stores do (a second listing in one store is a second version, decision 087), even a product
// so popular that every store lists it already.
import { describe, expect, it } from "vitest";
import { simulateMarket } from "../../../scripts/lib/market-simulator";

describe("the simulated market", () => {
  it("never lists one product twice in one store, however popular", () => {
    const market = simulateMarket({ seed: 3, stores: 4, products: 40, listings: 120 });
    expect(market.listings).toHaveLength(120);
    const pairs = market.listings.map((l) => `${l.storeId}/${l.productId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});
