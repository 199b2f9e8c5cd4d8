// Renders and previews as jobs of the durable job system (docs/decisions/022): one job per ad
// ("ai-ads.render") or per preview row ("ai-ads.preview") by key, any server process may run them, one
// at a time each, and a render a killed process left is picked up when its lease expires.
import { z } from "zod";
import type { Db } from "~/db.server";
import { PREVIEW_JOB, previewJobKey, RENDER_JOB, renderJobKey } from "~/services/ai-ads/model.server";
import type { Jobs } from "~/services/jobs.server";

const RenderJobSchema = z.object({ adId: z.number().int().positive() });
const PreviewJobSchema = z.object({ previewId: z.number().int().positive() });

export type RenderQueue = ReturnType<typeof createRenderQueue>;

/** Which attempt of its job a render or preview is: the last one settles a failure for good. */
export interface JobAttempt {
  last: boolean;
}

export function createRenderQueue(deps: { db: Db; jobs: Jobs }) {
  const { db } = deps;
  let requeued: Promise<void> | null = null;

  /** One job per ad: asking again while its job is queued or running adds nothing. */
  async function enqueueRender(id: number): Promise<void> {
    await deps.jobs.enqueue(RENDER_JOB, { adId: id }, { key: renderJobKey(id) });
  }

  async function enqueuePreview(previewId: number): Promise<void> {
    await deps.jobs.enqueue(PREVIEW_JOB, { previewId }, { key: previewJobKey(previewId) });
  }

  /**
   * Once per process: a render job for every ad left "rendering" without one (ads from before the job
   * system, or a crash between marking the ad and enqueueing). The job key makes this harmless.
   */
  function start(): Promise<void> {
    requeued ??= (async () => {
      const rows = await db.aiAd.findMany({ where: { status: "rendering" }, orderBy: { updatedAt: "asc" }, select: { id: true } });
      for (const r of rows) await enqueueRender(r.id);
      const previews = await db.aiAdPreview.findMany({ where: { status: "rendering" }, orderBy: { id: "asc" }, select: { id: true } });
      for (const r of previews) await enqueuePreview(r.id);
    })().catch((error: unknown) => {
      // Not remembered: the next caller tries again (a failed start would otherwise fail every later call).
      requeued = null;
      throw error;
    });
    return requeued;
  }

  /**
   * Adds the render and preview kinds to a job system, run by the given handlers. A handler is told whether its
   * attempt is the last: before it, a video that could not be stored is tried again (decision 097).
   */
  function register(
    jobs: Jobs,
    handlers: {
      render: (adId: number, attempt: JobAttempt) => Promise<void>;
      preview: (previewId: number, attempt: JobAttempt) => Promise<void>;
    },
  ): void {
    const attemptOf = (c: { attempt: number; maxAttempts: number }): JobAttempt => ({ last: c.attempt >= c.maxAttempts });
    jobs.register<{ adId: number }>(RENDER_JOB, (c) => handlers.render(c.payload.adId, attemptOf(c)), {
      payloadSchema: RenderJobSchema,
      concurrency: 1,
      // Rendering is CPU-bound and long: a generous lease, renewed by the job system while it runs.
      leaseMs: 120_000,
      timeoutMs: 30 * 60_000,
    });
    jobs.register<{ previewId: number }>(PREVIEW_JOB, (c) => handlers.preview(c.payload.previewId, attemptOf(c)), {
      payloadSchema: PreviewJobSchema,
      concurrency: 1,
      leaseMs: 120_000,
      timeoutMs: 10 * 60_000,
    });
  }

  /** Runs the render and preview jobs due in this process until none is left (tests, scripts). */
  async function idle(): Promise<void> {
    await start();
    while ((await deps.jobs.runDue({ kinds: [RENDER_JOB, PREVIEW_JOB] })).ran > 0);
  }

  return { enqueueRender, enqueuePreview, start, register, idle };
}
