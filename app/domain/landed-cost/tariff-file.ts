// Reading tariff files (decision 052): our own layers file (content/tariffs/*.json, the starter table and any
// new layers) and a full USITC revision of the HTS as USITC publishes it, JSON (htsno, general, ...) or CSV
// ("HTS Number", "General Rate of Duty", ...). Pure: the caller reads the file and writes the rows.
import { z } from "zod";
import { TARIFF_KINDS, type TariffRow } from "./landed-cost";

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD");

const LayerSchema = z
  .object({
    kind: z.enum(TARIFF_KINDS),
    series: z.string().min(1).max(80),
    name: z.string().min(1).max(200),
    htsPrefix: z.string().regex(/^(\d{2}){0,5}$/, "must be HTS digits without dots (or empty for every product)"),
    origins: z.array(z.string().regex(/^([A-Z]{2}|\*)$/, "must be two-letter codes or *")).min(1),
    exemptPrefixes: z.array(z.string().regex(/^\d{2,10}$/)).default([]),
    ratePercent: z.number().min(0).max(1000).optional(),
    perItemCents: z.number().int().min(0).max(10_000_000).optional(),
    validFrom: Day,
    validTo: Day.nullable().default(null),
    source: z.string().min(1).max(1000),
  })
  .refine((l) => l.ratePercent !== undefined || l.perItemCents !== undefined, "a layer needs ratePercent or perItemCents")
  .refine((l) => l.validTo === null || l.validTo > l.validFrom, "validTo must come after validFrom");

const HtsLineSchema = z.object({
  htsCode: z.string().regex(/^\d{4}(\.\d{2}){1,3}$/, "must be an HTS code as printed, like 9603.90.80"),
  description: z.string().min(1).max(2000),
  terms: z.string().max(1000).optional(),
  source: z.string().min(1).max(1000),
  /** false: whether a Section 301 list covers this line was not checked, and no Section 301 row is loaded for it. */
  section301Checked: z.boolean().default(true),
});
export type HtsLineRow = z.infer<typeof HtsLineSchema>;

export const LayersFileSchema = z.object({
  edition: z.string().min(1).max(120),
  /** The HTS revision the table was brought to, and the day USITC exported it ("2026 HTS Revision 20", 2026-09-29). */
  htsRevision: z.string().min(1).max(300).optional(),
  htsExported: Day.optional(),
  checked: Day.optional(),
  defaultOrigin: z.string().regex(/^[A-Z]{2}$/).optional(),
  niches: z.record(z.string(), z.object({ htsCode: z.string().min(4).max(13), reason: z.string().min(1) })).default({}),
  /** The HTS lines a product's title is matched against (decision 081), each with its HTS text and source. */
  htsLines: z.array(HtsLineSchema).default([]),
  layers: z.array(LayerSchema).min(1),
});
export type LayersFile = z.infer<typeof LayersFileSchema>;

export function layerRows(file: LayersFile): TariffRow[] {
  return file.layers.map((l) => ({
    kind: l.kind,
    series: l.series,
    name: l.name,
    htsPrefix: l.htsPrefix,
    origins: l.origins,
    exemptPrefixes: l.exemptPrefixes,
    rateBp: l.ratePercent === undefined ? null : Math.round(l.ratePercent * 100),
    perItemCents: l.perItemCents ?? null,
    validFrom: l.validFrom,
    validTo: l.validTo,
    source: l.source,
  }));
}

/**
 * A USITC general (column 1) rate as printed: "Free", "3.4%", "29¢ each", "29¢ each + 6.6%". Anything else
 * (per kilogram, per dozen, "on the case and strap" compounds) needs a weight or a breakdown we do not have:
 * null, and the importer reports the line as skipped.
 */
export function parseGeneralRate(text: string): { rateBp: number | null; perItemCents: number | null } | null {
  const t = text.trim().replace(/\s+/g, " ");
  if (/^free$/i.test(t)) return { rateBp: 0, perItemCents: null };
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (pct) return { rateBp: Math.round(Number(pct[1]) * 100), perItemCents: null };
  const each = /^(\d+(?:\.\d+)?)¢ each(?: \+ (\d+(?:\.\d+)?)%)?$/.exec(t);
  if (each && Number.isInteger(Number(each[1]))) {
    return { rateBp: each[2] === undefined ? null : Math.round(Number(each[2]) * 100), perItemCents: Number(each[1]) };
  }
  return null;
}

export interface UsitcLine {
  htsno: string;
  general: string;
}

export interface UsitcImport {
  rows: TariffRow[];
  /** Lines with a general rate we cannot apply per order (per kg, per dozen, partial compounds). */
  skipped: { htsno: string; general: string }[];
}

/** USITC lines -> MFN rows (lines without a general rate of their own inherit their parent's and are left out). */
export function usitcRows(lines: Iterable<UsitcLine>, revision: string, validFrom: string): UsitcImport {
  const rows: TariffRow[] = [];
  const skipped: UsitcImport["skipped"] = [];
  for (const line of lines) {
    const digits = line.htsno.replace(/\./g, "").trim();
    if (!/^(\d{2}){2,5}$/.test(digits) || line.general.trim() === "") continue;
    const rate = parseGeneralRate(line.general);
    if (!rate) {
      skipped.push({ htsno: line.htsno, general: line.general });
      continue;
    }
    const source = `${revision} (USITC), general rate of ${line.htsno}: ${line.general.trim()}`;
    const base = { kind: "mfn" as const, htsPrefix: digits, origins: ["*"], exemptPrefixes: [], validFrom, validTo: null, source };
    if (rate.rateBp !== null) rows.push({ ...base, series: "mfn", name: "MFN (column 1)", rateBp: rate.rateBp, perItemCents: null });
    if (rate.perItemCents !== null) {
      rows.push({ ...base, series: "mfn-specific", name: "MFN (column 1), specific part", rateBp: null, perItemCents: rate.perItemCents });
    }
  }
  return { rows, skipped };
}

/** The USITC JSON export: an array of { htsno, general, ... }. */
export function usitcJsonLines(data: unknown): UsitcLine[] | null {
  if (!Array.isArray(data) || data.length === 0) return null;
  const first = data[0] as Record<string, unknown> | null;
  if (!first || typeof first !== "object" || !("htsno" in first)) return null;
  return data.map((d: { htsno?: unknown; general?: unknown }) => ({ htsno: String(d.htsno ?? ""), general: String(d.general ?? "") }));
}

/** The USITC CSV export's two columns we use; null when the header lacks them. */
export function usitcCsvColumns(header: readonly string[]): { htsno: number; general: number } | null {
  const names = header.map((h) => h.replace(/^\uFEFF/, "").trim().toLowerCase());
  const htsno = names.indexOf("hts number");
  const general = names.indexOf("general rate of duty");
  return htsno >= 0 && general >= 0 ? { htsno, general } : null;
}
