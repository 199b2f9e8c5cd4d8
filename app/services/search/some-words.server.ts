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
//   (100,000 products that carry one word of "portable xyzzyplughq": ~5 ms instead of ~100), and only as far as the
//   pages asked for so far: the first page stops the walk once it is full (the rest is walked when a later page asks);
// - a row can only be kept if it carries a word outside the broadest words that together weigh less than half the
//   text, so only those other words' rows are visited ("chopper portable" visits the choppers, not 100,000 portables).
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

/** A ranking's rows in order, made as far as the pages asked for need. */
export interface RankedRows {
  readonly length: number;
  /** The rows at places [start, end) of the ranking. */
  page(start: number, end: number): Int32Array;
}

/** Kept rows in their order, and how many carry every word (0 when a word matches nothing); null when none is kept. */
export async function rankSomeWords(
  text: TextMatcher,
  index: CatalogIndex,
  q: ProductQuery,
  terms: string[],
  filter: ((row: number) => boolean) | null,
): Promise<{ rows: RankedRows; allWords: number } | null> {
  const sets: MatchSet[] = [];
  for (const term of terms) sets.push(await text.all(index, term));
  const weights = sets.map((set) => (set.rows.length === 0 ? 0 : Math.log((index.size + 1) / (set.rows.length + 0.5))));
  const full = weights.reduce((a, b) => a + b, 0);
  if (full === 0) return null;
  const half = full / 2 - 1e-4;
  const live = terms.map((_, k) => k).filter((k) => weights[k] > 0);
  // One word matches anything (the others match nothing): its products, title matches first.
  if (live.length === 1) {
    const rows = oneWord(index, q, sets[live[0]], await text.all(index, `title : ${terms[live[0]]}`), filter);
    return rows && { rows, allWords: 0 };
  }
  const liveSets = live.map((k) => sets[k]);
  const liveWeights = live.map((k) => weights[k]);

  // The broadest words that together weigh less than half the text cannot keep a row without another word: only the
  // other words' rows are visited.
  const visited = new Set(live);
  let light = 0;
  for (const k of [...live].sort((a, b) => sets[b].rows.length - sets[a].rows.length)) {
    if (light + weights[k] >= half - 1e-3) break;
    light += weights[k];
    visited.delete(k);
  }
  // Whether a row is kept counts every word it has anywhere. Each matching row is visited once.
  const seen = new Uint32Array((index.size >>> 5) + 1);
  const kept: number[] = [];
  for (const k of live) {
    if (!visited.has(k)) continue;
    const rows = sets[k].rows;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const bit = 1 << (row & 31);
      if ((seen[row >>> 5] & bit) !== 0) continue;
      seen[row >>> 5] |= bit;
      let coverage = 0;
      for (let j = 0; j < liveSets.length; j++) if (liveSets[j].has(row)) coverage = Math.fround(coverage + liveWeights[j]);
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
  const liveTitles = live.map((k) => inTitle[k]);
  for (let i = 0; i < n; i++) {
    const row = kept[i];
    let w = 0;
    let words = 0;
    for (let j = 0; j < liveSets.length; j++) {
      if (!liveSets[j].has(row)) continue;
      words++;
      w = Math.fround(w + (liveTitles[j].has(row) ? liveWeights[j] : liveWeights[j] * OUTSIDE_TITLE_WEIGHT));
    }
    weight[i] = w;
    if (words === live.length) {
      every[i] = 1;
      everyCount++;
    }
  }
  const rows =
    n * Math.log2(n + 1) * COMPARISON_STEPS > index.size ? byWalk(index, q, kept, every, weight) : whole(bySort(index, q, kept, every, weight));
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

/** A ranking made whole at once. */
function whole(rows: Int32Array): RankedRows {
  return { length: rows.length, page: (start, end) => rows.subarray(start, end) };
}

/** Rows walked along the sort's order at a time, between checks of whether the pages asked for are full. */
const WALK_STEP = 4096;

/** Every word first, then the heaviest, then the sort's order, by comparing rows (few kept rows). */
function bySort(index: CatalogIndex, q: ProductQuery, kept: number[], every: Uint8Array, weight: Float32Array): Int32Array {
  const order = rowOrder(index, q);
  const at = Array.from(kept, (_, i) => i);
  at.sort((a, b) => every[b] - every[a] || weight[b] - weight[a] || order(kept[a], kept[b]));
  return Int32Array.from(at, (i) => kept[i]);
}

/**
 * The same order for many kept rows: their groups (every word, weight) best first, each filled along the sort's walk,
 * walked only as far as the pages asked for need (until then the ranking holds a byte per catalogue row).
 */
function byWalk(index: CatalogIndex, q: ProductQuery, kept: number[], every: Uint8Array, weight: Float32Array): RankedRows {
  // A float32 weight plus 2^20 for "every word" is exact in a double: one number orders a row's group, kept in a
  // typed array (a Set or Map of fractional numbers allocates one object per row).
  const key = Float64Array.from(kept, (_, i) => every[i] * 2 ** 20 + weight[i]);
  // The distinct keys, highest first: a text of a few words makes a few groups (found by a short scan per row).
  const keys: number[] = [];
  for (let i = 0; i < key.length && keys.length <= GROUPS_SCANNED; i++) if (!keys.includes(key[i])) keys.push(key[i]);
  if (keys.length > GROUPS_SCANNED) return whole(bySort(index, q, kept, every, weight));
  keys.sort((a, b) => b - a);
  // Group 1 is the best (highest key).
  const groupOf = new Uint8Array(index.size);
  for (let i = 0; i < kept.length; i++) groupOf[kept[i]] = keys.indexOf(key[i]) + 1;
  const distinct = keys.length;
  const count = new Int32Array(distinct + 1);
  for (let i = 0; i < kept.length; i++) count[groupOf[kept[i]]]++;
  return walkInGroups(index, q, (row) => groupOf[row], count);
}

/**
 * The rows of a text's one matching word (the other words match nothing) in the order the general ranking gives them:
 * every row carries every word that matches, so the title matches (the word's whole weight) come first, then the
 * others (half of it), each in the sort's order. Nothing is built per row beyond two counts.
 */
function oneWord(index: CatalogIndex, q: ProductQuery, set: MatchSet, title: MatchSet, filter: ((row: number) => boolean) | null): RankedRows | null {
  const count = new Int32Array(3);
  for (let i = 0; i < set.rows.length; i++) {
    const row = set.rows[i];
    if (filter && !filter(row)) continue;
    count[title.has(row) ? 1 : 2]++;
  }
  if (count[1] + count[2] === 0) return null;
  return walkInGroups(index, q, (row) => (!set.has(row) || (filter && !filter(row)) ? 0 : title.has(row) ? 1 : 2), count);
}

/**
 * Rows in groups (1 the best; 0: not in the ranking) with count[g] rows each, every group in the sort's order, walked
 * along that order only as far as the pages asked for need (until then the ranking holds what groupOf holds).
 */
function walkInGroups(index: CatalogIndex, q: ProductQuery, groupOf: (row: number) => number, count: Int32Array): RankedRows {
  const distinct = count.length - 1;
  let total = 0;
  for (let g = 1; g <= distinct; g++) total += count[g];
  // Where each group starts in the output, then the walk along the sort's order fills them.
  const start = new Int32Array(distinct + 1);
  for (let g = 2; g <= distinct; g++) start[g] = start[g - 1] + count[g - 1];
  // Relevance ranks by FTS5 and never comes here; its partial matches would follow the default order.
  const at = walker(index, q.sort === "relevance" ? { ...q, sort: "winning-score" } : q);
  const out = new Int32Array(total);
  // Where each group's next row goes; the group is full at start[g] + count[g].
  const filled = start.slice();
  let group: ((row: number) => number) | null = groupOf;
  let placed = 0;
  let i = 0;
  /** Whether every group with a place in [from, to) has its rows there. */
  const ready = (from: number, to: number) => {
    for (let g = 1; g <= distinct; g++) {
      const end = start[g] + count[g];
      if (start[g] < to && end > from && filled[g] < Math.min(end, to)) return false;
    }
    return true;
  };
  return {
    length: total,
    page(from, to) {
      const upTo = Math.min(to, total);
      while (group && !ready(from, upTo)) {
        const of: (row: number) => number = group;
        for (const stop = Math.min(index.size, i + WALK_STEP); i < stop && placed < total; i++) {
          const row = at(i);
          const g = of(row);
          if (g === 0) continue;
          out[filled[g]++] = row;
          placed++;
        }
        // Walked whole: what told the groups apart is let go.
        if (placed === total || i >= index.size) group = null;
      }
      return out.subarray(from, upTo);
    },
  };
}
