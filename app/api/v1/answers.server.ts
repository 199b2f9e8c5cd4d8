// The public API's operations (docs/decisions/053): each one's path, parameters, answer schema and what it runs,
// listed once. The routes (app/routes/api.v1.*) run them through handler.server.ts (key, limits, CORS, errors),
// the OpenAPI document is generated from this same list, and the MCP tools call the same functions.
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { dayOf, dayString } from "~/domain/products/insights";
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, parseProductQuery, type ProductQuery } from "~/domain/products/product-query";
import { priceCurrencyCode } from "~/domain/catalogue/measured-product";
import { researchAccess } from "~/domain/products/research-access";
import { parseProfitQuery } from "~/pages/landed-cost/api.server";
import type { User } from "~/services/accounts/auth.server";
import type { ProductCard, ProductDetail as ServiceDetail } from "~/services/products.server";
import { competitors, landedCost, notifications, productDrops, products } from "~/services/index.server";
import { absoluteUrl } from "~/api/v1/absolute-url.server";
import { checkQueryNumbers, PROFIT_PARAMS, SEARCH_PARAMS } from "~/api/v1/query-params.server";
import * as S from "~/api/v1/schemas.server";

/** Figures of the research data itself (revenue, a supplier's cost, shipping, an Amazon price) are in US dollars. */
const DOLLARS = "USD";
type Out<T extends z.ZodType> = z.infer<T>;

/** What an answer needs of the request: its URL (answers link to the same origin). A Fetch Request is one. */
export interface RequestUrl {
  url: string;
}

export interface OperationContext {
  user: User;
  request: RequestUrl;
  params: Record<string, string | undefined>;
  /** The URL's query parameters (the search's and the profit's). */
  query: URLSearchParams;
}

export interface Operation<T extends z.ZodType = z.ZodType> {
  operationId: string;
  method: "get";
  /** OpenAPI path, e.g. /products/{objectID} (under /api/v1). */
  path: string;
  summary: string;
  description?: string;
  pathParams?: z.ZodObject;
  queryParams?: z.ZodObject;
  response: T;
  run(ctx: OperationContext): Promise<Out<T>>;
}

/** Money in the API's words: whole cents and an ISO 4217 code, null when the currency is unknown (never assumed to be dollars). */
const money = (cents: number, currency: string | null = DOLLARS) => ({ cents, currency });
const absolute = (request: RequestUrl, path: string) => absoluteUrl(request.url, path);
export const productPath = (objectID: string) => `/dashboard/products/${encodeURIComponent(objectID)}`;

/** A grid card in the API's words: every figure as { value, measured, asOf }, money in cents with a currency. */
export function apiProduct(card: ProductCard, request: RequestUrl): Out<typeof S.Product> {
  const m = card.measured;
  const asOf = m?.asOf ?? dayString(dayOf(new Date(card.insightsAt)));
  // Sample and tracked-store products' figures are not measured by us: measured false, on their insights day.
  const f = <T>(value: T | null) => (value === null ? null : { value, measured: false, asOf });
  return {
    objectID: card.objectID,
    title: card.title,
    url: absolute(request, productPath(card.objectID)),
    image: card.image ? absolute(request, card.image) : null,
    niches: card.niches,
    source: card.source,
    price: money(card.priceCents, priceCurrencyCode(card.priceCurrency)),
    // Beside the price as listed, its dollar figure at a dated reference rate (decision 089).
    priceConverted: card.priceUsdCents !== null && card.priceRateDate ? { cents: card.priceUsdCents, currency: DOLLARS, rateDate: card.priceRateDate } : null,
    asOf,
    figures: {
      storesSelling: m ? m.storesSelling : f(card.storesSelling),
      storesAdded7d: m ? m.storesAdded7d : null,
      storesAdded30d: m ? m.storesAdded30d : null,
      winningScore: m ? m.winningScore : f(card.winningScore),
      lifecycleStage: m ? m.lifecycleStage : f(card.lifecycleStage),
      saturation: m ? m.saturation : f(card.saturation),
      orders: f(card.orders),
      orders7d: f(card.orders7d),
      ordersGrowth7d: f(card.ordersGrowth7d),
      revenue: card.revenueCents === null ? null : f(money(card.revenueCents)),
      engagement: f(card.engagement),
    },
    noSalesData: card.noSalesData,
    thinEvidence: m?.thinEvidence ?? null,
    firstSeenAt: card.firstSeenAt,
    lastUpdatedAt: card.lastUpdatedAt,
    saved: card.saved,
    tracked: card.tracked,
    insights: card.insights
      ? {
          reasons: card.insights.reasons,
          cost: card.insights.costCents === null ? null : money(card.insights.costCents),
          shipping: money(card.insights.shippingCents),
          marginBps: card.insights.marginBps,
          landedMarginBps: card.insights.landedMarginBps,
          amazonPrice: card.insights.amazonPriceCents === null ? null : money(card.insights.amazonPriceCents),
          trendingScore: card.insights.trendingScore,
        }
      : null,
  };
}

