// Which products match a free-text query, from SQLite FTS5 (BM25, porter stemming, diacritics folded), or on PostgreSQL
// from its English text search over the same columns (postgres-text.server.ts, decision 098).
// Match sets are cached per catalogue version as sorted row lists, so paging through a query or
// repeating a popular word reads the posting list once.
//
// The slow first reads are the broad words' (a word in 10% of a million products: ~100,000 row ids to read and
// parse, tens of milliseconds; a rare word's take well under one). So when a large catalogue's index version loads,
// the posting lists of its broadest words are read with it and kept for that version (`warm`), and a text of several
// words whose every word's matches are at hand is intersected in memory instead of read again (issue 35, item 19).
import type { SqlReader } from "~/db.server";
import type { CatalogIndex } from "~/services/search/catalog-index.server";
import { postgresMatchSql, postgresRankedSql } from "~/services/search/postgres-text.server";

export interface MatchSet {
  /** Catalogue rows (not product ids) that match, in ascending row order. */
  rows: Int32Array;
  /** membership[row] === 1 when the row matches. */
  has(row: number): boolean;
}

class RowMatchSet implements MatchSet {
  private readonly bits: Uint32Array;
  constructor(
    readonly rows: Int32Array,
    size: number,
  ) {
    this.bits = new Uint32Array((size >>> 5) + 1);
    for (let i = 0; i < rows.length; i++) this.bits[rows[i] >>> 5] |= 1 << (rows[i] & 31);
  }
  has(row: number) {
    return (this.bits[row >>> 5] & (1 << (row & 31))) !== 0;
  }
}

const CACHE_ENTRIES = 64;
/** Below this many products every posting list reads in a few milliseconds: nothing is read ahead. */
const WARM_FROM_SIZE = 50_000;
/** Words of the titles and niches carried by at least this share of the products are read ahead... */
const WARM_SHARE = 0.02;
/** ...at most this many, the broadest first (each costs its rows twice and two bits per product: ~1 MB at a million). */
const WARM_WORDS = 48;

/** The quoted terms of an FTS5 query that is only terms joined by spaces (every one must match); null otherwise. */
function andTerms(fts: string): string[] | null {
  const terms = fts.match(/"[^"]*"\*?/g);
  return terms && terms.length > 1 && terms.join(" ") === fts ? terms : null;
}

/** The rows in every set (each in ascending row order): the smallest set's rows that the others hold. */
function intersect(sets: MatchSet[], size: number): MatchSet {
  const [smallest, ...others] = [...sets].sort((a, b) => a.rows.length - b.rows.length);
  const out = new Int32Array(smallest.rows.length);
  let count = 0;
  for (let i = 0; i < smallest.rows.length; i++) {
    const row = smallest.rows[i];
    if (others.every((set) => set.has(row))) out[count++] = row;
  }
  return new RowMatchSet(out.slice(0, count), size);
}

export class TextMatcher {
  private cache = new Map<string, MatchSet>();
  private cacheVersion = -1;
  /** The broadest words' match sets, read when an index version loaded (`warm`), kept as long as that version. */
  private readonly warmed = new WeakMap<CatalogIndex, Map<string, MatchSet>>();

  constructor(private readonly sql: SqlReader) {}

