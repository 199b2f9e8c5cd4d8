// AI video ads (seed ai-ads; docs/decisions/019): a script written for a research product by the AI
// text adapter (free, status "preview", editable), then a video rendered from it for 5 ai-ads credits,
// or a free small preview of it (decision 036). Composed from its jobs in app/services/ai-ads/:
// - model.server.ts        the rows, who is asking, the paid gate, the job kinds (shared);
// - views.server.ts        reading ads as callers see them;
// - scripts.server.ts      writing, editing and deleting an ad's script;
// - renders.server.ts      the paid render: credits, the "ai-ads.render" job, refunds on failure;
// - previews.server.ts     the free preview: the day's allowance, the "ai-ads.preview" job;
// - production.server.ts   rendering a saved ad to a stored MP4 (both jobs);
// - queue.server.ts        the two job kinds on the durable job system (decision 022);
// - video-files.server.ts  the stored files and the links the video route opens them by.
// Every query is scoped to the ad's owner.
import type { Db } from "~/db.server";
import { AI_ADS_FEATURE, DEFAULT_VIDEO, FREE_PREVIEWS_PER_DAY, PREVIEW_VIDEO } from "~/domain/ai-ads/ai-ads";
import { creditCost } from "~/domain/billing/credits";
import type { AiSpeech } from "~/integrations/ai-speech.server";
import type { AiText } from "~/integrations/ai-text.server";
import type { MusicLibrary } from "~/integrations/music-library.server";
import type { FileStorage } from "~/integrations/file-storage.server";
import type { VideoRenderer } from "~/integrations/video-render.server";
import { createPreviews } from "~/services/ai-ads/previews.server";
import { createProduction } from "~/services/ai-ads/production.server";
import { createRenderQueue } from "~/services/ai-ads/queue.server";
import { createRenders } from "~/services/ai-ads/renders.server";
import { createScripts } from "~/services/ai-ads/scripts.server";
import { createVideoFiles } from "~/services/ai-ads/video-files.server";
import { createAdViews } from "~/services/ai-ads/views.server";
import type { BrandKits } from "~/services/ai-ads/brand-kits.server";
import type { Jobs } from "~/services/jobs.server";
import type { TikTokReference } from "~/services/ai-ads/tiktoks.server";

export {
  AI_ADS_LOCKED_REASON,
  PREVIEW_JOB,
  previewJobKey,
  RENDER_JOB,
  renderJobKey,
  type AiAdsUser,
} from "~/services/ai-ads/model.server";
export type { AdEdit } from "~/services/ai-ads/scripts.server";
export type { VideoFile } from "~/services/ai-ads/video-files.server";
export {
  previewPath,
  videoPath,
  type AdPreviewView,
  type AdProductSummary,
  type AiAdView,
} from "~/services/ai-ads/views.server";

export interface AiAdsDeps {
  db: Db;
  ai: AiText;
  renderer: VideoRenderer;
  /** Where the MP4s are kept: the file-storage port (a folder on disk, VIDEO_STORAGE_DIR, by default). */
  storage: FileStorage;
  /** The durable job system renders run on; registerJobs() adds the render kind to it. */
  jobs: Jobs;
  /** Signs the video links the embedded app uses (its iframe has no site cookie). */
  urlSecret: string;
  /** Frame size and rate; full HD 1080x1920 at 30 fps by default. */
  video?: { width: number; height: number; fps: number };
  /** The free preview's size and rate (docs/decisions/036); 540x960 at 15 fps by default. */
  preview?: { width: number; height: number; fps: number };
  /** Free previews a user may ask for in any 24 hours; FREE_PREVIEWS_PER_DAY by default. */
  previewsPerDay?: number;
  now?: () => Date;
  /** How long a signed video link works; default 2 hours. */
  signedUrlTtlMs?: number;
  /** Brand kits (decision 033): the kit an ad renders with and writes in the voice of. */
  brandKits?: Pick<BrandKits, "applied" | "requireOwn">;
  /** Saved TikTok videos of the product, handed to the writer as references (decision 033). */
  references?: (userId: string, objectID: string) => Promise<TikTokReference[]>;
  /** The product's fetched photo as an SVG document, or null (then its category drawing; decision 028). */
  productPhotoSvg?: (images: string[]) => Promise<string | null>;
  /** The voice-over's speech endpoint (decision 062); null or absent: ads have no voice. */
  speech?: AiSpeech | null;
  /** The operator's music beds (decision 062); absent: none. */
  music?: MusicLibrary;
}

export function createAiAds(deps: AiAdsDeps) {
  const { db } = deps;
  const video = deps.video ?? DEFAULT_VIDEO;
  const previewVideo = deps.preview ?? PREVIEW_VIDEO;
  const cost = creditCost(AI_ADS_FEATURE);

  const queue = createRenderQueue({ db, jobs: deps.jobs });
  const views = createAdViews({ db, ready: queue.start });
  const files = createVideoFiles({
    db,
    storage: deps.storage,
    urlSecret: deps.urlSecret,
    signedUrlTtlMs: deps.signedUrlTtlMs ?? 2 * 3600_000,
    ownRow: views.ownRow,
  });
  const production = createProduction({
    db,
    renderer: deps.renderer,
    video,
    brandKits: deps.brandKits,
    productPhotoSvg: deps.productPhotoSvg,
    files,
    storage: deps.storage,
    speech: deps.speech ?? null,
    music: deps.music,
  });
  const scripts = createScripts({
    db,
    ai: deps.ai,
    views,
    files,
    brandKits: deps.brandKits,
    references: deps.references,
    sound: production.soundErrors,
  });
  const renders = createRenders({ db, cost, video, queue, views, production, files });
  const previews = createPreviews({
    db,
    now: deps.now ?? (() => new Date()),
    size: previewVideo,
    perDay: deps.previewsPerDay ?? FREE_PREVIEWS_PER_DAY,
    queue,
    views,
    production,
    files,
  });

  return {
    list: views.list,
    get: views.get,
    productSummary: views.productSummary,
    create: scripts.create,
    update: scripts.update,
    remove: scripts.remove,
    render: renders.render,
    preview: previews.preview,
    previewAllowance: previews.previewAllowance,
    openVideo: files.openVideo,
    openSignedVideo: files.openSignedVideo,
    withSignedUrls: files.withSignedUrls,
    /**
     * Runs the render jobs that are due in this process until none is left (tests, scripts); a server's
     * worker runs them on its own.
     */
    idle: queue.idle,
    /** Queues a render job for every ad left "rendering" without one (once per process). */
    start: queue.start,
    /** Adds the render and preview kinds to a job system (by default the one renders are enqueued on). */
    registerJobs: (jobs: Jobs = deps.jobs) =>
      queue.register(jobs, { render: renders.runRender, preview: previews.runPreview }),
    writer: deps.ai.writer,
    renderer: deps.renderer.name,
    /** What sound ads can have here: the speech model and default voice (null: none), the voices a seller may pick, the music tracks and their folder. */
    sound: production.sound,
    /** The paid render's size and rate, and the free preview's. */
    sizes: { video, preview: previewVideo },
    cost,
  };
}

export type AiAds = ReturnType<typeof createAiAds>;
