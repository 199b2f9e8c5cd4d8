// Product images for generated catalogues: /product-images/{objectID}-{n}.svg is drawn on request from
// the product's objectID, niche and title, the same picture every time (colours and shapes come from
// hashes, never from randomness), so a generated catalogue needs no image files. Unknown products
// and malformed names are not found.
import type { Db } from "~/db.server";

/** "{objectID}-{n}.svg", n from 1 to 20 (an import row holds at most 20 images). */
export const PRODUCT_IMAGE_FILE = /^([A-Za-z0-9._:-]{1,100})-([1-9]|1\d|20)\.svg$/;

export function parseProductImageFile(file: string): { objectID: string; n: number } | null {
  const m = PRODUCT_IMAGE_FILE.exec(file);
  return m ? { objectID: m[1], n: Number(m[2]) } : null;
}

/** FNV-1a, 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function sequence(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** The first words of the title that fit on one line of the picture. */
export function captionOf(title: string, maxChars = 22): string {
  const words = title.split(/\s+/).filter(Boolean);
  let caption = "";
  for (const word of words.slice(0, 3)) {
    const next = caption ? `${caption} ${word}` : word;
    if (next.length > maxChars) break;
    caption = next;
  }
  return caption || (words[0] ?? "").slice(0, maxChars);
}

/** One of eight simple objects drawn from shapes (no emoji, no icon font), chosen by the niche. */
function glyph(kind: number, colour: string, accent: string): string {
  switch (kind) {
    case 0: // bottle
      return `<rect x="165" y="95" width="70" height="40" rx="10" fill="${accent}"/><rect x="140" y="125" width="120" height="150" rx="28" fill="${colour}"/>`;
    case 1: // rings
      return `<circle cx="175" cy="185" r="58" fill="none" stroke="${colour}" stroke-width="22"/><circle cx="230" cy="205" r="58" fill="none" stroke="${accent}" stroke-width="22"/>`;
    case 2: // box
      return `<path d="M200 95 L290 140 L290 240 L200 285 L110 240 L110 140 Z" fill="${colour}"/><path d="M110 140 L200 185 L290 140 M200 185 L200 285" stroke="${accent}" stroke-width="10" fill="none"/>`;
    case 3: // bowl
      return `<path d="M105 170 H295 A95 95 0 0 1 105 170 Z" fill="${colour}"/><ellipse cx="200" cy="170" rx="95" ry="16" fill="${accent}"/>`;
    case 4: // lamp
      return `<path d="M150 100 H250 L285 195 H115 Z" fill="${colour}"/><rect x="192" y="195" width="16" height="70" fill="${accent}"/><rect x="150" y="262" width="100" height="16" rx="8" fill="${accent}"/>`;
    case 5: // leaf
      return `<path d="M200 85 C290 140 290 240 200 290 C110 240 110 140 200 85 Z" fill="${colour}"/><path d="M200 105 V280" stroke="${accent}" stroke-width="8"/>`;
    case 6: // device
      return `<rect x="135" y="85" width="130" height="210" rx="22" fill="${colour}"/><rect x="150" y="105" width="100" height="150" rx="8" fill="${accent}"/><circle cx="200" cy="275" r="8" fill="${accent}"/>`;
    default: // star
      return `<path d="M200 88 L228 158 L302 160 L244 205 L266 278 L200 236 L134 278 L156 205 L98 160 L172 158 Z" fill="${colour}" stroke="${accent}" stroke-width="8" stroke-linejoin="round"/>`;
  }
}

export function renderProductSvg(input: { objectID: string; n: number; title: string; niche: string }): string {
  const random = sequence(hash32(`${input.objectID}:${input.n}`));
  const nicheHash = hash32(input.niche);
  const hue = Math.floor(random() * 360);
  const nicheHue = nicheHash % 360;
  const background = `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,92%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},55%,80%)"/></linearGradient>`;
  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const x = Math.round(random() * 400);
    const y = Math.round(random() * 300);
    const size = Math.round(20 + random() * 70);
    const fill = `hsl(${(hue + Math.floor(random() * 120)) % 360},50%,70%)`;
    shapes.push(
      random() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${size}" fill="${fill}" opacity="0.35"/>`
        : `<rect x="${x - size}" y="${y - size}" width="${size * 2}" height="${size * 2}" rx="${Math.round(size / 3)}" fill="${fill}" opacity="0.3" transform="rotate(${Math.round(random() * 90)} ${x} ${y})"/>`,
    );
  }
  const tilt = Math.round((random() - 0.5) * 24);
  const scale = (0.85 + random() * 0.25).toFixed(2);
  const caption = escapeXml(captionOf(input.title));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${caption}">` +
    `<defs>${background}</defs><rect width="400" height="400" fill="url(#bg)"/>${shapes.join("")}` +
    `<g transform="translate(200 190) rotate(${tilt}) scale(${scale}) translate(-200 -190)">` +
    glyph(nicheHash % 8, `hsl(${nicheHue},45%,42%)`, `hsl(${(nicheHue + 30) % 360},55%,85%)`) +
    `</g><rect x="0" y="318" width="400" height="82" fill="#ffffff" opacity="0.82"/>` +
    `<text x="200" y="368" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="26" font-weight="600" fill="#1f2937">${caption}</text>` +
    `</svg>`
  );
}

export interface ProductImage {
  svg: string;
  etag: string;
}

/** The picture for "{objectID}-{n}.svg", or null when the name is malformed or no such product exists. */
export async function getProductImage(db: Db, file: string): Promise<ProductImage | null> {
  const parsed = parseProductImageFile(file);
  if (!parsed) return null;
  const product = await db.product.findUnique({
    where: { objectID: parsed.objectID },
    select: { title: true, primaryNiche: true },
  });
  if (!product) return null;
  const svg = renderProductSvg({ ...parsed, title: product.title, niche: product.primaryNiche });
  return { svg, etag: `"${hash32(svg).toString(36)}-${svg.length.toString(36)}"` };
}
