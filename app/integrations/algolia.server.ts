// Algolia (algoliasearch v5) as the product search engine when ALGOLIA_APP_ID, ALGOLIA_SEARCH_KEY and
// ALGOLIA_INDEX are set; the built-in FTS5 engine otherwise (docs/decisions/012). It implements the
// SearchEngine port of app/services/products.server.ts:
//
// 1. the query becomes one Algolia search: text + the filters as a `filters` string, up to 1,000 hits,
//    objectID only (the seed's "search query against a product index, up to 1000 hits, objectID only");
// 2. the hits' products are read from our database in ONE `objectID IN (...)` query (through the row source
//    the composition root passes in, app/services/search/algolia-rows.server.ts). The seed read
//    them 30 at a time because Firestore's `in` takes at most 30 values; SQLite takes 32,766 bound
//    values, so 1,000 fit in one statement and one round trip;
// 3. the database, not the index, has the last word: hits that are gone from the database are dropped,
//    the filters are applied again to the current figures (the index may lag an import by seconds), and
//    every sort except relevance is applied here, with the same keys and tie-breaks as the built-in
//    engine. Relevance keeps Algolia's order.
//
// Limits that follow from the seed's 1,000 hits: only the first 1,000 hits can be paged through, and a
// sort other than relevance orders those 1,000 (the index ranks ties by winning score, so they are the
// strongest matches). When Algolia reports more hits than that, the total is labelled an estimate.
//
// Writes (syncProducts) need ALGOLIA_ADMIN_KEY. Records are rebuilt whole from the database and saved
// with saveObjects (a record is small, and a full save can never leave a stale field behind, which
// partialUpdateObjects could); objectIDs no longer in the database are deleted from the index.
// The package's typings also list `searchClient`, but its Node build exports only `algoliasearch`.
import { algoliasearch, type SearchClient } from "algoliasearch";
import type { ProductQuery, Range, Stage } from "~/domain/products/product-query";
import type { SearchEngine } from "~/domain/products/product-query";
import type { AlgoliaHost } from "~/domain/products/algolia-hosts";
import type { AlgoliaHitRow as HitRow, AlgoliaRecordRow as RecordRow, AlgoliaRowSource } from "~/domain/products/algolia-rows";
import { filterPriceCents, hasSalesFigures, hasStoreFigures, isMeasuredSource, matchesSourceFilter } from "~/domain/catalogue/measured-product";

export { parseAlgoliaHosts, type AlgoliaHost } from "~/domain/products/algolia-hosts";

/** Algolia returns at most this many hits for one query unless the index's paginationLimitedTo is raised. */
export const MAX_HITS = 1000;
/** Objects per batch request when writing (Algolia's helpers use the same size). */
const WRITE_BATCH = 1000;
const DESCRIPTION_CHARS = 1000;
const NICHES_TTL_MS = 5 * 60_000;
const DAY_MS = 86_400_000;


export interface AlgoliaEngineOptions {
  appId: string;
  /** The search-only key: used for queries. */
  apiKey: string;
  /** The admin key: needed only to write records and settings (syncProducts). */
  adminApiKey?: string;
  indexName: string;
  /** Overrides Algolia's hosts (tests point this at a local server). */
  hosts?: AlgoliaHost[];
  /** Our current rows behind the hits and the records (app/services/search/algolia-rows.server.ts): the adapter reads no database. */
  rows: AlgoliaRowSource;
}


// ---------- records ----------

