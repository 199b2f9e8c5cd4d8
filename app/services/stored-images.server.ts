// Fetched product images (docs/decisions/028). This file owns the StoredImage and ProductImageSource rows:
// - an import records each product's external image URLs (ProductImageSource, by position) and one
//   StoredImage row per distinct URL ("pending"); the product lists the URLs as given meanwhile;
// - the "images.fetch" job fetches each pending URL once (image-fetch.server.ts: SSRF-safe, 5 MB, type
//   from the bytes), keeps the file in file storage under its content hash, and marks the URL "stored" or
//   "failed" with the reason; then puts /product-images/stored/{file} (or, for a failed one, the category
//   drawing /product-images/{objectID}-{n}.svg) in the products' image lists, so the grid, the product page,
//   AI product pages and ads all read the outcome from Product.images;
// - a URL already stored is never fetched again: a re-import applies it at once;
// - the daily "images.purge" job (and `npm run images -- purge`) deletes the StoredImage rows no product's
//   sources name any more, after a grace period, then each file no remaining row names (decision 037);
// - after a fetch, the changed products go to `onImagesApplied` (the Algolia record sync, when configured).
// The fetching runs on the job system so an import of many products never waits on the network.
import { z } from "zod";
import { createHash } from "node:crypto";
import { dialectOf, jsonItem, jsonRows, retryBusy, timeLiteral, toDbTime, writeTransaction, type Db, type Dialect } from "~/db.server";
import { FileStorageError, type FileStorage } from "~/integrations/file-storage.server";
import { ImageFetchError, type ImageFetcher } from "~/integrations/image-fetch.server";
import { AppError } from "~/domain/errors";
import { childLogger } from "~/logger.server";
import { createJobs, defaultOwnerId, type JobId, type Jobs } from "~/services/jobs.server";

export const IMAGES_FETCH_JOB = "images.fetch";
export const IMAGES_PURGE_JOB = "images.purge";
/** Daily at 03:47 UTC: off the hour and half an hour after the job system's own purge (03:17). */
export const IMAGES_PURGE_SCHEDULE = { name: "images.purge", pattern: "47 3 * * *" } as const;
/**
 * A row or file younger than this is never purged: an import in flight, or a fetch writing a file, is never
 * undone by a purge that runs at the same moment.
 */
export const IMAGE_PURGE_GRACE_HOURS = 24;
/** What put() leaves behind when a process dies mid-write ("{name}.{pid}.{ms}.{n}.tmp"). */
const TEMPORARY_FILE = /^[0-9a-f]{64}\.(jpg|png|webp|gif)(\.\d+){2,3}\.tmp$/;
const PURGE_BATCH = 500;
/** Where a stored image is served (app/routes/product-images.stored.$file.tsx). */
export const STORED_IMAGE_PATH = "/product-images/stored/";
/** "{sha256}.{ext}": content-addressed, so the same name is always the same bytes (cached for a year). */
export const STORED_IMAGE_FILE = /^([0-9a-f]{64})\.(jpg|png|webp|gif)$/;
const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };

const log = childLogger("images");

/** Statements the import runs in each batch's transaction (docs/decisions/028), all reading one JSON parameter. */
export function imageSourceSql(dialect: Dialect, now: string) {
  const item = (i: number, field: string) => jsonItem(dialect, "v", i, "ProductImageSource", field);
  return {
    /** The batch's products' earlier sources go: the newest import says which URLs a product has. */
    clear: `DELETE FROM "ProductImageSource" WHERE "objectID" IN (SELECT v.value FROM ${jsonRows(dialect, "v", true)})`,
    /** [[objectID, position, url], ...] */
    insert:
      `INSERT INTO "ProductImageSource" ("objectID", "position", "url") ` +
      `SELECT ${item(0, "objectID")}, ${item(1, "position")}, ${item(2, "url")} FROM ${jsonRows(dialect, "v")} WHERE true ` +
      `ON CONFLICT ("objectID", "position") DO UPDATE SET "url" = excluded."url"`,
    /** One StoredImage per new URL; one that failed before is tried again (the operator imported it again). */
    want:
      `INSERT INTO "StoredImage" ("url", "status", "createdAt") ` +
      `SELECT DISTINCT ${item(2, "url")}, 'pending', ${timeLiteral(dialect, now)} FROM ${jsonRows(dialect, "v")} WHERE true ` +
      `ON CONFLICT ("url") DO UPDATE SET "status" = 'pending', "reason" = NULL WHERE "StoredImage"."status" = 'failed'`,
  };
}

