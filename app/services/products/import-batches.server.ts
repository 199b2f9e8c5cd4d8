// The CPU half of a product import, with no database access: validate each row, compute its insights
// and pack it into the JSON payloads the upserts read (product-import.server.ts writes them). Kept
// apart so it can also run on a worker thread (products:generate) while the main thread writes.
import { toDbTime } from "~/db.server";
import { computeInsights } from "~/domain/products/insights";
import { landedMarginOf, type LandedMarginTable } from "~/domain/landed-cost/margin";
import { defaultRandomSortKey, externalImageSources, packSeries, parseProductRow, shapeError, type ProductImportRow } from "~/domain/products/product-import";

export interface ImportRowInput {
  /** Line in the source file where the row starts (1-based), reported with rejections. */
  line: number;
  row: unknown;
}

export interface ImportRejection {
  line: number;
  reason: string;
}

/** Column order of a Product payload row (the upsert reads `value ->> i`). */
export const PRODUCT_COLUMNS = [
  "objectID",
  "title",
  "description",
  "niches",
  "primaryNiche",
  "tags",
  "images",
  "supplierName",
  "supplierUrl",
  "costCents",
  "priceCents",
  "shippingCents",
  "amazonPriceCents",
  "orders",
  "revenueCents",
  "likes",
  "comments",
  "shares",
  "views",
  "storesSelling",
  "firstSeenAt",
  "lastUpdatedAt",
  "randomSortKey",
  "winningScore",
  "lifecycleStage",
  "saturation",
  "marginBps",
  "orders7d",
  "ordersGrowth7d",
  "trendingScore",
  "reasons",
  "ordersPrev7d",
  "source",
  "sourceStore",
  "sourceAddedAt",
  "landedMarginBps",
  "priceCurrency",
] as const;

/** Column order of a ProductHistory payload row after the objectID. */
export const HISTORY_VALUE_COLUMNS = ["startDay", "days", "orders", "revenueCents", "views", "likes", "comments", "shares", "storesSelling"] as const;

export const DEFAULT_STATEMENT_ROWS = 500;
export const DEFAULT_TRANSACTION_ROWS = 5000;
/** A batch is also closed after this many rows read, so a file of bad rows still reports progress. */
const MAX_ROWS_READ_PER_BATCH = 20_000;

export interface BatchOptions {
  now: Date;
  /** Rows per INSERT statement (each statement binds one JSON parameter). */
  statementRows?: number;
  /** Rows per transaction. */
  transactionRows?: number;
  /** The duty layers the margin after duty and fees is figured with (landedMarginTable, decision 065; importProducts reads them when left out). */
  landed: LandedMarginTable;
}

/** One transaction's worth of rows, ready to write. Plain data: it can cross a worker boundary. */
export interface PreparedBatch {
  /** Distinct products in the batch. */
  products: number;
  /** Rows whose objectID already appeared earlier in the batch (the later row wins). */
  repeats: number;
  /** JSON array of the batch's objectIDs. */
  objectIDs: string;
  /** Per statement: JSON arrays of Product rows and of ProductHistory rows (rows with a history only). */
  productPayloads: string[];
  historyPayloads: string[];
  /** JSON array of the batch's objectIDs that have no history (no sales data, docs/decisions/026). */
  withoutHistory: string;
  /**
   * JSON array of [objectID, position, url]: the external image URLs of the batch's products, fetched
   * later by the "images.fetch" job (docs/decisions/028); "[]" when there are none.
   */
  imageSources: string;
  /** Rows read for this batch, good and bad, and the bad ones. */
  processed: number;
  rejected: ImportRejection[];
  lastLine: number;
}

type SqlValue = string | number | null;