/** What the index holds per product: text to match, and every figure a filter or ranking needs. */
export interface AlgoliaProductRecord {
  objectID: string;
  title: string;
  description: string;
  niches: string[];
  primaryNiche: string;
  tags: string[];
  image: string | null;
  /** Left out when the price is not in US dollars (docs/decisions/059), so a price filter never matches it. */
  priceCents?: number;
  /**
   * Left out when the supplier cost is unknown (docs/decisions/026), so a cost or margin filter never
   * matches the product (an absent attribute fails every numeric filter).
   */
  costCents?: number;
  /** The gross margin (price minus cost and shipping); kept for readers of the record, filtered on by nothing. */
  marginBps?: number;
  /**
   * The margin after duty and fees (decision 065): what minMargin, maxMargin and sort=margin mean. Left out when the
   * product has none (an unknown cost), so a margin filter never matches it.
   */
  landedMarginBps?: number;
  /** Left out when the product has no Amazon price, so a numeric filter on it never matches. */
  amazonPriceCents?: number;
  /** "sample" (source catalog), "measured" or "tracked-store": the grid's source filter (docs/decisions/048). */
  source: "sample" | "measured" | "tracked-store";
  /** Measured products only: stores that added it in the last 7 days. */
  storesAdded7d?: number;
  /**
   * The sales figures are left out for a product without sales data (docs/decisions/026: a tracked-store or a
   * measured product); stores selling, score and stage only for a tracked-store product (a measured one has them).
   */
  orders?: number;
  revenueCents?: number;
  /** likes + comments + shares over 30 days. */
  engagement?: number;
  views?: number;
  storesSelling?: number;
  lifecycleStage?: string;
  /** Days since 1970-01-01 (UTC), like ProductQuery.firstSeen. */
  firstSeenDay: number;
  winningScore?: number;
  trendingScore?: number;
  randomSortKey: number;
  /** Seconds since the epoch. */
  lastUpdatedAt: number;
}


function jsonStrings(text: string): string[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}


/** A product added from a tracked store or measured: its sales columns are placeholders (docs/decisions/026, 046). */
function hasSalesData(p: { source: string }): boolean {
  return hasSalesFigures(p.source);
}

function recordSource(source: string): AlgoliaProductRecord["source"] {
  return source === "measured" || source === "tracked-store" ? source : "sample";
}

export function toAlgoliaRecord(p: RecordRow): AlgoliaProductRecord {
  return {
    objectID: p.objectID,
    title: p.title,
    description: p.description.slice(0, DESCRIPTION_CHARS),
    niches: jsonStrings(p.niches),
    primaryNiche: p.primaryNiche,
    tags: jsonStrings(p.tags),
    image: jsonStrings(p.images)[0] ?? null,
    ...(filterPriceCents(p) !== null ? { priceCents: filterPriceCents(p)! } : {}),
    ...(p.costCents !== null && p.marginBps !== null ? { costCents: p.costCents, marginBps: p.marginBps } : {}),
    ...(p.costCents !== null && p.landedMarginBps !== null ? { landedMarginBps: p.landedMarginBps } : {}),
    ...(p.amazonPriceCents !== null ? { amazonPriceCents: p.amazonPriceCents } : {}),
    source: recordSource(p.source),
    ...(hasSalesData(p)
      ? {
          orders: p.orders,
          revenueCents: Number(p.revenueCents),
          engagement: p.likes + p.comments + p.shares,
          views: p.views,
          trendingScore: p.trendingScore,
        }
      : {}),
    ...(hasStoreFigures(p.source) ? { storesSelling: p.storesSelling, lifecycleStage: p.lifecycleStage, winningScore: p.winningScore } : {}),
    ...(isMeasuredSource(p.source) ? { storesAdded7d: p.storesAdded7d } : {}),
    firstSeenDay: Math.floor(p.firstSeenAt.getTime() / DAY_MS),
    randomSortKey: p.randomSortKey,
    lastUpdatedAt: Math.floor(p.lastUpdatedAt.getTime() / 1000),
  };
}

/** Index settings the filters and the ranking rely on; written before the first records. */
export const ALGOLIA_INDEX_SETTINGS = {
  searchableAttributes: ["title", "niches", "tags", "unordered(description)"],
  attributesForFaceting: ["niches", "filterOnly(lifecycleStage)", "filterOnly(primaryNiche)", "filterOnly(source)"],
  // Ties in text relevance (and queries with no text) go to the strongest products first.
  customRanking: ["desc(winningScore)", "desc(orders)"],
  paginationLimitedTo: MAX_HITS,
};

