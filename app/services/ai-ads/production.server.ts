// Turning a saved ad into a stored MP4, for the paid render and the free preview alike: the render spec
// (the product's fetched photo or its category drawing, decision 028; the ad's brand kit or the user's
// default one, decision 033), its sound (decisions 062, 067), the renderer's progress written every few percent,
// and the file stored.
import { createHash } from "node:crypto";
import { parseStringList, type Db } from "~/db.server";
import { brandColour, captionProblem, placeVoice, sizeInFormat, type AdErrors } from "~/domain/ai-ads/ai-ads";
import { wavDurationMs } from "~/domain/ai-ads/wav";
import { AiSpeechError, type AiSpeech } from "~/integrations/ai-speech.server";
import type { FileStorage } from "~/integrations/file-storage.server";
import type { MusicLibrary } from "~/integrations/music-library.server";
import { VideoRenderError, type RenderAudio, type RenderResult, type RenderSpec, type VideoRenderer } from "~/integrations/video-render.server";
import { childLogger } from "~/logger.server";
import { formatOf, productSelect, scenesOf, type AdRow, type ProductRow } from "~/services/ai-ads/model.server";
import type { VideoFiles } from "~/services/ai-ads/video-files.server";
import type { AppliedBrand, BrandKits } from "~/services/ai-ads/brand-kits.server";
import { parseProductImageFile, renderProductSvg } from "~/services/products/images.server";

const log = childLogger("ai-ads");

export type Production = ReturnType<typeof createProduction>;

export type Produced = { ok: true; result: RenderResult } | { ok: false; stage: "render" | "store"; detail: string };

function brandOf(kit: AppliedBrand | null): RenderSpec["brand"] {
  if (!kit) return null;
  const { primaryColour, accentColour, textColour, fontFamily, tagline } = kit.style;
  return { primaryColour, accentColour, textColour, fontFamily, tagline, logoPng: kit.logoPng };
}