export interface ImageQueueSummary {
  /** Products of the import that carry external image URLs. */
  products: number;
  /** Distinct URLs among them. */
  urls: number;
  /** Already stored (shown at once, not fetched again). */
  alreadyStored: number;
  /** Left to the "images.fetch" job. */
  toFetch: number;
  /** The jobs queued for them (`npm run jobs -- list`). */
  jobIds: JobId[];
}

export const emptyImageQueueSummary = (): ImageQueueSummary => ({ products: 0, urls: 0, alreadyStored: 0, toFetch: 0, jobIds: [] });

interface SourceRow {
  objectID: string;
  position: number | bigint;
  url: string;
  status: string;
  fileName: string | null;
}

async function sourcesOf(db: Db, objectIDs: readonly string[]): Promise<SourceRow[]> {
  if (objectIDs.length === 0) return [];
  return db.$queryRawUnsafe<SourceRow[]>(
    `SELECT s."objectID", s."position", s."url", i."status", i."fileName"
     FROM "ProductImageSource" AS s JOIN "StoredImage" AS i ON i."url" = s."url"
     WHERE s."objectID" IN (SELECT v.value FROM ${jsonRows(dialectOf(db), "v", true)})`,
    JSON.stringify(objectIDs),
  );
}

/**
 * Puts the outcome of these products' image fetches into their image lists (Product.images), position by
 * position: the stored copy, or the category drawing for a URL that could not be fetched; a pending URL
 * stays as given. Returns how many products changed.
 */
export async function applyStoredImages(db: Db, objectIDs: readonly string[], sources?: SourceRow[]): Promise<number> {
  return (await applyOutcomes(db, objectIDs, sources)).changed;
}

/** applyStoredImages, also saying which products show at least one outcome (changed now or earlier). */
async function applyOutcomes(db: Db, objectIDs: readonly string[], sources?: SourceRow[]): Promise<{ changed: number; withOutcome: string[] }> {
  const rows = (sources ?? (await sourcesOf(db, objectIDs))).filter((r) => r.status === "failed" || (r.status === "stored" && r.fileName));
  if (rows.length === 0) return { changed: 0, withOutcome: [] };
  const byProduct = new Map<string, SourceRow[]>();
  for (const r of rows) byProduct.set(r.objectID, [...(byProduct.get(r.objectID) ?? []), r]);
  const products = await db.product.findMany({
    where: { objectID: { in: [...byProduct.keys()] } },
    select: { objectID: true, images: true },
  });
  const updates: { objectID: string; images: string }[] = [];
  for (const p of products) {
    const images = JSON.parse(p.images) as string[];
    let changed = false;
    for (const r of byProduct.get(p.objectID) ?? []) {
      const position = Number(r.position);
      const shown = r.status === "stored" ? `${STORED_IMAGE_PATH}${r.fileName}` : `/product-images/${p.objectID}-${position + 1}.svg`;
      if (position < images.length && images[position] !== shown) {
        images[position] = shown;
        changed = true;
      }
    }
    if (changed) updates.push({ objectID: p.objectID, images: JSON.stringify(images) });
  }
  if (updates.length > 0) {
    await retryBusy(() =>
      db.$transaction(updates.map((u) => db.product.updateMany({ where: { objectID: u.objectID }, data: { images: u.images } }))),
    );
  }
  return { changed: updates.length, withOutcome: products.map((p) => p.objectID) };
}

/** Most products one job fetches for (an import batch holds up to 5,000; their URLs are fetched in order). */
const PRODUCTS_PER_JOB = 5000;

/**
 * After an import batch committed: shows the images already stored, and queues an "images.fetch" job for the
 * products whose images still need fetching. Enqueueing is a row in the Job table, so a CLI import queues
 * work the server's worker (or `npm run jobs -- run-due`) picks up.
 */