// ---------- query -> filters ----------

/** Revenue filters compare whole dollars, as the built-in engine does. */
function revenueCentsRange(r: Range): Range {
  return {
    ...(r.min !== undefined ? { min: Math.ceil(r.min / 100) * 100 } : {}),
    ...(r.max !== undefined ? { max: Math.floor(r.max / 100) * 100 + 99 } : {}),
  };
}

function amazonRange(q: ProductQuery): Range | null {
  if (!q.hasAmazonPrice && q.amazonPrice.min === undefined && q.amazonPrice.max === undefined) return null;
  return { min: Math.max(0, q.amazonPrice.min ?? 0), ...(q.amazonPrice.max !== undefined ? { max: q.amazonPrice.max } : {}) };
}

function numeric(attribute: string, r: Range): string[] {
  if (r.min !== undefined && r.max !== undefined) return [`${attribute}:${r.min} TO ${r.max}`];
  if (r.min !== undefined) return [`${attribute} >= ${r.min}`];
  if (r.max !== undefined) return [`${attribute} <= ${r.max}`];
  return [];
}

/** Facet values are quoted, so a dash or a space in a niche cannot break the expression. */
function facet(attribute: string, value: string): string {
  return `${attribute}:"${value.replace(/["\\]/g, "")}"`;
}

