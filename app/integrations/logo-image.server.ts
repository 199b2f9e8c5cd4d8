// Brand kit logos (docs/decisions/033): what an upload is, judged from its bytes and never its name or
// declared type (file-type for binary formats, a strict look at the text for SVG), its pixel size
// (image-size), and one PNG we keep. Every logo is redrawn by resvg into a fresh PNG of at most 512 px a
// side: metadata (EXIF, GPS) is dropped, an image that cannot be decoded is caught here and not in a
// render, and what we serve is never SVG (so never a script). resvg reads files named by an SVG's
// <image href>, so an SVG must pass an allow-list first: no DOCTYPE or entities, no script, no
// foreignObject, no event attributes, and every href / url() / @import pointing inside the document
// (#id) or at an inline PNG/JPEG (data:image/png;base64,…). Anything else is refused with the reason.
import { createRequire } from "node:module";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { KIT_LIMITS } from "~/domain/brand-kits";
import { brandFontFiles } from "~/integrations/video-render.server";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

export type LogoProblem = "empty" | "too-large" | "wrong-type" | "dimensions" | "unsafe-svg" | "unreadable";

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

/** Why an SVG is refused, or null when it only refers to itself and inline PNG/JPEG images. */
export function svgProblem(svg: string): string | null {
  if (/<!DOCTYPE|<!ENTITY/i.test(svg)) return "it declares a DOCTYPE or entities";
  if (/<script[\s>/]/i.test(svg)) return "it contains a script";
  if (/<foreignObject[\s>/]/i.test(svg)) return "it contains a foreignObject (HTML inside the SVG)";
  if (/<(iframe|embed|object)[\s>/]/i.test(svg)) return "it embeds other documents";
  if (/\son[a-z]+\s*=/i.test(svg)) return "it has event handler attributes (onload, onclick, …)";
  const inline = /^(#[^\s"']*|data:image\/(png|jpeg);base64,[A-Za-z0-9+/=\s]*)$/i;
  for (const m of svg.matchAll(/\b(?:xlink:)?href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    const value = (m[1] ?? m[2] ?? "").trim();
    if (!inline.test(value)) return `it refers to something outside the file (${value.slice(0, 60) || "an empty link"})`;
  }
  for (const m of svg.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
    const value = (m[1] ?? m[2] ?? m[3] ?? "").trim();
    if (!inline.test(value)) return `it refers to something outside the file (url(${value.slice(0, 60)}))`;
  }
  if (/@import/i.test(svg)) return "its style imports another file";
  return null;
}

let fonts: string[] | null = null;

/** Draws an SVG document (or a data-URI image inside one) into a PNG fitted to at most `max` px a side. */
function rasterise(svg: string, max: number): { png: Uint8Array; width: number; height: number; blank: boolean } {
  fonts ??= brandFontFiles();
  const probe = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: "DejaVu Sans" } });
  const w = probe.width;
  const h = probe.height;
  if (!(w > 0 && h > 0)) throw new LogoError("unreadable", "The SVG has no size: give its <svg> a width and height or a viewBox.");
  const fit = w >= h ? { mode: "width" as const, value: Math.min(max, Math.round(w)) } : { mode: "height" as const, value: Math.min(max, Math.round(h)) };
  const image = new Resvg(svg, {
    fitTo: fit,
    font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: "DejaVu Sans" },
  }).render();
  const pixels = image.pixels;
  let blank = true;
  for (let i = 3; i < pixels.length; i += 4) {
    if (pixels[i] !== 0) {
      blank = false;
      break;
    }
  }
  return { png: image.asPng(), width: image.width, height: image.height, blank };
}

/**
 * Checks an uploaded logo and turns it into the PNG we keep. Throws LogoError with a sentence: empty,
 * larger than 512 KB, not PNG/JPEG/SVG by its bytes, outside 16-4096 px, an SVG that refers outside
 * itself or carries script, or bytes that do not decode.
 */
export async function inspectLogo(bytes: Uint8Array): Promise<Logo> {
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
    const out = rasterise(wrapper, L.logoRasterMax);
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
    let out;
    try {
      out = rasterise(svg, L.logoRasterMax);
    } catch (error) {
      if (error instanceof LogoError) throw error;
      throw new LogoError("unreadable", `The SVG could not be read: ${(error as Error).message.split("\n")[0].slice(0, 120)}`);
    }
    if (out.blank) throw new LogoError("unreadable", "The SVG draws nothing visible.");
    return { source: "svg", png: out.png, width: out.width, height: out.height };
  }
  const named = detected ? (NAMED_TYPES[detected.ext] ?? `a ${detected.ext.toUpperCase()} file`) : null;
  throw new LogoError(
    "wrong-type",
    named ? `The file is ${named}, whatever its name says; upload a PNG, JPEG or SVG.` : "The file is not a PNG, JPEG or SVG image, whatever its name says.",
  );
}
