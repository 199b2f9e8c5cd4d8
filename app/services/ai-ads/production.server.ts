// Turning a saved ad into a stored MP4, for the paid render and the free preview alike: the render spec
// (the product's fetched photo or its category drawing, decision 028; the ad's brand kit or the user's
// default one, decision 033), the renderer's progress written every few percent, and the file stored.
import { parseStringList, type Db } from "~/db.server";
import { brandColour, captionProblem, sizeInFormat, type AdErrors } from "~/domain/ai-ads";
import { VideoRenderError, type RenderResult, type RenderSpec, type VideoRenderer } from "~/integrations/video-render.server";
import { childLogger } from "~/logger.server";
import { formatOf, productSelect, scenesOf, type AdRow, type ProductRow } from "~/services/ai-ads/model.server";
import type { VideoFiles } from "~/services/ai-ads/video-files.server";
import type { AppliedBrand, BrandKits } from "~/services/brand-kits.server";
import { parseProductImageFile, renderProductSvg } from "~/services/product-images.server";

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
    try {
      const photoSvg = product && deps.productPhotoSvg ? await deps.productPhotoSvg(parseStringList(product.images)) : null;
      const kit = (await deps.brandKits?.applied(row.userId, row.brandKitId)) ?? null;
      const spec = { ...specFor(row, product, photoSvg, kit), ...sizeInFormat(options.size, formatOf(row)), watermark: options.watermark ?? null };
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

  return { produce, fitErrors };
}
