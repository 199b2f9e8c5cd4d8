// The paid render (docs/decisions/019): "Render video" spends the ai-ads credits once per render attempt
// (deterministic idempotency key), marks the ad "rendering" and queues its job; the job renders and
// stores the full-size MP4 and marks the ad "completed", or "failed" with sentences in `errors` and the
// credits refunded.
import { randomUUID } from "node:crypto";
import { aiAdsUpsellOpen } from "~/domain/billing/credits";
import { AI_ADS_FEATURE, renderIdempotencyKey, validateAdScript } from "~/domain/ai-ads/ai-ads";
import { AppError } from "~/domain/errors";
import type { Db } from "~/db.server";
import { childLogger } from "~/logger.server";
import * as credits from "~/services/billing/credits.server";
import { adSelect, requirePaid, scenesOf, type AdRow, type AiAdsUser } from "~/services/ai-ads/model.server";
import type { Production } from "~/services/ai-ads/production.server";
import type { JobAttempt, RenderQueue } from "~/services/ai-ads/queue.server";
import type { VideoFiles } from "~/services/ai-ads/video-files.server";
import type { AdViews, AiAdView } from "~/services/ai-ads/views.server";

const log = childLogger("ai-ads");

export function createRenders(deps: {
  db: Db;
  cost: number;
  video: { width: number; height: number; fps: number };
  queue: RenderQueue;
  views: AdViews;
  production: Production;
  files: Pick<VideoFiles, "removeFile">;
}) {
  const { db, queue, views } = deps;

  /**
   * "Render video": spends 5 ai-ads credits (402 with the upsell flag when short), marks the ad
   * "rendering" and queues it. Asking again while it renders, or after it completed, charges nothing
   * and answers the ad as it is. The key is ai-ad-render:{id}:{attempt}, so a retry of the same request
   * is charged once, and a render after a failed (refunded) one is a new attempt.
   */
  async function render(user: AiAdsUser, id: number): Promise<{ ad: AiAdView; queued: boolean }> {
    await queue.start();
    const row = await views.ownRow(user.id, id);
    if (row.status === "rendering" || row.status === "completed") {
      if (row.status === "rendering") await queue.enqueueRender(row.id);
      return { ad: await views.view(row), queued: false };
    }
    requirePaid(user);
    const invalid = validateAdScript({ title: row.title, scenes: scenesOf(row) });
    if (!invalid.ok) throw new AppError(422, "Some fields need attention.", { fieldErrors: invalid.errors });
    // Before any credit is spent: a caption that would not fit whole on the video names its scene.
    const unfit = { ...(await deps.production.fitErrors(row, deps.video)), ...(await deps.production.soundErrors(row)) };
    if (Object.keys(unfit).length > 0) throw new AppError(422, "Some fields need attention before this video can be rendered.", { fieldErrors: unfit });
    const attempt = row.renderAttempt + 1;
    const spent = await credits.spend(
      db,
      {
        userId: user.id,
        feature: AI_ADS_FEATURE,
        idempotencyKey: renderIdempotencyKey(row.id, attempt),
        reason: `AI ad ${row.id} render ${attempt}`,
      },
      (short) =>
        new AppError(
          402,
          `Not enough AI ad credits: a video costs ${short.cost} and you have ${short.remaining}. Get more credits on the Billing page.`,
          { ...short, upsell: aiAdsUpsellOpen(short.remaining, user.aiAdsFirstUse) },
        ),
    );
    const { count } = await db.aiAd.updateMany({
      where: { id, userId: user.id, status: { in: ["preview", "failed"] }, renderAttempt: row.renderAttempt },
      data: { status: "rendering", progress: 0, errors: "[]", renderAttempt: attempt, ledgerId: spent.ledgerId },
    });
    if (count === 0) {
      // Another request for the same attempt got there first (then this spend was its replay), or
      // the ad changed underneath: never keep credits for a render that is not ours.
      if (!spent.replayed)
        await credits.refund(db, { userId: user.id, ledgerId: spent.ledgerId, reason: "AI ad render was not started" });
      const current = await views.ownRow(user.id, id);
      if (current.status === "rendering") await queue.enqueueRender(id);
      return { ad: await views.get(user.id, id), queued: false };
    }
    if (user.aiAdsFirstUse) {
      await db.user.updateMany({ where: { id: user.id, aiAdsFirstUse: true }, data: { aiAdsFirstUse: false } });
    }
    await queue.enqueueRender(id);
    log.info({ userId: user.id, adId: id, attempt, ledgerId: spent.ledgerId }, "render queued");
    return { ad: await views.get(user.id, id), queued: true };
  }

  async function fail(row: AdRow, reasons: string[]) {
    // Refund first: if the process dies between the two, the job runs again, sees the refund and
    // only marks the ad failed (the credits are never lost, nor given twice: refunds are idempotent).
    let refunded = false;
    if (row.ledgerId !== null) {
      const r = await credits.refund(db, { userId: row.userId, ledgerId: row.ledgerId, reason: `AI ad ${row.id} render failed` });
      refunded = r.refunded;
    }
    const errors = refunded ? [...reasons, `Your ${deps.cost} AI ad credits were refunded.`] : reasons;
    await db.aiAd.updateMany({
      where: { id: row.id, status: "rendering", renderAttempt: row.renderAttempt },
      data: { status: "failed", progress: 0, errors: JSON.stringify(errors) },
    });
    log.warn({ userId: row.userId, adId: row.id, errors }, "render failed");
  }

  /**
   * The render job: renders the ad left "rendering", stores its video and marks it completed (or failed). A video
   * that could not be stored (the bucket or disk refused it) throws, so the job is tried again after its backoff,
   * by this process or another, with the ad still "rendering" and its credits held; only the job's last attempt
   * marks it failed and refunds them (decision 097).
   */
  async function runRender(id: number, attempt: JobAttempt = { last: true }): Promise<void> {
    const row = await db.aiAd.findFirst({ where: { id, status: "rendering" }, select: adSelect });
    if (!row) return;
    if (row.ledgerId !== null && (await credits.isRefunded(db, row.ledgerId)))
      return fail(row, ["The render stopped when the server restarted."]);
    const started = Date.now();
    // A name of its own per run: a second process rendering the same ad never overwrites this file.
    const key = `${row.id}-${row.renderAttempt}-${randomUUID().slice(0, 8)}.mp4`;
    const out = await deps.production.produce(row, key, {
      size: deps.video,
      // Every couple of percent (a few frames), not every frame.
      step: 2,
      writeProgress: (progress) => db.aiAd.updateMany({ where: { id, status: "rendering" }, data: { progress } }),
      context: { adId: id },
    });
    if (!out.ok && out.stage === "store" && !attempt.last) {
      await db.aiAd.updateMany({ where: { id, status: "rendering", renderAttempt: row.renderAttempt }, data: { progress: 0 } });
      throw new Error(`the video was rendered but not stored (${out.detail}): tried again`);
    }
    if (!out.ok)
      return fail(row, [
        out.stage === "render"
          ? `The video could not be rendered: ${out.detail}`
          : `The video was rendered but could not be saved (${out.detail}). Try again in a moment.`,
      ]);
    const { result } = out;
    const { count } = await db.aiAd.updateMany({
      where: { id, status: "rendering", renderAttempt: row.renderAttempt },
      data: {
        status: "completed",
        progress: 100,
        storageKey: key,
        bytes: result.bytes.length,
        durationMs: result.durationMs,
        width: result.width,
        height: result.height,
        renderedAt: new Date(),
        errors: "[]",
      },
    });
    if (count === 0) await deps.files.removeFile(key);
    log.info({ adId: id, frames: result.frames, ms: Date.now() - started, bytes: result.bytes.length }, "render completed");
  }

  return { render, runRender };
}
