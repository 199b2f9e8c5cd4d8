// The frames of an AI ad (docs/decisions/019, 033, 062): where each part of a frame goes for the frame's shape,
// captions laid out with the font's own metrics (and why one cannot be shown whole), the product's name at the
// foot, the end card in the kit's colours, and each frame's SVG for a moment of the ad; plus the fonts the
// renderer ships. Pure but for reading the font files; video-render.server.ts rasterises and encodes these frames.
import { createRequire } from "node:module";
import path from "node:path";
import { adShortName } from "~/domain/ai-ads/ad-writing";
import { fitCaption, sceneFrames, wrapByWidth, type CaptionFit } from "~/domain/ai-ads/ai-ads";
import { escapeHtml, squish } from "~/domain/product-pages/product-page";
import { fontMetrics } from "~/integrations/font-metrics.server";
import type { RenderSpec } from "~/domain/ai-ads/render-spec";

const require = createRequire(import.meta.url);

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
 * Where a frame's parts go, in units of a 540-wide frame (multiply by `s`), by the frame's shape: the 9:16
 * layout (decision 033), and shorter ones for 4:5 and 1:1 (decision 062) with a smaller picture and a
 * shorter caption panel, so nothing overlaps.
 */
export function frameLayout(width: number, height: number) {
  const s = width / 540;
  const u = height / s;
  const common = { s, units: u, logoHeight: Math.min(88, u * 0.092) };
  if (u >= 900) return { ...common, imageTop: 90, imageBig: 420, imageSmall: 360, textTop: 600, textMaxH: 250, footerY: u - 48, dashY: u - 30 };
  if (u >= 640) return { ...common, imageTop: 46, imageBig: 280, imageSmall: 240, textTop: 350, textMaxH: 180, footerY: u - 44, dashY: u - 26 };
  return { ...common, imageTop: 34, imageBig: 200, imageSmall: 172, textTop: 262, textMaxH: 140, footerY: u - 40, dashY: u - 22 };
}

/**
 * How the text of a scene is laid out on its panel: measured with the caption font's own advance widths
 * (font-metrics.server.ts), wrapped to the panel's inner width, at the largest size whose lines also fit
 * the panel's height with every word whole; when none does, `captionProblem` (domain) says why, and a
 * render is refused before it is paid for (text is never cut).
 */
