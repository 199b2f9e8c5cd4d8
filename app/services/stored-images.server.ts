// Fetched product images (docs/decisions/028). This file owns the StoredImage and ProductImageSource rows:
// - an import records each product's external image URLs (ProductImageSource, by position) and one
//   StoredImage row per distinct URL ("pending"); the product lists the URLs as given meanwhile;
// - the "images.fetch" job fetches each pending URL once (image-fetch.server.ts: SSRF-safe, 5 MB, type
//   from the bytes), keeps the file in file storage under its content hash, and marks the URL "stored" or
//   "failed" with the reason; then puts /product-images/stored/{file} (or, for a failed one, the category
//   drawing /product-images/{objectID}-{n}.svg) in the products' image lists, so the grid, the product page,
//   AI product pages and ads all read the outcome from Product.images;
// - a URL already stored is never fetched again: a re-import applies it at once.
// The fetching runs on the job system so an import of many products never waits on the network.
import { z } from "zod";
import { createHash } from "node:crypto";
import { retryBusy, type Db } from "~/db.server";
import type { FileStorage } from "~/integrations/file-storage.server";
import { ImageFetchError, photoAsSvg, type ImageFetcher } from "~/integrations/image-fetch.server";
import { childLogger } from "~/logger.server";
import { createJobs, defaultOwnerId, type Jobs } from "~/services/jobs.server";

export const IMAGES_FETCH_JOB = "images.fetch";
/** Where a stored image is served (app/routes/product-images.stored.$file.tsx). */
export const STORED_IMAGE_PATH = "/product-images/stored/";
/** "{sha256}.{ext}": content-addressed, so the same name is always the same bytes (cached for a year). */
export const STORED_IMAGE_FILE = /^([0-9a-f]{64})\.(jpg|png|webp|gif)$/;
const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif" };

const log = childLogger("images");

/** Statements the import runs in each batch's transaction (docs/decisions/028), all reading one JSON parameter. */
export const IMAGE_SOURCE_SQL = {
  /** The batch's products' earlier sources go: the newest import says which URLs a product has. */
  clear: `DELETE FROM "ProductImageSource" WHERE "objectID" IN (SELECT value FROM json_each(?))`,
  /** [[objectID, position, url], ...] */
  insert:
    `INSERT INTO "ProductImageSource" ("objectID", "position", "url") ` +
    `SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true ` +
    `ON CONFLICT ("objectID", "position") DO UPDATE SET "url" = excluded."url"`,
  /** One StoredImage per new URL; one that failed before is tried again (the operator imported it again). */
  want: (now: string) =>
    `INSERT INTO "StoredImage" ("url", "status", "createdAt") ` +
    `SELECT DISTINCT value ->> 2, 'pending', '${now}' FROM json_each(?) WHERE true ` +
    `ON CONFLICT ("url") DO UPDATE SET "status" = 'pending', "reason" = NULL WHERE "StoredImage"."status" = 'failed'`,
};

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
  jobIds: number[];
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
     WHERE s."objectID" IN (SELECT value FROM json_each(?))`,
    JSON.stringify(objectIDs),
  );
}

/**
 * Puts the outcome of these products' image fetches into their image lists (Product.images), position by
 * position: the stored copy, or the category drawing for a URL that could not be fetched; a pending URL
 * stays as given. Returns how many products changed.
 */
export async function applyStoredImages(db: Db, objectIDs: readonly string[], sources?: SourceRow[]): Promise<number> {
  const rows = (sources ?? (await sourcesOf(db, objectIDs))).filter((r) => r.status === "failed" || (r.status === "stored" && r.fileName));
  if (rows.length === 0) return 0;
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
  return updates.length;
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
    const bytes = await storage.get(name);
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
    await applyStoredImages(db, objectIDs);
    return { fetched: pending.length };
  }

  return {
    fetchOne,
    fetchForProducts,
    registerJobs(jobs: Jobs) {
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
          const svg = file ? photoAsSvg(file.bytes, file.contentType) : null;
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
