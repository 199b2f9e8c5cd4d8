// AI video ads (seed ai-ads; docs/decisions/019): a script written for a research product by the AI
// text adapter (free, status "preview", editable), then a video rendered from it for 5 ai-ads credits.
// This file owns the ads, their render jobs and their files: "Render video" spends the credits once
// per render attempt (deterministic idempotency key), marks the ad "rendering" and queues the job; the
// job writes progress as it goes, stores the MP4 in VIDEO_STORAGE_DIR and marks the ad "completed",
// or "failed" with sentences in `errors` and the credits refunded. Renders are jobs of the durable job
// system (kind "ai-ads.render", one job per ad by key; docs/decisions/022): any server process may run
// them, one at a time each, and a render a killed process left is picked up when its lease expires.
// Every query is scoped to the ad's owner.
import { AppError } from "~/domain/errors";
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { parseJsonList, parseStringList, type Db } from "~/db.server";
import { aiAdsUpsellOpen, creditCost } from "~/domain/credits";
import {
  AI_ADS_FEATURE,
  brandColour,
  FREE_PREVIEWS_PER_DAY,
  PREVIEW_WATERMARK,
  type PreviewStatus,
  renderIdempotencyKey,
  totalDurationMs,
  validateAdScript,
  type AdErrors,
  type AdScene,
  type AiAdStatus,
} from "~/domain/ai-ads";
import { paidState, type PaidStateInput } from "~/domain/billing";
import { AiTextError, type AdFacts, type AiText } from "~/integrations/ai-text.server";
import { DEFAULT_VIDEO, PREVIEW_VIDEO, VideoRenderError, type RenderResult, type RenderSpec, type VideoRenderer } from "~/integrations/video-render.server";
import { childLogger } from "~/logger.server";
import * as credits from "~/services/credits.server";
import type { AppliedBrand, BrandKits } from "~/services/brand-kits.server";
import type { Jobs } from "~/services/jobs.server";
import type { TikTokReference } from "~/services/tiktoks.server";
import { parseProductImageFile, renderProductSvg } from "~/services/product-images.server";

const log = childLogger("ai-ads");

/** Who is asking: the user's id, paid state and the seed's aiAds.firstUse. */
export type AiAdsUser = PaidStateInput & { id: string; aiAdsFirstUse: boolean };

export interface AiAdsDeps {
  db: Db;
  ai: AiText;
  renderer: VideoRenderer;
  /** The folder MP4s are written to (VIDEO_STORAGE_DIR). */
  storageDir: string;
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
}

export const RENDER_JOB = "ai-ads.render";
export const renderJobKey = (adId: number) => `ai-ad-render:${adId}`;
const RenderJobSchema = z.object({ adId: z.number().int().positive() });
/** The free preview render (docs/decisions/036): one job per preview row. */
export const PREVIEW_JOB = "ai-ads.preview";
export const previewJobKey = (previewId: number) => `ai-ad-preview:${previewId}`;
const PreviewJobSchema = z.object({ previewId: z.number().int().positive() });

export const AI_ADS_LOCKED_REASON =
  "AI video ads are part of every plan: start your free trial to write and render ads from products.";

const adSelect = {
  id: true,
  userId: true,
  productObjectID: true,
  title: true,
  scenes: true,
  writer: true,
  status: true,
  progress: true,
  errors: true,
  storageKey: true,
  bytes: true,
  durationMs: true,
  width: true,
  height: true,
  renderAttempt: true,
  ledgerId: true,
  createdAt: true,
  updatedAt: true,
  renderedAt: true,
  brandKitId: true,
} as const;

type AdRow = Prisma.AiAdGetPayload<{ select: typeof adSelect }>;

const previewSelect = {
  id: true,
  userId: true,
  adId: true,
  status: true,
  progress: true,
  error: true,
  scriptHash: true,
  storageKey: true,
  bytes: true,
  durationMs: true,
  width: true,
  height: true,
  createdAt: true,
  renderedAt: true,
} as const;

type PreviewRow = Prisma.AiAdPreviewGetPayload<{ select: typeof previewSelect }>;

