// Reading ads: an ad as callers see it (script, status, video links, product card, newest free preview),
// the user's list, one ad, and a product to make an ad from. Every read is scoped to the ad's owner.
import { parseStringList, type Db } from "~/db.server";
import { totalDurationMs, type AdFormat, type AdScene, type AiAdStatus, type PreviewStatus } from "~/domain/ai-ads/ai-ads";
import { AppError } from "~/domain/errors";
import { hasSalesFigures, matchesSourceFilter } from "~/domain/catalogue/measured-product";
import {
  adSelect,
  formatOf,
  previewSelect,
  productSelect,
  scenesOf,
  scriptHash,
  type AdRow,
  type PreviewRow,
  type ProductRow,
} from "~/services/ai-ads/model.server";

export interface AdProductSummary {
  objectID: string;
  title: string;
  image: string | null;
  /** null: no sales data (a product added from a tracked store, docs/decisions/026). */
  orders: number | null;
  priceCents: number;
  /** The price's currency: null for US dollars (decision 059); shown with its code, never as dollars. */
  priceCurrency: string | null;
  /** The generated or imported research data (source "catalog"): its figures are not real, and every page says so. */
  sample: boolean;
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
  /** Up to three hooks the seller may pick for the first scene (decision 062). */
  hookOptions: string[];
  /** The video's shape. */
  format: AdFormat;
  /** Sound on the rendered video (decision 062): a voice-over, and a music track's name or null. */
  voiceOver: boolean;
  musicTrack: string | null;
  /** The voice-over's voice (decision 067); null: the server's default voice. */
  voice: string | null;
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

export function videoPath(id: number): string {
  return `/ai-ads/videos/${id}.mp4`;
}

/** Where an ad's newest completed preview plays from. */
export function previewPath(id: number): string {
  return `/ai-ads/videos/${id}-preview.mp4`;
}

function summary(p: ProductRow): AdProductSummary {
  // Orders are placeholders for a tracked-store or a measured product (docs/decisions/026, 046).
  const orders = hasSalesFigures(p.source) ? p.orders : null;
  return { objectID: p.objectID, title: p.title, image: parseStringList(p.images)[0] ?? null, orders, priceCents: p.priceCents, priceCurrency: p.priceCurrency, sample: matchesSourceFilter("sample", p.source) };
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

export type AdViews = ReturnType<typeof createAdViews>;

/** `ready` is awaited before a list or get (the render queue's once-per-process requeue). */
export function createAdViews(deps: { db: Db; ready: () => Promise<void> }) {
  const { db } = deps;

  /** Each ad's newest preview row. */
  async function latestPreviews(adIds: number[]): Promise<Map<number, PreviewRow>> {
    if (adIds.length === 0) return new Map();
    const newest = await db.aiAdPreview.groupBy({ by: ["adId"], where: { adId: { in: adIds } }, _max: { id: true } });
    const ids = newest.map((n) => n._max.id).filter((id): id is number => id !== null);
    const rows = ids.length > 0 ? await db.aiAdPreview.findMany({ where: { id: { in: ids } }, select: previewSelect }) : [];
    return new Map(rows.map((r) => [r.adId as number, r]));
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
        hookOptions: parseStringList(r.hookOptions),
        format: formatOf(r),
        voiceOver: r.voiceOver,
        musicTrack: r.musicTrack,
        voice: r.voice,
      };
    });
  }

  /** One ad as callers see it. */
  const view = async (row: AdRow, known?: Map<number, PreviewRow>) => (await views([row], known))[0];

  async function ownRow(userId: string, id: number): Promise<AdRow> {
    const row = await db.aiAd.findFirst({ where: { id, userId }, select: adSelect });
    if (!row) throw new AppError(404, "No such AI ad.");
    return row;
  }

  /** The user's ads, newest first. */
  async function list(userId: string, take = 50): Promise<AiAdView[]> {
    await deps.ready();
    const rows = await db.aiAd.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take,
      select: adSelect,
    });
    return views(rows);
  }

  async function get(userId: string, id: number): Promise<AiAdView> {
    await deps.ready();
    return view(await ownRow(userId, id));
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

  return { latestPreviews, view, ownRow, list, get, loadProduct, productSummary };
}
