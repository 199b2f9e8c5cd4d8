// Brand kit rules (seed brand-kits / brand_kits; docs/decisions/033): what a kit holds, the fonts a kit may
// choose (the ones the renderer ships), colour parsing, and the contrast check between the text colour and
// the two brand colours it is drawn on. Pure: no I/O.
import { z } from "zod";

/** Fonts the renderer ships (the dejavu-fonts-ttf package); a kit names one by id. */
export const BRAND_FONTS = [
  { id: "dejavu-sans", label: "DejaVu Sans", family: "DejaVu Sans" },
  { id: "dejavu-sans-condensed", label: "DejaVu Sans Condensed", family: "DejaVu Sans Condensed" },
  { id: "dejavu-serif", label: "DejaVu Serif", family: "DejaVu Serif" },
  { id: "dejavu-sans-mono", label: "DejaVu Sans Mono", family: "DejaVu Sans Mono" },
] as const;
export type BrandFontId = (typeof BRAND_FONTS)[number]["id"];
export const BRAND_FONT_IDS = BRAND_FONTS.map((f) => f.id) as [BrandFontId, ...BrandFontId[]];
export const DEFAULT_BRAND_FONT: BrandFontId = "dejavu-sans";

export function brandFont(id: string) {
  return BRAND_FONTS.find((f) => f.id === id) ?? BRAND_FONTS[0];
}

export const KIT_LIMITS = {
  nameMax: 60,
  taglineMax: 80,
  toneMax: 200,
  /** Kits per user. */
  kitsMax: 20,
  /** Logo uploads: bytes, and the pixel size a PNG/JPEG may have (an SVG is rasterised to fit logoRasterMax). */
  logoMaxBytes: 512 * 1024,
  logoMinPx: 16,
  logoMaxPx: 4096,
  logoRasterMax: 512,
} as const;

/** Below this, text on a colour is hard to read on a phone (WCAG AA for normal text). */
export const MIN_CONTRAST = 4.5;

/** "#RGB" or "#RRGGBB" (any case) -> "#rrggbb"; null for anything else. */
export function parseHexColour(value: string): string | null {
  const v = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return /^#[0-9a-f]{6}$/.test(v) ? v : null;
}

export function rgbOf(hex: string): [number, number, number] {
  const h = parseHexColour(hex) ?? "#000000";
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2 relative luminance of a colour. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface ContrastWarning {
  field: "primaryColour" | "accentColour";
  ratio: number;
  message: string;
}

/** Warnings (not errors: the seller may want the colour anyway) for text that will be hard to read. */
export function contrastWarnings(kit: { primaryColour: string; accentColour: string; textColour: string }): ContrastWarning[] {
  const out: ContrastWarning[] = [];
  for (const [field, label] of [
    ["primaryColour", "panels"],
    ["accentColour", "buttons"],
  ] as const) {
    const ratio = Math.round(contrastRatio(kit[field], kit.textColour) * 10) / 10;
    if (ratio < MIN_CONTRAST)
      out.push({
        field,
        ratio,
        message: `Text in ${kit.textColour} on the ${label} colour ${kit[field]} has a contrast of ${ratio}:1; ${MIN_CONTRAST}:1 or more reads well on a phone.`,
      });
  }
  return out;
}

const colour = z
  .string()
  .max(20)
  .transform((v, ctx) => {
    const parsed = parseHexColour(v);
    if (!parsed) {
      ctx.addIssue({ code: "custom", message: "Use a colour like #0b6e4f." });
      return z.NEVER;
    }
    return parsed;
  });

const oneLine = (max: number, label: string) =>
  z
    .string()
    .max(2000)
    .transform((v) => v.replace(/\s+/g, " ").trim())
    .refine((v) => v.length <= max, { message: `${label}: use at most ${max} characters.` });

const kitShape = {
  name: oneLine(KIT_LIMITS.nameMax, "Name").refine((v) => v.length > 0, { message: "Enter a name." }),
  primaryColour: colour,
  accentColour: colour,
  textColour: colour,
  font: z.enum(BRAND_FONT_IDS, { error: `Choose one of: ${BRAND_FONTS.map((f) => f.label).join(", ")}.` }),
  tagline: oneLine(KIT_LIMITS.taglineMax, "Tagline"),
  tone: oneLine(KIT_LIMITS.toneMax, "Tone of voice"),
  isDefault: z.boolean({ error: "isDefault must be true or false." }),
};

/** Every field a kit has (a new kit); the logo comes separately. */
export const BrandKitFieldsSchema = z
  .object({
    ...kitShape,
    textColour: kitShape.textColour.default("#ffffff"),
    font: kitShape.font.default(DEFAULT_BRAND_FONT),
    tagline: kitShape.tagline.default(""),
    tone: kitShape.tone.default(""),
    isDefault: kitShape.isDefault.default(false),
  })
  .strict();
export type BrandKitFields = z.infer<typeof BrandKitFieldsSchema>;

/** An edit: any subset of the fields (no defaults: a missing field keeps its value). */
export const BrandKitPatchSchema = z.object(kitShape).partial().strict();
export type BrandKitPatch = z.infer<typeof BrandKitPatchSchema>;

/** zod issues as { field: message } (the first per field). */
export function kitFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "kit");
    out[field] ??= issue.message;
  }
  return out;
}

/** What an ad or a page takes from a kit (plain values, no ids). */
export interface BrandStyle {
  name: string;
  primaryColour: string;
  accentColour: string;
  textColour: string;
  fontFamily: string;
  tagline: string;
  tone: string;
}

/** A kit's look as stored (the font by id): what brandStyleOf reads and every kit view carries. */
export interface BrandKitLook {
  name: string;
  primaryColour: string;
  accentColour: string;
  textColour: string;
  font: string;
  tagline: string;
  tone: string;
}

export function brandStyleOf(kit: BrandKitLook): BrandStyle {
  return {
    name: kit.name,
    primaryColour: kit.primaryColour,
    accentColour: kit.accentColour,
    textColour: kit.textColour,
    fontFamily: brandFont(kit.font).family,
    tagline: kit.tagline,
    tone: kit.tone,
  };
}