export function textLayout(text: string, width: number, fontFamily = "DejaVu Sans", height = (width * 16) / 9) {
  const key = `${width}|${height}|${fontFamily}|${text}`;
  const known = layouts.get(key);
  if (known) return known;
  const { s, textMaxH } = frameLayout(width, height);
  const metrics = fontMetrics(boldFontFile(fontFamily));
  const panelWidth = width - 48 * s;
  const padding = 26 * s;
  const fit = fitCaption(
    text,
    {
      // 3% kept back for kerning and rounding, which the advance widths do not include.
      maxWidth: (panelWidth - 2 * padding) * 0.97,
      maxHeight: textMaxH * s,
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

/** Each scene's caption laid out on the frame of `spec` (its size and its kit's font), for the fit check before a render. */
export function sceneCaptionFits(spec: Pick<RenderSpec, "width" | "height" | "scenes" | "brand">): CaptionFit[] {
  return spec.scenes.map((scene) => textLayout(scene.text, spec.width, spec.brand?.fontFamily ?? "DejaVu Sans", spec.height));
}

/**
 * The product's name at the foot of the frame, whole: one line at the largest of 22-16 px (at 540 wide) that
 * fits, else wrapped on two lines at 16 px; a name that needs more than two lines is shown by its short form
 * (the words before a comma or dash, at most 32 characters), which always fits. Never cut mid-word.
 */
export function footerLines(title: string, width: number): { size: number; lines: string[] } {
  const s = width / 540;
  const regular = fontMetrics(boldFontFile("DejaVu Sans").replace("-Bold.ttf", ".ttf"));
  const maxWidth = (width - 64 * s) * 0.97;
  for (const name of [squish(title), adShortName(title)]) {
    for (const px of [22, 20, 18, 16]) if (regular.width(name, px * s) <= maxWidth) return { size: n1(px * s), lines: [name] };
    const lines = wrapByWidth(name, maxWidth, (l) => regular.width(l, 16 * s));
    if (lines.length <= 2 && !name.split(" ").some((w) => regular.width(w, 16 * s) > maxWidth)) return { size: n1(16 * s), lines };
  }
  return { size: n1(14 * s), lines: wrapByWidth(adShortName(title), maxWidth, (l) => regular.width(l, 14 * s)).slice(0, 2) };
}

/** A colour made darker (share 0-1 of its brightness kept), for the end card's background in the kit's colour. */
function darker(hex: string, keep: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return "#111827";
  const n = parseInt(m[1], 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(v * keep));
  return `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

// ---- Where a frame's parts go (decision 085): boxes that never intersect ------------------------------

/** A part of a frame and the box it takes, in pixels of the frame. */
export interface FrameBox {
  part: "image" | "panel" | "tagline" | "name" | "watermark" | "logo";
  x: number;
  y: number;
  w: number;
  h: number;
}

/** How far a line of text reaches above and below its baseline, as shares of its size (DejaVu's ascent and descent). */
const ASCENT = 0.93;
const DESCENT = 0.24;

/** Lines of text centred on the frame: each line's words, baseline and width, at one size. */
interface TextBlock {
  size: number;
  lines: { text: string; baseline: number; width: number }[];
}

function blockBox(part: FrameBox["part"], block: TextBlock, W: number): FrameBox {
  const w = Math.max(...block.lines.map((l) => l.width));
  const top = block.lines[0].baseline - ASCENT * block.size;
  return { part, x: (W - w) / 2, y: top, w, h: block.lines.at(-1)!.baseline + DESCENT * block.size - top };
}

/**
 * A text in the largest of `sizes` that fits `maxWidth` on one line, or on two lines (every word whole) from
 * 16 px (at 540) down, whose height fits `maxHeight`; its first line's top at `top`. Null when none fits.
 */
function fitBlock(text: string, measure: (line: string, size: number) => number, box: { maxWidth: number; maxHeight: number; top: number }, sizes: number[], s: number): TextBlock | null {
  for (const size of sizes) {
    const oneLine = measure(text, size) <= box.maxWidth ? [text] : null;
    const lines =
      oneLine ??
      (size <= 16 * s && !text.split(" ").some((w) => measure(w, size) > box.maxWidth) ? wrapByWidth(text, box.maxWidth, (l) => measure(l, size)) : null);
    if (!lines || lines.length > 2) continue;
    const lineH = size * 1.2;
    if ((lines.length - 1) * lineH + (ASCENT + DESCENT) * size > box.maxHeight) continue;
    return { size: n1(size), lines: lines.map((text, i) => ({ text, baseline: n1(box.top + ASCENT * size + i * lineH), width: measure(text, size) })) };
  }
  return null;
}

/**
 * Where every part of scene `index` goes with its text `enter` of the way in (0 to 1): the picture, the caption
 * panel (sliding up into place, never further than the room above the next part below it), the kit's logo
 * (clear of the watermark) and tagline, the product's name at the foot and the watermark. On the end card the
 * tagline goes between the button and the name, as large as fits (on two lines if it must); when the two do
 * not both fit there, the tagline takes the name's place at the foot.
 */
export function placeFrame(spec: Pick<RenderSpec, "width" | "height" | "product" | "scenes" | "brand" | "watermark">, index: number, enter: number) {
  const { width: W, height: H } = spec;
  const brand = spec.brand ?? null;
  const L = frameLayout(W, H);
  const s = L.s;
  const scene = spec.scenes[index];
  const cta = scene.kind === "cta";
  const margin = 10 * s;
  const barH = n1(14 * s);
  const watermark = spec.watermark?.trim() ? watermarkBox(spec.watermark.trim(), W, barH) : null;

  // The kit's logo on the end card, narrowed to keep clear of the watermark.
  const logoHalf = watermark ? Math.min(140 * s, watermark.box.x - margin - W / 2) : 140 * s;
  const logo = cta && brand?.logoPng && logoHalf > 20 * s ? { x: n1(W / 2 - logoHalf), y: n1(24 * s), w: n1(2 * logoHalf), h: n1(L.logoHeight * s) } : null;

  let image: { x: number; y: number; size: number } | null = null;
  if (spec.product.imageSvg) {
    let size = (scene.kind === "product" ? L.imageBig : L.imageSmall) * s * (0.9 + 0.1 * enter);
    let y = L.imageTop * s + (L.imageBig * s - size) / 2;
    if (logo) {
      y = Math.max(y, (24 + L.logoHeight + 4) * s);
      size = Math.min(size, (L.imageTop + L.imageBig) * s - y);
    }
    image = { x: n1((W - size) / 2), y: n1(y), size: n1(size) };
  }

  const fontFamily = brand?.fontFamily ?? "DejaVu Sans";
  const { fontSize, lines } = textLayout(scene.text, W, fontFamily, H);
  const lineH = fontSize * 1.25;
  const blockH = lines.length * lineH;
  const restTop = L.textTop * s;
  const panelBottom = restTop + blockH + 24 * s;

  // The product's name at the foot (whole, on one or two lines).
  const regular = fontMetrics(boldFontFile("DejaVu Sans").replace("-Bold.ttf", ".ttf"));
  const foot = footerLines(spec.product.title, W);
  const footLineH = foot.size * 1.2;
  let name: TextBlock | null = {
    size: foot.size,
    lines: foot.lines.map((text, i) => ({ text, baseline: n1(L.footerY * s - (foot.lines.length - 1 - i) * footLineH), width: regular.width(text, foot.size) })),
  };
  const nameTop = (block: TextBlock) => block.lines[0].baseline - ASCENT * block.size;

  let tagline: TextBlock | null = null;
  if (cta && brand?.tagline) {
    const kitRegular = fontMetrics(boldFontFile(fontFamily).replace("-Bold.ttf", ".ttf"));
    const measure = (line: string, size: number) => kitRegular.width(line, size) * 1.03;
    const sizes = [24, 21, 18, 16, 14, 12].map((px) => px * s);
    const maxWidth = W - 80 * s;
    const between = { top: panelBottom + margin, maxHeight: nameTop(name) - margin - (panelBottom + margin), maxWidth };
    tagline = fitBlock(brand.tagline, measure, between, sizes, s);
    if (!tagline) {
      name = null;
      const dashTop = L.dashY * s - 4 * s;
      const atFoot = { top: panelBottom + margin, maxHeight: dashTop - (panelBottom + margin), maxWidth };
      tagline = fitBlock(brand.tagline, measure, atFoot, sizes, s);
      // At the foot it sits where the name would have been: just above the dash.
      if (tagline) {
        const lift = dashTop - (tagline.lines.at(-1)!.baseline + DESCENT * tagline.size) - 6 * s;
        tagline = { ...tagline, lines: tagline.lines.map((l) => ({ ...l, baseline: n1(l.baseline + Math.max(0, lift)) })) };
      }
    }
  }

  // The panel slides up into place, from at most 40 px (at 540) lower and never into the part below it.
  const below = tagline ? nameTop(tagline) : name ? nameTop(name) : L.dashY * s;
  const slide = Math.max(0, Math.min(40 * s, below - panelBottom - 2 * s));
  const top = restTop + (1 - enter) * slide;
  const panel = { x: n1(24 * s), y: n1(top - 24 * s), w: n1(W - 48 * s), h: n1(blockH + 48 * s) };
  return { s, L, barH, image, logo, panel, caption: { fontSize, lines, lineH, top, fontFamily }, tagline, name, watermark };
}

/** The boxes of scene `index`'s parts (placeFrame), for checking that none intersects another. */
export function frameBoxes(spec: Pick<RenderSpec, "width" | "height" | "product" | "scenes" | "brand" | "watermark">, index: number, enter = 1): FrameBox[] {
  const p = placeFrame(spec, index, enter);
  const W = spec.width;
  const out: FrameBox[] = [{ part: "panel", ...p.panel }];
  if (p.image && spec.product.imageSvg) out.push({ part: "image", x: p.image.x, y: p.image.y, w: p.image.size, h: p.image.size });
  if (p.logo) out.push({ part: "logo", ...p.logo });
  if (p.tagline) out.push(blockBox("tagline", p.tagline, W));
  if (p.name) out.push(blockBox("name", p.name, W));
  if (p.watermark) out.push({ part: "watermark", ...p.watermark.box });
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
  const enter = easeOut(intoMs / 450);
  const scene = spec.scenes[index];
  const cta = scene.kind === "cta";
  const P = placeFrame(spec, index, enter);
  const { s, L, barH } = P;
  const parts: string[] = [];
  // The end card takes the kit's colours: its background in the kit's primary colour, darker towards the foot.
  const [bgTop, bgBottom] = cta && brand ? [brand.primaryColour, darker(brand.primaryColour, 0.75)] : ["#111827", "#1f2937"];
  parts.push(
    `<defs><linearGradient id="ad-bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bgTop}"/><stop offset="1" stop-color="${bgBottom}"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#ad-bg)"/>`,
  );
  // The brand bar: its colour at the top, filling left to right as the ad plays.
  parts.push(`<rect class="brand-bar" x="0" y="0" width="${W}" height="${barH}" fill="${brandColour}" opacity="0.35"/>`);
  // The renderer paints the filled part itself on a frame it reuses (progress: false).
  if (options.progress !== false)
    parts.push(`<rect class="brand-bar-progress" x="0" y="0" width="${progressWidth(W, atMs, totalMs)}" height="${barH}" fill="${brandColour}"/>`);
  // The product picture, bigger on the product scene; on the end card it stays clear of the kit's logo.
  if (spec.product.imageSvg && P.image) {
    const nested = nestSvg(spec.product.imageSvg, P.image, "product-");
    if (nested) parts.push(`<g class="product-image" opacity="${n1(0.4 + 0.6 * enter)}">${nested}</g>`);
  }
  // The scene's text on a panel (white on dark, or the kit's text colour on its primary colour); the call to
  // action sits on a button in the brand (or the kit's accent) colour. The text is measured to fit the panel.
  const { fontSize, lines, lineH, top, fontFamily } = P.caption;
  const panelFill = cta ? (brand?.accentColour ?? brandColour) : (brand?.primaryColour ?? "#000000");
  const panelOpacity = cta ? 1 : brand ? 0.92 : 0.45;
  const textFill = brand?.textColour ?? "#ffffff";
  parts.push(
    `<g class="scene-text" opacity="${n1(enter)}">`,
    `<rect class="caption-panel" x="${P.panel.x}" y="${P.panel.y}" width="${P.panel.w}" height="${P.panel.h}" rx="${n1(22 * s)}" fill="${panelFill}" opacity="${panelOpacity}"/>`,
    ...lines.map(
      (line, i) =>
        `<text x="${n1(W / 2)}" y="${n1(top + lineH * i + fontSize)}" text-anchor="middle" font-family="${escapeHtml(fontFamily)}" font-weight="bold" font-size="${fontSize}" fill="${textFill}">${escapeHtml(line)}</text>`,
    ),
    `</g>`,
  );
  // The end card: the kit's logo above the picture and its tagline under the button, in the kit's text colour.
  if (P.logo && brand?.logoPng) {
    const href = `data:image/png;base64,${Buffer.from(brand.logoPng).toString("base64")}`;
    parts.push(
      `<image class="brand-logo" x="${P.logo.x}" y="${P.logo.y}" width="${P.logo.w}" height="${P.logo.h}" preserveAspectRatio="xMidYMid meet" opacity="${n1(enter)}" href="${href}"/>`,
    );
  }
  if (P.tagline && brand) {
    parts.push(
      ...P.tagline.lines.map(
        (line) =>
          `<text class="brand-tagline" x="${n1(W / 2)}" y="${line.baseline}" text-anchor="middle" font-family="${escapeHtml(fontFamily)}" font-size="${P.tagline!.size}" fill="${brand.textColour}" opacity="${n1(enter)}">${escapeHtml(line.text)}</text>`,
      ),
    );
  }
  // The product's name at the foot (whole, on one or two lines), and the accent dash under it.
  if (P.name) {
    parts.push(
      ...P.name.lines.map(
        (line) =>
          `<text class="product-name" x="${n1(W / 2)}" y="${line.baseline}" text-anchor="middle" font-family="DejaVu Sans" font-size="${P.name!.size}" fill="${cta && brand ? brand.textColour : "#d1d5db"}">${escapeHtml(line.text)}</text>`,
      ),
    );
  }
  parts.push(`<rect x="${n1(W / 2 - 60 * s)}" y="${n1(L.dashY * s)}" width="${n1(120 * s)}" height="${n1(6 * s)}" rx="${n1(3 * s)}" fill="${brand?.accentColour ?? brandColour}"/>`);
  // Last, so nothing covers it: on every frame, including the stills the renderer reuses.
  if (P.watermark) parts.push(P.watermark.svg);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${parts.join("")}</svg>`;
}

/**
 * The watermark label: white DejaVu Sans Bold (18 px at 540 wide; a long label is drawn smaller, down to 12 px,
 * then cut, so it stays within a third of the frame) on a dark, semi-transparent rounded box, its right edge 16 px (at 540) from the
 * frame's, its top 10 px under the brand bar. Measured with the font's own advances, like the captions.
 */
function watermarkBox(label: string, W: number, barH: number): { box: { x: number; y: number; w: number; h: number }; svg: string } {
  const s = W / 540;
  const metrics = fontMetrics(boldFontFile("DejaVu Sans"));
  const maxWidth = W / 3;
  let size = 18 * s;
  while (size > 12 * s && metrics.width(label, size) > maxWidth) size -= s;
  // Still too long at 12 px: cut, with an ellipsis.
  let text = label;
  for (let keep = label.length - 1; keep > 1 && metrics.width(text, size) > maxWidth; keep--) text = `${label.slice(0, keep).trimEnd()}…`;
  const padX = 10 * s;
  const boxW = metrics.width(text, size) * 1.03 + 2 * padX;
  const boxH = size * 1.7;
  const x = W - 16 * s - boxW;
  const y = barH + 10 * s;
  const svg =
    `<g class="watermark">` +
    `<rect x="${n1(x)}" y="${n1(y)}" width="${n1(boxW)}" height="${n1(boxH)}" rx="${n1(8 * s)}" fill="#000000" opacity="0.6"/>` +
    `<text x="${n1(x + boxW / 2)}" y="${n1(y + boxH / 2 + size * 0.36)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${n1(size)}" fill="#ffffff">${escapeHtml(text)}</text>` +
    `</g>`;
  return { box: { x: n1(x), y: n1(y), w: n1(boxW), h: n1(boxH) }, svg };
}

/** The filled width of the progress bar at `atMs`. */
export function progressWidth(width: number, atMs: number, totalMs: number): number {
  return n1((width * Math.min(atMs, totalMs)) / totalMs);
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
