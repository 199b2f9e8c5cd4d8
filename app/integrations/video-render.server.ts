// The built-in video renderer (docs/decisions/019): each frame of an ad is an SVG (the product's
// picture, the scene's text with a simple enter animation, a brand-colour bar that fills as the ad
// plays), rasterised by resvg (@resvg/resvg-js, prebuilt N-API binary) with the DejaVu fonts of the
// dejavu-fonts-ttf package (system fonts are never loaded, so a bare machine renders the same
// pixels), and encoded to H.264 in an MP4 by h264-mp4-encoder (x264 compiled to WebAssembly). No
// ffmpeg, no network. A hosted provider would implement the same VideoRenderer interface.
import { createRequire } from "node:module";
import path from "node:path";
import type { ResvgRenderOptions } from "@resvg/resvg-js";
import { sceneFrames, wrapLines, type AdScene } from "~/domain/ai-ads";
import { escapeHtml } from "~/domain/product-page";

// Both are CommonJS (a native addon, a WebAssembly bundle): loaded with require so neither Vite nor
// Node's ESM named-export detection has to understand them; they stay outside the server build.
const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
const HME = require("h264-mp4-encoder") as typeof import("h264-mp4-encoder");

export interface RenderSpec {
  /** Even numbers (H.264 works on 2x2 chroma blocks); 540x960 (9:16) by default. */
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

export const DEFAULT_VIDEO = { width: 540, height: 960, fps: 15 } as const;

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

/** How the text of a scene is laid out: bigger for short texts, never wider than the frame. */
export function textLayout(text: string, width: number) {
  const s = width / 540;
  for (const fontSize of [46, 40, 34]) {
    // DejaVu Sans Bold averages ~0.62 em per character; keep 40 px margins at 540 wide.
    const maxChars = Math.floor((width - 80 * s) / (fontSize * s * 0.62));
    const lines = wrapLines(text, maxChars);
    if (lines.length <= 4 || fontSize === 34) return { fontSize: n1(fontSize * s), lines, maxChars };
  }
  throw new Error("unreachable");
}

/**
 * One frame: scene `index` at `intoMs` into it, `atMs` into the whole ad of `totalMs`. Text and picture
 * enter over the first 450 ms of each scene (slide up and fade in; the picture grows into place).
 */
export function frameSvg(spec: RenderSpec, index: number, intoMs: number, atMs: number, totalMs: number): string {
  const { width: W, height: H, brandColour } = spec;
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
    `<rect class="brand-bar-progress" x="0" y="0" width="${n1((W * Math.min(atMs, totalMs)) / totalMs)}" height="${barH}" fill="${brandColour}"/>`,
  );
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
  // The scene's text, in white on a dark panel; the call to action sits on a brand-colour button.
  const { fontSize, lines } = textLayout(scene.text, W);
  const lineH = fontSize * 1.25;
  const blockH = lines.length * lineH;
  const top = 600 * s + (1 - enter) * 40 * s;
  const panelFill = scene.kind === "cta" ? brandColour : "#000000";
  const panelOpacity = scene.kind === "cta" ? 1 : 0.45;
  parts.push(
    `<g class="scene-text" opacity="${n1(enter)}">`,
    `<rect x="${n1(24 * s)}" y="${n1(top - 24 * s)}" width="${n1(W - 48 * s)}" height="${n1(blockH + 48 * s)}" rx="${n1(22 * s)}" fill="${panelFill}" opacity="${panelOpacity}"/>`,
    ...lines.map(
      (line, i) =>
        `<text x="${n1(W / 2)}" y="${n1(top + lineH * i + fontSize)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${fontSize}" fill="#ffffff">${escapeHtml(line)}</text>`,
    ),
    `</g>`,
  );
  // The product's name at the bottom, and which scene this is.
  parts.push(
    `<text x="${n1(W / 2)}" y="${n1(H - 48 * s)}" text-anchor="middle" font-family="DejaVu Sans" font-size="${n1(22 * s)}" fill="#d1d5db">${escapeHtml(spec.product.title.slice(0, 40))}</text>`,
    `<rect x="${n1(W / 2 - 60 * s)}" y="${n1(H - 30 * s)}" width="${n1(120 * s)}" height="${n1(6 * s)}" rx="${n1(3 * s)}" fill="${brandColour}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
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

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createBuiltInRenderer(options: { fontFiles?: string[]; quantizationParameter?: number } = {}): VideoRenderer {
  const fontFiles = options.fontFiles ?? dejavuFontFiles();
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
        for (let i = 0; i < frames.length; i++) {
          if (signal?.aborted) throw new VideoRenderError("The render was stopped.");
          const f = frames[i];
          const image = new Resvg(frameSvg(spec, f.index, f.intoMs, f.atMs, totalMs), resvgOptions).render();
          if (image.width !== spec.width || image.height !== spec.height)
            throw new VideoRenderError(`A frame came out ${image.width}x${image.height} instead of ${spec.width}x${spec.height}.`);
          encoder.addFrameRgba(image.pixels);
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
