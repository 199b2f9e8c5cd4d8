// Which products match a free-text query, from SQLite FTS5 (BM25, porter stemming, diacritics folded), or on PostgreSQL
// from its English text search over the same columns (postgres-text.server.ts, decision 098).
// Match sets are cached per catalogue version as sorted row lists, so paging through a query or
// repeating a popular word reads the posting list once.
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

export class TextMatcher {
  private cache = new Map<string, MatchSet>();
  private cacheVersion = -1;

  constructor(private readonly sql: SqlReader) {}

  private remember(key: string, set: MatchSet) {
    this.cache.delete(key);
    this.cache.set(key, set);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
  }

  cached(index: CatalogIndex, fts: string): MatchSet | undefined {
    if (this.cacheVersion !== index.version || this.cacheSize !== index.size) return undefined;
    const hit = this.cache.get(fts);
    if (hit) this.remember(fts, hit);
    return hit;
  }

  private cacheSize = -1;

  /** Every matching row, read from the FTS5 posting lists. */
  async all(index: CatalogIndex, fts: string): Promise<MatchSet> {
    if (this.cacheVersion !== index.version || this.cacheSize !== index.size) {
      this.cache.clear();
      this.rankedCache.clear();
      this.cacheVersion = index.version;
      this.cacheSize = index.size;
    }
    const hit = this.cached(index, fts);
    if (hit) return hit;
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
    const set = new RowMatchSet(rows, index.size);
    this.remember(fts, set);
    return set;
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
