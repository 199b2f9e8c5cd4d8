// Brand kit logos (docs/decisions/033): what an upload is, judged from its bytes and never its name or
// declared type (file-type for binary formats, a strict look at the text for SVG), its pixel size
// (image-size), and one PNG we keep. Every logo is redrawn by resvg into a fresh PNG of at most 512 px a
// side: metadata (EXIF, GPS) is dropped, an image that cannot be decoded is caught here and not in a
// render, and what we serve is never SVG (so never a script). resvg reads files named by an SVG's
// <image href>, so an SVG must pass an allow-list first: no DOCTYPE or entities, no script, no
// foreignObject, no event attributes, and every href / url() / @import pointing inside the document
// (#id) or at an inline PNG/JPEG (data:image/png;base64,…). Anything else is refused with the reason.
// Drawing can cost far more than the file's size (decision 040): an SVG is parsed (saxes) and judged by
// app/domain/ai-ads/svg-logo-limits.ts first (no filters, bounded <use> and other copies, elements, nesting, text),
// and every drawing, PNG and JPEG included, happens in a separate process with a time and memory budget
// (logo-drawing.server.ts), never on the server's event loop.
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { KIT_LIMITS } from "~/domain/ai-ads/brand-kits";
import { inlineImages, svgLogoProblem } from "~/domain/ai-ads/svg-logo-limits";
import { drawLogoSvg, LogoDrawError, type DrawingBudget, type DrawnLogo } from "~/integrations/logo-drawing.server";
import { parseSvgLogo } from "~/integrations/svg-parse.server";
import { brandFontFiles } from "~/integrations/video-render.server";

export type { DrawingBudget } from "~/integrations/logo-drawing.server";

export type LogoProblem =
  | "empty"
  | "too-large"
  | "wrong-type"
  | "dimensions"
  | "unsafe-svg"
  | "unreadable"
  | "too-slow"
  | "too-much-memory"
  | "busy";

export class LogoError extends Error {
  constructor(
    readonly problem: LogoProblem,
    message: string,
  ) {
    super(message);
    this.name = "LogoError";
  }
}

export interface Logo {
  /** What was uploaded, from its bytes. */
  source: "png" | "jpeg" | "svg";
  /** What we keep and serve: always a PNG. */
  png: Uint8Array;
  width: number;
  height: number;
}

const kb = (n: number) => `${Math.round(n / 1024)} KB`;

const NAMED_TYPES: Record<string, string> = {
  gif: "a GIF",
  webp: "a WebP image",
  bmp: "a BMP image",
  tif: "a TIFF image",
  ico: "an icon file",
  pdf: "a PDF",
  zip: "a ZIP archive",
  heic: "a HEIC photo",
  avif: "an AVIF image",
};

/** Whether the bytes look like an SVG document: markup with an <svg> element near the start. */
export function looksLikeSvg(text: string): boolean {
  // Lenient on purpose (a DOCTYPE with an internal subset still counts): svgProblem decides what is refused.
  return /^\uFEFF?\s*</.test(text) && /<svg[\s>]/i.test(text);
}

/**
 * Why an SVG is refused, or null: the limits of svg-logo-limits on the parsed document, then the pixel size
 * of each inline image (each is decoded whole when drawn).
 */
export function svgProblem(svg: string): string | null {
  const parsed = parseSvgLogo(svg);
  if ("problem" in parsed) return parsed.problem;
  const problem = svgLogoProblem(parsed.root);
  if (problem) return problem;
  const L = KIT_LIMITS;
  for (const uri of inlineImages(parsed.root)) {
    let size: { width?: number; height?: number };
    try {
      size = imageSize(Buffer.from(uri.slice(uri.indexOf(",") + 1), "base64"));
    } catch {
      return "an image inside it cannot be read";
    }
    if ((size.width ?? 0) > L.logoMaxPx || (size.height ?? 0) > L.logoMaxPx)
      return `an image inside it is ${size.width}x${size.height} pixels; images inside a logo may be at most ${L.logoMaxPx} pixels a side`;
  }
  return null;
}

let fonts: string[] | null = null;

/** Draws an SVG document (or a data-URI image inside one) into a PNG fitted to at most `max` px a side, off the event loop. */
async function rasterise(svg: string, max: number, budget: DrawingBudget): Promise<DrawnLogo> {
  fonts ??= brandFontFiles();
  try {
    return await drawLogoSvg(svg, max, fonts, budget);
  } catch (error) {
    if (error instanceof LogoDrawError) throw new LogoError(error.problem === "no-size" ? "unreadable" : error.problem, error.message);
    throw error;
  }
}

/**
 * Checks an uploaded logo and turns it into the PNG we keep. Throws LogoError with a sentence: empty,
 * larger than 512 KB, not PNG/JPEG/SVG by its bytes, outside 16-4096 px, an SVG that refers outside
 * itself, carries script or breaks the drawing limits (decision 040), bytes that do not decode, or a drawing
 * past its time or memory budget.
 */
export async function inspectLogo(bytes: Uint8Array, budget: DrawingBudget = {}): Promise<Logo> {
  const L = KIT_LIMITS;
  if (bytes.length === 0) throw new LogoError("empty", "The logo file is empty (0 bytes).");
  if (bytes.length > L.logoMaxBytes)
    throw new LogoError("too-large", `The logo is ${kb(bytes.length)}; a logo may be at most ${kb(L.logoMaxBytes)}.`);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.ext === "png" || detected?.ext === "jpg") {
    let size: { width?: number; height?: number };
    try {
      size = imageSize(bytes);
    } catch {
      throw new LogoError("unreadable", "The logo could not be read as an image.");
    }
    const width = size.width ?? 0;
    const height = size.height ?? 0;
    if (width < L.logoMinPx || height < L.logoMinPx || width > L.logoMaxPx || height > L.logoMaxPx)
      throw new LogoError(
        "dimensions",
        `The logo is ${width}x${height} pixels; use one from ${L.logoMinPx} to ${L.logoMaxPx} pixels on each side.`,
      );
    const mime = detected.ext === "png" ? "image/png" : "image/jpeg";
    const wrapper = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:${mime};base64,${Buffer.from(bytes).toString("base64")}"/></svg>`;
    const out = await rasterise(wrapper, L.logoRasterMax, budget);
    if (out.blank) throw new LogoError("unreadable", "The logo could not be decoded (or it is fully transparent).");
    return { source: detected.ext === "png" ? "png" : "jpeg", png: out.png, width: out.width, height: out.height };
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
  if ((!detected || detected.ext === "xml") && looksLikeSvg(text)) {
    let svg: string;
    try {
      svg = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new LogoError("unreadable", "The SVG is not valid UTF-8 text.");
    }
    const problem = svgProblem(svg);
    if (problem) throw new LogoError("unsafe-svg", `This SVG cannot be used as a logo: ${problem}. Export it again as plain shapes, or upload a PNG.`);
    const out = await rasterise(svg, L.logoRasterMax, budget);
    if (out.blank) throw new LogoError("unreadable", "The SVG draws nothing visible.");
    return { source: "svg", png: out.png, width: out.width, height: out.height };
  }
  const named = detected ? (NAMED_TYPES[detected.ext] ?? `a ${detected.ext.toUpperCase()} file`) : null;
  throw new LogoError(
    "wrong-type",
    named ? `The file is ${named}, whatever its name says; upload a PNG, JPEG or SVG.` : "The file is not a PNG, JPEG or SVG image, whatever its name says.",
  );
}
