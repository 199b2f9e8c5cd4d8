// The in-memory side of the built-in product search (docs/decisions/012): every filterable and
// sortable figure of every product in typed arrays, plus one precomputed order per sort. A query walks
// the order of its sort and keeps the rows that pass its filters (and its text match, from FTS5) until
// the page is full, so the first page of a broad query never sorts every match.
// ~55 bytes a product plus 4 bytes per sort (ten sorts): about 95 MB for 1,000,000 products.
// It also holds the catalogue's vocabulary (the words of titles and niches with their counts) for
// spelling corrections: ~40 KB for the generated 1M catalogue (880 words), ~10 MB if it had 200,000
// distinct words (bench/search.ts measures both).
import type { SqlReader } from "~/db.server";
import type { ProductQuery, Sort } from "~/domain/products/product-query";
import { STAGES } from "~/domain/products/product-query";
import { Vocabulary, VocabularyBuilder } from "~/domain/products/spelling";

const CHUNK = 100_000;
const MAX_NICHES_PER_PRODUCT = 4;

export type IndexedSort = Exclude<Sort, "relevance" | "price-asc">;
const SORT_KEYS: IndexedSort[] = ["winning-score", "orders", "revenue", "margin", "price", "newest", "trending", "random", "storesAdded7d", "storesSelling"];

/** Where a product comes from (Product.source), as a code in the `source` column. */
export const SOURCE_CODES = { catalog: 0, "tracked-store": 1, measured: 2 } as const;

export interface CatalogColumns {
  size: number;
  ids: Int32Array;
  price: Int32Array;
  /**
   * 1 when the price is in US dollars (the price filter's and sorts' currency), or converted into dollars at a dated
   * reference rate (`price` then holds Product.priceUsdCents; decision 089); 0 otherwise (decision 059).
   */
  dollars: Uint8Array;
  /** -1 when the supplier cost is unknown (docs/decisions/026). */
  cost: Int32Array;
  /**
   * The margin after duty and fees (Product.landedMarginBps, decision 065): what minMargin, maxMargin and sort=margin
   * read. UNKNOWN_MARGIN when the product has none (cost unknown, price not in dollars, no duty rate for its code).
   */
  margin: Int32Array;
  /** 1 for a product without sales data (added from a tracked store, or measured): its sales figures are placeholders. */
  noSales: Uint8Array;
  /** SOURCE_CODES: a tracked-store product has no store figures either; only a measured one has storesAdded7d. */
  source: Uint8Array;
  storesAdded7d: Int32Array;
  orders: Int32Array;
  /** Revenue in whole dollars (fits 32 bits up to $4bn). Filters compare in cents / 100. */
  revenueDollars: Uint32Array;
  engagement: Int32Array;
  views: Int32Array;
  stores: Int32Array;
  stage: Uint8Array;
  firstSeenDay: Int32Array;
  /** -1 when the product has no Amazon price. */
  amazon: Int32Array;
  score: Uint8Array;
  trending: Int32Array;
  random: Int32Array;
  /** Up to four niche codes per product (0 = none), codes index `nicheNames`. */
  niches: Uint8Array;
}

/** The margin of a product that has none (an unknown cost): below every known margin, and never in a margin filter. */
const UNKNOWN_MARGIN = -(2 ** 31);
/** Sort value of a figure a product does not have: after every product that has it (docs/decisions/026). */
const UNKNOWN_LAST = -(2 ** 31);

/**
 * One chunk of products as ONE string, a line per product with its figures separated by commas (see load), in
 * SQLite's words or PostgreSQL's (decision 098): the same columns, computed the same way, in id order.
 */
