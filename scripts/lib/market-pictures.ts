// Product pictures for the market simulator (scripts/lib/market-simulator.ts; docs/decisions/046): a product's
// picture is drawn from its design (a background and a few coloured shapes, like a packshot), and a store's
// copy of it is that picture after what stores do to supplier photos: re-encoded as JPEG at another quality,
// resized, cropped 5-10%, a "sale" badge or a watermark, a colour shift, or the product on another background.
// Real bytes through sharp, so the picture fingerprints the catalogue computes are the real library's.
import sharp from "sharp";
import { mulberry32 } from "./product-generator";

export interface Shape {
  kind: "circle" | "ellipse" | "rect" | "triangle";
  x: number;
  y: number;
  w: number;
  h: number;
  rotate: number;
  fill: string;
}

export interface PictureDesign {
  background: string;
  shapes: Shape[];
}

export const VARIANT_KINDS = ["reencode", "resize", "crop", "badge", "watermark", "colour-shift", "background"] as const;
export type VariantKind = (typeof VARIANT_KINDS)[number];

const SIZE = 400;

function hsl(h: number, s: number, l: number): string {
  return `hsl(${Math.round(h)}, ${Math.round(s)}%, ${Math.round(l)}%)`;
}

/** A packshot-like design: a light background and 2-5 shapes forming the "product". */
export function randomDesign(seed: number): PictureDesign {
  const r = mulberry32(seed);
  const kinds: Shape["kind"][] = ["circle", "ellipse", "rect", "triangle"];
  const count = 2 + Math.floor(r() * 4);
  const hue = r() * 360;
  const shapes: Shape[] = [];
  for (let i = 0; i < count; i++) {
    shapes.push({
      kind: kinds[Math.floor(r() * kinds.length)],
      x: 60 + r() * 280,
      y: 60 + r() * 280,
      w: 40 + r() * 200,
      h: 40 + r() * 200,
      rotate: r() * 90,
      fill: hsl((hue + r() * 120) % 360, 30 + r() * 60, 15 + r() * 60),
    });
  }
  return { background: hsl(r() * 360, r() * 30, 80 + r() * 18), shapes };
}

/**
 * A look-alike: the same kind of product from another supplier. Same background and layout family, but the
 * main shape redrawn: pictures often near, never the same product.
 */
export function lookAlikeDesign(design: PictureDesign, seed: number): PictureDesign {
  const r = mulberry32(seed);
  const shapes = design.shapes.map((s) => ({ ...s }));
  const main = shapes[0];
  main.kind = main.kind === "circle" ? "rect" : "circle";
  main.w *= 0.6 + r() * 0.8;
  main.h *= 0.6 + r() * 0.8;
  main.x = 60 + r() * 280;
  if (shapes.length > 1) shapes[shapes.length - 1].y = 60 + r() * 280;
  return { background: design.background, shapes };
}

function shapeSvg(s: Shape): string {
  const t = `transform="rotate(${s.rotate.toFixed(1)} ${s.x.toFixed(1)} ${s.y.toFixed(1)})"`;
  switch (s.kind) {
    case "circle":
      return `<circle cx="${s.x.toFixed(1)}" cy="${s.y.toFixed(1)}" r="${(s.w / 2).toFixed(1)}" fill="${s.fill}"/>`;
    case "ellipse":
      return `<ellipse cx="${s.x.toFixed(1)}" cy="${s.y.toFixed(1)}" rx="${(s.w / 2).toFixed(1)}" ry="${(s.h / 2).toFixed(1)}" fill="${s.fill}" ${t}/>`;
    case "rect":
      return `<rect x="${(s.x - s.w / 2).toFixed(1)}" y="${(s.y - s.h / 2).toFixed(1)}" width="${s.w.toFixed(1)}" height="${s.h.toFixed(1)}" rx="12" fill="${s.fill}" ${t}/>`;
    case "triangle":
      return `<polygon points="${s.x},${s.y - s.h / 2} ${s.x - s.w / 2},${s.y + s.h / 2} ${s.x + s.w / 2},${s.y + s.h / 2}" fill="${s.fill}" ${t}/>`;
  }
}

