// Listing pictures for the measured catalogue (docs/decisions/046). This module owns the ListingPicture rows:
// - queue(): every present listing's main picture (the first image of its CompetitorProduct) gets a row; a new
//   main picture URL makes the row pending again (the old fingerprint no longer describes the listing), unless
//   only Shopify's cache-busting `v` parameter changed (the same file: its fingerprint is kept);
// - fetchBatch(): pending pictures are fetched once each (image-fetch.server.ts: SSRF-safe, size, time and pixel
//   bounds, type from the bytes) and fingerprinted (the PictureFingerprinter port); a URL another listing already
//   has a fingerprint for is not fetched again. A failure is recorded with its sentence and classified
//   (app/domain/catalogue/picture-failures.ts, decision 091): a permanent one (404, not an image, too large) makes
//   the row "failed" at once, said once; a transient one (timeout, reset, 5xx, 429) keeps it "pending" with a
//   retryAt that backs off and honours Retry-After, and never exhausts it. Meanwhile the listing is in the
//   catalogue on its title (matching.server.ts), and is placed again by its picture when the picture arrives.
// Both run in the "catalogue.pictures" job (catalogue.server.ts), never inside a request.
import { dialectOf, jsonFirstText, jsonItem, jsonRows, retryBusy, timeLiteral, type Db } from "~/db.server";
import { samePictureFile, type PictureFingerprinter } from "~/domain/catalogue/hash";
import { classifyPictureFailure, nextPictureTry, type PictureFailure } from "~/domain/catalogue/picture-failures";
import { ImageFetchError, type ImageFetcher } from "~/integrations/image-fetch.server";

const FETCH_CONCURRENCY = 4;

export interface PictureBatchSummary {
  fetched: number;
  reused: number;
  failed: number;
  remaining: number;
}

export interface CataloguePicturesDeps {
  db: Db;
  images: ImageFetcher;
  fingerprinter: PictureFingerprinter;
  now: () => Date;
}

type Outcome = { hash: string } | { error: string; failure: PictureFailure };

/** Why a picture could not be used, as a sentence and a class; anything else is a defect and is rethrown. */
function failureOf(error: unknown, nowMs: number): { error: string; failure: PictureFailure } | null {
  if (error instanceof ImageFetchError) return { error: error.message, failure: classifyPictureFailure(error.failure, nowMs) };
  if (error instanceof Error && error.name === "PictureFingerprintError")
    return { error: error.message, failure: classifyPictureFailure({ kind: "undecodable" }, nowMs) };
  return null;
}

