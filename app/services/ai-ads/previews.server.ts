// The free preview (docs/decisions/036): the saved script rendered small and marked "Preview", for no
// credits, a few a day; a new preview replaces the ad's older preview files.
import { randomUUID } from "node:crypto";
import type { Db } from "~/db.server";
import { PREVIEW_WATERMARK, validateAdScript } from "~/domain/ai-ads/ai-ads";
import { AppError } from "~/domain/errors";
import { childLogger } from "~/logger.server";
import { adSelect, previewSelect, requirePaid, scenesOf, scriptHash, type AiAdsUser } from "~/services/ai-ads/model.server";
import type { Production } from "~/services/ai-ads/production.server";
import type { JobAttempt, RenderQueue } from "~/services/ai-ads/queue.server";
import type { VideoFiles } from "~/services/ai-ads/video-files.server";
import type { AdViews, AiAdView } from "~/services/ai-ads/views.server";

const log = childLogger("ai-ads");

export function createPreviews(deps: {
  db: Db;
  now: () => Date;
  /** The preview's size and rate. */
  size: { width: number; height: number; fps: number };
  /** Free previews a user may ask for in any 24 hours. */
  perDay: number;
  queue: RenderQueue;
  views: AdViews;
  production: Production;
  files: Pick<VideoFiles, "removeFile" | "dropPreviewFile">;
}) {
  const { db, now, queue, views, perDay } = deps;

  /**
   * How many free previews the user has left in the current 24 hours, and when the oldest counted one expires.
   * A preview that failed (our renderer's fault, not the seller's) does not count.
   */
  async function previewAllowance(userId: string): Promise<{ limit: number; used: number; left: number; nextAt: string | null }> {
    const since = new Date(now().getTime() - 24 * 3600_000);
    const rows = await db.aiAdPreview.findMany({
      where: { userId, createdAt: { gt: since }, status: { not: "failed" } },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    });
    const used = rows.length;
    const nextAt = used >= perDay ? new Date(rows[used - perDay].createdAt.getTime() + 24 * 3600_000).toISOString() : null;
    return { limit: perDay, used, left: Math.max(0, perDay - used), nextAt };
  }

  /**
   * "Preview video (free)": renders the saved script at the preview size, marked "Preview", for no credits.
   * Paid states only (the same as writing a script). Asking while one renders, or when the newest preview
   * already shows the saved script, starts nothing. 409 for an ad rendered or rendering in full; 429 past the
   * day's allowance.
   */
  async function preview(user: AiAdsUser, id: number): Promise<{ ad: AiAdView; queued: boolean }> {
    await queue.start();
    const row = await views.ownRow(user.id, id);
    requirePaid(user);
    if (row.status === "completed")
      throw new AppError(409, "This ad is already rendered in full: its video is on this page.");
    if (row.status === "rendering") throw new AppError(409, "This ad is rendering in full; its video will be here in a moment.");
    const invalid = validateAdScript({ title: row.title, scenes: scenesOf(row) });
    if (!invalid.ok) throw new AppError(422, "Some fields need attention.", { fieldErrors: invalid.errors });
    const unfit = await deps.production.fitErrors(row, deps.size);
    if (Object.keys(unfit).length > 0) throw new AppError(422, "Some scene texts do not fit on the video.", { fieldErrors: unfit });
    const known = await views.latestPreviews([row.id]);
    const latest = known.get(row.id);
    if (latest?.status === "rendering") {
      await queue.enqueuePreview(latest.id);
      return { ad: await views.view(row, known), queued: false };
    }
    if (latest?.status === "completed" && latest.storageKey && latest.scriptHash === scriptHash(row))
      return { ad: await views.view(row, known), queued: false };
    const allowance = await previewAllowance(user.id);
    if (allowance.left === 0) {
      const at = allowance.nextAt ? ` The next one is possible from ${allowance.nextAt.slice(11, 16)} UTC.` : "";
      throw new AppError(
        429,
        `You have made ${allowance.limit} free previews in the last 24 hours.${at} Rendering the full video still works.`,
        {
          limit: allowance.limit,
          nextAt: allowance.nextAt,
          retryAfterSeconds: allowance.nextAt ? Math.max(1, Math.ceil((Date.parse(allowance.nextAt) - now().getTime()) / 1000)) : 3600,
        },
      );
    }
    const created = await db.aiAdPreview.create({ data: { userId: user.id, adId: row.id }, select: { id: true } });
    await queue.enqueuePreview(created.id);
    log.info({ userId: user.id, adId: id, previewId: created.id }, "preview queued");
    // The ad itself is unchanged: only its newest preview is new (views reads it).
    return { ad: await views.view(row), queued: true };
  }

  /**
   * The preview job: renders the preview row's ad small, stores it and drops the ad's older preview files. A
   * preview that could not be stored throws before the job's last attempt, so it is tried again (decision 097).
   */
  async function runPreview(previewId: number, attempt: JobAttempt = { last: true }): Promise<void> {
    const p = await db.aiAdPreview.findFirst({ where: { id: previewId, status: "rendering" }, select: previewSelect });
    if (!p) return;
    const failPreview = async (error: string) => {
      await db.aiAdPreview.updateMany({ where: { id: previewId, status: "rendering" }, data: { status: "failed", progress: 0, error } });
      log.warn({ adId: p.adId, previewId, error }, "preview failed");
    };
    const row = p.adId === null ? null : await db.aiAd.findFirst({ where: { id: p.adId, userId: p.userId }, select: adSelect });
    if (!row) return failPreview("The ad was deleted before its preview was made.");
    const key = `previews/${row.id}-${previewId}-${randomUUID().slice(0, 8)}.mp4`;
    const out = await deps.production.produce(row, key, {
      size: deps.size,
      watermark: PREVIEW_WATERMARK,
      // The hook in the ad's voice (kept once made) and the music; the other scenes are read in the full render.
      voice: "hook",
      // A short render: a progress row every 5%.
      step: 5,
      writeProgress: (progress) => db.aiAdPreview.updateMany({ where: { id: previewId, status: "rendering" }, data: { progress } }),
      context: { adId: row.id, previewId },
    });
    if (!out.ok && out.stage === "store" && !attempt.last) {
      await db.aiAdPreview.updateMany({ where: { id: previewId, status: "rendering" }, data: { progress: 0 } });
      throw new Error(`the preview was rendered but not stored (${out.detail}): tried again`);
    }
    if (!out.ok)
      return failPreview(
        out.stage === "render"
          ? `The preview could not be rendered: ${out.detail}`
          : `The preview was rendered but could not be saved (${out.detail}).`,
      );
    const { result } = out;
    const { count } = await db.aiAdPreview.updateMany({
      // Not if the ad was deleted meanwhile (adId is then null).
      where: { id: previewId, status: "rendering", adId: row.id },
      data: {
        status: "completed",
        progress: 100,
        error: null,
        scriptHash: scriptHash(row),
        storageKey: key,
        bytes: result.bytes.length,
        durationMs: result.durationMs,
        width: result.width,
        height: result.height,
        renderedAt: now(),
      },
    });
    if (count === 0) {
      await deps.files.removeFile(key);
      return;
    }
    // The ad's older previews are replaced: their files go (the rows stay for the allowance).
    const older = await db.aiAdPreview.findMany({
      where: { adId: row.id, id: { lt: previewId }, storageKey: { not: null } },
      select: { id: true, storageKey: true },
    });
    for (const o of older) await deps.files.dropPreviewFile(o);
    log.info({ adId: row.id, previewId, frames: result.frames, bytes: result.bytes.length }, "preview completed");
  }

  return { previewAllowance, preview, runPreview };
}
