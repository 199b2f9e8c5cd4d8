// The order a sort gives the catalogue's rows, two ways that agree: walking the sort's precomputed order from a
// position (walker), and comparing two rows (rowOrder), for the few rows a text matched (docs/decisions/012, 093).
import type { ProductQuery } from "~/domain/products/product-query";
import type { CatalogIndex, IndexedSort } from "~/services/search/catalog-index.server";

/** Position i of the walk for this query's sort (backwards for price-asc, rotated for random). */
export function walker(index: CatalogIndex, q: ProductQuery) {
  const { order, reverse, rotate, tail } = index.walkOrder(q.sort);
  const n = order.length;
  const offset = rotate ? q.seed % n : 0;
  // Backwards, the tail (prices in other currencies, decision 059) still comes last.
  const head = n - tail;
  if (reverse) return (i: number) => order[i < head ? head - 1 - i : i];
  return (i: number) => order[(i + offset) % n];
}

/** Compares two rows in the order the query's sort walks them (relevance: by winning score). */
export function rowOrder(index: CatalogIndex, q: ProductQuery): (a: number, b: number) => number {
  if (q.sort === "random") {
    // The visitor's rotation of the random order: a row's position in it decides.
    const { order } = index.walkOrder(q.sort);
    const rank = rankOf(index, order);
    const n = order.length;
    const offset = q.seed % n;
    const key = (row: number) => (rank[row] - offset + n) % n;
    return (a, b) => key(a) - key(b);
  }
  // The same order the sort's precomputed walk gives: the key descending and ties to the higher
  // row, or (price ascending) the exact reverse.
  const ascending = q.sort === "price-asc";
  const sort: IndexedSort = ascending ? "price" : q.sort === "relevance" ? "winning-score" : (q.sort as IndexedSort);
  const value = index.sortValue(sort);
  if (ascending) {
    // Lowest dollar price first, ties to the lower row; prices in other currencies after them (decision 059),
    // in the order the backwards walk gives them (ties to the higher row).
    const dollars = index.cols.dollars;
    return (a, b) => dollars[b] - dollars[a] || (dollars[a] === 1 ? value(a) - value(b) || a - b : b - a);
  }
  return (a, b) => value(b) - value(a) || b - a;
}

/** Positions in the random order, built the first time a random sort needs them (4 bytes a product). */
const ranks = new WeakMap<Int32Array, Int32Array>();
function rankOf(index: CatalogIndex, order: Int32Array): Int32Array {
  let rank = ranks.get(order);
  if (!rank) {
    rank = new Int32Array(index.size);
    for (let i = 0; i < order.length; i++) rank[order[i]] = i;
    ranks.set(order, rank);
  }
  return rank;
}

