// The ads' video files, kept through the file-storage port (docs/decisions/045): storing a rendered MP4
// under its key, removing files, and opening the owner's video (or newest preview) for the video route,
// by the owner's session or by a signed link that the embedded app's <video> uses (its requests carry no
// site cookie).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Readable } from "node:stream";
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { FileStorageError, type ByteRange, type FileStorage } from "~/integrations/file-storage.server";
import { childLogger } from "~/logger.server";
import type { AdViews, AiAdView } from "~/services/ai-ads/views.server";

const log = childLogger("ai-ads");

export interface VideoFile {
  bytes: number;
  fileName: string;
  contentType: string;
  /** The file's bytes, or the inclusive `range` of them (checked by the caller to lie within `bytes`). */
  open(range?: ByteRange): Promise<Readable>;
}

/** Which of an ad's files a link names: its rendered video or its newest preview. */
export type VideoKind = "video" | "preview";

export type VideoFiles = ReturnType<typeof createVideoFiles>;

export function createVideoFiles(deps: {
  db: Db;
  /** Where the MP4s are kept (by default a folder on disk, VIDEO_STORAGE_DIR). */
  storage: FileStorage;
  urlSecret: string;
  signedUrlTtlMs: number;
  ownRow: AdViews["ownRow"];
}) {
  const { db, storage } = deps;

  /** Stores the MP4 under `key` (whole or not at all); a failure comes back as its error code. */
  async function store(key: string, bytes: Uint8Array, context: Record<string, number>): Promise<{ ok: true } | { ok: false; detail: string }> {
    try {
      await storage.put(key, bytes);
    } catch (error) {
      log.error({ ...context, err: error, key }, "video not stored");
      // A short code for the seller's sentence (ENOTDIR, NoSuchBucket, ECONNREFUSED); the operator's sentence is logged.
      const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
      return { ok: false, detail: (error as NodeJS.ErrnoException).code ?? cause?.code ?? cause?.name ?? "write error" };
    }
    return { ok: true };
  }

  /** Deletes a stored file (already gone is fine). */
  async function removeFile(key: string): Promise<void> {
    await storage.remove(key);
  }

  /** Deletes a preview's file and forgets its key (the row stays: it counts against the day's allowance). */
  async function dropPreviewFile(p: { id: number; storageKey: string | null }): Promise<void> {
    if (!p.storageKey) return;
    await removeFile(p.storageKey);
    await db.aiAdPreview.updateMany({ where: { id: p.id, storageKey: p.storageKey }, data: { storageKey: null } });
  }

  function signature(id: number, userId: string, expires: number, kind: VideoKind = "video"): string {
    return createHmac("sha256", deps.urlSecret).update(`ai-ad-${kind}:${id}:${userId}:${expires}`).digest("base64url");
  }

  /** A link to the video that works without a cookie (the embedded app's <video>) until it expires. */
  function signedUrl(url: string, id: number, userId: string, kind: VideoKind = "video", at = Date.now()): string {
    const expires = Math.floor((at + deps.signedUrlTtlMs) / 1000);
    const sep = url.includes("?") ? "&" : "?";
    return `${url}${sep}expires=${expires}&sig=${signature(id, userId, expires, kind)}`;
  }

  /** The ad's views with signed video links, for pages inside Shopify admin. */
  function withSignedUrls(userId: string, ads: AiAdView[]): AiAdView[] {
    return ads.map((ad) => ({
      ...ad,
      storageUrl: ad.storageUrl && signedUrl(ad.storageUrl, ad.id, userId),
      downloadUrl: ad.downloadUrl && signedUrl(ad.downloadUrl, ad.id, userId),
      previewVideo: ad.previewVideo && {
        ...ad.previewVideo,
        url: ad.previewVideo.url && signedUrl(ad.previewVideo.url, ad.id, userId, "preview"),
      },
    }));
  }

  /** The store's failure (a bucket that does not answer) as the 503 a person reads; the operator's sentence is logged. */
  async function reading<T>(adId: number, key: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof FileStorageError)) throw error;
      log.error({ adId, key, err: error }, "video file not read");
      throw new AppError(503, "Videos cannot be read right now: try again in a minute.");
    }
  }

  /** The stored file under `key` as the video route sends it; `missing` is the 404's sentence when it is gone. */
  async function stored(adId: number, key: string, fileName: string, missing: string): Promise<VideoFile> {
    const gone = () => {
      log.error({ adId, key }, "video file missing");
      return new AppError(404, missing);
    };
    const info = await reading(adId, key, () => storage.stat(key));
    if (!info) throw gone();
    return {
      bytes: info.bytes,
      fileName,
      contentType: info.contentType,
      async open(range) {
        const opened = await reading(adId, key, () => storage.open(key, { range }));
        if (!opened) throw gone();
        return opened.body;
      },
    };
  }

  /** The ad's newest completed preview file. */
  async function previewFileOf(ad: { id: number }): Promise<VideoFile> {
    const p = await db.aiAdPreview.findFirst({
      where: { adId: ad.id, status: "completed", storageKey: { not: null } },
      orderBy: { id: "desc" },
      select: { storageKey: true },
    });
    if (!p?.storageKey) throw new AppError(404, "This ad has no preview yet.");
    return stored(ad.id, p.storageKey, `ai-ad-${ad.id}-preview.mp4`, "This ad's preview file is missing: make a new preview.");
  }

  async function fileOf(row: { id: number; status: string; storageKey: string | null }): Promise<VideoFile> {
    if (row.status !== "completed" || !row.storageKey) throw new AppError(404, "This ad has no video yet.");
    return stored(row.id, row.storageKey, `ai-ad-${row.id}.mp4`, "This ad's video file is missing: render it again from a new ad.");
  }

  /** The owner's video file (or its newest preview); anyone else's ad is 404. */
  async function openVideo(userId: string, id: number, kind: VideoKind = "video"): Promise<VideoFile> {
    const row = await deps.ownRow(userId, id);
    return kind === "preview" ? previewFileOf(row) : fileOf(row);
  }

  /** The video (or preview) a signed link names, if the signature is right and not expired. */
  async function openSignedVideo(id: number, expires: number, sig: string, kind: VideoKind = "video", at = Date.now()): Promise<VideoFile> {
    const row = await db.aiAd.findUnique({ where: { id }, select: { id: true, userId: true, status: true, storageKey: true } });
    const expected = row ? Buffer.from(signature(id, row.userId, expires, kind)) : null;
    const given = Buffer.from(sig);
    if (!row || !expected || expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new AppError(404, "No such video.");
    if (expires * 1000 < at) throw new AppError(403, "This video link has expired: reload the page for a new one.");
    return kind === "preview" ? previewFileOf(row) : fileOf(row);
  }

  return { store, removeFile, dropPreviewFile, withSignedUrls, openVideo, openSignedVideo };
}
