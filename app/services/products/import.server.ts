// Product import: the one way products enter the database (CLI, generator, first-start seed). Each row
// is validated (app/domain/products/product-import.ts); a bad row is reported with its line and reason and not
// imported; a good row gets its insights (app/domain/products/insights.ts) and is upserted by objectID into
// Product and ProductHistory (packed series, docs/decisions/011).
// importProducts = prepareBatches (CPU: validate, compute, pack; product-import-batches.server.ts)
// + writeBatches (this file: one batch transaction of multi-row upserts per batch). A row counts as
// imported only once its transaction committed. At the end the catalogue version is bumped so search
// caches refresh. External image URLs are kept as the product's image sources and fetched afterwards by
// the "images.fetch" job (stored-images.server.ts, docs/decisions/028): an import never waits on the network.
import type { Prisma } from "@prisma/client";
import { dialectOf, jsonItem, jsonRows, retryBusy, timeLiteral, toDbTime, type Db, type Dialect } from "~/db.server";
import { bumpCatalogVersion } from "~/services/search/catalog-version.server";
import type { Jobs } from "~/services/jobs.server";
import { emptyImageQueueSummary, imageSourceSql, queueImageFetch, type ImageQueueSummary } from "~/services/stored-images.server";
import { computeInsights, SERIES_KEYS, type DailySeries } from "~/domain/products/insights";
import { unpackSeries } from "~/domain/products/product-import";
import { landedMarginTable } from "~/services/landed-cost/margins.server";
import {
  HISTORY_VALUE_COLUMNS,
  prepareBatches,
  PRODUCT_COLUMNS,
  type BatchOptions,
  type ImportRejection,
  type ImportRowInput,
  type PreparedBatch,
} from "~/services/products/import-batches.server";

export { type ImportRejection, type ImportRowInput, type PreparedBatch } from "~/services/products/import-batches.server";

export interface ImportProgress {
  /** Rows read so far (good and bad). */
  processed: number;
  imported: number;
  updated: number;
  rejected: number;
  /** Line of the last row read. */
  line: number;
}

export interface ImportOptions extends Partial<BatchOptions> {
  onProgress?: (progress: ImportProgress) => void;
  /** Runs after each committed batch with its objectIDs (the Algolia sync); a throw stops the import. */
  onCommitted?: (objectIDs: string[]) => Promise<void>;
  /** Where "images.fetch" jobs are queued (default: the Job table of `db`, for whichever worker runs). */
  imageJobs?: Pick<Jobs, "enqueue">;
}

export interface ImportSummary {
  /** New products. */
  imported: number;
  /** Existing products (same objectID) overwritten, including repeats within the file. */
  updated: number;
  rejected: ImportRejection[];
  processed: number;
  /** CatalogState.version after the import (null when nothing changed). */
  catalogVersion: number | null;
  /** External image URLs: how many were already stored, how many were queued for fetching. */
  images: ImageQueueSummary;
}

/** Thrown when the database refuses a batch: what was committed before stays, and is reported. */
export class ImportAbortedError extends Error {
  constructor(
    message: string,
    readonly summary: ImportSummary,
    readonly atLine: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ImportAbortedError";
  }
}

const q = (name: string) => `"${name}"`;

/**
 * The upserts read their rows from one JSON parameter (an array of row arrays) through json_each on SQLite,
 * jsonb_array_elements on PostgreSQL (each item cast to its column's type there, decision 098): one bound parameter
 * per statement however many rows it carries (far under SQLite's 32766), a short statement SQLite compiles quickly,
 * and no per-value work in the driver. Measured against multi-row VALUES with one parameter per cell: as fast, and
 * less memory (docs/decisions/011).
 */
function productUpsertSql(dialect: Dialect, insightsAt: string): string {
  const columns = [...PRODUCT_COLUMNS, "insightsAt"].map(q).join(", ");
  const values = PRODUCT_COLUMNS.map((c, i) => jsonItem(dialect, "v", i, "Product", c)).join(", ");
  // A product added from a tracked store again keeps the day it was first added.
  const updates = [...PRODUCT_COLUMNS.slice(1), "insightsAt"]
    .map((c) => (c === "sourceAddedAt" ? `${q(c)} = COALESCE("Product".${q(c)}, excluded.${q(c)})` : `${q(c)} = excluded.${q(c)}`))
    .join(", ");
  // ("WHERE true" keeps SQLite's parser from reading ON CONFLICT as part of the SELECT.)
  return (
    `INSERT INTO "Product" (${columns}) SELECT ${values}, ${timeLiteral(dialect, insightsAt)} FROM ${jsonRows(dialect, "v")} WHERE true ` +
    `ON CONFLICT("objectID") DO UPDATE SET ${updates}`
  );
}