function designSvg(design: PictureDesign, background = design.background): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}"><rect width="100%" height="100%" fill="${background}"/>${design.shapes.map(shapeSvg).join("")}</svg>`;
}

/** The supplier's picture: a JPEG at quality 90. */
export async function drawPicture(design: PictureDesign): Promise<Buffer> {
  return sharp(Buffer.from(designSvg(design))).jpeg({ quality: 90 }).toBuffer();
}

const BADGE = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="110" height="110"><circle cx="55" cy="55" r="50" fill="#e02020"/><rect x="25" y="45" width="60" height="20" fill="#fff"/></svg>`,
);
const WATERMARK = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="60"><rect x="20" y="15" width="${SIZE - 40}" height="30" rx="6" fill="#ffffff" fill-opacity="0.45"/></svg>`,
);

/** A store's copy of the picture after one thing stores do to supplier photos. */
export async function variantPicture(design: PictureDesign, kind: VariantKind, seed: number): Promise<Buffer> {
  const r = mulberry32(seed);
  const original = Buffer.from(designSvg(design));
  switch (kind) {
    case "reencode":
      return sharp(original).jpeg({ quality: 40 + Math.floor(r() * 50) }).toBuffer();
    case "resize": {
      const size = 200 + Math.floor(r() * 600);
      return sharp(original).resize(size, size).jpeg({ quality: 80 }).toBuffer();
    }
    case "crop": {
      const cut = Math.round(SIZE * (0.05 + r() * 0.05));
      const left = Math.floor(r() * cut);
      const top = Math.floor(r() * cut);
      return sharp(original).extract({ left, top, width: SIZE - cut, height: SIZE - cut }).jpeg({ quality: 85 }).toBuffer();
    }
    case "badge": {
      const corner = Math.floor(r() * 4);
      return sharp(original)
        .composite([{ input: BADGE, left: corner % 2 ? SIZE - 120 : 10, top: corner >= 2 ? SIZE - 120 : 10 }])
        .jpeg({ quality: 85 })
        .toBuffer();
    }
    case "watermark":
      return sharp(original)
        .composite([{ input: WATERMARK, left: 0, top: Math.floor(SIZE * (0.3 + r() * 0.4)) }])
        .jpeg({ quality: 85 })
        .toBuffer();
    case "colour-shift":
      return sharp(original)
        .modulate({ hue: Math.floor(r() * 40) - 20, saturation: 0.8 + r() * 0.4, brightness: 0.9 + r() * 0.2 })
        .jpeg({ quality: 85 })
        .toBuffer();
    case "background":
      return sharp(Buffer.from(designSvg(design, hsl(r() * 360, 10 + r() * 40, 70 + r() * 28))))
        .jpeg({ quality: 85 })
        .toBuffer();
  }
}

/**
 * Distances (bits) between a supplier picture's fingerprint and each alteration's, and a look-alike's, measured on
 * `count` drawn designs with the given fingerprint function: the model the market simulator draws from.
 */
export async function calibrateDistances(
  count: number,
  fingerprint: (bytes: Buffer) => Promise<string>,
  distance: (a: string, b: string) => number,
): Promise<Record<VariantKind | "lookalike", number[]>> {
  const out = Object.fromEntries([...VARIANT_KINDS, "lookalike"].map((k) => [k, [] as number[]])) as Record<VariantKind | "lookalike", number[]>;
  for (let i = 0; i < count; i++) {
    const design = randomDesign(100_000 + i);
    const original = await fingerprint(await drawPicture(design));
    for (const kind of VARIANT_KINDS) out[kind].push(distance(original, await fingerprint(await variantPicture(design, kind, 7 * i + 1))));
    out.lookalike.push(distance(original, await fingerprint(await drawPicture(lookAlikeDesign(design, 13 * i + 5)))));
  }
  return out;
}