export function apiProductDetail(detail: ServiceDetail, request: RequestUrl): Out<typeof S.ProductDetail> {
  return {
    ...apiProduct(detail, request),
    description: detail.description,
    tags: detail.tags,
    images: detail.images.map((i) => absolute(request, i)),
    supplier: detail.supplier,
    history: detail.history,
    sinceTracking: detail.sinceTracking,
    offers: detail.offers.map((o) => ({
      store: o.store,
      url: o.url,
      title: o.title,
      price: { cents: o.priceCents, currency: o.currency }, converted: o.converted, conversionNote: o.conversionNote,
      available: o.available,
      firstSeenAt: o.firstSeenAt,
      reviews: o.reviews,
      reviewsAsOf: o.reviewsAsOf,
      reviewsNote: o.reviewsNote,
    })),
    signals: detail.signals,
    matchEvidence: detail.matchEvidence,
  };
}

// ---------- the search's cursor ----------

/** The search itself (not its page), as a fingerprint: a cursor only continues the search it came from. */
function searchFingerprint(query: ProductQuery): string {
  const { page: _page, pageSize: _pageSize, ...search } = query;
  const canonical = { ...search, niches: [...search.niches].sort(), stages: [...search.stages].sort() };
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url").slice(0, 16);
}

function encodeCursor(page: number, limit: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ p: page, l: limit, f: fingerprint })).toString("base64url");
}

const CursorSchema = z.object({ p: z.number().int().min(2).max(MAX_PAGE), l: z.number().int().min(1).max(MAX_PAGE_SIZE), f: z.string() });

function decodeCursor(cursor: string, fingerprint: string): { page: number; limit: number } {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    // refused below
  }
  const c = CursorSchema.safeParse(parsed);
  if (!c.success) throw new AppError(400, "cursor is not one this API gave: pass nextCursor from the previous page as it is.", { param: "cursor" });
  if (c.data.f !== fingerprint) throw new AppError(400, "cursor belongs to a different search: keep the other parameters as they were.", { param: "cursor" });
  return { page: c.data.p, limit: c.data.l };
}

/** A search as the API and MCP take it: the typed query, and the page as a cursor and a limit. */
export interface SearchInput {
  query: ProductQuery;
  limit?: number;
  cursor?: string | null;
}

/** `/api/v1/products`' query string as a SearchInput (MCP builds its own from typed arguments). */
export function searchInputOf(url: URLSearchParams): SearchInput {
  for (const key of ["page", "pageSize", "uid"]) {
    if (url.has(key)) throw new AppError(400, `${key} is not a parameter of this API: page with cursor and limit.`, { param: key });
  }
  for (const key of ["cursor", "limit"]) {
    if (url.getAll(key).length > 1) throw new AppError(400, `${key} is given twice.`, { param: key });
  }
  const numbers = checkQueryNumbers(SEARCH_PARAMS, url);
  const query = parseProductQuery(new URLSearchParams([...url].filter(([k]) => k !== "cursor" && k !== "limit")));
  return { query, limit: numbers.limit, cursor: url.get("cursor") };
}