function anyOf(attribute: string, values: readonly string[]): string[] {
  if (values.length === 0) return [];
  const parts = values.map((v) => facet(attribute, v));
  return [parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`];
}

/** ProductQuery's filters in Algolia's `filters` syntax (ANDs of numeric ranges and OR-groups of facets). */
export function algoliaFilters(q: ProductQuery): string {
  const amazon = amazonRange(q);
  return [
    ...(q.source === "all" ? [] : [facet("source", q.source)]),
    ...anyOf("niches", q.niches),
    ...anyOf("lifecycleStage", q.stages),
    ...numeric("priceCents", q.price),
    ...numeric("costCents", q.cost),
    ...numeric("landedMarginBps", q.margin),
    ...numeric("orders", q.orders),
    ...numeric("revenueCents", revenueCentsRange(q.revenue)),
    ...numeric("engagement", q.engagement),
    ...numeric("views", q.views),
    ...numeric("storesSelling", q.stores),
    ...numeric("storesAdded7d", q.storesAdded7d),
    ...numeric("firstSeenDay", q.firstSeen),
    ...(amazon ? numeric("amazonPriceCents", amazon) : []),
  ].join(" AND ");
}

// ---------- database side: re-filter and sort ----------



/** A range with no bound matches anything; a bounded one never matches a figure we do not have (null). */
function within(v: number | null, r: Range): boolean {
  if (v === null) return r.min === undefined && r.max === undefined;
  return (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);
}

/** The same filters as algoliaFilters, on the database's current figures. */
export function matchesFilters(row: HitRow, q: ProductQuery): boolean {
  if (q.niches.length > 0) {
    const niches = jsonStrings(row.niches);
    if (!niches.some((n) => q.niches.includes(n))) return false;
  }
  if (!matchesSourceFilter(q.source, row.source)) return false;
  const sales = hasSalesData(row);
  const stores = hasStoreFigures(row.source);
  if (q.stages.length > 0 && !(stores && q.stages.includes(row.lifecycleStage as Stage))) return false;
  if (!within(filterPriceCents(row), q.price) || !within(row.costCents, q.cost) || !within(row.landedMarginBps, q.margin)) return false;
  const measured = (v: number) => (sales ? v : null);
  if (!within(measured(row.orders), q.orders) || !within(measured(Number(row.revenueCents)), revenueCentsRange(q.revenue))) return false;
  if (!within(measured(row.likes + row.comments + row.shares), q.engagement) || !within(measured(row.views), q.views)) return false;
  if (!within(stores ? row.storesSelling : null, q.stores)) return false;
  if (!within(isMeasuredSource(row.source) ? row.storesAdded7d : null, q.storesAdded7d)) return false;
  if (!within(Math.floor(row.firstSeenAt.getTime() / DAY_MS), q.firstSeen)) return false;
  const amazon = amazonRange(q);
  if (amazon && (row.amazonPriceCents === null || !within(row.amazonPriceCents, amazon))) return false;
  return true;
}

/** A figure the product does not have sorts after every figure (docs/decisions/026): never ranked as 0 or 100%. */
const UNKNOWN = -Infinity;

function sortKey(sort: ProductQuery["sort"]): ((r: HitRow) => number | bigint) | null {
  switch (sort) {
    case "winning-score":
      // Measured products first, each group by its own score (as the built-in engine: docs/decisions/048).
      return (r) => (!hasStoreFigures(r.source) ? UNKNOWN : isMeasuredSource(r.source) ? 1000 + r.winningScore : r.winningScore);
    case "storesAdded7d":
      return (r) => (isMeasuredSource(r.source) ? r.storesAdded7d : UNKNOWN);
    case "storesSelling":
      return (r) => (hasStoreFigures(r.source) ? r.storesSelling : UNKNOWN);
    case "orders":
      return (r) => (hasSalesData(r) ? r.orders : UNKNOWN);
    case "revenue":
      return (r) => (hasSalesData(r) ? r.revenueCents : UNKNOWN);
    case "margin":
      // After duty and fees (decision 065); a product without the figure last.
      return (r) => r.landedMarginBps ?? UNKNOWN;
    case "price":
    case "price-asc":
      return (r) => filterPriceCents(r) ?? UNKNOWN;
    case "newest":
      return (r) => Math.floor(r.firstSeenAt.getTime() / DAY_MS);
    case "trending":
      return (r) => (hasSalesData(r) ? r.trendingScore : UNKNOWN);
    case "random":
      return (r) => r.randomSortKey;
    case "relevance":
      return null;
  }
}

/**
 * Highest first with ties to the higher id (price-asc: lowest first, ties to the lower id); random:
 * by randomSortKey, rotated by the visitor's seed, so one seed always gives one order.
 */
export function sortHits(rows: HitRow[], q: ProductQuery): HitRow[] {
  const key = sortKey(q.sort);
  if (!key) return rows;
  const desc = [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? b.id - a.id : kb > ka ? 1 : -1;
  });
  if (q.sort === "price-asc") {
    // Lowest dollar price first (a price in another currency at its converted figure); those with no dollar figure still last (decisions 059, 089).
    const known = desc.filter((r) => filterPriceCents(r) !== null);
    return [...known.reverse(), ...desc.filter((r) => filterPriceCents(r) === null)];
  }
  if (q.sort === "random" && desc.length > 0) {
    const offset = q.seed % desc.length;
    return [...desc.slice(offset), ...desc.slice(0, offset)];
  }
  return desc;
}

// ---------- the engine ----------

export interface AlgoliaEngine extends SearchEngine {
  search(q: ProductQuery): Promise<{ ids: number[]; total: number; totalIsEstimate: boolean; hasMore: boolean; plan: "algolia" }>;
  /** Pushes the current records of these products (deleting those no longer in the database). */
  syncProducts(objectIDs: string[]): Promise<SyncResult>;
  /** Writes ALGOLIA_INDEX_SETTINGS (syncProducts does it once per process on its own). */
  configureIndex(): Promise<void>;
}

export interface SyncResult {
  saved: number;
  deleted: number;
  taskIDs: number[];
}

function clientOptions(hosts?: AlgoliaHost[]) {
  return hosts ? { hosts } : undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function createAlgoliaEngine(options: AlgoliaEngineOptions): AlgoliaEngine {
  const { rows: source, indexName } = options;
  const reader: SearchClient = algoliasearch(options.appId, options.apiKey, clientOptions(options.hosts));
  const writer = options.adminApiKey ? algoliasearch(options.appId, options.adminApiKey, clientOptions(options.hosts)) : null;
  let configured: Promise<void> | null = null;
  let nichesCache: { at: number; values: string[] } | null = null;

  function requireWriter(): SearchClient {
    if (!writer) throw new Error("Writing to the Algolia index needs ALGOLIA_ADMIN_KEY.");
    return writer;
  }

  async function configureIndex() {
    await requireWriter().setSettings({ indexName, indexSettings: ALGOLIA_INDEX_SETTINGS });
  }

  return {
    async search(q) {
      const filters = algoliaFilters(q);
      const response = await reader.searchSingleIndex<{ objectID: string }>({
        indexName,
        searchParams: {
          query: q.q,
          ...(filters ? { filters } : {}),
          page: 0,
          hitsPerPage: MAX_HITS,
          attributesToRetrieve: ["objectID"],
          attributesToHighlight: [],
          attributesToSnippet: [],
        },
      });
      const objectIDs = unique(response.hits.map((h) => h.objectID)).slice(0, MAX_HITS);
      const rows: HitRow[] =
        objectIDs.length > 0 ? await source.hits(objectIDs) : [];
      const byObjectID = new Map(rows.map((r) => [r.objectID, r]));
      const current = objectIDs
        .map((o) => byObjectID.get(o))
        .filter((r): r is HitRow => r !== undefined && matchesFilters(r, q));
      const ordered = sortHits(current, q);

      const nbHits = response.nbHits ?? objectIDs.length;
      const dropped = objectIDs.length - ordered.length;
      const skip = (q.page - 1) * q.pageSize;
      return {
        ids: ordered.slice(skip, skip + q.pageSize).map((r) => r.id),
        total: Math.max(ordered.length, nbHits - dropped),
        totalIsEstimate: nbHits > objectIDs.length || response.exhaustive?.nbHits === false || response.exhaustiveNbHits === false,
        hasMore: skip + q.pageSize < ordered.length,
        plan: "algolia",
      };
    },

    async niches() {
      if (nichesCache && Date.now() - nichesCache.at < NICHES_TTL_MS) return nichesCache.values;
      const response = await reader.searchSingleIndex({
        indexName,
        searchParams: { query: "", hitsPerPage: 0, facets: ["niches"], maxValuesPerFacet: 1000 },
      });
      const values = Object.keys(response.facets?.niches ?? {}).sort();
      nichesCache = { at: Date.now(), values };
      return values;
    },

    async syncProducts(objectIDs) {
      const client = requireWriter();
      configured ??= configureIndex().catch((error: unknown) => {
        configured = null;
        throw error;
      });
      await configured;
      const result: SyncResult = { saved: 0, deleted: 0, taskIDs: [] };
      const ids = unique(objectIDs);
      for (let i = 0; i < ids.length; i += WRITE_BATCH) {
        const chunk = ids.slice(i, i + WRITE_BATCH);
        const rows = await source.records(chunk);
        const records = rows.map(toAlgoliaRecord);
        const found = new Set(rows.map((r) => r.objectID));
        const gone = chunk.filter((o) => !found.has(o));
        if (records.length > 0) {
          const responses = await client.saveObjects({ indexName, objects: records as unknown as Record<string, unknown>[], batchSize: WRITE_BATCH });
          result.saved += records.length;
          result.taskIDs.push(...responses.map((r) => r.taskID));
        }
        if (gone.length > 0) {
          const responses = await client.deleteObjects({ indexName, objectIDs: gone, batchSize: WRITE_BATCH });
          result.deleted += gone.length;
          result.taskIDs.push(...responses.map((r) => r.taskID));
        }
      }
      nichesCache = null;
      return result;
    },

    configureIndex,
  };
}
