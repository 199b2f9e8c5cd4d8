// The in-memory catalogue index: product id -> row with and without gaps in the ids, and the orders
// it builds per sort.
import { describe, expect, it } from "vitest";
import { CatalogIndex, type CatalogColumns } from "~/services/search/catalog-index.server";

function columns(ids: number[], orders: number[]): CatalogColumns {
  const n = ids.length;
  const int = (values: number[]) => Int32Array.from(values);
  const zeros = () => new Int32Array(n);
  return {
    size: n,
    ids: int(ids),
    price: zeros(),
    dollars: new Uint8Array(n).fill(1),
    cost: zeros(),
    margin: zeros(),
    noSales: new Uint8Array(n),
    source: new Uint8Array(n),
    storesAdded7d: zeros(),
    orders: int(orders),
    revenueDollars: new Uint32Array(n),
    engagement: zeros(),
    views: zeros(),
    stores: zeros(),
    stage: new Uint8Array(n),
    firstSeenDay: zeros(),
    amazon: zeros(),
    score: new Uint8Array(n),
    trending: zeros(),
    random: zeros(),
    niches: new Uint8Array(n * 4),
  };
}

describe("CatalogIndex.rowOf", () => {
  it("maps consecutive ids to rows without a lookup table", () => {
    const index = new CatalogIndex(1, columns([5, 6, 7, 8], [1, 2, 3, 4]), [""]);
    expect([5, 6, 7, 8].map((id) => index.rowOf(id))).toEqual([0, 1, 2, 3]);
    expect([4, 9, -1, 0].map((id) => index.rowOf(id))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("maps ids with gaps (deleted products) through the table", () => {
    const index = new CatalogIndex(1, columns([2, 3, 10, 11], [1, 2, 3, 4]), [""]);
    expect([2, 3, 10, 11].map((id) => index.rowOf(id))).toEqual([0, 1, 2, 3]);
    expect([1, 4, 9, 12, -3].map((id) => index.rowOf(id))).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("handles an empty catalogue", () => {
    const index = new CatalogIndex(1, columns([], []), [""]);
    expect(index.rowOf(1)).toBeUndefined();
    expect(index.size).toBe(0);
  });

  it("orders rows by a sort's value, ties to the higher id", () => {
    const index = new CatalogIndex(1, columns([1, 2, 3, 4], [10, 30, 10, 20]), [""]);
    expect(Array.from(index.orders.get("orders")!)).toEqual([1, 3, 2, 0]);
  });
});