export async function searchAnswer(user: User, request: RequestUrl, input: SearchInput): Promise<Out<typeof S.ProductPage>> {
  const fingerprint = searchFingerprint(input.query);
  let limit = input.limit ?? DEFAULT_PAGE_SIZE;
  let page = 1;
  if (input.cursor != null) ({ page, limit } = decodeCursor(input.cursor, fingerprint));
  const query = { ...input.query, page, pageSize: limit };
  const result = await products.search({ userId: user.id, access: researchAccess(user), query });
  return {
    items: result.items.map((c) => apiProduct(c, request)),
    total: result.total,
    totalIsEstimate: result.totalIsEstimate,
    limit,
    nextCursor: result.hasMore && page < MAX_PAGE ? encodeCursor(page + 1, limit, fingerprint) : null,
    correctedQuery: result.correctedQuery,
    originalQuery: result.originalQuery,
  };
}

// ---------- the other reads ----------

const ObjectIDParam = z.object({ objectID: z.string().min(1).max(120) });
const CompetitorIdParam = z.object({ id: z.string().regex(/^\d{1,9}$/).meta({ description: "The followed store's id" }) });

function objectIDOf(params: Record<string, string | undefined>): string {
  const parsed = ObjectIDParam.safeParse(params);
  if (!parsed.success) throw new AppError(400, "objectID is not valid.", { param: "objectID" });
  return parsed.data.objectID;
}

export async function productAnswer(user: User, request: RequestUrl, objectID: string) {
  return apiProductDetail(await products.getProduct({ userId: user.id, objectID, access: researchAccess(user) }), request);
}

export async function dropsAnswer(user: User, request: RequestUrl, limit = 12): Promise<Out<typeof S.DropList>> {
  const list = await productDrops.list(user.id);
  const revealed = list.drops.filter((d) => d.revealed).slice(0, limit);
  const items = await Promise.all(revealed.map((d) => productDrops.get(user, d.date)));
  return {
    nextDropDate: list.nextDropDate,
    items: items.map((d) => ({
      date: d.date,
      productCount: d.productCount,
      products: d.products.map((p) => ({
        position: p.position,
        objectID: p.objectID,
        title: p.title,
        url: absolute(request, productPath(p.objectID)),
        image: p.image ? absolute(request, p.image) : null,
        niches: p.niches,
        price: money(p.priceCents, priceCurrencyCode(p.priceCurrency)),
        marginBps: p.marginBps,
        winningScore: p.winningScore,
        lifecycleStage: p.lifecycleStage,
        reason: p.reason,
      })),
    })),
  };
}

export async function competitorsAnswer(user: User): Promise<Out<typeof S.CompetitorList>> {
  return { items: (await competitors.list(user.id)).items };
}

export function competitorIdOf(value: string | undefined): number {
  const parsed = CompetitorIdParam.safeParse({ id: value });
  if (!parsed.success) throw new AppError(400, "id is not a competitor id.", { param: "id" });
  return Number(parsed.data.id);
}

export async function competitorAnswer(user: User, id: number): Promise<Out<typeof S.CompetitorDetail>> {
  const d = await competitors.get(user.id, id);
  const change = (c: (typeof d.changes)[number]) => ({ id: c.id, measured: true as const, type: c.type, at: c.at, productId: c.productId, title: c.title, sentence: c.sentence });
  // A store that publishes no currency keeps its amounts, with currency null (issue 35): never dropped, never dollars.
  const price = (cents: number | null, currency: string | null) => (cents === null ? null : money(cents, currency));
  return {
    id: d.id,
    domain: d.domain,
    name: d.name,
    status: d.status,
    lastCheckedAt: d.lastCheckedAt,
    nextCheckAt: d.nextCheckAt,
    lastError: d.lastError,
    currency: d.currency,
    productCount: d.productCount,
    followedAt: d.followedAt,
    products: d.products.map((p) => ({
      productId: p.productId,
      title: p.title,
      url: p.url,
      priceMin: price(p.priceMinCents, p.currency ?? d.currency),
      priceMax: price(p.priceMaxCents, p.currency ?? d.currency),
      available: p.available,
      publishedAt: p.publishedAt,
      firstSeenAt: p.firstSeenAt,
      lastSeenAt: p.lastSeenAt,
      signals: { sellOuts: p.signals.sellOuts, restocks: p.signals.restocks, priceDrops: p.signals.priceDrops, priceRises: p.signals.priceRises, launched: p.signals.launched },
    })),
    launches: d.launches.map(change),
    changes: d.changes.map(change),
    estimate: d.estimate ? { ...d.estimate, measured: false as const } : null,
    estimateReason: d.estimateReason,
  };
}