  private remember(key: string, set: MatchSet) {
    this.cache.delete(key);
    this.cache.set(key, set);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  cached(index: CatalogIndex, fts: string): MatchSet | undefined {
    const warm = this.warmed.get(index)?.get(fts);
    if (warm) return warm;
    if (this.cacheVersion !== index.version || this.cacheSize !== index.size) return undefined;
    const hit = this.cache.get(fts);
    if (hit) this.remember(fts, hit);
    return hit;
  }

  private cacheSize = -1;

  /**
   * Reads the match sets of the catalogue's broadest words (by the vocabulary's counts of titles and niches) for this
   * index version, before it serves: a search's first read of one of them then costs nothing. Catalogues smaller
   * than `fromSize` read nothing ahead.
   */
  async warm(index: CatalogIndex, fromSize = WARM_FROM_SIZE): Promise<void> {
    if (index.size < fromSize) return;
    const { words, counts } = index.vocabulary;
    const broad: number[] = [];
    for (let i = 0; i < words.length; i++) if (counts[i] >= index.size * WARM_SHARE) broad.push(i);
    broad.sort((a, b) => counts[b] - counts[a]);
    const sets = new Map<string, MatchSet>();
    for (const i of broad.slice(0, WARM_WORDS)) {
      // The word anywhere, and in titles alone (a partial match's ranking weighs title words whole: some-words.server.ts).
      for (const fts of [`"${words[i]}"`, `title : "${words[i]}"`]) sets.set(fts, await this.read(index, fts));
    }
    this.warmed.set(index, sets);
  }

  /** Every matching row, read from the FTS5 posting lists (or intersected from its words' sets when all are at hand). */
  async all(index: CatalogIndex, fts: string): Promise<MatchSet> {
    if (this.cacheVersion !== index.version || this.cacheSize !== index.size) {
      this.cache.clear();
      this.rankedCache.clear();
      this.cacheVersion = index.version;
      this.cacheSize = index.size;
    }
    const hit = this.cached(index, fts);
    if (hit) return hit;
    const held = andTerms(fts)?.map((term) => this.cached(index, term));
    const set = held?.every((s) => s !== undefined) ? intersect(held as MatchSet[], index.size) : await this.read(index, fts);
    this.remember(fts, set);
    return set;
  }

  /** The rows an FTS5 query matches, read from the posting lists (not cached). */
  private async read(index: CatalogIndex, fts: string): Promise<MatchSet> {
    // One row holding every id keeps the transfer to a single value instead of one object per match.
    // On PostgreSQL, its English text search over the same columns (decision 098).
    const read =
      this.sql.dialect === "postgresql"
        ? postgresMatchSql(fts)
        : { sql: `SELECT group_concat(rowid) FROM "ProductSearch" WHERE "ProductSearch" MATCH ?`, args: [fts] };
    const [[list]] = (await this.sql.rows(read.sql, read.args)) as [[string | null]];
    // Parse the digits by hand: ~10x faster than split + Number for 100k ids. FTS5 returns rowids in
    // ascending order and catalogue rows follow product ids, so the rows come out sorted.
    const out = new Int32Array(list ? list.length / 2 + 1 : 0);
    let count = 0;
    let sorted = true;
    if (list) {
      let value = 0;
      for (let i = 0; i <= list.length; i++) {
        const c = i < list.length ? list.charCodeAt(i) : 44;
        if (c === 44) {
          const row = index.rowOf(value);
          if (row !== undefined) {
            if (count > 0 && row < out[count - 1]) sorted = false;
            out[count++] = row;
          }
          value = 0;
        } else {
          value = value * 10 + (c - 48);
        }
      }
    }
    const rows = out.slice(0, count);
    if (!sorted) rows.sort();
    return new RowMatchSet(rows, index.size);
  }

  /** Product ids in BM25 order (best first), for sort=relevance. */
  async ranked(fts: string, limit: number): Promise<number[]> {
    // BM25 scores every match (~70 ms for a word in 4% of a million products): keep the ranking of
    // recent texts for the same catalogue version (cleared with the match sets).
    const key = `${fts}\u0000${limit}`;
    const hit = this.rankedCache.get(key);
    if (hit) return hit;
    const ids = await this.rankedUncached(fts, limit);
    this.rankedCache.set(key, ids);
    if (this.rankedCache.size > CACHE_ENTRIES) this.rankedCache.delete(this.rankedCache.keys().next().value!);
    return ids;
  }

  private rankedCache = new Map<string, number[]>();

  private async rankedUncached(fts: string, limit: number): Promise<number[]> {
    const read =
      this.sql.dialect === "postgresql"
        ? postgresRankedSql(fts, limit)
        : { sql: `SELECT rowid FROM "ProductSearch" WHERE "ProductSearch" MATCH ? ORDER BY rank LIMIT ?`, args: [fts, limit] };
    const rows = await this.sql.rows(read.sql, read.args);
    return rows.map((r) => Number(r[0]));
  }
}