export function createProduction(deps: {
  db: Db;
  renderer: VideoRenderer;
  /** The paid render's size and rate (the spec's default). */
  video: { width: number; height: number; fps: number };
  brandKits?: Pick<BrandKits, "applied">;
  productPhotoSvg?: (images: string[]) => Promise<string | null>;
  files: Pick<VideoFiles, "store">;
  /** Where the free preview's spoken hooks are kept once made (voice-clips/, beside the videos). */
  storage?: Pick<FileStorage, "get" | "put">;
  speech?: AiSpeech | null;
  music?: MusicLibrary;
}) {
  const { db } = deps;

  function specFor(row: AdRow, product: ProductRow | null, photoSvg: string | null, kit: AppliedBrand | null): RenderSpec {
    let imageSvg: string | null = photoSvg;
    if (product && !imageSvg) {
      // No fetched photo: the product's category drawing (product-images.server.ts), the picture its page shows.
      const first = parseStringList(product.images)[0] ?? "";
      const n = parseProductImageFile(first.split("/").pop() ?? "")?.n ?? 1;
      imageSvg = renderProductSvg({ objectID: product.objectID, n, title: product.title, niche: product.primaryNiche });
    }
    return {
      ...deps.video,
      brandColour: brandColour(product?.primaryNiche ?? row.productObjectID),
      product: { title: product?.title ?? row.title, imageSvg },
      scenes: scenesOf(row),
      brand: brandOf(kit),
    };
  }

  /**
   * Renders the ad as it is saved at `size` and stores the MP4 under `key`. Progress goes to
   * `writeProgress` every `step` percent. A failure comes back with its stage and a detail for the
   * seller's sentence, never thrown.
   */
  async function produce(
    row: AdRow,
    key: string,
    options: {
      size: { width: number; height: number; fps: number };
      watermark?: string;
      /**
       * "hook": the free preview's sound (decision 067): the voice-over reads the first scene only, made once per
       * model, voice and text and kept, so a seller hears the voice without a call per scene on the operator's
       * speech account; the music as in the render. Default "full": every scene read.
       */
      voice?: "full" | "hook";
      step: number;
      writeProgress: (pct: number) => Promise<unknown>;
      context: Record<string, number>;
    },
  ): Promise<Produced> {
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
    const sound = await soundFor(row, options.voice ?? "full");
    if (!sound.ok) return { ok: false, stage: "render", detail: sound.detail };
    try {
      const photoSvg = product && deps.productPhotoSvg ? await deps.productPhotoSvg(parseStringList(product.images)) : null;
      const kit = (await deps.brandKits?.applied(row.userId, row.brandKitId)) ?? null;
      const spec = {
        ...specFor(row, product, photoSvg, kit),
        ...sizeInFormat(options.size, formatOf(row)),
        watermark: options.watermark ?? null,
        audio: sound.audio,
      };
      result = await deps.renderer.render(spec, { onProgress });
    } catch (error) {
      await writes;
      if (!(error instanceof VideoRenderError)) log.error({ ...options.context, err: error }, "renderer crashed");
      return { ok: false, stage: "render", detail: error instanceof VideoRenderError ? error.message : "the renderer stopped unexpectedly." };
    }
    await writes;
    const stored = await deps.files.store(key, result.bytes, options.context);
    return stored.ok ? { ok: true, result } : { ok: false, stage: "store", detail: stored.detail };
  }

  /**
   * Why the saved script cannot be shown whole on its video at `size` in its shape and with its kit's font, per
   * scene field ("scenes.2.text": a sentence); empty when every caption fits. Asked before a render or preview
   * is paid for or queued: text is never cut to fit.
   */
  async function fitErrors(row: AdRow, size: { width: number; height: number; fps: number }): Promise<AdErrors> {
    const kit = (await deps.brandKits?.applied(row.userId, row.brandKitId)) ?? null;
    const frame = sizeInFormat(size, formatOf(row));
    const fits = deps.renderer.captionFits({ width: frame.width, height: frame.height, scenes: scenesOf(row), brand: brandOf(kit) });
    const errors: AdErrors = {};
    fits.forEach((fit, i) => {
      const problem = captionProblem(fit);
      if (problem) errors[`scenes.${i}.text`] = problem;
    });
    return errors;
  }

  /** What sound ads can have on this server. */
  async function sound(): Promise<{ voice: string | null; voices: string[]; musicTracks: string[]; musicDir: string | null }> {
    return {
      voice: deps.speech?.name ?? null,
      voices: deps.speech ? [...deps.speech.voices] : [],
      musicTracks: (await deps.music?.list()) ?? [],
      musicDir: deps.music?.dir ?? null,
    };
  }

  /** Why the ad's sound settings cannot be rendered on this server (per field), or {} (checked on save and before a render is paid for). */
  async function soundErrors(ad: { voiceOver: boolean; musicTrack: string | null; voice: string | null }): Promise<AdErrors> {
    const errors: AdErrors = {};
    if (ad.voiceOver && !deps.speech)
      errors.voiceOver = "Voice-over is not set up on this server: it needs an AI speech endpoint (AI_BASE_URL and AI_SPEECH_MODEL).";
    if (ad.voiceOver && deps.speech && ad.voice !== null && !deps.speech.voices.includes(ad.voice))
      errors.voice = `There is no voice named "${ad.voice.slice(0, 60)}" here: choose one of ${deps.speech.voices.join(", ")}.`;
    if (ad.musicTrack && !(await deps.music?.pathOf(ad.musicTrack)))
      errors.musicTrack = `There is no music track named "${ad.musicTrack}" on this server now: choose another, or none.`;
    return errors;
  }

  /**
   * The ad's sound for a render: each scene read by the speech endpoint and placed on its scene (sped up a little
   * at most, never cut), and the music bed's file. A failure is a sentence for the ad's failure reasons.
   */
  async function soundFor(row: AdRow, reading: "full" | "hook"): Promise<{ ok: true; audio: RenderAudio | null } | { ok: false; detail: string }> {
    if (!row.voiceOver && !row.musicTrack) return { ok: true, audio: null };
    const problems = Object.values(await soundErrors(row));
    if (problems.length > 0) return { ok: false, detail: problems.join(" ") };
    const all = scenesOf(row);
    const scenes = reading === "hook" ? all.slice(0, 1) : all;
    const wavs: { wav: Uint8Array; durationMs: number }[] = [];
    if (row.voiceOver && deps.speech) {
      const voice = row.voice ?? deps.speech.defaultVoice;
      for (const [i, scene] of scenes.entries()) {
        try {
          wavs.push(reading === "hook" ? await keptClip(deps.speech, scene.text, voice) : await deps.speech.speak(scene.text, { voice }));
        } catch (error) {
          if (!(error instanceof AiSpeechError)) throw error;
          return { ok: false, detail: `the voice-over of scene ${i + 1} could not be made: ${error.message}` };
        }
      }
    }
    const placed = placeVoice(scenes, wavs.map((w) => w.durationMs));
    if (wavs.length > 0 && !placed.ok) return { ok: false, detail: placed.problem };
    const voice = wavs.length > 0 && placed.ok ? wavs.map((w, i) => ({ wav: w.wav, ...placed.clips[i] })) : [];
    const musicPath = row.musicTrack ? await deps.music!.pathOf(row.musicTrack) : null;
    return { ok: true, audio: { voice, musicPath } };
  }

  /**
   * The hook read in `voice`, from the stored clip when this model already read this text in this voice (any seller:
   * the key is a hash of the three), else from the speech endpoint, then stored. A clip that cannot be stored is
   * still used.
   */
  async function keptClip(speech: AiSpeech, text: string, voice: string): Promise<{ wav: Uint8Array; durationMs: number }> {
    const key = `voice-clips/${createHash("sha256").update(JSON.stringify([speech.model, voice, text])).digest("hex")}.wav`;
    const kept = await deps.storage?.get(key);
    const keptMs = kept ? wavDurationMs(kept) : null;
    if (kept && keptMs !== null) return { wav: new Uint8Array(kept), durationMs: keptMs };
    const spoken = await speech.speak(text, { voice });
    await deps.storage?.put(key, spoken.wav).catch((error: unknown) => log.warn({ err: error, key }, "voice clip not kept"));
    return spoken;
  }

  return { produce, fitErrors, soundErrors, sound };
}