/** DateTime as Prisma's SQLite adapter writes it ("2026-01-31T00:00:00.000+00:00"), so text order = time order. */
/** The Product columns of one validated row, insights included (order of PRODUCT_COLUMNS). */
export function productValues(row: ProductImportRow, now: Date, landed: LandedMarginTable): SqlValue[] {
  const insights = computeInsights({
    priceCents: row.priceCents,
    costCents: row.costCents,
    shippingCents: row.shippingCents,
    amazonPriceCents: row.amazonPriceCents,
    history: row.history,
    now,
    firstSeenAt: row.firstSeenAt,
  });
  return [
    row.objectID,
    row.title,
    row.description,
    JSON.stringify(row.niches),
    // A product from a tracked store whose type names no known niche has none (decision 084).
    row.niches[0] ?? "",
    JSON.stringify(row.tags),
    JSON.stringify(row.images),
    row.supplierName,
    row.supplierUrl,
    row.costCents,
    row.priceCents,
    row.shippingCents,
    row.amazonPriceCents,
    insights.orders,
    insights.revenueCents,
    insights.likes,
    insights.comments,
    insights.shares,
    insights.views,
    insights.storesSelling,
    toDbTime(row.firstSeenAt),
    toDbTime(row.lastUpdatedAt ?? now),
    row.randomSortKey ?? defaultRandomSortKey(row.objectID),
    // Without sales data there is no score or stage: 0 and "" are placeholders of NOT NULL columns
    // that readers never show (the row's source says so; docs/decisions/026).
    insights.winningScore ?? 0,
    insights.lifecycleStage ?? "",
    insights.saturation,
    insights.marginBps,
    insights.orders7d,
    insights.ordersGrowth7d,
    insights.trendingScore,
    JSON.stringify(insights.reasons),
    insights.ordersPrev7d,
    row.source ? "tracked-store" : "catalog",
    row.source?.store ?? null,
    row.source ? toDbTime(row.source.addedAt) : null,
    landedMarginOf(row, landed),
    row.priceCurrency,
  ];
}

/** The ProductHistory columns of a row; null for a row without sales data (no history to store). */
export function historyValues(row: ProductImportRow): SqlValue[] | null {
  const h = row.history;
  if (h === null) return null;
  return [
    row.objectID,
    h.startDay,
    h.orders.length,
    packSeries(h.orders),
    packSeries(h.revenueCents),
    packSeries(h.views),
    packSeries(h.likes),
    packSeries(h.comments),
    packSeries(h.shares),
    packSeries(h.storesSelling),
  ];
}

/** Validates and prepares rows into batches; every row read is either in a batch or rejected. */
export async function* prepareBatches(
  rows: AsyncIterable<ImportRowInput> | Iterable<ImportRowInput>,
  options: BatchOptions,
): AsyncGenerator<PreparedBatch> {
  const statementRows = Math.max(1, options.statementRows ?? DEFAULT_STATEMENT_ROWS);
  const transactionRows = Math.max(1, options.transactionRows ?? DEFAULT_TRANSACTION_ROWS);
  let products: { objectID: string; product: SqlValue[]; history: SqlValue[] | null; sources: [number, string][] }[] = [];
  let index = new Map<string, number>();
  let repeats = 0;
  let processed = 0;
  let rejected: ImportRejection[] = [];
  let lastLine = 0;

  const close = (): PreparedBatch => {
    const productPayloads: string[] = [];
    const historyPayloads: string[] = [];
    for (let i = 0; i < products.length; i += statementRows) {
      const chunk = products.slice(i, i + statementRows);
      productPayloads.push(JSON.stringify(chunk.map((p) => p.product)));
      historyPayloads.push(JSON.stringify(chunk.flatMap((p) => (p.history ? [p.history] : []))));
    }
    const sources: [string, number, string][] = [];
    for (const p of products) for (const [position, url] of p.sources) sources.push([p.objectID, position, url]);
    const batch: PreparedBatch = {
      products: products.length,
      repeats,
      objectIDs: JSON.stringify(products.map((p) => p.objectID)),
      productPayloads,
      historyPayloads,
      withoutHistory: JSON.stringify(products.filter((p) => p.history === null).map((p) => p.objectID)),
      imageSources: sources.length > 0 ? JSON.stringify(sources) : "[]",
      processed,
      rejected,
      lastLine,
    };
    products = [];
    index = new Map();
    repeats = 0;
    processed = 0;
    rejected = [];
    return batch;
  };

  for await (const { line, row } of rows) {
    processed++;
    lastLine = line;
    const unreadable = shapeError(row);
    const parsed = unreadable === null ? parseProductRow(row) : ({ ok: false, reason: unreadable } as const);
    if (!parsed.ok) {
      rejected.push({ line, reason: parsed.reason });
    } else {
      let entry;
      try {
        entry = {
          objectID: parsed.row.objectID,
          product: productValues(parsed.row, options.now, options.landed),
          history: historyValues(parsed.row),
          sources: externalImageSources(parsed.row.images),
        };
      } catch (error) {
        // The schema admits only rows the insight rules accept; this is a last line of defence.
        rejected.push({ line, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const earlier = index.get(entry.objectID);
      if (earlier !== undefined) {
        products[earlier] = entry;
        repeats++;
      } else {
        index.set(entry.objectID, products.length);
        products.push(entry);
      }
    }
    if (products.length >= transactionRows || processed >= MAX_ROWS_READ_PER_BATCH) yield close();
  }
  if (processed > 0) yield close();
}
