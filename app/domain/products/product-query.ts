// The product grid's query: free text, filters, sort and page, parsed from URL parameters (shareable,
// back button works) for both surfaces and GET /api/products. Invalid parameters are refused with a
// message that names the parameter.
import { AppError } from "~/domain/errors";

export const SORTS = [
  "winning-score",
  "orders",
  "revenue",
  "margin",
  "price",
  "price-asc",
  "newest",
  "trending",
  "random",
  "relevance",
  // Measured figures (source "measured", docs/decisions/046): products without them sort after those with them.
  "storesAdded7d",
  "storesSelling",
] as const;
export type Sort = (typeof SORTS)[number];

export const STAGES = ["emerging", "rising", "peak", "declining"] as const;

/**
 * Where products come from: "measured" (the measured catalogue: what real stores sell, docs/decisions/046),
 * "sample" (the generated or imported research database, source "catalog") or "all" (these two and products
 * added from a tracked store). The default is "all"; the default order lists measured products first.
 */
export const SOURCES = ["all", "measured", "sample"] as const;
export type SourceFilter = (typeof SOURCES)[number];
export type Stage = (typeof STAGES)[number];

export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 48;
export const MAX_PAGE = 500;
/** Parameters of the grid page's URL that belong to the page, not to the search (a saved search being opened). */
export const GRID_PAGE_PARAMS = ["savedSearch", "newSince"] as const;

export interface Range {
  min?: number;
  max?: number;
}

export interface ProductQuery {
  q: string;
  niches: string[];
  stages: Stage[];
  /** Integer cents. */
  price: Range;
  cost: Range;
  /** Basis points. */
  margin: Range;
  orders: Range;
  /** Integer cents. */
  revenue: Range;
  /** likes + comments + shares over 30 days. */
  engagement: Range;
  views: Range;
  stores: Range;
  /** Stores that added the product in the last 7 days: only measured products have the figure. */
  storesAdded7d: Range;
  source: SourceFilter;
  /** Integer cents; hasAmazonPrice limits to products with one. */
  amazonPrice: Range;
  hasAmazonPrice: boolean;
  /** Days since 1970-01-01 (UTC). */
  firstSeen: Range;
  sort: Sort;
  page: number;
  pageSize: number;
  /** Visitor's seed for sort=random: the same seed gives the same order. */
  seed: number;
  /** literal=1 ("Search instead for ..."): search the text as typed, never a spelling correction of it. */
  literal: boolean;
}

/**
 * A URL parameter the grid cannot take: an AppError (400) naming it, answered `{ error, param }` by the one
 * mapper. Its own class only so a page can show the grid under the message instead of an error page.
 */
export class QueryError extends AppError {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(400, `${param}: ${message}`, { param });
    this.name = "QueryError";
  }
}

const DAY_MS = 86_400_000;

function single(params: URLSearchParams, name: string): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw new QueryError(name, "give it once");
  const v = all[0]?.trim();
  return v === "" ? undefined : v;
}