function chunkSql(dialect: SqlReader["dialect"]): string {
  const pg = dialect === "postgresql";
  const q = (column: string) => (pg ? `"${column}"` : column);
  const orElse = pg ? "COALESCE" : "IFNULL";
  const day = pg
    ? `floor(extract(epoch FROM "firstSeenAt") / 86400)::bigint`
    : `(CAST(strftime('%s', firstSeenAt) AS INTEGER) / 86400)`;
  const line = `${q("id")} || ',' || (CASE WHEN ${q("priceCurrency")} IS NULL THEN ${q("priceCents")} ELSE ${orElse}(${q("priceUsdCents")}, ${q("priceCents")}) END)
     || ',' || ${orElse}(${q("costCents")}, -1) || ',' || ${orElse}(${q("landedMarginBps")}, ${UNKNOWN_MARGIN}) || ',' || ${q("orders")}
     || ',' || (CAST(${q("revenueCents")} / 100 AS ${pg ? "BIGINT" : "INTEGER"})) || ',' || (${q("likes")} + ${q("comments")} + ${q("shares")}) || ',' || ${q("views")}
     || ',' || ${q("storesSelling")}
     || ',' || (CASE ${q("lifecycleStage")} WHEN 'emerging' THEN 1 WHEN 'rising' THEN 2 WHEN 'peak' THEN 3 WHEN 'declining' THEN 4 ELSE 0 END)
     || ',' || ${day}
     || ',' || (${orElse}(${q("amazonPriceCents")}, -1)) || ',' || ${q("winningScore")} || ',' || ${q("trendingScore")} || ',' || ${q("randomSortKey")}
     || ',' || (CASE ${q("source")} WHEN 'tracked-store' THEN ${SOURCE_CODES["tracked-store"]} WHEN 'measured' THEN ${SOURCE_CODES.measured} ELSE ${SOURCE_CODES.catalog} END)
     || ',' || ${q("storesAdded7d")}
     || ',' || (CASE WHEN ${q("priceCurrency")} IS NULL OR ${q("priceUsdCents")} IS NOT NULL THEN 1 ELSE 0 END)
     || ',' || replace(replace(replace(replace(${q("niches")}, '[', ''), ']', ''), '"', ''), ',', '|')`;
  return pg
    ? `SELECT string_agg(line, E'\\n' ORDER BY "id") FROM (SELECT "id", ${line} AS line FROM "Product" WHERE "id" > ? ORDER BY "id" LIMIT ?) AS chunk`
    : `SELECT group_concat(line, char(10)) FROM (SELECT ${line} AS line FROM Product WHERE id > ? ORDER BY id LIMIT ?)`;
}

export class CatalogIndex {
  readonly builtAt = Date.now();
  /** Row of each product id; null when ids are dense (one run of consecutive ids), where row = id - firstId. */
  private readonly rowById: Int32Array | null;
  private readonly firstId: number;
  readonly nicheCodes: Map<string, number>;
  readonly orders = new Map<IndexedSort, Int32Array>();

  constructor(
    readonly version: number,
    readonly cols: CatalogColumns,
    readonly nicheNames: string[],
    /** Words of the titles and niches, for spelling corrections; rebuilt with the index per catalogue version. */
    readonly vocabulary: Vocabulary = new Vocabulary(new Map()),
  ) {
    this.nicheCodes = new Map(nicheNames.map((n, i) => [n, i]));
    // Rows are loaded in id order. A catalogue without deleted products has consecutive ids, and then
    // a row is its id minus the first id: no 4 MB lookup table per million products.
    this.firstId = cols.size > 0 ? cols.ids[0] : 0;
    let dense = true;
    for (let row = 0; row < cols.size && dense; row++) dense = cols.ids[row] === this.firstId + row;
    if (dense) {
      this.rowById = null;
    } else {
      let maxId = 0;
      for (let row = 0; row < cols.size; row++) if (cols.ids[row] > maxId) maxId = cols.ids[row];
      this.rowById = new Int32Array(maxId + 1).fill(-1);
      for (let row = 0; row < cols.size; row++) this.rowById[cols.ids[row]] = row;
    }
    for (const key of SORT_KEYS) this.orders.set(key, this.buildOrder(key));
    let other = 0;
    for (let r = 0; r < cols.size; r++) if (cols.dollars[r] === 0) other++;
    this.otherTail = other;
  }

  get size() {
    return this.cols.size;
  }

