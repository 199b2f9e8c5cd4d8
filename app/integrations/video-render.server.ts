// The built-in video renderer (docs/decisions/019): each frame of an ad is an SVG (the product's
// picture, the scene's text with a simple enter animation, a brand-colour bar that fills as the ad
// plays), rasterised by resvg (@resvg/resvg-js, prebuilt N-API binary) with the DejaVu fonts of the
// dejavu-fonts-ttf package (system fonts are never loaded, so a bare machine renders the same
// pixels), and encoded to H.264 in an MP4 by h264-mp4-encoder (x264 compiled to WebAssembly). No
// ffmpeg, no network. A hosted provider would implement the same VideoRenderer interface.
import { createRequire } from "node:module";
import path from "node:path";
import type { ResvgRenderOptions } from "@resvg/resvg-js";
import { fitCaption, sceneFrames, type AdScene, type CaptionFit } from "~/domain/ai-ads";
import { fontMetrics } from "~/integrations/font-metrics.server";
import { escapeHtml } from "~/domain/product-page";

// Both are CommonJS (a native addon, a WebAssembly bundle): loaded with require so neither Vite nor
// Node's ESM named-export detection has to understand them; they stay outside the server build.
const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
const HME = require("h264-mp4-encoder") as typeof import("h264-mp4-encoder");

export interface RenderSpec {
  /** Even numbers (H.264 works on 2x2 chroma blocks); 1080x1920 (9:16) by default. */
  width: number;
  height: number;
  fps: number;
  /** e.g. "#0b6e4f": the top bar and the call-to-action button. */
  brandColour: string;
  product: {
    title: string;
    /** A standalone SVG document (the product's generated picture), drawn above the text. */
    imageSvg: string | null;
  };
  scenes: AdScene[];
  /** The brand kit applied (docs/decisions/033): colours on panels and buttons, font on captions, logo and tagline on the end card. */
  brand?: RenderBrand | null;
}

export interface RenderBrand {
  /** Caption panels and the progress bar. */
  primaryColour: string;
  /** The call-to-action button. */
  accentColour: string;
  /** Captions drawn on the two colours. */
  textColour: string;
  /** A family of BRAND_FONTS ("DejaVu Serif"); bold is used for captions. */
  fontFamily: string;
  tagline: string;
  /** PNG bytes (a kit's logo is always stored as PNG), drawn on the end card. */
  logoPng: Uint8Array | null;
}

export interface RenderResult {
  bytes: Uint8Array;
  durationMs: number;
  width: number;
  height: number;
  frames: number;
}

export interface RenderOptions {
  /** Called after each frame with the share done, 0 < fraction <= 1 (1 once the MP4 is complete). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface VideoRenderer {
  /** Who renders, for logs and the decision record ("built-in renderer"). */
  readonly name: string;
  render(spec: RenderSpec, options?: RenderOptions): Promise<RenderResult>;
}

export class VideoRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VideoRenderError";
  }
}

/** The paid render: full HD 9:16 at 30 fps (docs/decisions/033). */
export const DEFAULT_VIDEO = { width: 1080, height: 1920, fps: 30 } as const;
/** The small size: 540x960 at 15 fps (about 8 times less work). */
export const PREVIEW_VIDEO = { width: 540, height: 960, fps: 15 } as const;

// ---- Frame layout (pure: a frame's SVG from the spec and the moment) -------------------------------