export async function profitAnswer(user: User, objectID: string, query: URLSearchParams) {
  checkQueryNumbers(PROFIT_PARAMS, query);
  const url = new URL("http://x/");
  url.search = query.toString();
  let profitQuery;
  try {
    profitQuery = parseProfitQuery(url);
  } catch (thrown) {
    // parseProfitQuery answers the site's JSON 400; here it becomes the API's own error.
    if (thrown instanceof Response) throw new AppError(400, ((await thrown.json()) as { error: string }).error);
    throw thrown;
  }
  return landedCost.productProfit({ userId: user.id, objectID, access: researchAccess(user), query: profitQuery });
}

/** Every operation of /api/v1, in the order the reference lists them. */
export const OPERATIONS: Operation[] = [
  {
    operationId: "searchProducts",
    method: "get",
    path: "/products",
    summary: "Search products with the grid's filters and sorts",
    description: "Cursor pagination: pass nextCursor as cursor, with the same other parameters. A bad parameter is a 400 naming it.",
    queryParams: SEARCH_PARAMS,
    response: S.ProductPage,
    run: ({ user, request, query }) => searchAnswer(user, request, searchInputOf(query)),
  },
  {
    operationId: "getProduct",
    method: "get",
    path: "/products/{objectID}",
    summary: "One product with its insights, offers, signals and match evidence",
    pathParams: ObjectIDParam,
    response: S.ProductDetail,
    run: ({ user, request, params }) => productAnswer(user, request, objectIDOf(params)),
  },
  {
    operationId: "getProductProfit",
    method: "get",
    path: "/products/{objectID}/profit",
    summary: "Landed cost and profit of one order of a product at a price",
    description: "422 when the product's cost is unknown and no costCents is given.",
    pathParams: ObjectIDParam,
    queryParams: PROFIT_PARAMS,
    response: S.Profit,
    run: ({ user, params, query }) => profitAnswer(user, objectIDOf(params), query),
  },
  {
    operationId: "listNiches",
    method: "get",
    path: "/niches",
    summary: "The niches products are filed under",
    response: S.NicheList,
    run: async () => ({ items: await products.niches() }),
  },
  {
    operationId: "listSavedProducts",
    method: "get",
    path: "/saved",
    summary: "Products you saved, newest first",
    response: S.ProductList,
    run: async ({ user, request }) => ({ items: (await products.listSaved(user.id, researchAccess(user))).map((c) => apiProduct(c, request)) }),
  },
  {
    operationId: "listTrackedProducts",
    method: "get",
    path: "/tracked",
    summary: "Products you track, with the change of each figure since you started",
    response: S.TrackedList,
    run: async ({ user, request }) => ({
      items: (await products.listTracked(user.id, researchAccess(user))).map((c) => ({ ...apiProduct(c, request), sinceTracking: c.sinceTracking })),
    }),
  },
  {
    operationId: "listDrops",
    method: "get",
    path: "/drops",
    summary: "The weekly drops you revealed, with their products",
    response: S.DropList,
    run: ({ user, request }) => dropsAnswer(user, request),
  },
  {
    operationId: "listCompetitors",
    method: "get",
    path: "/competitors",
    summary: "The rival stores you follow",
    response: S.CompetitorList,
    run: ({ user }) => competitorsAnswer(user),
  },
  {
    operationId: "getCompetitor",
    method: "get",
    path: "/competitors/{id}",
    summary: "One followed store with its products, launches, changes and estimate",
    description: "Another user's store, or an unknown id, is 404.",
    pathParams: CompetitorIdParam,
    response: S.CompetitorDetail,
    run: ({ user, params }) => competitorAnswer(user, competitorIdOf(params.id)),
  },
  {
    operationId: "listNotifications",
    method: "get",
    path: "/notifications",
    summary: "Your notifications, newest first, and how many are unread",
    response: S.NotificationList,
    run: ({ user }) => notifications.list(user.id),
  },
];

export function operation(operationId: string): Operation {
  const found = OPERATIONS.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no API operation ${operationId}`);
  return found;
}
