// The products matching most of a text (issue 25, decision 056): each word weighs by how rare it is in the catalogue
// (log of catalogue size over its matches; a word matching nothing weighs 0), a product is kept when the words it
// carries anywhere weigh at least half the text; those carrying every word come first, then the heaviest with words
// outside the title counting half, then the sort's order.
//
// What it reads and computes is kept to what the first search needs (issue 35, item 19; decision 093):
// - each word's matches are read whole (their number is the word's weight), but a word that cannot keep a product
//   alone has its title matches read only among the products carrying another word ("chopper portable" reads the
//   portable choppers' titles, not 100,000 portable products');
// - the per-row sums are made for the matching rows only (a bit per catalogue row marks a row seen), in the same
//   32-bit floats as before, so ties fall as they always did;
// - many kept products are put in the sort's order by walking its precomputed order once, not by comparing them
//   (100,000 products that carry one word of "portable xyzzyplughq": ~5 ms instead of ~100).
import type { ProductQuery } from "~/domain/products/product-query";
import type { CatalogIndex } from "~/services/search/catalog-index.server";
import { rowOrder, walker } from "~/services/search/row-order.server";
import type { MatchSet, TextMatcher } from "~/services/search/text-matcher.server";

/** A word found only in a product's description, niches or tags counts this share of its weight. */
const OUTSIDE_TITLE_WEIGHT = 0.5;
/** One comparison of two rows costs about this many steps of a walk along a sort's order (closures, typed arrays). */
const COMPARISON_STEPS = 10;
/** Past this many distinct (every word, weight) groups, kept rows are compared instead (a text of many words). */
const GROUPS_SCANNED = 32;

/** Kept rows in their order, and how many carry every word (0 when a word matches nothing); null when none is kept. */
export async function rankSomeWords(
  text: TextMatcher,
  index: CatalogIndex,
  q: ProductQuery,
  terms: string[],
  filter: ((row: number) => boolean) | null,
): Promise<{ rows: Int32Array; allWords: number } | null> {
  const sets: MatchSet[] = [];
  for (const term of terms) sets.push(await text.all(index, term));
  const weights = sets.map((set) => (set.rows.length === 0 ? 0 : Math.log((index.size + 1) / (set.rows.length + 0.5))));
  const full = weights.reduce((a, b) => a + b, 0);
  if (full === 0) return null;
  const half = full / 2 - 1e-4;
  const live = terms.map((_, k) => k).filter((k) => weights[k] > 0);

  // Whether a row is kept counts every word it has anywhere. Each matching row is visited once.
  const seen = new Uint32Array((index.size >>> 5) + 1);
  const kept: number[] = [];
  for (const k of live) {
    const rows = sets[k].rows;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const bit = 1 << (row & 31);
      if ((seen[row >>> 5] & bit) !== 0) continue;
      seen[row >>> 5] |= bit;
      let coverage = 0;
      for (const j of live) if (sets[j].has(row)) coverage = Math.fround(coverage + weights[j]);
      if (coverage < half || (filter && !filter(row))) continue;
      kept.push(row);
    }
  }
  // Nothing carries half the text: the text as typed stands (it found few products).
  if (kept.length === 0) return null;

  // A kept row's place counts its title words whole and its other words half.
  const inTitle: MatchSet[] = [];
  for (const k of live) {
    const whole = `title : ${terms[k]}`;
    inTitle[k] = text.cached(index, whole) ?? (await text.all(index, titleQuery(terms, sets, weights, k, half)));
  }
  const n = kept.length;
  const every = new Uint8Array(n);
  const weight = new Float32Array(n);
  let everyCount = 0;
  for (let i = 0; i < n; i++) {
    const row = kept[i];
    let w = 0;
    let words = 0;
    for (const k of live) {
      if (!sets[k].has(row)) continue;
      words++;
      w = Math.fround(w + (inTitle[k].has(row) ? weights[k] : weights[k] * OUTSIDE_TITLE_WEIGHT));
    }
    weight[i] = w;
    if (words === live.length) {
      every[i] = 1;
      everyCount++;
    }
  }
  const rows =
    n * Math.log2(n + 1) * COMPARISON_STEPS > index.size ? byWalk(index, q, kept, every, weight) : bySort(index, q, kept, every, weight);
  return { rows, allWords: live.length < terms.length ? 0 : everyCount };
}

/**
 * The FTS5 query for word k's title matches that a ranking needs: all of them when the word can keep a product alone;
 * else only those among the products carrying another word, when those are fewer to read than the word's own.
 */
function titleQuery(terms: string[], sets: MatchSet[], weights: number[], k: number, half: number): string {
  const whole = `title : ${terms[k]}`;
  const others = terms.filter((_, j) => j !== k && weights[j] > 0);
  if (others.length === 0 || Math.fround(weights[k]) >= half) return whole;
  const beside = sets.reduce((sum, set, j) => (j !== k && weights[j] > 0 ? sum + set.rows.length : sum), 0);
  if (beside >= sets[k].rows.length) return whole;
  return `(${whole}) AND (${others.join(" OR ")})`;
}

/** Every word first, then the heaviest, then the sort's order, by comparing rows (few kept rows). */
function bySort(index: CatalogIndex, q: ProductQuery, kept: number[], every: Uint8Array, weight: Float32Array): Int32Array {
  const order = rowOrder(index, q);
  const at = Array.from(kept, (_, i) => i);
  at.sort((a, b) => every[b] - every[a] || weight[b] - weight[a] || order(kept[a], kept[b]));
  return Int32Array.from(at, (i) => kept[i]);
}

/** The same order for many kept rows: their groups (every word, weight) best first, each filled along the sort's walk. */
function byWalk(index: CatalogIndex, q: ProductQuery, kept: number[], every: Uint8Array, weight: Float32Array): Int32Array {
  // A float32 weight plus 2^20 for "every word" is exact in a double: one number orders a row's group, kept in a
  // typed array (a Set or Map of fractional numbers allocates one object per row).
  const key = Float64Array.from(kept, (_, i) => every[i] * 2 ** 20 + weight[i]);
  // The distinct keys, highest first: a text of a few words makes a few groups (found by a short scan per row).
  const keys: number[] = [];
  for (let i = 0; i < key.length && keys.length <= GROUPS_SCANNED; i++) if (!keys.includes(key[i])) keys.push(key[i]);
  if (keys.length > GROUPS_SCANNED) return bySort(index, q, kept, every, weight);
  keys.sort((a, b) => b - a);
  // Group 1 is the best (highest key).
  const groupOf = new Uint8Array(index.size);
  for (let i = 0; i < kept.length; i++) groupOf[kept[i]] = keys.indexOf(key[i]) + 1;
  const distinct = keys.length;
  // Where each group starts in the output, then one walk along the sort's order fills them.
  const count = new Int32Array(distinct + 1);
  for (let i = 0; i < kept.length; i++) count[groupOf[kept[i]]]++;
  const start = new Int32Array(distinct + 1);
  for (let g = 2; g <= distinct; g++) start[g] = start[g - 1] + count[g - 1];
  // Relevance ranks by FTS5 and never comes here; its partial matches would follow the default order.
  const at = walker(index, q.sort === "relevance" ? { ...q, sort: "winning-score" } : q);
  const out = new Int32Array(kept.length);
  let placed = 0;
  for (let i = 0; i < index.size && placed < kept.length; i++) {
    const row = at(i);
    const g = groupOf[row];
    if (g === 0) continue;
    out[start[g]++] = row;
    placed++;
  }
  return out;
}
