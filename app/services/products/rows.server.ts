// Product rows as the research use cases read them (app/services/products.server.ts): a card's columns, a product
// page's row and series, the user's saved/tracked marks and tracked products. The reads on every page go to the
// SqlReader (prepared statements; docs/decisions/017, 076), each keeping its Prisma read for a client without one
// (a transaction's), which must answer the same (tests/integration/products/product-cards.test.ts, product-detail-reads.test.ts,
// saved-reads.test.ts).
import { dateFromDb, readerFor, textOrNull, type Db, type SqlReader } from "~/db.server";

export const cardSelect = {
  id: true,
  objectID: true,
  title: true,
  images: true,
  niches: true,
  priceCents: true,
  priceCurrency: true,
  priceUsdCents: true,
  priceRateDate: true,
  costCents: true,
  shippingCents: true,
  marginBps: true,
  landedMarginBps: true,
  amazonPriceCents: true,
  orders: true,
  orders7d: true,
  ordersPrev7d: true,
  ordersGrowth7d: true,
  revenueCents: true,
  likes: true,
  comments: true,
  shares: true,
  views: true,
  storesSelling: true,
  winningScore: true,
  lifecycleStage: true,
  saturation: true,
  trendingScore: true,
  reasons: true,
  firstSeenAt: true,
  lastUpdatedAt: true,
  insightsAt: true,
  source: true,
  sourceStore: true,
  sourceAddedAt: true,
  storesAdded7d: true,
  storesAdded30d: true,
  thinEvidence: true,
} as const;

export type CardRow = {
  [K in keyof typeof cardSelect]: K extends "revenueCents"
    ? bigint | number
 : K extends "firstSeenAt" | "lastUpdatedAt" | "insightsAt"
      ? Date
      : K extends "sourceAddedAt"
        ? Date | null
        : K extends "sourceStore" | "thinEvidence" | "priceCurrency" | "priceRateDate"
          ? string | null
          : K extends "amazonPriceCents" | "ordersGrowth7d" | "costCents" | "marginBps" | "landedMarginBps" | "priceUsdCents"
            ? number | null
            : K extends "id" | "priceCents" | "shippingCents" | "orders" | "orders7d" | "ordersPrev7d" | "likes" | "comments" | "shares" | "views" | "storesSelling" | "winningScore" | "saturation" | "trendingScore" | "storesAdded7d" | "storesAdded30d"
          ? number
          : string;
};

/** The Product columns of a card that are not plain numbers or text (see cardRowsOutsidePrisma). */
const CARD_DATE_FIELDS = new Set<keyof typeof cardSelect>(["firstSeenAt", "lastUpdatedAt", "insightsAt", "sourceAddedAt"]);
const CARD_FIELDS = Object.keys(cardSelect) as (keyof typeof cardSelect)[];
const CHUNK = 100;

/** Product columns (and any column expressions after them) of `count` products by id. */
function cardsSql(count: number, fields: readonly string[] = CARD_FIELDS, expressions: readonly string[] = []) {
  const columns = [...fields.map((f) => `"${f}"`), ...expressions].join(", ");
  return `SELECT ${columns} FROM "Product" WHERE "id" IN (${Array(count).fill("?").join(",")})`;
}

function marksSql(count: number) {
  const list = Array(count).fill("?").join(",");
  return (
    `SELECT "productId", 1 FROM "SavedProduct" WHERE "userId" = ? AND "productId" IN (${list}) ` +
    `UNION ALL SELECT "productId", 2 FROM "TrackedProduct" WHERE "userId" = ? AND "productId" IN (${list})`
  );
}

/**
 * Cards on a page are read on every search: with a SqlReader (a prepared statement per page size)
 * instead of Prisma, which costs ~0.6 ms of CPU per query (docs/decisions/017). Same rows, same types.
 */
export async function cardRowsOutsidePrisma<Extra extends string = never>(reader: SqlReader, ids: number[], extra: readonly Extra[] = []): Promise<(CardRow & Record<Extra, unknown>)[]> {
  const fields: string[] = [...CARD_FIELDS, ...extra];
  const out: (CardRow & Record<Extra, unknown>)[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    for (const row of await reader.rows(cardsSql(chunk.length, fields), chunk)) out.push(cardFrom<Extra>(fields, row));
  }
  return out;
}