export function createCataloguePictures(deps: CataloguePicturesDeps) {
  const { db, images, fingerprinter, now } = deps;
  const dialect = dialectOf(db);

  /**
   * A fingerprinted picture whose URL changed only in Shopify's cache-busting `v` parameter keeps its fingerprint
   * (domain samePictureFile): its row takes the new URL, so queue() does not make it pending again.
   */
  async function followRenamedUrls(): Promise<void> {
    const main = jsonFirstText(dialect, `cp."images"`);
    const moved = await db.$queryRawUnsafe<Array<{ listingId: number | bigint; oldUrl: string; newUrl: string }>>(
      `SELECT lp."listingId" AS "listingId", lp."imageUrl" AS "oldUrl", ${main.value} AS "newUrl"
       FROM "ListingPicture" lp JOIN "CompetitorProduct" cp ON cp."id" = lp."listingId"
       WHERE cp."removedAt" IS NULL AND lp."status" = 'ok'
         AND ${main.isText}
         AND lp."imageUrl" <> ${main.value}`,
    );
    const same = moved.filter((m) => samePictureFile(m.oldUrl, m.newUrl)).map((m) => [Number(m.listingId), m.newUrl]);
    const listingId = jsonItem(dialect, "j", 0, "ListingPicture", "listingId");
    for (let i = 0; i < same.length; i += 500) {
      const pairs = JSON.stringify(same.slice(i, i + 500));
      await retryBusy(() =>
        db.$executeRawUnsafe(
          `UPDATE "ListingPicture"
           SET "imageUrl" = (SELECT ${jsonItem(dialect, "j", 1)} FROM ${jsonRows(dialect, "j")} WHERE ${listingId} = "ListingPicture"."listingId")
           WHERE "listingId" IN (SELECT ${listingId} FROM ${jsonRows(dialect, "j")})`,
          pairs,
          pairs,
        ),
      );
    }
  }

  /** Rows for listings whose main picture has none yet or changed; returns how many are pending. */
  async function queue(): Promise<number> {
    await followRenamedUrls();
    const at = now().toISOString();
    const main = jsonFirstText(dialect, `cp."images"`);
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `INSERT INTO "ListingPicture" ("listingId", "imageUrl", "status", "attempts", "updatedAt")
         SELECT cp."id", ${main.value}, 'pending', 0, ${timeLiteral(dialect, at)}
         FROM "CompetitorProduct" cp
         LEFT JOIN "ListingPicture" lp ON lp."listingId" = cp."id"
         WHERE cp."removedAt" IS NULL
           AND ${main.isText}
           AND (lp."listingId" IS NULL OR lp."imageUrl" <> ${main.value})
         ON CONFLICT ("listingId") DO UPDATE SET
           "imageUrl" = excluded."imageUrl", "status" = 'pending', "hash" = NULL, "error" = NULL, "failure" = NULL, "retryAt" = NULL, "attempts" = 0,
           "updatedAt" = excluded."updatedAt"`,
      ),
    );
    return db.listingPicture.count({ where: { status: "pending" } });
  }

  async function fingerprintUrl(url: string): Promise<Outcome> {
    try {
      const fetched = await images.fetch(url);
      return { hash: await fingerprinter.fingerprint(fetched.bytes) };
    } catch (error) {
      const failed = failureOf(error, now().getTime());
      if (failed === null) throw error;
      return failed;
    }
  }

  /** Fetches and fingerprints up to `limit` pending pictures. */
  async function fetchBatch(limit = 200, signal?: AbortSignal): Promise<PictureBatchSummary> {
    const due = () => ({ status: "pending", OR: [{ retryAt: null }, { retryAt: { lte: now() } }] });
    const pending = await db.listingPicture.findMany({
      where: due(),
      orderBy: { listingId: "asc" },
      take: limit,
      select: { listingId: true, imageUrl: true, attempts: true },
    });
    const summary: PictureBatchSummary = { fetched: 0, reused: 0, failed: 0, remaining: 0 };
    const byUrl = new Map<string, typeof pending>();
    for (const p of pending) byUrl.set(p.imageUrl, [...(byUrl.get(p.imageUrl) ?? []), p]);

    // A URL fingerprinted before (for another listing) is not fetched again.
    const known = new Map<string, string>();
    const urls = [...byUrl.keys()];
    for (let i = 0; i < urls.length; i += 500) {
      const rows = await db.listingPicture.findMany({
        where: { imageUrl: { in: urls.slice(i, i + 500) }, status: "ok", hash: { not: null } },
        select: { imageUrl: true, hash: true },
      });
      for (const r of rows) if (r.hash) known.set(r.imageUrl, r.hash);
    }

    const queueOfUrls = urls.filter((u) => !known.has(u));
    const outcomes = new Map<string, Outcome>();
    for (const [url, hash] of known) outcomes.set(url, { hash });
    let next = 0;
    const worker = async () => {
      while (next < queueOfUrls.length && !signal?.aborted) {
        const url = queueOfUrls[next++];
        outcomes.set(url, await fingerprintUrl(url));
      }
    };
    await Promise.all(Array.from({ length: FETCH_CONCURRENCY }, worker));

    const at = now();
    for (const [url, rows] of byUrl) {
      const outcome = outcomes.get(url);
      if (!outcome) continue; // stopped before it was reached
      for (const row of rows) {
        if ("hash" in outcome) {
          if (known.has(url)) summary.reused++;
          else summary.fetched++;
          await retryBusy(() =>
            db.listingPicture.updateMany({
              where: { listingId: row.listingId, imageUrl: url },
              data: { status: "ok", hash: outcome.hash, error: null, failure: null, retryAt: null, attempts: row.attempts + 1, updatedAt: at },
            }),
          );
        } else {
          summary.failed++;
          // attempts counts failures in a row: it sets the backoff, never a limit.
          const attempts = row.attempts + 1;
          const permanent = outcome.failure.kind === "permanent";
          await retryBusy(() =>
            db.listingPicture.updateMany({
              where: { listingId: row.listingId, imageUrl: url },
              data: {
                status: permanent ? "failed" : "pending",
                error: outcome.error,
                failure: outcome.failure.code,
                retryAt: permanent ? null : nextPictureTry(attempts, at.getTime(), outcome.failure.retryAfterMs),
                attempts,
                updatedAt: at,
              },
            }),
          );
        }
      }
    }
    summary.remaining = await db.listingPicture.count({ where: due() });
    return summary;
  }

  return { queue, fetchBatch };
}

export type CataloguePictures = ReturnType<typeof createCataloguePictures>;
