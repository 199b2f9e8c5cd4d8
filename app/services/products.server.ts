// Product research for both surfaces: search (through the configured engine), product detail with its
// history, saved and tracked products, saved searches. What a user may see is decided once, by
// researchAccess (app/domain/products/research-access.ts); locked fields are left out, not blurred.
import { dateFromDb, parseStringList, readerFor, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { dayString, dayOf, noSalesDataNote } from "~/domain/products/insights";
import { figure, isMeasuredSource, MEASURED_NO_SALES, priceCurrencyCode, type ShownFigure } from "~/domain/catalogue/measured-product";
import { convertCents, type RateTable } from "~/domain/landed-cost/exchange-rates";
import { parseProductQuery, type ProductQuery, type SearchEngine } from "~/domain/products/product-query";
import type { ResearchAccess } from "~/domain/products/research-access";
import { currentRateTable } from "~/services/landed-cost/exchange-rates.server";
import { NO_MEASURED_DETAIL, readMeasuredDetail } from "~/services/products/measured.server";
import { detailRow, markedCardRows, marksFor, savedProductIds, trackedRows, type CardRow, type TrackedAt } from "~/services/products/rows.server";

export type { SearchEngine };

/**
 * A product added from a tracked store has no sales data (docs/decisions/026): its sales columns hold 0
 * placeholders, so every sales figure, the score, the stage and the reasons are null here, and
 * `noSalesData` says why. Callers never see a measured-looking 0.
 */
function salesOf(p: CardRow) {
  if (isMeasuredSource(p.source)) {
    // A measured product (docs/decisions/046): stores are counted, orders are not. Its score, stage and
    // saturation are derived from the store counts (measuredFiguresOf says which figure is which).
    return {
      noSalesData: MEASURED_NO_SALES,
      orders: null,
      orders7d: null,
      ordersPrev7d: null,
      ordersGrowth7d: null,
      revenueCents: null,
      engagement: null,
      storesSelling: p.storesSelling,
      winningScore: p.winningScore,
      lifecycleStage: p.lifecycleStage,
      saturation: p.saturation,
    };
  }
  if (p.source === "tracked-store") {
    return {
      noSalesData: noSalesDataNote(p.sourceAddedAt ?? p.insightsAt, p.sourceStore),
      orders: null,
      orders7d: null,
      ordersPrev7d: null,
      ordersGrowth7d: null,
      revenueCents: null,
      engagement: null,
      storesSelling: null,
      winningScore: null,
      lifecycleStage: null,
      saturation: null,
    };
  }
  return {
    noSalesData: null,
    orders: p.orders,
    orders7d: p.orders7d,
    ordersPrev7d: p.ordersPrev7d,
    ordersGrowth7d: p.ordersGrowth7d,
    revenueCents: Number(p.revenueCents),
    engagement: { likes: p.likes, comments: p.comments, shares: p.shares, views: p.views },
    storesSelling: p.storesSelling,
    winningScore: p.winningScore,
    lifecycleStage: p.lifecycleStage,
    saturation: p.saturation,
  };
}

/** Where a product comes from, as the grid's source filter names it. */
function sourceOf(p: CardRow): "sample" | "measured" | "tracked-store" {
  return p.source === "measured" || p.source === "tracked-store" ? p.source : "sample";
}

export interface MeasuredFigures {
  /** YYYY-MM-DD: the day the figures hold for (when the catalogue last counted the product's listings). */
  asOf: string;
  storesSelling: ShownFigure<number>;
  storesAdded7d: ShownFigure<number>;
  storesAdded30d: ShownFigure<number>;
  /** First seen anywhere: the earliest published_at or first sight of its listings (ISO). */
  firstSeenAt: ShownFigure<string>;
  /** Derived from the store counts, not measured: an estimate. */
  winningScore: ShownFigure<number>;
  lifecycleStage: ShownFigure<string>;
  saturation: ShownFigure<number>;
  /** "sold by 1 store: too few to call a trend (we need 3)", or null. */
  thinEvidence: string | null;
}

/** A measured product's figures, each saying whether it is measured or derived, and its day; null for other sources. */
function measuredFiguresOf(p: CardRow): MeasuredFigures | null {
  if (!isMeasuredSource(p.source)) return null;
  const asOf = dayString(dayOf(p.insightsAt));
  return {
    asOf,
    storesSelling: figure(p.storesSelling, true, asOf),
    storesAdded7d: figure(p.storesAdded7d, true, asOf),
    storesAdded30d: figure(p.storesAdded30d, true, asOf),
    firstSeenAt: figure(p.firstSeenAt.toISOString(), true, asOf),
    winningScore: figure(p.winningScore, false, asOf),
    lifecycleStage: figure(p.lifecycleStage, false, asOf),
    saturation: figure(p.saturation, false, asOf),
    thinEvidence: p.thinEvidence,
  };
}

export function toCard(p: CardRow, access: ResearchAccess, marks: { saved?: boolean; tracked?: boolean; isNew?: boolean } = {}) {
  const sales = salesOf(p);
  const measured = isMeasuredSource(p.source);
  const base = {
    objectID: p.objectID,
    title: p.title,
    image: parseStringList(p.images)[0] ?? null,
    niches: parseStringList(p.niches),
    priceCents: p.priceCents,
    /** null: US dollars. Otherwise the ISO code (a measured product whose stores sell in euros, or "XXX" unknown): its
     *  price is kept out of the dollar price filter and sorts (docs/decisions/059). */
    priceCurrency: p.priceCurrency,
    /** A price in another currency in US dollars at the reference rate of priceRateDate (decision 089): what the price
     *  filter and sorts read; null when the price is in dollars, or its currency is unknown or has no rate. */
    priceUsdCents: p.priceCurrency === null ? null : p.priceUsdCents,
    priceRateDate: p.priceRateDate,
    source: sourceOf(p),
    ...sales,
    measured: measuredFiguresOf(p),
    firstSeenAt: p.firstSeenAt.toISOString(),
    lastUpdatedAt: p.lastUpdatedAt.toISOString(),
    insightsAt: p.insightsAt.toISOString(),
    saved: Boolean(marks.saved),
    tracked: Boolean(marks.tracked),
    isNew: Boolean(marks.isNew),
  };
  if (!access.insights) return { ...base, locked: true as const, insights: null };
  return {
    ...base,
    locked: false as const,
    insights: {
      // A measured product's reasons are sentences printed from its store counts; a tracked-store product has none.
      reasons: sales.noSalesData && !measured ? [] : parseStringList(p.reasons),
      /** null: the supplier cost is unknown ("Add your cost"); the margin is then null too. */
      costCents: p.costCents,
      shippingCents: p.shippingCents,
      marginBps: p.costCents === null ? null : p.marginBps,
      /**
       * The margin after duty and fees the grid's margin filter and sort read (decision 065): for the guessed HTS code
       * and origin, Shopify Payments' fees, no reserves; null when the cost is unknown. The card's own line
       * (landedMargins) uses the seller's code and origin where they set one.
       */
      landedMarginBps: p.costCents === null ? null : p.landedMarginBps,
      amazonPriceCents: p.amazonPriceCents,
      /** Orders a week: null without sales data (a measured product's adoption is in its figures instead). */
      trendingScore: sales.noSalesData ? null : p.trendingScore,
    },
  };
}
export type ProductCard = ReturnType<typeof toCard>;

/** Cards for ids, in the given order, with the user's saved/tracked marks. */
async function cardsFor(db: Db, userId: string, ids: number[], access: ResearchAccess, newSince?: Date) {
  if (ids.length === 0) return [];
  const rows = await markedCardRows(db, userId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is NonNullable<typeof r> => Boolean(r))
    .map((r) =>
      toCard(r, access, {
        saved: r.saved,
        tracked: r.tracked,
        isNew: newSince ? r.firstSeenAt.getTime() > newSince.getTime() : false,
      }),
    );
}

export async function searchProducts(
  db: Db,
  engine: SearchEngine,
  input: { userId: string; access: ResearchAccess; query: ProductQuery; newSince?: Date },
) {
  const { query } = input;
  const page = await engine.search(query);
  const items = await cardsFor(db, input.userId, page.ids, input.access, input.newSince);
  return {
    query,
    items,
    total: page.total,
    totalIsEstimate: page.totalIsEstimate,
    page: query.page,
    pageSize: query.pageSize,
    hasMore: page.hasMore,
    plan: page.plan,
    correctedQuery: page.correctedQuery ?? null,
    originalQuery: page.originalQuery ?? null,
    matchedSomeWords: page.matchedSomeWords ?? false,
  };
}

/** An objectID that names no product: AppError 404. */
function productNotFound(objectID: string): AppError {
  return new AppError(404, `No product with objectID ${objectID}.`);
}

function unpack(series: string): number[] {
  return series === "" ? [] : series.split(",").map(Number);
}

export async function getProduct(db: Db, input: { userId: string; objectID: string; access: ResearchAccess }) {
  const row = await detailRow(db, input.objectID);
  if (!row) throw productNotFound(input.objectID);
  const marks = await marksFor(db, input.userId, [row.id]);
  const card = toCard(row, input.access, { saved: marks.saved.has(row.id), tracked: marks.tracked.has(row.id) });
  const tracked = marks.tracked.has(row.id)
    ? await db.trackedProduct.findUnique({
        where: { userId_productId: { userId: input.userId, productId: row.id } },
        select: { trackedAt: true, ordersAtTrack: true, revenueCentsAtTrack: true, priceCentsAtTrack: true, storesSellingAtTrack: true, winningScoreAtTrack: true },
      })
    : null;
  const h = row.history;
  // Offers, signals and match evidence of a measured product (docs/decisions/048); empty for other sources.
  const measured = isMeasuredSource(row.source) ? await readMeasuredDetail(db, row.id, row.firstSeenAt, row) : NO_MEASURED_DETAIL;
  return {
    ...card,
    description: row.description,
    tags: parseStringList(row.tags),
    images: parseStringList(row.images),
    supplier: input.access.insights ? { name: row.supplierName, url: row.supplierUrl } : null,
    history:
      input.access.insights && h
        ? {
            startDay: h.startDay,
            days: h.days,
            orders: unpack(h.orders),
            revenueCents: unpack(h.revenueCents),
            views: unpack(h.views),
            likes: unpack(h.likes),
            comments: unpack(h.comments),
            shares: unpack(h.shares),
            storesSelling: unpack(h.storesSelling),
          }
        : null,
    sinceTracking: tracked ? sinceTrackingOf(card, tracked, card.priceCurrency !== null ? await currentRateTable(db) : null) : null,
    offers: measured.offers,
    // The daily series (the chart) is part of the insights, as a sample product's history is.
    signals: measured.signals && !input.access.insights ? { ...measured.signals, series: null } : measured.signals,
    matchEvidence: measured.matchEvidence,
  };
}

/** The change since tracking started; null for a figure the product has no data for (docs/decisions/026). */
/**
 * The change of each figure since tracking. The price change is in the product's currency (priceCurrency: ISO, null
 * unknown), and for another currency than dollars also in dollars at a dated reference rate (decision 089).
 */
function sinceTrackingOf(card: ProductCard, t: TrackedAt, rates: RateTable | null) {
  const change = (now: number | null, then: number) => (now === null ? null : now - then);
  const priceChange = card.priceCents - t.priceCentsAtTrack;
  const priceCurrency = priceCurrencyCode(card.priceCurrency);
  const converted = priceCurrency !== null && priceCurrency !== "USD" ? convertCents(priceChange, priceCurrency, "USD", rates) : null;
  return {
    trackedAt: t.trackedAt.toISOString(),
    orders: change(card.orders, t.ordersAtTrack),
    revenueCents: change(card.revenueCents, Number(t.revenueCentsAtTrack)),
    priceCents: priceChange,
    priceCurrency,
    priceChangeConverted: converted?.rateDate ? { cents: converted.cents, currency: converted.currency, rateDate: converted.rateDate } : null,
    storesSelling: change(card.storesSelling, t.storesSellingAtTrack),
    winningScore: change(card.winningScore, t.winningScoreAtTrack),
  };
}
export type ProductDetail = Awaited<ReturnType<typeof getProduct>>;

async function productIdOf(db: Db, objectID: string): Promise<number> {
  const p = await db.product.findUnique({ where: { objectID }, select: { id: true } });
  if (!p) throw productNotFound(objectID);
  return p.id;
}

/** Idempotent: saving twice keeps one row and the first date. */
export async function saveProduct(db: Db, userId: string, objectID: string) {
  const productId = await productIdOf(db, objectID);
  await db.savedProduct.upsert({
    where: { userId_productId: { userId, productId } },
    create: { userId, productId },
    update: {},
    select: { productId: true },
  });
  return { saved: true };
}

export async function unsaveProduct(db: Db, userId: string, objectID: string) {
  const productId = await productIdOf(db, objectID);
  await db.savedProduct.deleteMany({ where: { userId, productId } });
  return { saved: false };
}

export async function trackProduct(db: Db, userId: string, objectID: string) {
  const p = await db.product.findUnique({
    where: { objectID },
    select: { id: true, orders: true, revenueCents: true, priceCents: true, storesSelling: true, winningScore: true },
  });
  if (!p) throw productNotFound(objectID);
  await db.trackedProduct.upsert({
    where: { userId_productId: { userId, productId: p.id } },
    create: {
      userId,
      productId: p.id,
      ordersAtTrack: p.orders,
      revenueCentsAtTrack: p.revenueCents,
      priceCentsAtTrack: p.priceCents,
      storesSellingAtTrack: p.storesSelling,
      winningScoreAtTrack: p.winningScore,
    },
    update: {},
    select: { productId: true },
  });
  return { tracked: true };
}

export async function untrackProduct(db: Db, userId: string, objectID: string) {
  const productId = await productIdOf(db, objectID);
  await db.trackedProduct.deleteMany({ where: { userId, productId } });
  return { tracked: false };
}

export async function listSaved(db: Db, userId: string, access: ResearchAccess) {
  return cardsFor(db, userId, await savedProductIds(db, userId), access);
}

export async function listTracked(db: Db, userId: string, access: ResearchAccess) {
  const rows = await trackedRows(db, userId);
  // Nothing tracked (most sellers): no card or id lookups for an empty list.
  if (rows.length === 0) return [];
  const cards = await cardsFor(db, userId, rows.map((r) => r.productId), access);
  const cardByObject = new Map(cards.map((c) => [c.objectID, c]));
  const products = await db.product.findMany({ where: { id: { in: rows.map((r) => r.productId) } }, select: { id: true, objectID: true } });
  const objectOf = new Map(products.map((p) => [p.id, p.objectID]));
  const rates = cards.some((c) => c.priceCurrency !== null) ? await currentRateTable(db) : null;
  return rows
    .map((t) => {
      const card = cardByObject.get(objectOf.get(t.productId) ?? "");
      if (!card) return null;
      return { ...card, sinceTracking: sinceTrackingOf(card, t, rates) };
    })
    .filter((x): x is NonNullable<typeof x> => x !== null);
}

// ---------- saved searches ----------

/** Keeps only the search's own parameters (no page), so it opens at page 1. */
export function normalizeSavedQuery(params: URLSearchParams): string {
  parseProductQuery(params); // throws QueryError naming a bad parameter
  const out = new URLSearchParams();
  for (const [k, v] of params) if (!["page", "uid", "location", "product", "view"].includes(k)) out.append(k, v);
  return out.toString();
}

export async function saveSearch(db: Db, userId: string, input: { name: string; params: URLSearchParams }) {
  const query = normalizeSavedQuery(input.params);
  const count = await db.savedSearch.count({ where: { userId } });
  if (count >= 50) throw new AppError(409, "You can keep up to 50 saved searches. Delete one first.");
  // Alerts count products added from now on (docs/decisions/030): the newest product is the watermark.
  const newest = await db.product.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return db.savedSearch.create({
    data: { userId, name: input.name, query, alertAfterProductId: newest?.id ?? 0 },
    select: { id: true, name: true, query: true },
  });
}

/** Read on the saved page and `GET /api/saved-searches`: a prepared statement on the SqlReader (decision 076), else Prisma. */
export async function listSavedSearches(db: Db, userId: string) {
  const reader = readerFor(db);
  if (reader) {
    const sql = `SELECT "id", "name", "query", "createdAt", "lastVisitedAt", "alertsEnabled" FROM "SavedSearch" WHERE "userId" = ? ORDER BY "createdAt" DESC`;
    return (await reader.rows(sql, [userId])).map(([id, name, query, createdAt, lastVisitedAt, alertsEnabled]) => ({
      id: Number(id),
      name: String(name),
      query: String(query),
      createdAt: dateFromDb(createdAt),
      lastVisitedAt: dateFromDb(lastVisitedAt),
      alertsEnabled: Boolean(alertsEnabled),
    }));
  }
  return db.savedSearch.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, query: true, createdAt: true, lastVisitedAt: true, alertsEnabled: true },
  });
}