  rowOf(id: number): number | undefined {
    if (this.rowById === null) {
      const row = id - this.firstId;
      return row >= 0 && row < this.cols.size ? row : undefined;
    }
    const row = id >= 0 && id < this.rowById.length ? this.rowById[id] : -1;
    return row >= 0 ? row : undefined;
  }

  /** A row's value for a sort's key (higher first; ties go to the higher row, i.e. the higher id). */
  sortValue(key: IndexedSort): (row: number) => number {
    const c = this.cols;
    // A figure a product does not have (no sales data; an unknown cost's margin, stored as
    // UNKNOWN_MARGIN) sorts after every product that has it: never ranked as 0 or as 100%.
    const sales = (value: (r: number) => number) => (r: number) => (c.noSales[r] === 1 ? UNKNOWN_LAST : value(r));
    const stores = (value: (r: number) => number) => (r: number) => (c.source[r] === SOURCE_CODES["tracked-store"] ? UNKNOWN_LAST : value(r));
    const measured = (value: (r: number) => number) => (r: number) => (c.source[r] === SOURCE_CODES.measured ? value(r) : UNKNOWN_LAST);
    switch (key) {
      case "winning-score":
        // Measured products first (docs/decisions/048): a measured score and a sample score rest on different
        // evidence (stores adopting it vs a generated order history), so each group is ranked by its own score.
        return stores((r) => (c.source[r] === SOURCE_CODES.measured ? 1000 + c.score[r] : c.score[r]));
      case "storesAdded7d":
        return measured((r) => c.storesAdded7d[r]);
      case "storesSelling":
        return stores((r) => c.stores[r]);
      case "orders":
        return sales((r) => c.orders[r]);
      case "revenue":
        return sales((r) => c.revenueDollars[r]);
      case "margin":
        return (r) => c.margin[r];
      case "price":
        // A price in another currency is not comparable with dollars: after every dollar price (decision 059).
        return (r) => (c.dollars[r] === 1 ? c.price[r] : UNKNOWN_LAST);
      case "newest":
        return (r) => c.firstSeenDay[r];
      case "trending":
        return sales((r) => c.trending[r]);
      case "random":
        return (r) => c.random[r];
    }
  }

  /**
   * Rows in descending order of the key, ties broken by higher product id. Packs (key, row) into one
   * float so the native numeric sort does the work (no comparator calls): ~100 ms for 1M rows.
   */
  private buildOrder(key: IndexedSort): Int32Array {
    const n = this.cols.size;
    const value = this.sortValue(key);
    const packed = new Float64Array(n);
    const ROW_BITS = 2 ** 21; // up to 2,097,152 rows
    for (let r = 0; r < n; r++) {
      // Keys are 32-bit integers; shift to non-negative, then make room for the row number.
      packed[r] = (value(r) + 2 ** 31) * ROW_BITS + r;
    }
    packed.sort();
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = packed[n - 1 - i] % ROW_BITS;
    return order;
  }

