// Which products match a free-text query, from SQLite FTS5 (BM25, porter stemming, diacritics folded).
// Match sets are cached per catalogue version as sorted row lists, so paging through a query or
// repeating a popular word reads the posting list once.
import type { SqlReader } from "~/db.server";
import type { CatalogIndex } from "~/services/search/catalog-index.server";

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
      this.cacheVersion = index.version;
      this.cacheSize = index.size;
    }
    const hit = this.cached(index, fts);
    if (hit) return hit;
    // One row holding every id keeps the transfer to a single value instead of one object per match.
    const [[list]] = (await this.sql.rows(
      `SELECT group_concat(rowid) FROM "ProductSearch" WHERE "ProductSearch" MATCH ?`,
      [fts],
    )) as [[string | null]];
    const rows: number[] = [];
    if (list) {
      for (const part of list.split(",")) {
        const row = index.rowOf(Number(part));
        if (row !== undefined) rows.push(row);
      }
    }
    const sorted = Int32Array.from(rows).sort();
    const set = new RowMatchSet(sorted, index.size);
    this.remember(fts, set);
    return set;
  }

  /** Which of these product ids match: for a cheap first look before reading a whole posting list. */
  async some(fts: string, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const placeholders = ids.map(() => "?").join(",");
    const rows = await this.sql.rows(
      `SELECT rowid FROM "ProductSearch" WHERE "ProductSearch" MATCH ? AND rowid IN (${placeholders})`,
      [fts, ...ids],
    );
    return new Set(rows.map((r) => Number(r[0])));
  }

  /** Product ids in BM25 order (best first), for sort=relevance. */
  async ranked(fts: string, limit: number): Promise<number[]> {
    const rows = await this.sql.rows(
      `SELECT rowid FROM "ProductSearch" WHERE "ProductSearch" MATCH ? ORDER BY rank LIMIT ?`,
      [fts, limit],
    );
    return rows.map((r) => Number(r[0]));
  }
}