/** Opening a saved search marks products first seen since the last visit as new, then moves the mark. */
export async function visitSavedSearch(db: Db, userId: string, id: number) {
  const row = await db.savedSearch.findFirst({ where: { id, userId }, select: { id: true, query: true, lastVisitedAt: true } });
  if (!row) return null;
  await db.savedSearch.update({ where: { id }, data: { lastVisitedAt: new Date() }, select: { id: true } });
  return { query: row.query, newSince: row.lastVisitedAt };
}

export async function deleteSavedSearch(db: Db, userId: string, id: number) {
  const { count } = await db.savedSearch.deleteMany({ where: { id, userId } });
  return count > 0;
}

/** Cards of these products in the given order, with the user's marks (objectIDs that name no product are left out). */
export async function productCards(db: Db, userId: string, objectIDs: string[], access: ResearchAccess) {
  if (objectIDs.length === 0) return [];
  const rows = await db.product.findMany({ where: { objectID: { in: [...new Set(objectIDs)] } }, select: { id: true, objectID: true } });
  const idOf = new Map(rows.map((r) => [r.objectID, r.id]));
  return cardsFor(db, userId, objectIDs.map((o) => idOf.get(o)).filter((id): id is number => id !== undefined), access);
}

/** Titles of these products, by objectID (ids of products that no longer exist are left out). */
export async function productTitles(db: Db, objectIDs: string[]): Promise<Map<string, string>> {
  if (objectIDs.length === 0) return new Map();
  const rows = await db.product.findMany({ where: { objectID: { in: [...new Set(objectIDs)] } }, select: { objectID: true, title: true } });
  return new Map(rows.map((r) => [r.objectID, r.title]));
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = {
  getProduct,
  saveProduct,
  unsaveProduct,
  trackProduct,
  untrackProduct,
  listSaved,
  listTracked,
  saveSearch,
  listSavedSearches,
  visitSavedSearch,
  deleteSavedSearch,
  productTitles,
  productCards,
};