  /** A predicate for the query's filters (not its text). Returns null when nothing filters. */
  filter(q: ProductQuery): ((row: number) => boolean) | null {
    const c = this.cols;
    const tests: ((r: number) => boolean)[] = [];
    const inRange = (arr: ArrayLike<number>, min?: number, max?: number) => {
      if (min !== undefined && max !== undefined) tests.push((r) => arr[r] >= min && arr[r] <= max);
      else if (min !== undefined) tests.push((r) => arr[r] >= min);
      else if (max !== undefined) tests.push((r) => arr[r] <= max);
    };
    // A filter on a figure never matches a product that does not have it (docs/decisions/026).
    const bounded = (r: { min?: number; max?: number }) => r.min !== undefined || r.max !== undefined;
    if (bounded(q.cost)) tests.push((r) => c.cost[r] >= 0);
    if (bounded(q.margin)) tests.push((r) => c.margin[r] !== UNKNOWN_MARGIN);
    if ([q.orders, q.revenue, q.engagement, q.views].some(bounded)) tests.push((r) => c.noSales[r] === 0);
    if (bounded(q.stores) || q.stages.length > 0) tests.push((r) => c.source[r] !== SOURCE_CODES["tracked-store"]);
    if (bounded(q.storesAdded7d)) tests.push((r) => c.source[r] === SOURCE_CODES.measured);
    if (q.source === "measured") tests.push((r) => c.source[r] === SOURCE_CODES.measured);
    if (q.source === "sample") tests.push((r) => c.source[r] === SOURCE_CODES.catalog);
    if (bounded(q.price)) tests.push((r) => c.dollars[r] === 1);
    inRange(c.price, q.price.min, q.price.max);
    inRange(c.cost, q.cost.min, q.cost.max);
    inRange(c.margin, q.margin.min, q.margin.max);
    inRange(c.orders, q.orders.min, q.orders.max);
    inRange(
      c.revenueDollars,
      q.revenue.min !== undefined ? Math.ceil(q.revenue.min / 100) : undefined,
      q.revenue.max !== undefined ? Math.floor(q.revenue.max / 100) : undefined,
    );
    inRange(c.engagement, q.engagement.min, q.engagement.max);
    inRange(c.views, q.views.min, q.views.max);
    inRange(c.stores, q.stores.min, q.stores.max);
    inRange(c.storesAdded7d, q.storesAdded7d.min, q.storesAdded7d.max);
    inRange(c.firstSeenDay, q.firstSeen.min, q.firstSeen.max);
    if (q.hasAmazonPrice || q.amazonPrice.min !== undefined || q.amazonPrice.max !== undefined) {
      const min = Math.max(0, q.amazonPrice.min ?? 0);
      const max = q.amazonPrice.max;
      tests.push(max !== undefined ? (r) => c.amazon[r] >= min && c.amazon[r] <= max : (r) => c.amazon[r] >= min);
    }
    if (q.stages.length > 0) {
      const wanted = new Uint8Array(STAGES.length + 1);
      for (const s of q.stages) wanted[STAGES.indexOf(s) + 1] = 1;
      tests.push((r) => wanted[c.stage[r]] === 1);
    }
    if (q.niches.length > 0) {
      const wanted = new Uint8Array(256);
      let any = false;
      for (const n of q.niches) {
        const code = this.nicheCodes.get(n);
        if (code !== undefined) {
          wanted[code] = 1;
          any = true;
        }
      }
      if (!any) return () => false;
      tests.push((r) => {
        const base = r * MAX_NICHES_PER_PRODUCT;
        for (let k = 0; k < MAX_NICHES_PER_PRODUCT; k++) {
          const code = c.niches[base + k];
          if (code === 0) return false;
          if (wanted[code] === 1) return true;
        }
        return false;
      });
    }
    if (tests.length === 0) return null;
    if (tests.length === 1) return tests[0];
    return (r) => {
      for (let i = 0; i < tests.length; i++) if (!tests[i](r)) return false;
      return true;
    };
  }

  /** Products whose price is not in dollars: the tail of the price order, kept last when it is walked backwards. */
  readonly otherTail: number;

  /**
   * The order to walk for a sort, and whether to walk it backwards (price ascending). Walking backwards keeps the
   * last `tail` rows (prices in other currencies) at the end.
   */
  walkOrder(sort: Sort): { order: Int32Array; reverse: boolean; rotate: boolean; tail: number } {
    if (sort === "price-asc") return { order: this.orders.get("price")!, reverse: true, rotate: false, tail: this.otherTail };
    if (sort === "relevance") throw new Error("relevance is ranked by FTS5, not walked");
    return { order: this.orders.get(sort)!, reverse: false, rotate: sort === "random", tail: 0 };
  }