function historyUpsertSql(dialect: Dialect): string {
  const selected = HISTORY_VALUE_COLUMNS.map((c, i) => jsonItem(dialect, "v", i + 1, "ProductHistory", c)).join(", ");
  const updates = HISTORY_VALUE_COLUMNS.map((c) => `${q(c)} = excluded.${q(c)}`).join(", ");
  // Product ids come from the rows just upserted, looked up through the unique objectID index.
  return (
    `INSERT INTO "ProductHistory" ("productId", ${HISTORY_VALUE_COLUMNS.map(q).join(", ")}) ` +
    `SELECT p."id", ${selected} FROM ${jsonRows(dialect, "v")} JOIN "Product" AS p ON p."objectID" = ${jsonItem(dialect, "v", 0)} WHERE true ` +
    `ON CONFLICT("productId") DO UPDATE SET ${updates}`
  );
}

/** Products written without sales data keep no history from an earlier import (it would be shown as theirs). */
const dropHistorySql = (dialect: Dialect) =>
  `DELETE FROM "ProductHistory" WHERE "productId" IN (SELECT p."id" FROM ${jsonRows(dialect, "v", true)} JOIN "Product" AS p ON p."objectID" = v.value)`;

/** How many of the batch's products exist already: run first in the batch's transaction. */
const existingSql = (dialect: Dialect) =>
  `SELECT COUNT(*) AS "existing" FROM ${jsonRows(dialect, "v", true)} JOIN "Product" AS p ON p."objectID" = v.value`;

/**
 * Writes prepared batches, one transaction each, and bumps the catalogue version at the end if
 * anything changed. Throws ImportAbortedError when the database refuses a batch.
 */
export async function writeBatches(
  db: Db,
  batches: AsyncIterable<PreparedBatch> | Iterable<PreparedBatch>,
  options: Pick<ImportOptions, "onProgress" | "onCommitted" | "imageJobs"> & { now?: Date } = {},
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const dialect = dialectOf(db);
  const imageSql = imageSourceSql(dialect, toDbTime(now));
  const productSql = productUpsertSql(dialect, toDbTime(now));
  const historySql = historyUpsertSql(dialect);
  const [dropHistory, existingCount] = [dropHistorySql(dialect), existingSql(dialect)];
  const summary: ImportSummary = {
    imported: 0,
    updated: 0,
    rejected: [],
    processed: 0,
    catalogVersion: null,
    images: emptyImageQueueSummary(),
  };
  let lastLine = 0;

  try {
    for await (const batch of batches) {
      if (batch.products > 0) {
        const upserts: ReturnType<Db["$executeRawUnsafe"]>[] = [];
        for (let i = 0; i < batch.productPayloads.length; i++) {
          upserts.push(db.$executeRawUnsafe(productSql, batch.productPayloads[i]));
          upserts.push(db.$executeRawUnsafe(historySql, batch.historyPayloads[i]));
        }
        if (batch.withoutHistory !== "[]") upserts.push(db.$executeRawUnsafe(dropHistory, batch.withoutHistory));
        // The newest import says which image URLs a product has (none: its earlier ones go).
        const hasSources = batch.imageSources !== "[]";
        upserts.push(db.$executeRawUnsafe(imageSql.clear, batch.objectIDs));
        if (hasSources) {
          upserts.push(db.$executeRawUnsafe(imageSql.insert, batch.imageSources));
          upserts.push(db.$executeRawUnsafe(imageSql.want, batch.imageSources));
        }
        const statements: Prisma.PrismaPromise<unknown>[] = [db.$queryRawUnsafe(existingCount, batch.objectIDs), ...upserts];
        // A transaction runs on a fresh libSQL connection: set the wait for SQLite's write lock again.
        if (dialect === "sqlite") statements.unshift(db.$queryRawUnsafe("PRAGMA busy_timeout = 5000"));
        const results = await retryBusy(() => db.$transaction(statements));
        const existing = Number((results[dialect === "sqlite" ? 1 : 0] as { existing: number | bigint }[])[0].existing);
        summary.imported += batch.products - existing;
        summary.updated += existing + batch.repeats;
        if (hasSources) {
          const withImages = [...new Set((JSON.parse(batch.imageSources) as [string, number, string][]).map(([id]) => id))];
          addImageSummary(summary.images, await queueImageFetch(db, withImages, options.imageJobs));
        }
        if (options.onCommitted) await options.onCommitted(JSON.parse(batch.objectIDs) as string[]);
      } else {
        summary.updated += batch.repeats;
      }
      summary.processed += batch.processed;
      for (const r of batch.rejected) summary.rejected.push(r);
      lastLine = batch.lastLine;
      options.onProgress?.({
        processed: summary.processed,
        imported: summary.imported,
        updated: summary.updated,
        rejected: summary.rejected.length,
        line: lastLine,
      });
    }
  } catch (error) {
    // What was committed is in the catalogue: tell the caches, if the database still answers.
    summary.catalogVersion = await bumpCatalogVersionIfChanged(db, summary, now).catch(() => null);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportAbortedError(`import stopped after line ${lastLine}: ${reason}`, summary, lastLine, { cause: error });
  }
  summary.catalogVersion = await bumpCatalogVersionIfChanged(db, summary, now);
  return summary;
}