/** A card row (and `extra` columns) from the driver's values for `fields`, in that order: the dates as Dates. */
function cardFrom<Extra extends string = never>(fields: readonly string[], row: unknown[]): CardRow & Record<Extra, unknown> {
  const card: Record<string, unknown> = {};
  fields.forEach((field, j) => {
    card[field] = CARD_DATE_FIELDS.has(field as keyof typeof cardSelect) && row[j] !== null ? dateFromDb(row[j]) : row[j];
  });
  return card as CardRow & Record<Extra, unknown>;
}

const DETAIL_FIELDS = [...CARD_FIELDS, "description", "tags", "supplierName", "supplierUrl"] as const;
const HISTORY_FIELDS = ["startDay", "days", "orders", "revenueCents", "views", "likes", "comments", "shares", "storesSelling"] as const;
type HistoryRow = { startDay: string; days: number } & Record<Exclude<(typeof HISTORY_FIELDS)[number], "startDay" | "days">, string>;
const DETAIL_SQL = `SELECT ${DETAIL_FIELDS.map((f) => `"${f}"`).join(", ")} FROM "Product" WHERE "objectID" = ?`;
const HISTORY_SQL = `SELECT ${HISTORY_FIELDS.map((f) => `"${f}"`).join(", ")} FROM "ProductHistory" WHERE "productId" = ?`;
type DetailRow = CardRow & { description: string; tags: string; supplierName: string | null; supplierUrl: string | null; history: HistoryRow | null };

/**
 * A product page's row and its daily series, read on every product page: two prepared statements on the SqlReader
 * instead of Prisma's two queries (docs/decisions/076); Prisma for a client without a reader. Same rows, same types
 * (tests/integration/products/product-detail-reads.test.ts).
 */
export async function detailRow(db: Db, objectID: string): Promise<DetailRow | null> {
  const reader = readerFor(db);
  if (!reader) {
    return db.product.findUnique({
      where: { objectID },
      select: { ...cardSelect, description: true, tags: true, supplierName: true, supplierUrl: true, history: { select: Object.fromEntries(HISTORY_FIELDS.map((f) => [f, true])) as Record<(typeof HISTORY_FIELDS)[number], true> } },
    });
  }
  const row = await reader.row(DETAIL_SQL, [objectID]);
  if (!row) return null;
  const product = cardFrom<"description" | "tags" | "supplierName" | "supplierUrl">(DETAIL_FIELDS, row);
  const h = await reader.row(HISTORY_SQL, [product.id]);
  return {
    ...product,
    description: String(product.description),
    tags: String(product.tags),
    supplierName: textOrNull(product.supplierName),
    supplierUrl: textOrNull(product.supplierUrl),
    history: h
      ? {
          startDay: String(h[0]),
          days: Number(h[1]),
          ...(Object.fromEntries(HISTORY_FIELDS.slice(2).map((f, i) => [f, String(h[i + 2])])) as Omit<HistoryRow, "startDay" | "days">),
        }
      : null,
  };
}

/** Card rows with the supplier, for exports (decision 057): read outside Prisma as the grid's cards are, in any order. */
export async function cardRowsWithSupplier(db: Db, ids: number[]): Promise<(CardRow & { supplierName: string | null; supplierUrl: string | null })[]> {
  const reader = readerFor(db);
  if (!reader) return db.product.findMany({ where: { id: { in: ids } }, select: { ...cardSelect, supplierName: true, supplierUrl: true } });
  return (await cardRowsOutsidePrisma(reader, ids, ["supplierName", "supplierUrl"] as const)).map((r) => ({
    ...r,
    supplierName: r.supplierName === null ? null : String(r.supplierName),
    supplierUrl: r.supplierUrl === null ? null : String(r.supplierUrl),
  }));
}

export async function marksFor(db: Db, userId: string, ids: number[]) {
  const reader = readerFor(db);
  if (reader) {
    const saved = new Set<number>();
    const tracked = new Set<number>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      for (const [productId, kind] of await reader.rows(marksSql(chunk.length), [userId, ...chunk, userId, ...chunk])) {
        (kind === 1 ? saved : tracked).add(Number(productId));
      }
    }
    return { saved, tracked };
  }
  const [saved, tracked] = await Promise.all([
    db.savedProduct.findMany({ where: { userId, productId: { in: ids } }, select: { productId: true } }),
    db.trackedProduct.findMany({ where: { userId, productId: { in: ids } }, select: { productId: true } }),
  ]);
  return { saved: new Set(saved.map((s) => s.productId)), tracked: new Set(tracked.map((t) => t.productId)) };
}