  static async load(sql: SqlReader): Promise<CatalogIndex> {
    const [[version], [count]] = [
      (await sql.rows(`SELECT "version" FROM "CatalogState" WHERE "id" = 1`))[0] ?? [0],
      (await sql.rows(`SELECT count(*) FROM "Product"`))[0] ?? [0],
    ];
    const n = Number(count);
    const cols: CatalogColumns = {
      size: 0,
      ids: new Int32Array(n),
      price: new Int32Array(n),
      dollars: new Uint8Array(n),
      cost: new Int32Array(n),
      margin: new Int32Array(n),
      noSales: new Uint8Array(n),
      source: new Uint8Array(n),
      storesAdded7d: new Int32Array(n),
      orders: new Int32Array(n),
      revenueDollars: new Uint32Array(n),
      engagement: new Int32Array(n),
      views: new Int32Array(n),
      stores: new Int32Array(n),
      stage: new Uint8Array(n),
      firstSeenDay: new Int32Array(n),
      amazon: new Int32Array(n),
      score: new Uint8Array(n),
      trending: new Int32Array(n),
      random: new Int32Array(n),
      niches: new Uint8Array(n * MAX_NICHES_PER_PRODUCT),
    };
    const nicheNames = [""];
    const nicheCode = new Map<string, number>();
    const codeOf = (name: string) => {
      let code = nicheCode.get(name);
      if (code === undefined && nicheNames.length < 256) {
        code = nicheNames.length;
        // `name` is a slice of the whole chunk string (megabytes); keeping it would keep the chunk.
        const own = Buffer.from(name, "utf8").toString("utf8");
        nicheNames.push(own);
        nicheCode.set(own, code);
      }
      return code ?? 0;
    };
    // Each chunk arrives as ONE string (a line per product, figures separated by commas): building a
    // million row objects took ~20 s and left hundreds of MB of garbage; this takes ~2.5 s.
    let lastId = 0;
    let row = 0;
    const words = new VocabularyBuilder();
    while (row < n) {
      const fromId = lastId;
      const [[text]] = (await sql.rows(
        chunkSql(sql.dialect),
        [lastId, CHUNK],
      )) as [[string | null]];
      if (!text) break;
      let start = 0;
      while (start < text.length && row < n) {
        let end = text.indexOf("\n", start);
        if (end === -1) end = text.length;
        const f = text.slice(start, end).split(",");
        start = end + 1;
        cols.ids[row] = +f[0];
        cols.price[row] = +f[1];
        cols.cost[row] = +f[2];
        // A known margin stays above UNKNOWN_MARGIN (a loss beyond -21 million % is still a known loss).
        cols.margin[row] = f[3] === String(UNKNOWN_MARGIN) ? UNKNOWN_MARGIN : Math.max(+f[3], UNKNOWN_MARGIN + 1);
        cols.orders[row] = +f[4];
        cols.revenueDollars[row] = +f[5];
        cols.engagement[row] = +f[6];
        cols.views[row] = +f[7];
        cols.stores[row] = +f[8];
        cols.stage[row] = +f[9];
        // STAGES order is emerging, rising, peak, declining: codes 1-4 above.
        cols.firstSeenDay[row] = +f[10] || 0;
        cols.amazon[row] = +f[11];
        cols.score[row] = +f[12];
        cols.trending[row] = +f[13];
        cols.random[row] = +f[14];
        cols.source[row] = +f[15];
        cols.noSales[row] = cols.source[row] === SOURCE_CODES.catalog ? 0 : 1;
        cols.storesAdded7d[row] = +f[16];
        cols.dollars[row] = +f[17];
        const niches = f[18] ? f[18].split("|") : [];
        for (let k = 0; k < niches.length && k < MAX_NICHES_PER_PRODUCT; k++) {
          cols.niches[row * MAX_NICHES_PER_PRODUCT + k] = codeOf(niches[k]);
        }
        lastId = cols.ids[row];
        row++;
      }
      // The same products' titles and niches, as one string, for the vocabulary (separators do not
      // matter: the builder splits on anything that is not a letter or digit).
      const [[titles]] = (await sql.rows(
        sql.dialect === "postgresql"
          ? `SELECT string_agg("title" || ' ' || "niches", E'\\n') FROM "Product" WHERE "id" > ? AND "id" <= ?`
          : `SELECT group_concat(title || ' ' || niches, char(10)) FROM Product WHERE id > ? AND id <= ?`,
        [fromId, lastId],
      )) as [[string | null]];
      if (titles) words.addText(titles);
    }
    cols.size = row;
    return new CatalogIndex(Number(version), cols, nicheNames, words.build());
  }
}

