// An ad's script: written for a research product by the AI text adapter (free, status "preview") in the
// voice of the user's brand kit with their saved TikToks as references (decision 033), edited by the
// seller until it renders, and deleted with its files.
import { parseStringList, type Db } from "~/db.server";
import { adHookOptions } from "~/domain/ai-ads/ad-writing";
import { validateAdScript, type AdErrors, type AdFormat } from "~/domain/ai-ads/ai-ads";
import { priceInDollars } from "~/domain/catalogue/measured-product";
import { AppError } from "~/domain/errors";
import { AiTextError, type AdFacts, type AiText } from "~/integrations/ai-text.server";
import { adSelect, requirePaid, scenesOf, type AiAdsUser, type ProductRow } from "~/services/ai-ads/model.server";
import type { VideoFiles } from "~/services/ai-ads/video-files.server";
import type { AdViews, AiAdView } from "~/services/ai-ads/views.server";
import type { BrandKits } from "~/services/ai-ads/brand-kits.server";
import type { TikTokReference } from "~/services/ai-ads/tiktoks.server";

export interface AdEdit {
  title?: string;
  /** The brand kit to render with (the user's own), or null for the default kit. */
  brandKitId?: number | null;
  /** One entry per scene, in order; a missing field keeps its value. */
  scenes?: { text?: string; durationMs?: number }[];
  /** The video's shape. */
  format?: AdFormat;
  /** A voice-over read by the AI speech endpoint. */
  voiceOver?: boolean;
  /** A music track's file name from the operator's folder, or null for none. */
  musicTrack?: string | null;
  /** The voice-over's voice, one the speech adapter offers (decision 067), or null for the server's default. */
  voice?: string | null;
}

function factsOf(p: ProductRow): AdFacts {
  return {
    title: p.title,
    description: p.description,
    niches: parseStringList(p.niches),
    tags: parseStringList(p.tags),
    reasons: parseStringList(p.reasons),
    orders: p.orders,
    storesSelling: p.storesSelling,
    // A price in another currency is never written as dollars (decision 059): the copy then names no price.
    priceCents: priceInDollars(p.priceCurrency) ? p.priceCents : 0,
  };
}

export function createScripts(deps: {
  db: Db;
  ai: AiText;
  views: AdViews;
  files: Pick<VideoFiles, "removeFile" | "dropPreviewFile">;
  brandKits?: Pick<BrandKits, "applied" | "requireOwn">;
  references?: (userId: string, objectID: string) => Promise<TikTokReference[]>;
  /** Why sound settings cannot be rendered on this server (production.soundErrors). */
  sound?: (ad: { voiceOver: boolean; musicTrack: string | null; voice: string | null }) => Promise<AdErrors>;
}) {
  const { db, views } = deps;

  /** Writes a script for a product and keeps it as a free "preview" ad. Paid states only. */
  /**
   * `freeShipping`: the seller says their store ships this product free, so the ad may promise it (decision 085);
   * off unless they say so, whatever the product's tags.
   */
  async function create(input: { user: AiAdsUser; objectID: string; brandKitId?: number | null; format?: AdFormat; freeShipping?: boolean }): Promise<AiAdView> {
    requirePaid(input.user);
    const product = await views.loadProduct(input.objectID);
    const kitId = deps.brandKits ? await deps.brandKits.requireOwn(input.user.id, input.brandKitId ?? null) : null;
    const [kit, references] = await Promise.all([
      deps.brandKits?.applied(input.user.id, kitId) ?? null,
      deps.references?.(input.user.id, product.objectID) ?? [],
    ]);
    const facts = {
      ...factsOf(product),
      voice: kit ? { tone: kit.style.tone, brandName: kit.style.name, tagline: kit.style.tagline } : null,
      references: references.map((r) => ({ hook: r.hook, author: r.author })),
      freeShipping: input.freeShipping === true,
    };
    let script;
    try {
      script = await deps.ai.writeAdScript(facts);
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
    // Three hooks to pick from: the writer's own, else its first scene's and the built-in writer's in the kit's tone.
    const first = checked.script.scenes[0]?.text;
    const builtIn = adHookOptions({ ...facts, tone: facts.voice?.tone ?? null, savedHooks: facts.references.map((r) => r.hook) });
    const hooks = [...new Set([...(script.hooks ?? []), ...(first ? [first] : []), ...builtIn])].slice(0, 3);
    const row = await db.aiAd.create({
      data: {
        hookOptions: JSON.stringify(hooks),
        format: input.format ?? "9:16",
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
    return views.view(row);
  }

  /** Edits the title and scene texts/durations of an ad not rendered yet. 422 with per-field errors. */
  async function update(userId: string, id: number, edit: AdEdit): Promise<AiAdView> {
    const row = await views.ownRow(userId, id);
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
    const sound = {
      voiceOver: edit.voiceOver ?? row.voiceOver,
      musicTrack: edit.musicTrack === undefined ? row.musicTrack : edit.musicTrack,
      voice: edit.voice === undefined ? row.voice : edit.voice,
    };
    const soundErrors =
      edit.voiceOver !== undefined || edit.musicTrack !== undefined || edit.voice !== undefined ? ((await deps.sound?.(sound)) ?? {}) : {};
    if (!checked.ok || Object.keys(soundErrors).length > 0)
      throw new AppError(422, "Some fields need attention.", { fieldErrors: { ...(checked.ok ? {} : checked.errors), ...soundErrors } });
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
        ...(edit.format ? { format: edit.format } : {}),
        voiceOver: sound.voiceOver,
        musicTrack: sound.musicTrack,
        voice: sound.voice,
      },
    });
    if (count === 0) throw new AppError(409, "This ad started rendering; edit it when that is done.");
    return views.get(userId, id);
  }

  /** Deletes the ad and its video file. Not while it renders. */
  async function remove(userId: string, id: number): Promise<{ deleted: true }> {
    const row = await views.ownRow(userId, id);
    const { count } = await db.aiAd.deleteMany({ where: { id, userId, status: { not: "rendering" } } });
    if (count === 0) throw new AppError(409, "This ad is rendering; delete it when that is done.");
    if (row.storageKey) await deps.files.removeFile(row.storageKey);
    // Its previews' files go too; their rows stay (adId now null) and keep counting against the day's allowance.
    const previews = await db.aiAdPreview.findMany({ where: { userId, adId: null, storageKey: { not: null } }, select: { id: true, storageKey: true } });
    for (const p of previews) await deps.files.dropPreviewFile(p);
    return { deleted: true };
  }

  return { create, update, remove };
}