/** Whether the user saved / tracks the row's product: two columns beside a card's (their `?` are the user's id). */
const MARK_COLUMNS = ["SavedProduct", "TrackedProduct"].map(
  (table) => `EXISTS (SELECT 1 FROM "${table}" WHERE "${table}"."userId" = ? AND "${table}"."productId" = "Product"."id")`,
);

/**
 * Card rows for these ids (in any order) with the user's saved and tracked marks: read on every search and API call,
 * so with a SqlReader the marks come in the cards' statement (one round trip on PostgreSQL instead of two; issue 38);
 * Prisma's two reads otherwise. The same rows and marks as cardRows and marksFor (tests/integration/database/postgres-readers.test.ts).
 */
export async function markedCardRows(db: Db, userId: string, ids: number[]): Promise<(CardRow & { saved: boolean; tracked: boolean })[]> {
  const reader = readerFor(db);
  if (!reader) {
    const [rows, marks] = await Promise.all([cardRows(db, ids), marksFor(db, userId, ids)]);
    return rows.map((r) => ({ ...r, saved: marks.saved.has(r.id), tracked: marks.tracked.has(r.id) }));
  }
  // SQLite answers EXISTS with 1 or 0, PostgreSQL with true or false.
  const yes = (value: unknown) => value === true || Number(value) === 1;
  const n = CARD_FIELDS.length;
  const out: (CardRow & { saved: boolean; tracked: boolean })[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    for (const row of await reader.rows(cardsSql(chunk.length, CARD_FIELDS, MARK_COLUMNS), [userId, userId, ...chunk])) {
      out.push({ ...cardFrom(CARD_FIELDS, row), saved: yes(row[n]), tracked: yes(row[n + 1]) });
    }
  }
  return out;
}

/** Card rows for these ids, in any order. */
export function cardRows(db: Db, ids: number[]): Promise<CardRow[]> {
  const reader = readerFor(db);
  return reader ? cardRowsOutsidePrisma(reader, ids) : db.product.findMany({ where: { id: { in: ids } }, select: cardSelect });
}

/** The products the user saved, newest first (at most 500). */
export async function savedProductIds(db: Db, userId: string): Promise<number[]> {
  const reader = readerFor(db);
  return reader
    ? (await reader.rows(`SELECT "productId" FROM "SavedProduct" WHERE "userId" = ? ORDER BY "savedAt" DESC LIMIT 500`, [userId])).map(([id]) => Number(id))
    : (await db.savedProduct.findMany({ where: { userId }, orderBy: { savedAt: "desc" }, select: { productId: true }, take: 500 })).map((r) => r.productId);
}

export type TrackedAt = {
  trackedAt: Date;
  ordersAtTrack: number;
  revenueCentsAtTrack: bigint;
  priceCentsAtTrack: number;
  storesSellingAtTrack: number;
  winningScoreAtTrack: number;
};

/** The seller's tracked products, newest first, with the figures at the time tracking started. */
export async function trackedRows(db: Db, userId: string): Promise<(TrackedAt & { productId: number })[]> {
  const reader = readerFor(db);
  if (!reader) {
    return db.trackedProduct.findMany({
      where: { userId },
      orderBy: { trackedAt: "desc" },
      take: 500,
      select: { productId: true, trackedAt: true, ordersAtTrack: true, revenueCentsAtTrack: true, priceCentsAtTrack: true, storesSellingAtTrack: true, winningScoreAtTrack: true },
    });
  }
  const sql =
    `SELECT "productId", "trackedAt", "ordersAtTrack", "revenueCentsAtTrack", "priceCentsAtTrack", "storesSellingAtTrack", "winningScoreAtTrack" ` +
    `FROM "TrackedProduct" WHERE "userId" = ? ORDER BY "trackedAt" DESC LIMIT 500`;
  return (await reader.rows(sql, [userId])).map(([productId, trackedAt, orders, revenue, price, stores, score]) => ({
    productId: Number(productId),
    trackedAt: dateFromDb(trackedAt),
    ordersAtTrack: Number(orders),
    revenueCentsAtTrack: BigInt(revenue as number | bigint),
    priceCentsAtTrack: Number(price),
    storesSellingAtTrack: Number(stores),
    winningScoreAtTrack: Number(score),
  }));
}