/**
 * Imports rows (from a file reader or the generator). Returns counts and every rejection; throws
 * ImportAbortedError if the database refuses a batch (rows committed before it stay imported).
 */
export async function importProducts(
  db: Db,
  rows: AsyncIterable<ImportRowInput> | Iterable<ImportRowInput>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const landed = options.landed ?? (await landedMarginTable(db, now));
  return writeBatches(db, prepareBatches(rows, { ...options, now, landed }), {
    now,
    onProgress: options.onProgress,
    onCommitted: options.onCommitted,
    imageJobs: options.imageJobs,
  });
}

function addImageSummary(total: ImageQueueSummary, batch: ImageQueueSummary) {
  total.products += batch.products;
  total.urls += batch.urls;
  total.alreadyStored += batch.alreadyStored;
  total.toFetch += batch.toFetch;
  total.jobIds.push(...batch.jobIds);
}

async function bumpCatalogVersionIfChanged(db: Db, summary: ImportSummary, now: Date): Promise<number | null> {
  if (summary.imported + summary.updated === 0) return null;
  return bumpCatalogVersion(db, now);
}


// ---- Recomputing stored insights after a rule change ----------------------------------------------

/** The derived columns a rule change can move (in the order of RECOMPUTE_SQL's payload). */
const RECOMPUTED_COLUMNS = [
  "winningScore",
  "lifecycleStage",
  "saturation",
  "marginBps",
  "orders7d",
  "ordersPrev7d",
  "ordersGrowth7d",
  "trendingScore",
  "reasons",
] as const;

const recomputeSql = (dialect: Dialect) =>
  `UPDATE "Product" SET ${RECOMPUTED_COLUMNS.map((c, i) => `"${c}" = ${jsonItem(dialect, "j", i + 1, "Product", c)}`).join(", ")} ` +
  `FROM ${jsonRows(dialect, "j")} WHERE "Product"."id" = ${jsonItem(dialect, "j", 0, "Product", "id")}`;

/**
 * Recomputes the stored insights of rows computed by older rules (`ordersPrev7d` = -1, which migration
 * 013 gives every row that existed before docs/decisions/025) from their packed history, as of each
 * row's own `insightsAt`, so the figures keep their day and only the rules change. Idempotent and cheap
 * when nothing is stale (one query on a partial index that is then empty); bumps the catalogue version when it changed
 * anything, so search caches pick up the new stages. Returns how many rows it recomputed.
 */
export async function recomputeStaleInsights(db: Db, options: { chunk?: number } = {}): Promise<number> {
  const chunk = options.chunk ?? 500;
  let lastId = 0;
  let recomputed = 0;
  for (;;) {
    // A literal "< 0" so SQLite uses the partial index of migration 013 (a bound value would not match it).
    const stale = await db.$queryRawUnsafe<{ id: number | bigint }[]>(
      `SELECT "id" FROM "Product" WHERE "ordersPrev7d" < 0 AND "id" > ? ORDER BY "id" LIMIT ?`,
      lastId,
      chunk,
    );
    if (stale.length === 0) break;
    lastId = Number(stale[stale.length - 1].id);
    const rows = await db.product.findMany({
      where: { id: { in: stale.map((r) => Number(r.id)) } },
      take: chunk,
      select: {
        id: true,
        priceCents: true,
        costCents: true,
        shippingCents: true,
        amazonPriceCents: true,
        firstSeenAt: true,
        insightsAt: true,
        history: { select: { startDay: true, orders: true, revenueCents: true, views: true, likes: true, comments: true, shares: true, storesSelling: true } },
      },
    });
    const payload: unknown[][] = [];
    for (const p of rows) {
      if (!p.history) continue; // every import writes a history; a row without one has nothing to recompute from
      const history = { startDay: p.history.startDay } as DailySeries;
      for (const key of SERIES_KEYS) history[key] = unpackSeries(p.history[key]);
      const i = computeInsights({
        priceCents: p.priceCents,
        costCents: p.costCents,
        shippingCents: p.shippingCents,
        amazonPriceCents: p.amazonPriceCents,
        history,
        now: p.insightsAt,
        firstSeenAt: p.firstSeenAt,
      });
      payload.push([p.id, ...RECOMPUTED_COLUMNS.map((c) => (c === "reasons" ? JSON.stringify(i.reasons) : i[c]))]);
    }
    if (payload.length > 0) {
      await retryBusy(() => db.$executeRawUnsafe(recomputeSql(dialectOf(db)), JSON.stringify(payload)));
      recomputed += payload.length;
    }
  }
  if (recomputed > 0) await bumpCatalogVersion(db);
  return recomputed;
}