/** What a preview shows: the saved title, scenes and chosen kit (a kit's later look changes are not tracked). */
function scriptHash(row: Pick<AdRow, "title" | "scenes" | "brandKitId">): string {
  return createHash("sha256").update(JSON.stringify([row.title, row.scenes, row.brandKitId])).digest("hex");
}

const productSelect = {
  objectID: true,
  title: true,
  description: true,
  niches: true,
  primaryNiche: true,
  tags: true,
  reasons: true,
  images: true,
  priceCents: true,
  orders: true,
  storesSelling: true,
  source: true,
} as const;

type ProductRow = Prisma.ProductGetPayload<{ select: typeof productSelect }>;

/** An ad's scenes, as stored (validated when written). */
const scenesOf = (row: { scenes: string }) => parseJsonList(row.scenes) as AdScene[];

export interface AdProductSummary {
  objectID: string;
  title: string;
  image: string | null;
  /** null: no sales data (a product added from a tracked store, docs/decisions/026). */
  orders: number | null;
  priceCents: number;
}

export interface AiAdView {
  id: number;
  objectID: string;
  title: string;
  scenes: AdScene[];
  /** The script's length (the video's, once rendered, is durationMs). */
  scriptMs: number;
  writer: string;
  status: AiAdStatus;
  /** 0-100 while rendering. */
  progress: number;
  /** Why the last render failed, in sentences. */
  errors: string[];
  /** Where the video plays from (seed storageUrl) and downloads from; null until completed. */
  storageUrl: string | null;
  downloadUrl: string | null;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  createdAt: string;
  updatedAt: string;
  renderedAt: string | null;
  product: AdProductSummary | null;
  /** The brand kit it renders with; null: the user's default kit (or the plain look without one). */
  brandKitId: number | null;
  /** The newest free preview render (docs/decisions/036), or null when none was asked for. */
  previewVideo: AdPreviewView | null;
}

export interface AdPreviewView {
  status: PreviewStatus;
  /** 0-100 while rendering. */
  progress: number;
  /** Why it failed, in a sentence. */
  error: string | null;
  /** Where it plays from once completed (not offered for download: the full HD render is what gets posted). */
  url: string | null;
  /** false: the script or kit changed since it was made. */
  current: boolean;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  renderedAt: string | null;
}

export interface AdEdit {
  title?: string;
  /** The brand kit to render with (the user's own), or null for the default kit. */
  brandKitId?: number | null;
  /** One entry per scene, in order; a missing field keeps its value. */
  scenes?: { text?: string; durationMs?: number }[];
}

export interface VideoFile {
  path: string;
  bytes: number;
  fileName: string;
}

export function videoPath(id: number): string {
  return `/ai-ads/videos/${id}.mp4`;
}

/** Where an ad's newest completed preview plays from. */
export function previewPath(id: number): string {
  return `/ai-ads/videos/${id}-preview.mp4`;
}

function summary(p: ProductRow): AdProductSummary {
  const orders = p.source === "tracked-store" ? null : p.orders;
  return { objectID: p.objectID, title: p.title, image: parseStringList(p.images)[0] ?? null, orders, priceCents: p.priceCents };
}