export async function queueImageFetch(db: Db, objectIDs: readonly string[], jobs?: Pick<Jobs, "enqueue">): Promise<ImageQueueSummary> {
  const summary = emptyImageQueueSummary();
  const sources = await sourcesOf(db, objectIDs);
  if (sources.length === 0) return summary;
  await applyStoredImages(db, objectIDs, sources);
  const urls = new Map(sources.map((s) => [s.url, s.status]));
  summary.products = new Set(sources.map((s) => s.objectID)).size;
  summary.urls = urls.size;
  summary.alreadyStored = [...urls.values()].filter((s) => s === "stored").length;
  summary.toFetch = [...urls.values()].filter((s) => s === "pending").length;
  if (summary.toFetch === 0) return summary;
  const waiting = [...new Set(sources.filter((s) => s.status === "pending").map((s) => s.objectID))];
  // Without a job system given, the SQLite file's own queue; on PostgreSQL only pg-boss runs jobs (decision 102).
  if (!jobs && dialectOf(db) === "postgresql") {
    throw new Error("queueImageFetch on PostgreSQL needs the app's job system (imageJobs): a row in the Job table would never run");
  }
  const queue = jobs ?? createJobs({ db, ownerId: defaultOwnerId() });
  for (let i = 0; i < waiting.length; i += PRODUCTS_PER_JOB) {
    const { id } = await queue.enqueue(IMAGES_FETCH_JOB, { objectIDs: waiting.slice(i, i + PRODUCTS_PER_JOB) }, { maxAttempts: 3 });
    summary.jobIds.push(id);
  }
  return summary;
}

export interface ImageFetchReport {
  stored: number;
  failed: { url: string; reason: string }[];
  pending: number;
}

/** Where the images of these products stand: for the import summary and its progress line. */
export async function imageFetchReport(db: Db, objectIDs: readonly string[]): Promise<ImageFetchReport> {
  const urls = new Map((await sourcesOf(db, objectIDs)).map((s) => [s.url, s]));
  const failedUrls = [...urls.values()].filter((s) => s.status === "failed").map((s) => s.url);
  const reasons = failedUrls.length
    ? await db.storedImage.findMany({ where: { url: { in: failedUrls } }, select: { url: true, reason: true } })
    : [];
  return {
    stored: [...urls.values()].filter((s) => s.status === "stored").length,
    pending: [...urls.values()].filter((s) => s.status === "pending").length,
    failed: reasons.map((r) => ({ url: r.url, reason: r.reason ?? "not fetched" })),
  };
}

export interface StoredImagesDeps {
  db: Db;
  fetcher: ImageFetcher;
  storage: FileStorage;
  /** URLs fetched at once by one job. */
  concurrency?: number;
  /**
   * Told which products now show fetched images (or their drawings) after a fetch job applied them: the
   * Algolia record sync when Algolia is configured (its records carry the first image). A throw fails the
   * job, which is retried; the retry fetches nothing again and pushes the same products.
   */
  onImagesApplied?: (objectIDs: string[]) => Promise<unknown>;
}

export interface ImagePurgeSummary {
  /** StoredImage rows deleted (no product's sources name their URL, older than the grace period). */
  rows: number;
  /** ProductImageSource rows deleted because their product no longer exists. */
  sources: number;
  /** Files removed from storage, and the bytes they held. */
  files: number;
  bytes: number;
  /** Rows created and files written before this were eligible. */
  before: Date;
}


export interface StoredImageFile {
  bytes: Buffer;
  contentType: string;
  etag: string;
}

