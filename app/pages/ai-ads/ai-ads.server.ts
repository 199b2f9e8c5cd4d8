// The AI ads page's loader and action (pick a product, write a script, edit it, render, delete), shared
// by the site (/dashboard/ai-ads) and the embedded app (/app/ai-ads). Each surface's route
// authenticates its own way and hands the user over; from there both run exactly this. The rules are
// the AI ads service's (docs/decisions/019). Inside Shopify admin the video links are signed, because
// the admin's iframe sends no site cookie with a <video>'s requests.
import { AppError } from "~/domain/errors";
import { data } from "@remix-run/node";
import { z } from "zod";
import { adFieldLabel, AI_ADS_FEATURE, isAdFormat, type AdErrors } from "~/domain/ai-ads/ai-ads";
import { paidState } from "~/domain/billing/billing";
import { aiAdsUpsellOpen } from "~/domain/billing/credits";
import { researchAccess } from "~/domain/products/research-access";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { AI_ADS_LOCKED_REASON } from "~/domain/ai-ads/ai-ads";
import type { AdProductSummary } from "~/services/ai-ads.server";
import type { User } from "~/services/accounts/auth.server";
import { aiAds, brandKits, credits, products } from "~/services/index.server";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm, toErrorResponse } from "~/pages/http/http.server";
import { productQuery, QueryError } from "~/domain/products/product-query";

/** Products matching the picker's search, as few as fit on the page. */
async function findProducts(user: User, q: string): Promise<AdProductSummary[]> {
  if (q.trim() === "") return [];
  try {
    const result = await products.search({
      userId: user.id,
      access: researchAccess(user),
      query: productQuery({ q: q.trim(), pageSize: 6 }),
    });
    return result.items.map((p) => ({
      objectID: p.objectID,
      title: p.title,
      image: p.image,
      orders: p.orders,
      priceCents: p.priceCents,
      priceCurrency: p.priceCurrency,
      sample: p.source === "sample",
    }));
  } catch (error) {
    if (error instanceof QueryError) return [];
    throw error;
  }
}

export async function loadAiAdsPage(user: User, request: Request, surface: Surface) {
  const url = new URL(request.url);
  const objectID = url.searchParams.get("product")?.trim().slice(0, 200) ?? "";
  const q = url.searchParams.get("q")?.slice(0, 200) ?? "";
  const [list, balance, selectedProduct, results, kits, previews, sound] = await Promise.all([
    aiAds.list(user.id),
    credits.getBalance(user.id, AI_ADS_FEATURE),
    objectID ? aiAds.productSummary(objectID) : Promise.resolve(null),
    findProducts(user, q),
    brandKits.list(user.id),
    aiAds.previewAllowance(user.id),
    aiAds.sound(),
  ]);
  const paid = paidState(user).paid;
  return {
    ads: surface === "embedded" ? aiAds.withSignedUrls(user.id, list) : list,
    balance,
    cost: aiAds.cost,
    /** Free preview renders left in the current 24 hours (decision 036). */
    previews,
    sizes: aiAds.sizes,
    access: { create: paid, lockedReason: paid ? null : AI_ADS_LOCKED_REASON },
    upsellOpen: aiAdsUpsellOpen(balance, user.aiAdsFirstUse),
    writer: aiAds.writer,
    renderer: aiAds.renderer,
    /** The kits an ad may render with (decision 033); none chosen = the default kit. */
    brandKits: kits.map((k) => ({ id: k.id, name: k.name, isDefault: k.isDefault })),
    /**
     * Sound the rendered video may have here (decisions 062, 067): the speech model and default voice (null: none),
     * the voices a seller may pick (the default first) and the music tracks.
     */
    sound: { voice: sound.voice, voices: sound.voices, musicTracks: sound.musicTracks, musicDir: sound.musicDir },
    picker: {
      q,
      results,
      selected: selectedProduct,
      missing: objectID !== "" && selectedProduct === null ? objectID : null,
    },
  };
}

/** What one of the page's forms gets back. */
export interface AiAdsActionResult {
  ok: boolean;
  message: string;
  /** Save: the message of each field that needs attention ("title", "scenes.2.text" ...). */
  fieldErrors: AdErrors;
  /** Create: the new ad, to open it. */
  adId: number | null;
  /** Render refused for credits, and whether the AI-ads upsell opens. */
  upsell: boolean;
}

const Id = z.coerce.number().int().positive().max(2_147_483_647);

const Form = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("create"),
      objectID: z.string().trim().min(1, "choose a product").max(200),
      brandKitId: z.string().max(12).optional(),
      // A checkbox: "on" when ticked, absent otherwise (decision 085).
      freeShipping: z.string().max(10).optional(),
    }),
    z.object({ intent: z.literal("update"), title: z.string().max(1000) }).passthrough(),
    z.object({ intent: z.literal("render") }),
    z.object({ intent: z.literal("preview") }),
    z.object({ intent: z.literal("delete") }),
  ],
  { error: "intent must be create, update, preview, render or delete." },
);

