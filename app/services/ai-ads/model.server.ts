// What every part of AI video ads shares (docs/decisions/019): the rows each reads (with their explicit
// selects), who is asking, the paid-state gate, and the job kinds renders and previews run as.
import { createHash } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { parseJsonList } from "~/db.server";
import { AI_ADS_LOCKED_REASON, isAdFormat, type AdFormat, type AdScene } from "~/domain/ai-ads/ai-ads";
import { paidState, type PaidStateInput } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";

export { AI_ADS_LOCKED_REASON };

/** Who is asking: the user's id, paid state and the seed's aiAds.firstUse. */
export type AiAdsUser = PaidStateInput & { id: string; aiAdsFirstUse: boolean };

export function requirePaid(user: AiAdsUser) {
  if (!paidState(user).paid) throw new AppError(403, AI_ADS_LOCKED_REASON);
}

export const RENDER_JOB = "ai-ads.render";
export const renderJobKey = (adId: number) => `ai-ad-render:${adId}`;
/** The free preview render (docs/decisions/036): one job per preview row. */
export const PREVIEW_JOB = "ai-ads.preview";
export const previewJobKey = (previewId: number) => `ai-ad-preview:${previewId}`;

export const adSelect = {
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
  hookOptions: true,
  format: true,
  voiceOver: true,
  musicTrack: true,
  voice: true,
} as const;

export type AdRow = Prisma.AiAdGetPayload<{ select: typeof adSelect }>;

export const previewSelect = {
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

export type PreviewRow = Prisma.AiAdPreviewGetPayload<{ select: typeof previewSelect }>;

export const productSelect = {
  objectID: true,
  title: true,
  description: true,
  niches: true,
  primaryNiche: true,
  tags: true,
  reasons: true,
  images: true,
  priceCents: true,
  priceCurrency: true,
  orders: true,
  storesSelling: true,
  source: true,
} as const;

export type ProductRow = Prisma.ProductGetPayload<{ select: typeof productSelect }>;

/** An ad's scenes, as stored (validated when written). */
export const scenesOf = (row: { scenes: string }) => parseJsonList(row.scenes) as AdScene[];

/**
 * What a preview shows: the saved title, scenes, chosen kit and shape (a kit's later look changes are not tracked),
 * and the voice its hook is read in (decision 067).
 */
export function scriptHash(row: Pick<AdRow, "title" | "scenes" | "brandKitId" | "format" | "voiceOver" | "voice">): string {
  // The 9:16 shape and a silent ad are left out, so previews made before shapes and voices existed stay current.
  const parts: unknown[] = row.format === "9:16" ? [row.title, row.scenes, row.brandKitId] : [row.title, row.scenes, row.brandKitId, row.format];
  if (row.voiceOver) parts.push({ voice: row.voice ?? "" });
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** The ad's stored shape (anything unknown reads as the default 9:16). */
export const formatOf = (row: { format: string }): AdFormat => (isAdFormat(row.format) ? row.format : "9:16");