export function createStoredImages(deps: StoredImagesDeps) {
  const { db, fetcher, storage } = deps;
  const concurrency = Math.max(1, deps.concurrency ?? 4);

  /** Fetches one pending URL and records the outcome; never throws for a bad image (it is marked failed). */
  async function fetchOne(url: string): Promise<"stored" | "failed"> {
    try {
      const image = await fetcher.fetch(url);
      const fileName = `${createHash("sha256").update(image.bytes).digest("hex")}.${image.ext}`;
      // The name is claimed in the database before the file is written: a purge decides and removes files
      // while holding the write lock, so it either sees this claim (and keeps the file) or removes the file
      // before it is written again here (decision 037).
      await retryBusy(() => db.storedImage.updateMany({ where: { url, status: "pending" }, data: { fileName } }));
      await storage.put(fileName, image.bytes);
      await retryBusy(() =>
        db.storedImage.updateMany({
          where: { url, status: "pending" },
          data: {
            status: "stored",
            reason: null,
            fileName,
            contentType: image.contentType,
            bytes: image.bytes.length,
            width: image.width,
            height: image.height,
            fetchedAt: new Date(),
          },
        }),
      );
      return "stored";
    } catch (error) {
      if (!(error instanceof ImageFetchError)) throw error;
      await retryBusy(() =>
        db.storedImage.updateMany({ where: { url, status: "pending" }, data: { status: "failed", reason: error.message, fetchedAt: new Date() } }),
      );
      log.info({ url, reason: error.message }, "image not fetched");
      return "failed";
    }
  }

  /** The file behind /product-images/stored/{name}, or null (a malformed name, or no such image). */
  async function getFile(name: string): Promise<StoredImageFile | null> {
    const m = STORED_IMAGE_FILE.exec(name);
    if (!m) return null;
    let bytes: Buffer | null;
    try {
      bytes = await storage.get(name);
    } catch (error) {
      if (!(error instanceof FileStorageError)) throw error;
      log.error({ name, err: error }, "stored image not read");
      throw new AppError(503, "Pictures cannot be read right now: try again in a minute.");
    }
    if (!bytes) return null;
    return { bytes, contentType: CONTENT_TYPES[m[2]], etag: `"${m[1].slice(0, 32)}"` };
  }

  /** The job: fetch what these products still need, then show the stored copies. */
  async function fetchForProducts(objectIDs: string[], options: { signal?: AbortSignal; progress?: (percent: number) => Promise<void> } = {}) {
    const pending = [...new Set((await sourcesOf(db, objectIDs)).filter((s) => s.status === "pending").map((s) => s.url))];
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < pending.length) {
        if (options.signal?.aborted) throw new Error("stopped before every image was fetched");
        const url = pending[next++];
        await fetchOne(url);
        done++;
        if (options.progress && (done % 5 === 0 || done === pending.length)) await options.progress(Math.floor((done * 100) / pending.length));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
    const { withOutcome } = await applyOutcomes(db, objectIDs);
    if (deps.onImagesApplied && withOutcome.length > 0) await deps.onImagesApplied(withOutcome);
    return { fetched: pending.length };
  }

  /**
   * Removes these files unless a StoredImage row names them, inside a write transaction: it takes the
   * database's write lock first (a write that changes nothing does), so no fetch can claim one of these names
   * between the check and the removal (a fetch claims a name in the database before writing its file).
   */
  /**
   * On PostgreSQL, the first statement of a purge's transaction: a table lock that lets reads through but holds back
   * every other writer (a fetch claiming a name, another purge) until it ends. Taken before the transaction's own
   * writes, so two purges wait for each other instead of deadlocking.
   */
  async function lockNames(tx: Parameters<Parameters<typeof writeTransaction>[1]>[0]) {
    if (dialectOf(db) === "postgresql") await tx.$executeRawUnsafe(`LOCK TABLE "StoredImage" IN SHARE ROW EXCLUSIVE MODE`);
  }

  async function removeUnnamed(tx: Parameters<Parameters<typeof writeTransaction>[1]>[0], names: string[]) {
    if (names.length === 0) return { files: 0, bytes: 0 };
    // SQLite: a write that changes nothing takes the file's write lock. PostgreSQL took its table lock first (lockNames).
    if (dialectOf(db) !== "postgresql") await tx.$executeRawUnsafe(`DELETE FROM "StoredImage" WHERE 1 = 0`);
    const named = new Set(
      (await tx.storedImage.findMany({ where: { fileName: { in: names } }, select: { fileName: true } })).map((r) => r.fileName),
    );
    let files = 0;
    let bytes = 0;
    for (const name of names) {
      if (named.has(name)) continue;
      const freed = await storage.remove(name);
      if (freed !== null) {
        files++;
        bytes += freed;
      }
    }
    return { files, bytes };
  }

  /**
   * Deletes the StoredImage rows whose URL no existing product's sources name (sources of deleted products
   * go first), created more than `olderThanHours` ago, then every file no remaining row names (a file is
   * shared by URLs with the same bytes). Files with no row at all (a fetch that died, a row purged while its
   * file was being written) go once they are older than the grace period too. Idempotent, and safe with
   * several processes: each file is judged and removed while this process holds the database's write lock,
   * and a fetch claims a file's name in the database before writing it.
   */
  async function purge(options: { olderThanHours?: number; now?: Date; batch?: number } = {}): Promise<ImagePurgeSummary> {
    const hours = options.olderThanHours ?? IMAGE_PURGE_GRACE_HOURS;
    const batch = options.batch ?? PURGE_BATCH;
    const before = new Date((options.now ?? new Date()).getTime() - hours * 3_600_000);
    const cutoff = toDbTime(before);
    const summary: ImagePurgeSummary = { rows: 0, sources: 0, files: 0, bytes: 0, before };

    // Sources and products are written in one import transaction, so a source without its product is a leftover.
    summary.sources = await retryBusy(() =>
      db.$executeRawUnsafe(
        `DELETE FROM "ProductImageSource" WHERE NOT EXISTS (SELECT 1 FROM "Product" AS p WHERE p."objectID" = "ProductImageSource"."objectID")`,
      ),
    );

    let afterId = 0;
    for (;;) {
      const round = await writeTransaction(db, async (tx) => {
        await lockNames(tx);
        const gone = await tx.$queryRawUnsafe<{ id: number | bigint; fileName: string | null }[]>(
          `DELETE FROM "StoredImage" WHERE "id" IN (
             SELECT i."id" FROM "StoredImage" AS i
             WHERE i."id" > ? AND i."createdAt" < ?
               AND NOT EXISTS (SELECT 1 FROM "ProductImageSource" AS s WHERE s."url" = i."url")
             ORDER BY i."id" LIMIT ?)
           RETURNING "id", "fileName"`,
          afterId,
          cutoff,
          batch,
        );
        const names = [...new Set(gone.map((r) => r.fileName).filter((n): n is string => n !== null && STORED_IMAGE_FILE.test(n)))];
        return { rows: gone.length, lastId: Math.max(afterId, ...gone.map((r) => Number(r.id))), ...(await removeUnnamed(tx, names)) };
      });
      summary.rows += round.rows;
      summary.files += round.files;
      summary.bytes += round.bytes;
      afterId = round.lastId;
      if (round.rows < batch) break;
    }

    // Files no row names, older than the grace period.
    const old = (await storage.list()).filter((f) => f.modifiedAt.getTime() < before.getTime());
    for (const f of old.filter((f) => TEMPORARY_FILE.test(f.name))) {
      const freed = await storage.remove(f.name);
      if (freed !== null) {
        summary.files++;
        summary.bytes += freed;
      }
    }
    const candidates = old.map((f) => f.name).filter((n) => STORED_IMAGE_FILE.test(n));
    for (let i = 0; i < candidates.length; i += batch) {
      const chunk = candidates.slice(i, i + batch);
      const named = new Set(
        (await db.storedImage.findMany({ where: { fileName: { in: chunk } }, select: { fileName: true } })).map((r) => r.fileName),
      );
      const unnamed = chunk.filter((n) => !named.has(n));
      if (unnamed.length === 0) continue;
      const round = await writeTransaction(db, async (tx) => {
        await lockNames(tx);
        return removeUnnamed(tx, unnamed);
      });
      summary.files += round.files;
      summary.bytes += round.bytes;
    }
    if (summary.rows + summary.files + summary.sources > 0) log.info({ ...summary }, "stored images purged");
    return summary;
  }

  return {
    fetchOne,
    fetchForProducts,
    purge,
    registerJobs(jobs: Jobs) {
      jobs.register(IMAGES_PURGE_JOB, async () => {
        await purge();
      });
      jobs.schedule(IMAGES_PURGE_SCHEDULE.name, IMAGES_PURGE_SCHEDULE.pattern, IMAGES_PURGE_JOB);
      jobs.register(
        IMAGES_FETCH_JOB,
        async ({ payload, signal, progress }) => {
          await fetchForProducts(payload.objectIDs, { signal, progress });
        },
        {
          payloadSchema: z.object({ objectIDs: z.array(z.string().min(1).max(100)).max(PRODUCTS_PER_JOB) }),
          // ~4 at a time with a 15 s timeout each: a batch of slow servers takes minutes, not hours.
          timeoutMs: 60 * 60_000,
        },
      );
    },
    getFile,
    /**
     * For an ad: the first of a product's images that is a fetched photo the renderer can draw, as an SVG
     * document; null when it has none (the ad then shows its category drawing). Never throws: a missing
     * or unreadable file is logged and the drawing is used.
     */
    async photoSvg(images: readonly string[]): Promise<string | null> {
      for (const image of images) {
        if (!image.startsWith(STORED_IMAGE_PATH)) continue;
        try {
          const file = await getFile(image.slice(STORED_IMAGE_PATH.length));
          const svg = file ? fetcher.photoAsSvg(file.bytes, file.contentType) : null;
          if (svg) return svg;
        } catch (error) {
          log.warn({ image, err: error }, "stored photo not drawn; the ad uses the category drawing");
        }
      }
      return null;
    },
  };
}

export type StoredImages = ReturnType<typeof createStoredImages>;