/** An SVG document drawn inside another at (x, y, size x size), with its ids made unique. */
export function nestSvg(svg: string, box: { x: number; y: number; size: number }, idPrefix: string): string {
  const open = /^\s*(?:<\?xml[^>]*>\s*)?<svg\b([^>]*)>/i.exec(svg);
  if (!open || !/<\/svg>\s*$/i.test(svg)) return "";
  const viewBox = /viewBox="([^"]+)"/.exec(open[1])?.[1] ?? "0 0 400 400";
  const body = svg
    .slice(open[0].length)
    .replace(/<\/svg>\s*$/i, "")
    .replace(/<script[\s\S]*?<\/script>/gi, "")
    .replace(/\bid="([^"]+)"/g, `id="${idPrefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${idPrefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${idPrefix}$1"`);
  return `<svg x="${box.x}" y="${box.y}" width="${box.size}" height="${box.size}" viewBox="${viewBox}">${body}</svg>`;
}

const easeOut = (t: number) => 1 - (1 - Math.min(1, Math.max(0, t))) ** 3;
const n1 = (v: number) => Math.round(v * 10) / 10;

/** The bold font file of a family the renderer ships (DejaVu Sans for an unknown family). */
export function boldFontFile(family: string): string {
  const dir = path.dirname(dejavuFontFiles()[0]);
  const stem = { "DejaVu Serif": "DejaVuSerif", "DejaVu Sans Condensed": "DejaVuSansCondensed", "DejaVu Sans Mono": "DejaVuSansMono" }[family] ?? "DejaVuSans";
  return path.join(dir, `${stem}-Bold.ttf`);
}

const layouts = new Map<string, CaptionFit & { maxChars: number; panelWidth: number; padding: number }>();

/**
 * How the text of a scene is laid out on its panel: measured with the caption font's own advance widths
 * (font-metrics.server.ts), wrapped to the panel's inner width, at the largest size whose lines also fit
 * the panel's height; never wider than the panel (a word too long for a line is split).
 */
export function textLayout(text: string, width: number, fontFamily = "DejaVu Sans") {
  const key = `${width}|${fontFamily}|${text}`;
  const known = layouts.get(key);
  if (known) return known;
  const s = width / 540;
  const metrics = fontMetrics(boldFontFile(fontFamily));
  const panelWidth = width - 48 * s;
  const padding = 26 * s;
  const fit = fitCaption(
    text,
    {
      // 3% kept back for kerning and rounding, which the advance widths do not include.
      maxWidth: (panelWidth - 2 * padding) * 0.97,
      maxHeight: 250 * s,
      sizes: [46, 42, 38, 34, 30, 27, 24].map((px) => n1(px * s)),
      lineHeight: 1.25,
    },
    (line, size) => metrics.width(line, size),
  );
  const out = { ...fit, maxChars: Math.max(...fit.lines.map((l) => l.length), 1), panelWidth, padding };
  if (layouts.size > 500) layouts.clear();
  layouts.set(key, out);
  return out;
}

/**
 * One frame: scene `index` at `intoMs` into it, `atMs` into the whole ad of `totalMs`. Text and picture
 * enter over the first 450 ms of each scene (slide up and fade in; the picture grows into place).
 */
export function frameSvg(
  spec: RenderSpec,
  index: number,
  intoMs: number,
  atMs: number,
  totalMs: number,
  options: { progress?: boolean } = {},
): string {
  const { width: W, height: H } = spec;
  const brand = spec.brand ?? null;
  // With a kit: its primary colour on the bar and panels, its accent on the call to action.
  const brandColour = brand?.primaryColour ?? spec.brandColour;
  const s = W / 540;
  const scene = spec.scenes[index];
  const enter = easeOut(intoMs / 450);
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="ad-bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#111827"/><stop offset="1" stop-color="#1f2937"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#ad-bg)"/>`,
  );
  // The brand bar: its colour at the top, filling left to right as the ad plays.
  const barH = n1(14 * s);
  parts.push(
    `<rect class="brand-bar" x="0" y="0" width="${W}" height="${barH}" fill="${brandColour}" opacity="0.35"/>`,
  );
  // The renderer paints the filled part itself on a frame it reuses (progress: false).
  if (options.progress !== false)
    parts.push(`<rect class="brand-bar-progress" x="0" y="0" width="${progressWidth(W, atMs, totalMs)}" height="${barH}" fill="${brandColour}"/>`);
  // The product picture, bigger on the product scene.
  if (spec.product.imageSvg) {
    const size = (scene.kind === "product" ? 420 : 360) * s * (0.9 + 0.1 * enter);
    const nested = nestSvg(
      spec.product.imageSvg,
      { x: n1((W - size) / 2), y: n1(90 * s + (420 * s - size) / 2), size: n1(size) },
      "product-",
    );
    if (nested) parts.push(`<g class="product-image" opacity="${n1(0.4 + 0.6 * enter)}">${nested}</g>`);
  }
  // The scene's text on a panel (white on dark, or the kit's text colour on its primary colour); the call to
  // action sits on a button in the brand (or the kit's accent) colour. The text is measured to fit the panel.
  const fontFamily = brand?.fontFamily ?? "DejaVu Sans";
  const { fontSize, lines } = textLayout(scene.text, W, fontFamily);
  const lineH = fontSize * 1.25;
  const blockH = lines.length * lineH;
  const top = 600 * s + (1 - enter) * 40 * s;
  const cta = scene.kind === "cta";
  const panelFill = cta ? (brand?.accentColour ?? brandColour) : (brand?.primaryColour ?? "#000000");
  const panelOpacity = cta ? 1 : brand ? 0.92 : 0.45;
  const textFill = brand?.textColour ?? "#ffffff";
  parts.push(
    `<g class="scene-text" opacity="${n1(enter)}">`,
    `<rect class="caption-panel" x="${n1(24 * s)}" y="${n1(top - 24 * s)}" width="${n1(W - 48 * s)}" height="${n1(blockH + 48 * s)}" rx="${n1(22 * s)}" fill="${panelFill}" opacity="${panelOpacity}"/>`,
    ...lines.map(
      (line, i) =>
        `<text x="${n1(W / 2)}" y="${n1(top + lineH * i + fontSize)}" text-anchor="middle" font-family="${escapeHtml(fontFamily)}" font-weight="bold" font-size="${fontSize}" fill="${textFill}">${escapeHtml(line)}</text>`,
    ),
    `</g>`,
  );
  // The end card: the kit's logo above the picture and its tagline under the button.
  if (cta && brand?.logoPng) {
    const href = `data:image/png;base64,${Buffer.from(brand.logoPng).toString("base64")}`;
    parts.push(
      `<image class="brand-logo" x="${n1(W / 2 - 140 * s)}" y="${n1(24 * s)}" width="${n1(280 * s)}" height="${n1(88 * s)}" preserveAspectRatio="xMidYMid meet" opacity="${n1(enter)}" href="${href}"/>`,
    );
  }
  if (cta && brand?.tagline) {
    const size = taglineSize(brand.tagline, W, fontFamily);
    parts.push(
      `<text class="brand-tagline" x="${n1(W / 2)}" y="${n1(top + blockH + 24 * s + 44 * s)}" text-anchor="middle" font-family="${escapeHtml(fontFamily)}" font-size="${size}" fill="#e5e7eb" opacity="${n1(enter)}">${escapeHtml(brand.tagline)}</text>`,
    );
  }
  // The product's name at the bottom, and which scene this is.
  parts.push(
    `<text x="${n1(W / 2)}" y="${n1(H - 48 * s)}" text-anchor="middle" font-family="DejaVu Sans" font-size="${n1(22 * s)}" fill="#d1d5db">${escapeHtml(spec.product.title.slice(0, 40))}</text>`,
    `<rect x="${n1(W / 2 - 60 * s)}" y="${n1(H - 30 * s)}" width="${n1(120 * s)}" height="${n1(6 * s)}" rx="${n1(3 * s)}" fill="${brand?.accentColour ?? brandColour}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
}

/** The filled width of the progress bar at `atMs`. */
export function progressWidth(width: number, atMs: number, totalMs: number): number {
  return n1((width * Math.min(atMs, totalMs)) / totalMs);
}

/** The tagline's size: 24 px at 540 wide, smaller until it fits on one line inside the frame's margins. */
function taglineSize(tagline: string, W: number, fontFamily: string): number {
  const s = W / 540;
  const regular = fontMetrics(boldFontFile(fontFamily).replace("-Bold.ttf", ".ttf"));
  for (const px of [24, 21, 18, 16, 14, 12]) if (regular.width(tagline, px * s) <= (W - 80 * s) * 0.97) return n1(px * s);
  return n1(12 * s);
}

/** Every frame's (scene, time into it, time into the ad), in order. */
export function frameTimeline(spec: Pick<RenderSpec, "fps" | "scenes">) {
  const out: { index: number; intoMs: number; atMs: number }[] = [];
  let startMs = 0;
  spec.scenes.forEach((scene, index) => {
    const frames = sceneFrames(scene.durationMs, spec.fps);
    for (let f = 0; f < frames; f++) out.push({ index, intoMs: (f * 1000) / spec.fps, atMs: startMs + (f * 1000) / spec.fps });
    startMs += (frames * 1000) / spec.fps;
  });
  return { frames: out, totalMs: startMs };
}

// ---- Rasterising and encoding ------------------------------------------------------------------------

/** The DejaVu fonts of the dejavu-fonts-ttf package, found through Node's resolution (works in the build). */
export function dejavuFontFiles(): string[] {
  const dir = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
  return [path.join(dir, "DejaVuSans.ttf"), path.join(dir, "DejaVuSans-Bold.ttf")];
}

/** Regular and bold of every family a brand kit may choose (BRAND_FONTS), the DejaVu Sans pair first. */
export function brandFontFiles(): string[] {
  const dir = path.dirname(dejavuFontFiles()[0]);
  const more = ["DejaVuSansCondensed", "DejaVuSerif", "DejaVuSansMono"].flatMap((f) => [`${f}.ttf`, `${f}-Bold.ttf`]);
  return [...dejavuFontFiles(), ...more.map((f) => path.join(dir, f))];
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

// ---- YUV (BT.601 limited range, as the encoder's own RGBA path) ---------------------------------------------

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** A colour "#rrggbb" as Y, U, V. */
export function yuvOf(hex: string): [number, number, number] {
  const h = /^#[0-9a-f]{6}$/i.test(hex) ? hex : "#000000";
  const r = parseInt(h.slice(1, 3), 16);
  const g = parseInt(h.slice(3, 5), 16);
  const b = parseInt(h.slice(5, 7), 16);
  return [
    clamp8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16),
    clamp8(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128),
    clamp8(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128),
  ];
}

/** RGBA pixels (opaque frames) into an I420 buffer: a full-size Y plane, then U and V at half size each way. */
export function rgbaToI420(px: Uint8Array, w: number, h: number, out: Uint8Array): void {
  const uOff = w * h;
  const vOff = uOff + (w * h) / 4;
  for (let y = 0; y < h; y++) {
    let i = y * w * 4;
    let o = y * w;
    for (let x = 0; x < w; x++, i += 4) out[o++] = ((66 * px[i] + 129 * px[i + 1] + 25 * px[i + 2] + 128) >> 8) + 16;
  }
  const cw = w / 2;
  for (let y = 0; y < h; y += 2) {
    const row = (y / 2) * cw;
    for (let x = 0; x < w; x += 2) {
      // The average of the 2x2 block.
      const a = (y * w + x) * 4;
      const b = a + w * 4;
      const r = (px[a] + px[a + 4] + px[b] + px[b + 4]) >> 2;
      const g = (px[a + 1] + px[a + 5] + px[b + 1] + px[b + 5]) >> 2;
      const bl = (px[a + 2] + px[a + 6] + px[b + 2] + px[b + 6]) >> 2;
      const j = row + x / 2;
      out[uOff + j] = clamp8(((-38 * r - 74 * g + 112 * bl + 128) >> 8) + 128);
      out[vOff + j] = clamp8(((112 * r - 94 * g - 18 * bl + 128) >> 8) + 128);
    }
  }
}

/** Paints the filled part of the progress bar (top `barH` rows, `filled` px wide) into an I420 frame. */
export function paintBarI420(out: Uint8Array, w: number, h: number, filled: number, barH: number, [Y, U, V]: [number, number, number]): void {
  const fw = Math.min(w, Math.round(filled));
  if (fw <= 0 || barH <= 0) return;
  for (let y = 0; y < barH; y++) out.fill(Y, y * w, y * w + fw);
  const uOff = w * h;
  const vOff = uOff + (w * h) / 4;
  const cw = w / 2;
  const cf = Math.floor(fw / 2);
  for (let y = 0; y < Math.floor(barH / 2); y++) {
    out.fill(U, uOff + y * cw, uOff + y * cw + cf);
    out.fill(V, vOff + y * cw, vOff + y * cw + cf);
  }
}

export function createBuiltInRenderer(options: { fontFiles?: string[]; quantizationParameter?: number } = {}): VideoRenderer {
  // Every family a brand kit may choose (captions are drawn in the kit's font).
  const fontFiles = options.fontFiles ?? brandFontFiles();
  const resvgOptions: ResvgRenderOptions = {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false, fontFiles, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  };
  return {
    name: "built-in renderer",
    async render(spec, { onProgress, signal } = {}) {
      if (spec.width % 2 !== 0 || spec.height % 2 !== 0 || spec.width < 16 || spec.height < 16)
        throw new VideoRenderError(`The video size must be even and at least 16x16 (was ${spec.width}x${spec.height}).`);
      if (spec.scenes.length === 0) throw new VideoRenderError("The ad has no scenes to render.");
      const { frames, totalMs } = frameTimeline(spec);
      let encoder: Awaited<ReturnType<typeof HME.createH264MP4Encoder>>;
      try {
        encoder = await HME.createH264MP4Encoder();
      } catch (error) {
        throw new VideoRenderError(`The video encoder could not start: ${(error as Error).message}`);
      }
      try {
        encoder.width = spec.width;
        encoder.height = spec.height;
        encoder.frameRate = spec.fps;
        encoder.quantizationParameter = options.quantizationParameter ?? 28;
        encoder.speed = 10;
        encoder.initialize();
        const yuv = new Uint8Array((spec.width * spec.height * 3) / 2);
        const barHeight = Math.min(spec.height, Math.round((14 * spec.width) / 540));
        const barYuv = yuvOf(spec.brand?.primaryColour ?? spec.brandColour);
        let baseKey = "";
        for (let i = 0; i < frames.length; i++) {
          if (signal?.aborted) throw new VideoRenderError("The render was stopped.");
          const f = frames[i];
          // After a scene's 450 ms entrance its frames differ only in the progress bar: the scene is drawn
          // once (without the bar's filled part), converted to YUV once, and the bar is painted per frame.
          const key = f.intoMs < 450 ? `${f.index}:${f.intoMs}` : `${f.index}:still`;
          if (key !== baseKey) {
            const image = new Resvg(frameSvg(spec, f.index, f.intoMs, f.atMs, totalMs, { progress: false }), resvgOptions).render();
            if (image.width !== spec.width || image.height !== spec.height)
              throw new VideoRenderError(`A frame came out ${image.width}x${image.height} instead of ${spec.width}x${spec.height}.`);
            rgbaToI420(image.pixels, spec.width, spec.height, yuv);
            baseKey = key;
          }
          paintBarI420(yuv, spec.width, spec.height, progressWidth(spec.width, f.atMs, totalMs), barHeight, barYuv);
          encoder.addFrameYuv(yuv);
          // The last share is for finishing the file.
          onProgress?.(((i + 1) / frames.length) * 0.98);
          // Rendering is synchronous work: let the server answer requests between frames.
          await yieldToEventLoop();
        }
        encoder.finalize();
        const bytes = encoder.FS.readFile(encoder.outputFilename);
        onProgress?.(1);
        return { bytes, durationMs: Math.round(totalMs), width: spec.width, height: spec.height, frames: frames.length };
      } finally {
        try {
          encoder.delete();
        } catch {
          // An encoder stopped before finalize() cannot always be freed cleanly; it is dropped with its memory.
        }
      }
    },
  };
}