function result(status: number, ok: boolean, message: string, extra: Partial<AiAdsActionResult> = {}) {
  return data<AiAdsActionResult>({ ok, message, fieldErrors: {}, adId: null, upsell: false, ...extra }, { status });
}

function needsAttention(fieldErrors: AdErrors) {
  const labels = Object.keys(fieldErrors).map(adFieldLabel);
  return result(422, false, `Some fields need attention: ${labels.join(", ")}.`, { fieldErrors });
}

/** The editor's scene fields (text0, seconds0, text1 ...) as an edit; a malformed number is a field error. */
function sceneEdits(raw: Record<string, FormDataEntryValue>) {
  const scenes: { text?: string; durationMs?: number }[] = [];
  const fieldErrors: AdErrors = {};
  for (let i = 0; i < 12 && (`text${i}` in raw || `seconds${i}` in raw); i++) {
    const text = raw[`text${i}`];
    const seconds = raw[`seconds${i}`];
    const scene: { text?: string; durationMs?: number } = {};
    if (typeof text === "string") scene.text = text.slice(0, 1000);
    if (typeof seconds === "string") {
      const n = Number(seconds.trim().replace(",", "."));
      if (seconds.trim() === "" || !Number.isFinite(n)) fieldErrors[`scenes.${i}.durationMs`] = "Enter seconds, like 3 or 2.5.";
      else scene.durationMs = Math.round(n * 10) * 100;
    }
    scenes.push(scene);
  }
  return { scenes, fieldErrors };
}

/** A brand kit id from a form ("" or anything malformed: the default kit; another user's id is refused by the service). */
function kitIdOf(raw: string | undefined): number | null {
  return raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}

/** Create an ad from a product, save an edit, preview or render it, or delete it. */
export async function aiAdsPageAction(request: Request, user: User) {
  const raw = Object.fromEntries(await readForm(request));
  const form = Form.safeParse(raw);
  if (!form.success) {
    const issue = form.error.issues[0];
    const field = String(issue?.path[0] ?? "intent");
    return result(400, false, field === "intent" ? (issue?.message ?? "Unknown action.") : `${field}: ${issue?.message}`);
  }
  const input = form.data;
  try {
    if (input.intent === "create") {
      const ad = await aiAds.create({ user, objectID: input.objectID, brandKitId: kitIdOf(input.brandKitId), freeShipping: input.freeShipping === "on" });
      return result(201, true, "Script written. Edit the scenes, then render the video.", { adId: ad.id });
    }
    // Every other intent names an ad; a malformed id names no ad of anyone's.
    const id = Id.safeParse(raw.id);
    if (!id.success) return result(404, false, "No such AI ad.");
    if (input.intent === "update") {
      const edits = sceneEdits(raw);
      if (Object.keys(edits.fieldErrors).length > 0) return needsAttention(edits.fieldErrors);
      await aiAds.update(user.id, id.data, {
        title: input.title,
        scenes: edits.scenes.length > 0 ? edits.scenes : undefined,
        brandKitId: typeof raw.brandKitId === "string" ? kitIdOf(raw.brandKitId) : undefined,
        format: isAdFormat(raw.format) ? raw.format : undefined,
        // The sound fields are on the form only when the page offers them ("sound" marks it).
        voiceOver: raw.sound === "1" ? raw.voiceOver === "on" : undefined,
        musicTrack: raw.sound === "1" && typeof raw.musicTrack === "string" ? raw.musicTrack.slice(0, 200) || null : undefined,
        // Only with a voice-over (the picker is on the form then); checked against the offered voices by the service.
        voice: raw.sound === "1" && typeof raw.voice === "string" ? raw.voice.slice(0, 60) || null : undefined,
      });
      return result(200, true, "Saved.", { adId: id.data });
    }
    if (input.intent === "preview") {
      const { ad, queued } = await aiAds.preview(user, id.data);
      const message = queued
        ? "Making the free preview: it takes a few seconds."
        : ad.previewVideo?.status === "rendering"
          ? "The preview is already being made."
          : "This preview already shows the saved script.";
      return result(queued ? 202 : 200, true, message, { adId: ad.id });
    }
    if (input.intent === "render") {
      const { ad, queued } = await aiAds.render(user, id.data);
      const message = queued
        ? `Rendering started: ${aiAds.cost} credits spent.`
        : ad.status === "completed"
          ? "This ad is already rendered."
          : "This ad is already rendering.";
      return result(queued ? 202 : 200, true, message, { adId: ad.id });
    }
    await aiAds.remove(user.id, id.data);
    return result(200, true, "Deleted, with its video.");
  } catch (error) {
    const failure = expectedFailure(error);
    const fieldErrors = failure.details.fieldErrors as AdErrors | undefined;
    if (fieldErrors && Object.keys(fieldErrors).length > 0) return needsAttention(fieldErrors);
    return result(failure.status, false, failure.message, { upsell: failure.details.upsell === true });
  }
}

/** An ad id from a URL; anything malformed names no ad of anyone's (404). */
export function parseAdId(raw: string | undefined): number {
  const id = /^[1-9]\d{0,9}$/.test(raw ?? "") ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw toErrorResponse(new AppError(404, "No such AI ad."));
  return id;
}