function list(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

function number(params: URLSearchParams, name: string, opts: { min?: number; max?: number; integer?: boolean } = {}) {
  const raw = single(params, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw new QueryError(name, `"${raw}" is not a number`);
  const n = Number(raw);
  if (opts.integer && !Number.isInteger(n)) throw new QueryError(name, "must be a whole number");
  if (opts.min !== undefined && n < opts.min) throw new QueryError(name, `must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw new QueryError(name, `must be at most ${opts.max}`);
  return n;
}

/** Dollars ("19.99") to integer cents without float drift. */
function cents(params: URLSearchParams, name: string) {
  return dollarsToCents(single(params, name), name);
}

/** A dollar amount as typed ("19.99") to integer cents without float drift; QueryError naming `name` otherwise. */
export function dollarsToCents(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  raw = raw.trim();
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(raw);
  if (!m) throw new QueryError(name, `"${raw}" is not an amount in dollars like 19.99`);
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

function day(params: URLSearchParams, name: string) {
  const raw = single(params, name);
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new QueryError(name, `"${raw}" is not a date like 2026-11-01`);
  }
  return Math.floor(Date.parse(`${raw}T00:00:00Z`) / DAY_MS);
}

function range(min: number | undefined, max: number | undefined, name: string): Range {
  if (min !== undefined && max !== undefined && min > max) throw new QueryError(name, "the minimum is above the maximum");
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

const KNOWN = new Set([
  "q",
  "niche",
  "stage",
  "minPrice",
  "maxPrice",
  "minCost",
  "maxCost",
  "minMargin",
  "maxMargin",
  "minOrders",
  "maxOrders",
  "minRevenue",
  "maxRevenue",
  "minEngagement",
  "minViews",
  "minStores",
  "maxStores",
  "minStoresAdded7d",
  "source",
  "minAmazonPrice",
  "maxAmazonPrice",
  "hasAmazonPrice",
  "firstSeenAfter",
  "firstSeenBefore",
  "firstSeenDays",
  "sort",
  "page",
  "pageSize",
  "seed",
  "literal",
  // Used by the pages, ignored by the search itself.
  "uid",
  "location",
  "product",
  "view",
]);

/** Parses URL parameters; throws QueryError naming the first bad parameter. */
export function parseProductQuery(params: URLSearchParams, now: Date = new Date()): ProductQuery {
  for (const key of params.keys()) {
    if (!KNOWN.has(key)) throw new QueryError(key, "is not a parameter of the product search");
  }
  const q = single(params, "q") ?? "";
  if (q.length > 200) throw new QueryError("q", "use at most 200 characters");

  const niches = list(params, "niche");
  for (const n of niches) if (!/^[a-z0-9-]{1,40}$/.test(n)) throw new QueryError("niche", `"${n}" is not a niche`);
  const stages = list(params, "stage");
  for (const s of stages) {
    if (!(STAGES as readonly string[]).includes(s)) throw new QueryError("stage", `"${s}" is not one of ${STAGES.join(", ")}`);
  }

  // Text narrows the catalogue; the default order stays the winning score (relevance is a choice:
  // BM25 must score every match, ~70 ms for a word in 4% of a million products).
  const sortRaw = single(params, "sort") ?? "winning-score";
  if (!(SORTS as readonly string[]).includes(sortRaw)) throw new QueryError("sort", `"${sortRaw}" is not one of ${SORTS.join(", ")}`);
  const sort = sortRaw as Sort;
  if (sort === "relevance" && !q) throw new QueryError("sort", "relevance needs a search text (q)");

  const firstSeenDays = number(params, "firstSeenDays", { min: 1, max: 3650, integer: true });
  const today = Math.floor(now.getTime() / DAY_MS);
  const firstSeenAfter = day(params, "firstSeenAfter") ?? (firstSeenDays !== undefined ? today - firstSeenDays : undefined);

  const marginMin = number(params, "minMargin", { min: -1000, max: 100 });
  const marginMax = number(params, "maxMargin", { min: -1000, max: 100 });
  const hasAmazon = single(params, "hasAmazonPrice");
  if (hasAmazon !== undefined && !["1", "true", "0", "false"].includes(hasAmazon)) {
    throw new QueryError("hasAmazonPrice", "must be true or false");
  }

  const source = single(params, "source") ?? "all";
  if (!(SOURCES as readonly string[]).includes(source)) throw new QueryError("source", `"${source}" is not one of ${SOURCES.join(", ")}`);

  const literal = single(params, "literal");
  if (literal !== undefined && !["1", "true", "0", "false"].includes(literal)) {
    throw new QueryError("literal", "must be true or false");
  }

  return {
    q,
    niches,
    stages: stages as Stage[],
    price: range(cents(params, "minPrice"), cents(params, "maxPrice"), "maxPrice"),
    cost: range(cents(params, "minCost"), cents(params, "maxCost"), "maxCost"),
    margin: range(
      marginMin !== undefined ? Math.round(marginMin * 100) : undefined,
      marginMax !== undefined ? Math.round(marginMax * 100) : undefined,
      "maxMargin",
    ),
    orders: range(number(params, "minOrders", { min: 0, integer: true }), number(params, "maxOrders", { min: 0, integer: true }), "maxOrders"),
    revenue: range(cents(params, "minRevenue"), cents(params, "maxRevenue"), "maxRevenue"),
    engagement: range(number(params, "minEngagement", { min: 0, integer: true }), undefined, "minEngagement"),
    views: range(number(params, "minViews", { min: 0, integer: true }), undefined, "minViews"),
    stores: range(number(params, "minStores", { min: 0, integer: true }), number(params, "maxStores", { min: 0, integer: true }), "maxStores"),
    storesAdded7d: range(number(params, "minStoresAdded7d", { min: 0, integer: true }), undefined, "minStoresAdded7d"),
    source: source as SourceFilter,
    amazonPrice: range(cents(params, "minAmazonPrice"), cents(params, "maxAmazonPrice"), "maxAmazonPrice"),
    hasAmazonPrice: hasAmazon === "1" || hasAmazon === "true",
    firstSeen: range(firstSeenAfter, day(params, "firstSeenBefore"), "firstSeenBefore"),
    sort,
    page: number(params, "page", { min: 1, max: MAX_PAGE, integer: true }) ?? 1,
    pageSize: number(params, "pageSize", { min: 1, max: MAX_PAGE_SIZE, integer: true }) ?? DEFAULT_PAGE_SIZE,
    seed: number(params, "seed", { min: 0, max: 2 ** 31 - 1, integer: true }) ?? 0,
    literal: literal === "1" || literal === "true",
  };
}

/** The query with nothing set: every product, by winning score, the first page. */
export const EMPTY_PRODUCT_QUERY: ProductQuery = {
  q: "",
  niches: [],
  stages: [],
  price: {},
  cost: {},
  margin: {},
  orders: {},
  revenue: {},
  engagement: {},
  views: {},
  stores: {},
  storesAdded7d: {},
  source: "all",
  amazonPrice: {},
  hasAmazonPrice: false,
  firstSeen: {},
  sort: "winning-score",
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  seed: 0,
  literal: false,
};

/**
 * A typed query built by a caller that reads no URL (MCP's typed arguments, the assistant): the parts it sets over
 * the empty query, with the rules the URL parser keeps across fields (a range's minimum not above its maximum,
 * relevance only with a text). Throws QueryError naming the part.
 */
export function productQuery(parts: Partial<ProductQuery>): ProductQuery {
  const query: ProductQuery = { ...EMPTY_PRODUCT_QUERY, ...parts };
  const ranges: Array<[keyof ProductQuery, string]> = [
    ["price", "maxPrice"],
    ["cost", "maxCost"],
    ["margin", "maxMargin"],
    ["orders", "maxOrders"],
    ["revenue", "maxRevenue"],
    ["stores", "maxStores"],
    ["amazonPrice", "maxAmazonPrice"],
    ["firstSeen", "firstSeenBefore"],
  ];
  for (const [key, name] of ranges) {
    const r = query[key] as Range;
    range(r.min, r.max, name);
  }
  if (query.q.length > 200) throw new QueryError("q", "use at most 200 characters");
  if (query.sort === "relevance" && !query.q) throw new QueryError("sort", "relevance needs a search text (q)");
  return query;
}

/** Whether any filter (not text, sort or page) is set. */
export function hasFilters(q: ProductQuery): boolean {
  const ranges = [q.price, q.cost, q.margin, q.orders, q.revenue, q.engagement, q.views, q.stores, q.storesAdded7d, q.amazonPrice, q.firstSeen];
  return q.source !== "all" || q.niches.length > 0 || q.stages.length > 0 || q.hasAmazonPrice || ranges.some((r) => r.min !== undefined || r.max !== undefined);
}

/**
 * The FTS5 terms of a free text, one per word, each quoted (no operator injection). The last word is a
 * prefix ("blue" finds "bluetooth") unless `isWord` says it is a whole word of the catalogue: porter
 * stems a prefix too, so "harness"* would also find "Hardcover" (stem "har"; issue 25).
 */
export function ftsTerms(q: string, isWord: (word: string) => boolean = () => false): string[] {
  const words = q
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 12);
  return words.map((w, i) => (i === words.length - 1 && w.length >= 2 && !isWord(w) ? `"${w}"*` : `"${w}"`));
}

/** FTS5 query for free text: every word must match (ftsTerms); null when the text has no word. */
export function ftsQuery(q: string, isWord?: (word: string) => boolean): string | null {
  const terms = ftsTerms(q, isWord);
  return terms.length === 0 ? null : terms.join(" ");
}

/** The search port: the built-in engine (app/services/search) and the Algolia adapter both implement it. */
export interface SearchEngine {
  /**
   * correctedQuery: the text actually searched when the engine corrected the spelling of `q.q`
   * (originalQuery is then `q.q`); absent or null when it searched `q.q` as given (Algolia always:
   * it applies its own typo tolerance silently).
   */
  search(q: ProductQuery): Promise<{
    ids: number[];
    total: number;
    totalIsEstimate: boolean;
    hasMore: boolean;
    plan: string;
    correctedQuery?: string | null;
    originalQuery?: string | null;
    /** Few products matched every word: those matching most of the text follow them (built-in engine, decision 067). */
    matchedSomeWords?: boolean;
  }>;
  niches(): Promise<string[]>;
  /** Whether a word is one of the catalogue's own (titles and niches); absent when the engine cannot say (Algolia). */
  knowsWord?(word: string): Promise<boolean>;
}