export function createAiAds(deps: AiAdsDeps) {
  const { db } = deps;
  const video = deps.video ?? DEFAULT_VIDEO;
  const previewVideo = deps.preview ?? PREVIEW_VIDEO;
  const previewsPerDay = deps.previewsPerDay ?? FREE_PREVIEWS_PER_DAY;
  const now = deps.now ?? (() => new Date());
  const signedUrlTtlMs = deps.signedUrlTtlMs ?? 2 * 3600_000;
  const storageDir = path.resolve(deps.storageDir);
  const cost = creditCost(AI_ADS_FEATURE);

  // ---- render jobs (docs/decisions/022) --------------------------------------------------------------

  let requeued: Promise<void> | null = null;

  /** One job per ad: asking again while its job is queued or running adds nothing. */
  async function enqueueRender(id: number): Promise<void> {
    await deps.jobs.enqueue(RENDER_JOB, { adId: id }, { key: renderJobKey(id) });
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

  async function enqueuePreview(previewId: number): Promise<void> {
    await deps.jobs.enqueue(PREVIEW_JOB, { previewId }, { key: previewJobKey(previewId) });
  }

  /** Adds the render kind to a job system (by default the one renders are enqueued on). */
  function registerJobs(jobs: Jobs = deps.jobs): void {
    jobs.register<{ adId: number }>(RENDER_JOB, ({ payload }) => runRender(payload.adId), {
      payloadSchema: RenderJobSchema,
      concurrency: 1,
      // Rendering is CPU-bound and long: a generous lease, renewed by the job system while it runs.
      leaseMs: 120_000,
      timeoutMs: 30 * 60_000,
    });
    jobs.register<{ previewId: number }>(PREVIEW_JOB, ({ payload }) => runPreview(payload.previewId), {
      payloadSchema: PreviewJobSchema,
      concurrency: 1,
      leaseMs: 120_000,
      timeoutMs: 10 * 60_000,
    });
  }

  // ---- reading ------------------------------------------------------------------------------------------

  /** Each ad's newest preview row. */
  async function latestPreviews(adIds: number[]): Promise<Map<number, PreviewRow>> {
    if (adIds.length === 0) return new Map();
    const newest = await db.aiAdPreview.groupBy({ by: ["adId"], where: { adId: { in: adIds } }, _max: { id: true } });
    const ids = newest.map((n) => n._max.id).filter((id): id is number => id !== null);
    const rows = ids.length > 0 ? await db.aiAdPreview.findMany({ where: { id: { in: ids } }, select: previewSelect }) : [];
    return new Map(rows.map((r) => [r.adId as number, r]));
  }

  function previewView(ad: AdRow, p: PreviewRow | undefined): AdPreviewView | null {
    if (!p) return null;
    const completed = p.status === "completed" && p.storageKey !== null;
    return {
      status: p.status as PreviewStatus,
      progress: p.progress,
      error: p.error,
      url: completed ? `${previewPath(ad.id)}?v=${p.id}` : null,
      current: p.scriptHash === null || p.scriptHash === scriptHash(ad),
      width: p.width,
      height: p.height,
      durationMs: p.durationMs,
      renderedAt: p.renderedAt?.toISOString() ?? null,
    };
  }

  /** The ads as callers see them; `known` previews (each ad's newest, already read) are not read again. */
  async function views(rows: AdRow[], known?: Map<number, PreviewRow>): Promise<AiAdView[]> {
    if (rows.length === 0) return [];
    const objectIDs = [...new Set(rows.map((r) => r.productObjectID))];
    const [products, previews] = await Promise.all([
      db.product.findMany({ where: { objectID: { in: objectIDs } }, select: productSelect }),
      known ?? latestPreviews(rows.map((r) => r.id)),
    ]);
    const byId = new Map(products.map((p) => [p.objectID, p]));
    return rows.map((r) => {
      const scenes = scenesOf(r);
      const completed = r.status === "completed" && r.storageKey !== null;
      const p = byId.get(r.productObjectID);
      return {
        id: r.id,
        objectID: r.productObjectID,
        title: r.title,
        scenes,
        scriptMs: totalDurationMs(scenes),
        writer: r.writer,
        status: r.status as AiAdStatus,
        progress: r.progress,
        errors: parseStringList(r.errors),
        storageUrl: completed ? videoPath(r.id) : null,
        downloadUrl: completed ? `${videoPath(r.id)}?download=1` : null,
        durationMs: r.durationMs,
        width: r.width,
        height: r.height,
        bytes: r.bytes,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
        renderedAt: r.renderedAt?.toISOString() ?? null,
        product: p ? summary(p) : null,
        brandKitId: r.brandKitId,
        previewVideo: previewView(r, previews.get(r.id)),
      };
    });
  }

  async function ownRow(userId: string, id: number): Promise<AdRow> {
    const row = await db.aiAd.findFirst({ where: { id, userId }, select: adSelect });
    if (!row) throw new AppError(404, "No such AI ad.");
    return row;
  }

  /** The user's ads, newest first. */
  async function list(userId: string, take = 50): Promise<AiAdView[]> {
    await start();
    const rows = await db.aiAd.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      select: adSelect,
    });
    return views(rows);
  }

  async function get(userId: string, id: number): Promise<AiAdView> {
    await start();
    return (await views([await ownRow(userId, id)]))[0];
  }

  async function loadProduct(objectID: string): Promise<ProductRow> {
    const product = await db.product.findUnique({ where: { objectID }, select: productSelect });
    if (!product) throw new AppError(404, `No product with objectID ${objectID}.`);
    return product;
  }

  /** A product to make an ad from (the page's picker), or null. */
  async function productSummary(objectID: string): Promise<AdProductSummary | null> {
    const p = await db.product.findUnique({ where: { objectID }, select: productSelect });
    return p ? summary(p) : null;
  }

  function requirePaid(user: AiAdsUser) {
    if (!paidState(user).paid) throw new AppError(403, AI_ADS_LOCKED_REASON);
  }

  // ---- writing ------------------------------------------------------------------------------------------

  function factsOf(p: ProductRow): AdFacts {
    return {
      title: p.title,
      description: p.description,
      niches: parseStringList(p.niches),
      tags: parseStringList(p.tags),
      reasons: parseStringList(p.reasons),
      orders: p.orders,
      storesSelling: p.storesSelling,
      priceCents: p.priceCents,
    };
  }

  /** Writes a script for a product and keeps it as a free "preview" ad. Paid states only. */
  async function create(input: { user: AiAdsUser; objectID: string; brandKitId?: number | null }): Promise<AiAdView> {
    requirePaid(input.user);
    const product = await loadProduct(input.objectID);
    const kitId = deps.brandKits ? await deps.brandKits.requireOwn(input.user.id, input.brandKitId ?? null) : null;
    const [kit, references] = await Promise.all([
      deps.brandKits?.applied(input.user.id, kitId) ?? null,
      deps.references?.(input.user.id, product.objectID) ?? [],
    ]);
    let script;
    try {
      script = await deps.ai.writeAdScript({
        ...factsOf(product),
        voice: kit ? { tone: kit.style.tone, brandName: kit.style.name, tagline: kit.style.tagline } : null,
        references: references.map((r) => ({ hook: r.hook, author: r.author })),
      });
    } catch (error) {
      if (error instanceof AiTextError)
        throw new AppError(502, `The ${deps.ai.writer} could not write this ad: ${error.message}`, { code: error.code });
      throw error;
    }
    const checked = validateAdScript(script);
    if (!checked.ok)
      throw new AppError(
        502,
        `The ${deps.ai.writer} wrote a script that does not pass our checks: ${Object.values(checked.errors).join(" ")}`,
      );
    const row = await db.aiAd.create({
      data: {
        userId: input.user.id,
        productObjectID: product.objectID,
        title: checked.script.title,
        scenes: JSON.stringify(checked.script.scenes),
        writer: deps.ai.writer,
        status: "preview",
        brandKitId: kitId,
      },
      select: adSelect,
    });
    return (await views([row]))[0];
  }

  /** Edits the title and scene texts/durations of an ad not rendered yet. 422 with per-field errors. */
  async function update(userId: string, id: number, edit: AdEdit): Promise<AiAdView> {
    const row = await ownRow(userId, id);
    if (row.status === "rendering") throw new AppError(409, "This ad is rendering; edit it when that is done.");
    if (row.status === "completed")
      throw new AppError(409, "This ad is already rendered and its video stays as it is: create a new ad to change it.");
    const scenes = scenesOf(row);
    if (edit.scenes && edit.scenes.length !== scenes.length) {
      throw new AppError(422, "Some fields need attention.", {
        fieldErrors: { scenes: `Send one entry per scene: this ad has ${scenes.length}.` } satisfies AdErrors,
      });
    }
    const merged = {
      title: edit.title ?? row.title,
      scenes: scenes.map((s, i) => ({
        kind: s.kind,
        text: edit.scenes?.[i]?.text ?? s.text,
        durationMs: edit.scenes?.[i]?.durationMs ?? s.durationMs,
      })),
    };
    const checked = validateAdScript(merged);
    if (!checked.ok) throw new AppError(422, "Some fields need attention.", { fieldErrors: checked.errors });
    const brandKitId =
      edit.brandKitId === undefined ? undefined : deps.brandKits ? await deps.brandKits.requireOwn(userId, edit.brandKitId) : null;
    const { count } = await db.aiAd.updateMany({
      where: { id, userId, status: { in: ["preview", "failed"] } },
      data: {
        title: checked.script.title,
        scenes: JSON.stringify(checked.script.scenes),
        status: "preview",
        errors: "[]",
        ...(brandKitId !== undefined ? { brandKitId } : {}),
      },
    });
    if (count === 0) throw new AppError(409, "This ad started rendering; edit it when that is done.");
    return get(userId, id);
  }

  /** Deletes the ad and its video file. Not while it renders. */
  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    const row = await ownRow(userId, id);
    const { count } = await db.aiAd.deleteMany({ where: { id, userId, status: { not: "rendering" } } });
    if (count === 0) throw new AppError(409, "This ad is rendering; delete it when that is done.");
    if (row.storageKey) await rm(path.join(storageDir, row.storageKey), { force: true });
    // Its previews' files go too; their rows stay (adId now null) and keep counting against the day's allowance.
    const previews = await db.aiAdPreview.findMany({ where: { userId, adId: null, storageKey: { not: null } }, select: { id: true, storageKey: true } });
    for (const p of previews) await dropPreviewFile(p);
    return { deleted: true };
  }

  /**
   * "Render video": spends 5 ai-ads credits (402 with the upsell flag when short), marks the ad
   * "rendering" and queues it. Asking again while it renders, or after it completed, charges nothing
   * and answers the ad as it is. The key is ai-ad-render:{id}:{attempt}, so a retry of the same request
   * is charged once, and a render after a failed (refunded) one is a new attempt.
   */
  async function render(user: AiAdsUser, id: number): Promise<{ ad: AiAdView; queued: boolean }> {
    await start();
    const row = await ownRow(user.id, id);
    if (row.status === "rendering" || row.status === "completed") {
      if (row.status === "rendering") await enqueueRender(row.id);
      return { ad: (await views([row]))[0], queued: false };
    }
    requirePaid(user);
    const invalid = validateAdScript({ title: row.title, scenes: scenesOf(row) });
    if (!invalid.ok) throw new AppError(422, "Some fields need attention.", { fieldErrors: invalid.errors });
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
      const current = await ownRow(user.id, id);
      if (current.status === "rendering") await enqueueRender(id);
      return { ad: await get(user.id, id), queued: false };
    }
    if (user.aiAdsFirstUse) {
      await db.user.updateMany({ where: { id: user.id, aiAdsFirstUse: true }, data: { aiAdsFirstUse: false } });
    }
    await enqueueRender(id);
    log.info({ userId: user.id, adId: id, attempt, ledgerId: spent.ledgerId }, "render queued");
    return { ad: await get(user.id, id), queued: true };
  }

  // ---- rendering to a file (the paid render and the free preview) ----------------------------------------

  /**
   * Renders the ad as it is saved (the product's fetched photo or its category drawing, decision 028; the
   * ad's brand kit or the user's default one, decision 033) at `size`, and writes the MP4 to `key` under the
   * storage folder (written aside, then renamed into place). Progress goes to `writeProgress` every `step`
   * percent. A failure comes back with its stage and a detail for the seller's sentence, never thrown.
   */
  async function renderToFile(
    row: AdRow,
    key: string,
    options: {
      size: { width: number; height: number; fps: number };
      watermark?: string;
      step: number;
      writeProgress: (pct: number) => Promise<unknown>;
      context: Record<string, number>;
    },
  ): Promise<{ ok: true; result: RenderResult; file: string } | { ok: false; stage: "render" | "store"; detail: string }> {
    const product = await db.product.findUnique({ where: { objectID: row.productObjectID }, select: productSelect });
    let written = 0;
    let writes: Promise<unknown> = Promise.resolve();
    const onProgress = (fraction: number) => {
      const pct = Math.min(99, Math.floor(fraction * 100));
      if (pct < written + options.step) return;
      written = pct;
      writes = writes
        .then(() => options.writeProgress(pct))
        .catch((error) => log.warn({ ...options.context, err: error }, "progress not written"));
    };
    let result: RenderResult;
    try {
      const photoSvg = product && deps.productPhotoSvg ? await deps.productPhotoSvg(parseStringList(product.images)) : null;
      const kit = (await deps.brandKits?.applied(row.userId, row.brandKitId)) ?? null;
      const spec = { ...specFor(row, product, photoSvg, kit), ...options.size, watermark: options.watermark ?? null };
      result = await deps.renderer.render(spec, { onProgress });
    } catch (error) {
      await writes;
      if (!(error instanceof VideoRenderError)) log.error({ ...options.context, err: error }, "renderer crashed");
      return { ok: false, stage: "render", detail: error instanceof VideoRenderError ? error.message : "the renderer stopped unexpectedly." };
    }
    await writes;
    const file = path.join(storageDir, key);
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, result.bytes);
      await rename(`${file}.tmp`, file);
    } catch (error) {
      await rm(`${file}.tmp`, { force: true }).catch(() => undefined);
      log.error({ ...options.context, err: error, storageDir }, "video not stored");
      return { ok: false, stage: "store", detail: (error as NodeJS.ErrnoException).code ?? "write error" };
    }
    return { ok: true, result, file };
  }

  // ---- the free preview (docs/decisions/036) -------------------------------------------------------------

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
    const nextAt = used >= previewsPerDay ? new Date(rows[used - previewsPerDay].createdAt.getTime() + 24 * 3600_000).toISOString() : null;
    return { limit: previewsPerDay, used, left: Math.max(0, previewsPerDay - used), nextAt };
  }

  /**
   * "Preview video (free)": renders the saved script at the preview size, marked "Preview", for no credits.
   * Paid states only (the same as writing a script). Asking while one renders, or when the newest preview
   * already shows the saved script, starts nothing. 409 for an ad rendered or rendering in full; 429 past the
   * day's allowance.
   */
  async function preview(user: AiAdsUser, id: number): Promise<{ ad: AiAdView; queued: boolean }> {
    await start();
    const row = await ownRow(user.id, id);
    requirePaid(user);
    if (row.status === "completed")
      throw new AppError(409, "This ad is already rendered in full: its video is on this page.");
    if (row.status === "rendering") throw new AppError(409, "This ad is rendering in full; its video will be here in a moment.");
    const invalid = validateAdScript({ title: row.title, scenes: scenesOf(row) });
    if (!invalid.ok) throw new AppError(422, "Some fields need attention.", { fieldErrors: invalid.errors });
    const known = await latestPreviews([row.id]);
    const latest = known.get(row.id);
    if (latest?.status === "rendering") {
      await enqueuePreview(latest.id);
      return { ad: (await views([row], known))[0], queued: false };
    }
    if (latest?.status === "completed" && latest.storageKey && latest.scriptHash === scriptHash(row))
      return { ad: (await views([row], known))[0], queued: false };
    const allowance = await previewAllowance(user.id);
    if (allowance.left === 0) {
      const at = allowance.nextAt ? ` The next one is possible from ${allowance.nextAt.slice(11, 16)} UTC.` : "";
      throw new AppError(
        429,
        `You have made ${allowance.limit} free previews in the last 24 hours.${at} Rendering the full video still works.`,
        { limit: allowance.limit, nextAt: allowance.nextAt },
      );
    }
    const created = await db.aiAdPreview.create({ data: { userId: user.id, adId: row.id }, select: { id: true } });
    await enqueuePreview(created.id);
    log.info({ userId: user.id, adId: id, previewId: created.id }, "preview queued");
    // The ad itself is unchanged: only its newest preview is new (views reads it).
    return { ad: (await views([row]))[0], queued: true };
  }

  async function dropPreviewFile(p: { id: number; storageKey: string | null }): Promise<void> {
    if (!p.storageKey) return;
    await rm(path.join(storageDir, p.storageKey), { force: true });
    await db.aiAdPreview.updateMany({ where: { id: p.id, storageKey: p.storageKey }, data: { storageKey: null } });
  }

  async function runPreview(previewId: number): Promise<void> {
    const p = await db.aiAdPreview.findFirst({ where: { id: previewId, status: "rendering" }, select: previewSelect });
    if (!p) return;
    const failPreview = async (error: string) => {
      await db.aiAdPreview.updateMany({ where: { id: previewId, status: "rendering" }, data: { status: "failed", progress: 0, error } });
      log.warn({ adId: p.adId, previewId, error }, "preview failed");
    };
    const row = p.adId === null ? null : await db.aiAd.findFirst({ where: { id: p.adId, userId: p.userId }, select: adSelect });
    if (!row) return failPreview("The ad was deleted before its preview was made.");
    const key = path.join("previews", `${row.id}-${previewId}-${randomUUID().slice(0, 8)}.mp4`);
    const out = await renderToFile(row, key, {
      size: previewVideo,
      watermark: PREVIEW_WATERMARK,
      // A short render: a progress row every 5%.
      step: 5,
      writeProgress: (progress) => db.aiAdPreview.updateMany({ where: { id: previewId, status: "rendering" }, data: { progress } }),
      context: { adId: row.id, previewId },
    });
    if (!out.ok)
      return failPreview(
        out.stage === "render"
          ? `The preview could not be rendered: ${out.detail}`
          : `The preview was rendered but could not be saved (${out.detail}).`,
      );
    const { result, file } = out;
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
      await rm(file, { force: true });
      return;
    }
    // The ad's older previews are replaced: their files go (the rows stay for the allowance).
    const older = await db.aiAdPreview.findMany({
      where: { adId: row.id, id: { lt: previewId }, storageKey: { not: null } },
      select: { id: true, storageKey: true },
    });
    for (const o of older) await dropPreviewFile(o);
    log.info({ adId: row.id, previewId, frames: result.frames, bytes: result.bytes.length }, "preview completed");
  }

  // ---- the render job -----------------------------------------------------------------------------------

  function specFor(row: AdRow, product: ProductRow | null, photoSvg: string | null = null, kit: AppliedBrand | null = null): RenderSpec {
    let imageSvg: string | null = photoSvg;
    if (product && !imageSvg) {
      // No fetched photo: the product's category drawing (product-images.server.ts), the picture its page shows.
      const first = parseStringList(product.images)[0] ?? "";
      const n = parseProductImageFile(first.split("/").pop() ?? "")?.n ?? 1;
      imageSvg = renderProductSvg({ objectID: product.objectID, n, title: product.title, niche: product.primaryNiche });
    }
    return {
      ...video,
      brandColour: brandColour(product?.primaryNiche ?? row.productObjectID),
      product: { title: product?.title ?? row.title, imageSvg },
      scenes: scenesOf(row),
      brand: kit
        ? {
            primaryColour: kit.style.primaryColour,
            accentColour: kit.style.accentColour,
            textColour: kit.style.textColour,
            fontFamily: kit.style.fontFamily,
            tagline: kit.style.tagline,
            logoPng: kit.logoPng,
          }
        : null,
    };
  }

  async function fail(row: AdRow, reasons: string[]) {
    // Refund first: if the process dies between the two, the job runs again, sees the refund and
    // only marks the ad failed (the credits are never lost, nor given twice: refunds are idempotent).
    let refunded = false;
    if (row.ledgerId !== null) {
      const r = await credits.refund(db, { userId: row.userId, ledgerId: row.ledgerId, reason: `AI ad ${row.id} render failed` });
      refunded = r.refunded;
    }
    const errors = refunded ? [...reasons, `Your ${cost} AI ad credits were refunded.`] : reasons;
    await db.aiAd.updateMany({
      where: { id: row.id, status: "rendering", renderAttempt: row.renderAttempt },
      data: { status: "failed", progress: 0, errors: JSON.stringify(errors) },
    });
    log.warn({ userId: row.userId, adId: row.id, errors }, "render failed");
  }

  async function runRender(id: number): Promise<void> {
    const row = await db.aiAd.findFirst({ where: { id, status: "rendering" }, select: adSelect });
    if (!row) return;
    if (row.ledgerId !== null && (await credits.isRefunded(db, row.ledgerId)))
      return fail(row, ["The render stopped when the server restarted."]);
    const started = Date.now();
    // A name of its own per run: a second process rendering the same ad never overwrites this file.
    const key = `${row.id}-${row.renderAttempt}-${randomUUID().slice(0, 8)}.mp4`;
    const out = await renderToFile(row, key, {
      size: video,
      // Every couple of percent (a few frames), not every frame.
      step: 2,
      writeProgress: (progress) => db.aiAd.updateMany({ where: { id, status: "rendering" }, data: { progress } }),
      context: { adId: id },
    });
    if (!out.ok)
      return fail(row, [
        out.stage === "render"
          ? `The video could not be rendered: ${out.detail}`
          : `The video was rendered but could not be saved (${out.detail}). Try again in a moment.`,
      ]);
    const { result, file } = out;
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
    if (count === 0) await rm(file, { force: true });
    log.info({ adId: id, frames: result.frames, ms: Date.now() - started, bytes: result.bytes.length }, "render completed");
  }

  // ---- the video file ------------------------------------------------------------------------------------

  /** Which of an ad's files a link names: its rendered video or its newest preview. */
  type VideoKind = "video" | "preview";

  function signature(id: number, userId: string, expires: number, kind: VideoKind = "video"): string {
    return createHmac("sha256", deps.urlSecret).update(`ai-ad-${kind}:${id}:${userId}:${expires}`).digest("base64url");
  }

  /** A link to the video that works without a cookie (the embedded app's <video>) until it expires. */
  function signedUrl(url: string, id: number, userId: string, kind: VideoKind = "video", at = Date.now()): string {
    const expires = Math.floor((at + signedUrlTtlMs) / 1000);
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

  /** The ad's newest completed preview file. */
  async function previewFileOf(ad: { id: number }): Promise<VideoFile> {
    const p = await db.aiAdPreview.findFirst({
      where: { adId: ad.id, status: "completed", storageKey: { not: null } },
      orderBy: { id: "desc" },
      select: { storageKey: true },
    });
    if (!p?.storageKey) throw new AppError(404, "This ad has no preview yet.");
    const file = path.join(storageDir, p.storageKey);
    try {
      const s = await stat(file);
      return { path: file, bytes: s.size, fileName: `ai-ad-${ad.id}-preview.mp4` };
    } catch {
      log.error({ adId: ad.id, file }, "preview file missing");
      throw new AppError(404, "This ad's preview file is missing: make a new preview.");
    }
  }

  async function fileOf(row: { id: number; status: string; storageKey: string | null }): Promise<VideoFile> {
    if (row.status !== "completed" || !row.storageKey) throw new AppError(404, "This ad has no video yet.");
    const file = path.join(storageDir, row.storageKey);
    try {
      const s = await stat(file);
      return { path: file, bytes: s.size, fileName: `ai-ad-${row.id}.mp4` };
    } catch {
      log.error({ adId: row.id, file }, "video file missing");
      throw new AppError(404, "This ad's video file is missing: render it again from a new ad.");
    }
  }

  /** The owner's video file (or its newest preview); anyone else's ad is 404. */
  async function openVideo(userId: string, id: number, kind: VideoKind = "video"): Promise<VideoFile> {
    const row = await ownRow(userId, id);
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

  return {
    list,
    get,
    productSummary,
    create,
    update,
    remove,
    render,
    preview,
    previewAllowance,
    openVideo,
    openSignedVideo,
    withSignedUrls,
    /**
     * Runs the render jobs that are due in this process until none is left (tests, scripts); a server's
     * worker runs them on its own.
     */
    idle: async () => {
      await start();
      while ((await deps.jobs.runDue({ kinds: [RENDER_JOB, PREVIEW_JOB] })).ran > 0);
    },
    /** Queues a render job for every ad left "rendering" without one (once per process). */
    start,
    registerJobs,
    writer: deps.ai.writer,
    renderer: deps.renderer.name,
    /** The paid render's size and rate, and the free preview's. */
    sizes: { video, preview: previewVideo },
    cost,
  };
}

export type AiAds = ReturnType<typeof createAiAds>;
