// The product import format (docs/decisions/011): one row = one product with its daily history.
// JSON and NDJSON rows are objects of this shape; CSV rows use flat columns (PRODUCT_CSV_COLUMNS)
// that csvRecordToRow turns into the same object, so one schema judges every format.
// Pure: no I/O. Each rejection names the field and what is wrong with it.
import { z } from "zod";
import { dayNumber, SERIES_KEYS, type DailySeries, type SeriesKey } from "~/domain/products/insights";
import { NICHE_SYNONYMS } from "~/domain/products/product-question";

export const MAX_HISTORY_DAYS = 365;
const MAX_CENTS = 1_000_000_000; // $10M: anything above is a unit mistake, not a product price.

/**
 * Highest value a day may hold, per series. The 30-day sums of counts are stored in 32-bit columns,
 * so a day holds at most 1/30 of 2^31; revenue is stored in a 64-bit column.
 */
export const SERIES_DAY_MAX: Record<SeriesKey, number> = {
  orders: 10_000_000,
  revenueCents: 1_000_000_000_000,
  views: 70_000_000,
  likes: 70_000_000,
  comments: 70_000_000,
  shares: 70_000_000,
  storesSelling: 10_000_000,
};

// ---- Field schemas with their messages --------------------------------------------------------------

function required(kind: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? "is required" : `must be ${kind}`);
}

const text = (max: number, { allowEmpty = false } = {}) =>
  z
    .string({ error: required("text") })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(allowEmpty ? 0 : 1, { error: "must not be empty" })
        .max(max, { error: `must be at most ${max} characters` }),
    );

const optionalText = (max: number) =>
  z
    .string({ error: "must be text" })
    .max(max, { error: `must be at most ${max} characters` })
    .nullish()
    .transform((s) => (s == null || s.trim() === "" ? null : s.trim()));

const cents = ({ min = 0 } = {}) =>
  z
    .number({ error: required("a whole number of cents") })
    .int({ error: "must be a whole number of cents" })
    .min(min, { error: min > 0 ? "must be at least 1 cent" : "must not be negative" })
    .max(MAX_CENTS, { error: `must be at most ${MAX_CENTS} cents` });

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;
const DATE_MESSAGE = "must be an ISO 8601 date such as 2026-01-31 or 2026-01-31T12:00:00Z";

const isoDate = z.string({ error: required("a date") }).transform((s, ctx) => {
  const m = ISO_DATE.exec(s.trim());
  let date: Date | null = null;
  if (m) {
    try {
      dayNumber(m[1]);
      date = new Date(m[2] ? s.trim() : `${m[1]}T00:00:00Z`);
    } catch {
      date = null;
    }
  }
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1990 || date.getUTCFullYear() > 2200) {
    ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
    return z.NEVER;
  }
  return date;
});

/** objectIDs end up in URLs (/product-images/{objectID}-1.svg), so they stay URL-safe. */
export const OBJECT_ID = /^[A-Za-z0-9._:-]+$/;

/** An image is an absolute http(s) URL or a path on this site ("/product-images/..."). */
const imageUrl = z
  .string({ error: "must be a URL" })
  .trim()
  .max(2000, { error: "must be at most 2000 characters" })
  .refine((s) => (s.startsWith("/") && !s.startsWith("//") && !/\s/.test(s)) || (/^https?:\/\/\S+$/i.test(s) && URL.canParse(s)), {
    error: "must be an http(s) URL or a path starting with /",
  });

/** An image the import fetches (an absolute http(s) URL), as opposed to a path on this site. */
export function isExternalImage(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * The external image URLs of a product by position (docs/decisions/028): the "images.fetch" job fetches each
 * once and puts the stored copy (or, when it could not be fetched, the category drawing) at its place.
 */
export function externalImageSources(images: readonly string[]): [number, string][] {
  const sources: [number, string][] = [];
  images.forEach((url, position) => {
    if (isExternalImage(url)) sources.push([position, url]);
  });
  return sources;
}

/** "Home & Garden" -> "home-garden": niches are slugs so filters match them exactly. */
export function nicheSlug(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Every synonym of a known niche, as a slug ("pet-supplies", "dogs"), to the niche's own slug. */
const KNOWN_NICHE_SLUGS = new Map<string, string>(
  Object.entries(NICHE_SYNONYMS).flatMap(([slug, words]) => [[slug, slug] as [string, string], ...words.map((w) => [nicheSlug(w), slug] as [string, string])]),
);
/** Words that say nothing about the niche: "Pet supplies" is "pet", "Kitchen products" is "kitchen". */
const GENERIC_NICHE_WORDS = /-(?:supplies|supply|products|product|items|goods|gear|stuff|essentials)$/;

/**
 * A niche name as the catalogue's niche it means (issue 25: an import made "pet-supplies" next to "pets"):
 * its slug, matched against the known niches and their synonyms, also without a generic last word
 * ("supplies", "products") and in the singular; a niche we do not know keeps its own slug.
 */
export function canonicalNiche(name: string): string {
  return knownNiche(name) ?? nicheSlug(name);
}

/** The known niche a name means (canonicalNiche's matching), or null when it names none of them. */
export function knownNiche(name: string): string | null {
  const slug = nicheSlug(name);
  const tries = [slug, slug.replace(GENERIC_NICHE_WORDS, "")];
  for (const t of [...tries]) if (t.endsWith("s") && !t.endsWith("ss")) tries.push(t.slice(0, -1));
  for (const t of tries) {
    const known = KNOWN_NICHE_SLUGS.get(t);
    if (known) return known;
  }
  return null;
}

/**
 * The niche of a product read from a store (a rival's product added to the database, a measured product): the
 * known niche its product type names, else the first its tags name, else none (issue 35). A store's own words
 * ("Baume", "Accessories", "Sale") never become a niche of their own: the niche list stays the catalogue's.
 */
export function storeProductNiche(productType: string, tags: readonly string[] = []): string | null {
  for (const name of [productType, ...tags]) {
    const known = knownStoreWord(name);
    if (known) return known;
  }
  return null;
}

/** Stores repeat a few types and tags over thousands of listings: each is matched once (at most 10,000 kept). */
const storeWords = new Map<string, string | null>();
function knownStoreWord(name: string): string | null {
  let known = storeWords.get(name);
  if (known === undefined) {
    known = knownNiche(name);
    if (storeWords.size >= 10_000) storeWords.clear();
    storeWords.set(name, known);
  }
  return known;
}

const niche = z
  .string({ error: "must be text" })
  .max(60, { error: "must be at most 60 characters" })
  .transform((s, ctx) => {
    const slug = canonicalNiche(s);
    if (!slug) {
      ctx.addIssue({ code: "custom", message: "must contain letters or digits" });
      return z.NEVER;
    }
    return slug;
  });

const tag = z
  .string({ error: "must be text" })
  .transform((s) => s.trim())
  .pipe(z.string().min(1, { error: "must not be empty" }).max(60, { error: "must be at most 60 characters" }));

function dedupe(values: string[], key = (s: string) => s): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = key(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * A daily series: checked with one loop (a million rows x 7 series x 90 days must stay cheap), and
 * the first bad day is reported by its index.
 */
function series(key: SeriesKey) {
  const max = SERIES_DAY_MAX[key];
  return z.unknown().optional().transform((value, ctx): number[] => {
    if (value === undefined || value === null) {
      ctx.addIssue({ code: "custom", message: "is required" });
      return z.NEVER;
    }
    if (!Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: "must be a list of whole numbers, one a day" });
      return z.NEVER;
    }
    if (value.length < 1 || value.length > MAX_HISTORY_DAYS) {
      ctx.addIssue({ code: "custom", message: `must have from 1 to ${MAX_HISTORY_DAYS} days, has ${value.length}` });
      return z.NEVER;
    }
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > max) {
        const got = typeof v === "string" ? `"${v.slice(0, 20)}"` : String(v);
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `must be a whole number from 0 to ${max}, got ${got}`,
        });
        return z.NEVER;
      }
    }
    return value as number[];
  });
}

const historySchema = z
  .object(
    {
      startDay: z.string({ error: required("a day") }).refine(
        (s) => {
          try {
            dayNumber(s);
            return true;
          } catch {
            return false;
          }
        },
        { error: "must be a calendar day written YYYY-MM-DD" },
      ),
      orders: series("orders"),
      revenueCents: series("revenueCents"),
      views: series("views"),
      likes: series("likes"),
      comments: series("comments"),
      shares: series("shares"),
      storesSelling: series("storesSelling"),
    },
    { error: required("an object with startDay and the daily series") },
  )
  .superRefine((h, ctx) => {
    const days = h.orders?.length;
    for (const key of SERIES_KEYS) {
      if (!Array.isArray(h[key]) || !Array.isArray(h.orders)) return;
      if (h[key].length !== days) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `has ${h[key].length} day${h[key].length === 1 ? "" : "s"} but history.orders has ${days}; every series needs one value a day`,
        });
        return;
      }
    }
  });

/**
 * The supplier cost: whole cents, or null when it is unknown (docs/decisions/026). The field must be
 * there (a misspelt column is not silently "unknown"); a CSV cell left empty is null.
 */
const supplierCost = z.unknown().optional().transform((v, ctx): number | null => {
  if (v === undefined) {
    ctx.addIssue({ code: "custom", message: "is required (null or an empty cell when the cost is unknown)" });
    return z.NEVER;
  }
  if (v === null) return null;
  const parsed = cents().safeParse(v);
  if (!parsed.success) {
    ctx.addIssue({ code: "custom", message: parsed.error.issues[0].message });
    return z.NEVER;
  }
  return parsed.data;
});

/** Where a product without sales data came from: a followed store's public catalogue (docs/decisions/026). */
const sourceSchema = z.object(
  {
    kind: z.literal("tracked-store", { error: 'must be "tracked-store"' }),
    store: z
      .string({ error: required("a store domain") })
      .trim()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" }),
    addedAt: isoDate,
  },
  { error: "must be an object { kind, store, addedAt }" },
);

export const ProductImportRowSchema = z.object(
  {
    objectID: z.unknown().optional().transform((v, ctx) => {
      const id = typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? String(v) : typeof v === "string" ? v.trim() : null;
      let message: string | null = null;
      if (v === undefined || v === null) message = "is required";
      else if (id === null) message = "must be text";
      else if (id === "") message = "must not be empty";
      else if (id.length > 100) message = "must be at most 100 characters";
      else if (!OBJECT_ID.test(id)) message = "may only contain letters, digits, '.', '_', ':' and '-'";
      if (message) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return id as string;
    }),
    title: text(300),
    description: text(10_000, { allowEmpty: true }),
    // At least one, checked below: a product from a tracked store may have none (its type names no known niche).
    niches: z
      .array(niche, { error: required("a list of niches") })
      .max(20, { error: "must have at most 20 niches" })
      .transform((list) => dedupe(list)),
    tags: z
      .array(tag, { error: required("a list of tags (may be empty)") })
      .max(50, { error: "must have at most 50 tags" })
      .transform((list) => dedupe(list, (s) => s.toLowerCase())),
    images: z.array(imageUrl, { error: required("a list of image URLs (may be empty)") }).max(20, { error: "must have at most 20 images" }),
    supplierName: optionalText(200),
    supplierUrl: z.unknown().optional().transform((v, ctx) => {
      if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) return null;
      const url = typeof v === "string" ? v.trim() : "";
      if (url.length > 2000 || !/^https?:\/\/\S+$/i.test(url) || !URL.canParse(url)) {
        ctx.addIssue({ code: "custom", message: "must be an http(s) URL (at most 2000 characters)" });
        return z.NEVER;
      }
      return url;
    }),
    costCents: supplierCost,
    priceCents: cents({ min: 1 }),
    /** priceCents' ISO 4217 code: absent, null or "USD" is US dollars (stored as null), "XXX" a currency the store does not publish. */
    priceCurrency: z
      .string({ error: "must be text" })
      .regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code such as "EUR" ("XXX" when the store publishes none)' })
      .nullish()
      .transform((v) => (v === undefined || v === null || v === "USD" ? null : v)),
    shippingCents: cents().nullish().transform((v) => v ?? 0),
    amazonPriceCents: cents({ min: 1 }).nullish().transform((v) => v ?? null),
    firstSeenAt: isoDate,
    lastUpdatedAt: isoDate.nullish().transform((v) => v ?? null),
    randomSortKey: z
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(0, { error: "must not be negative" })
      .max(2_147_483_647, { error: "must be at most 2147483647" })
      .nullish()
      .transform((v) => v ?? null),
    /** Absent for the research catalogue; a tracked store's product has no sales data, so no history. */
    source: sourceSchema.nullish().transform((v) => v ?? null),
    history: z.unknown().optional(),
  },
  { error: "must be an object (one product)" },
).transform((row, ctx) => {
  // The history is required, except for a product from a tracked store, which has none: we did not
  // measure its sales, and a history of zeros would claim "0 orders".
  if (row.niches.length === 0 && row.source === null) {
    ctx.addIssue({ code: "custom", path: ["niches"], message: "must name at least one niche" });
    return z.NEVER;
  }
  if (row.source !== null) {
    if (row.history !== undefined && row.history !== null) {
      ctx.addIssue({ code: "custom", path: ["history"], message: "must be left out for a product from a tracked store (no sales data)" });
      return z.NEVER;
    }
    return { ...row, history: null };
  }
  const history = historySchema.safeParse(row.history);
  if (!history.success) {
    for (const issue of history.error.issues) ctx.addIssue({ ...issue, path: ["history", ...issue.path] } as never);
    return z.NEVER;
  }
  return { ...row, history: history.data as DailySeries };
});

/** One product as written in an import file (JSON/NDJSON); CSV flattens it (PRODUCT_CSV_COLUMNS). */
export interface ProductImportInput {
  objectID: string;
  title: string;
  description: string;
  /** Niche names or slugs; the first is the primary niche. */
  niches: string[];
  tags: string[];
  images: string[];
  supplierName?: string | null;
  supplierUrl?: string | null;
  /** null when the supplier cost is unknown. */
  costCents: number | null;
  priceCents: number;
  /** priceCents' ISO 4217 code; absent or null: US dollars; "XXX": the store publishes no currency (decision 084). */
  priceCurrency?: string | null;
  shippingCents?: number | null;
  amazonPriceCents?: number | null;
  /** ISO 8601: "2026-01-31" or "2026-01-31T12:00:00Z". */
  firstSeenAt: string;
  lastUpdatedAt?: string | null;
  randomSortKey?: number | null;
  history: DailySeries;
}
/** A product from a followed store's public catalogue: no history, since we have no sales data for it. */
export type TrackedStoreProductInput = Omit<ProductImportInput, "history"> & {
  source: { kind: "tracked-store"; store: string; addedAt: string };
};
/** A validated row: niches are slugs, absent optionals are null, dates are Dates; history null without sales data. */
export type ProductImportRow = z.output<typeof ProductImportRowSchema>;

function formatPath(path: PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** One line saying what is wrong: the first problem with its field, and how many more there are. */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues;
  const first = issues[0];
  const where = formatPath(first.path);
  const head = where ? `${where} ${first.message}` : first.message;
  return issues.length > 1 ? `${head} (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : head;
}

export type RowResult = { ok: true; row: ProductImportRow } | { ok: false; reason: string };

export function parseProductRow(input: unknown): RowResult {
  const result = ProductImportRowSchema.safeParse(input);
  if (result.success) return { ok: true, row: result.data as ProductImportRow };
  return { ok: false, reason: describeIssues(result.error) };
}

/** A stable default for randomSortKey: FNV-1a of the objectID, in 0..2^31-1. */
export function defaultRandomSortKey(objectID: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < objectID.length; i++) {
    h ^= objectID.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

// ---- Packed history (ProductHistory columns) ----------------------------------------------------------

/** [1, 2, 3] -> "1,2,3" (JSON.stringify of a number array is V8's fastest way to print it). */
export function packSeries(values: readonly number[]): string {
  return JSON.stringify(values).slice(1, -1);
}

export function unpackSeries(packed: string): number[] {
  if (packed === "") return [];
  return packed.split(",").map(Number);
}

// ---- CSV ----------------------------------------------------------------------------------------------

/**
 * The CSV header (docs/decisions/011). Lists (niches, tags, images) and the history series are
 * "|"-separated in one column; empty optional cells mean "not given".
 */
export const PRODUCT_CSV_COLUMNS = [
  "objectID",
  "title",
  "description",
  "niches",
  "tags",
  "images",
  "supplierName",
  "supplierUrl",
  "costCents",
  "priceCents",
  "shippingCents",
  "amazonPriceCents",
  "firstSeenAt",
  "lastUpdatedAt",
  "randomSortKey",
  "historyStartDay",
  "historyOrders",
  "historyRevenueCents",
  "historyViews",
  "historyLikes",
  "historyComments",
  "historyShares",
  "historyStoresSelling",
] as const;

export type CsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

export const REQUIRED_CSV_COLUMNS: CsvColumn[] = [
  "objectID",
  "title",
  "description",
  "niches",
  "costCents",
  "priceCents",
  "firstSeenAt",
  "historyStartDay",
  "historyOrders",
  "historyRevenueCents",
  "historyViews",
  "historyLikes",
  "historyComments",
  "historyShares",
  "historyStoresSelling",
];

const HISTORY_COLUMNS: Record<SeriesKey, CsvColumn> = {
  orders: "historyOrders",
  revenueCents: "historyRevenueCents",
  views: "historyViews",
  likes: "historyLikes",
  comments: "historyComments",
  shares: "historyShares",
  storesSelling: "historyStoresSelling",
};

export function checkCsvHeader(header: string[]): { missing: string[]; unknown: string[]; duplicate: string[] } {
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const seen = new Set<string>();
  const duplicate: string[] = [];
  for (const h of header) {
    if (seen.has(h)) duplicate.push(h);
    seen.add(h);
  }
  return {
    missing: REQUIRED_CSV_COLUMNS.filter((c) => !seen.has(c)),
    unknown: header.filter((h) => !known.has(h)),
    duplicate,
  };
}

const INTEGER_TEXT = /^-?\d+$/;

/** "42" -> 42; "" -> undefined; anything else stays text so the schema can say what is wrong. */
function cellNumber(cell: string | undefined): number | string | undefined {
  if (cell === undefined) return undefined;
  const s = cell.trim();
  if (s === "") return undefined;
  return INTEGER_TEXT.test(s) ? Number(s) : s;
}

function cellList(cell: string | undefined): string[] | undefined {
  if (cell === undefined) return undefined;
  const s = cell.trim();
  return s === "" ? [] : s.split("|").map((part) => part.trim());
}

function cellText(cell: string | undefined): string | undefined {
  if (cell === undefined) return undefined;
  return cell.trim() === "" ? undefined : cell;
}

/** Turns one CSV record (header order) into the nested row object the schema expects. */
export function csvRecordToRow(header: readonly string[], fields: readonly string[]): unknown {
  if (fields.length !== header.length) {
    return unreadableRow(`has ${fields.length} field${fields.length === 1 ? "" : "s"} but the header has ${header.length}`);
  }
  const cell: Partial<Record<string, string>> = {};
  header.forEach((name, i) => (cell[name] = fields[i]));
  const history: Record<string, unknown> = { startDay: cellText(cell.historyStartDay) };
  for (const key of SERIES_KEYS) {
    const list = cellList(cell[HISTORY_COLUMNS[key]]);
    history[key] = list?.map((v) => cellNumber(v) ?? v);
  }
  return {
    objectID: cellText(cell.objectID),
    title: cell.title,
    description: cell.description ?? "",
    niches: cellList(cell.niches),
    tags: cellList(cell.tags) ?? [],
    images: cellList(cell.images) ?? [],
    supplierName: cellText(cell.supplierName),
    supplierUrl: cellText(cell.supplierUrl),
    // An empty cost cell is an unknown cost (null); a missing column stays missing.
    costCents: cell.costCents === undefined ? undefined : (cellNumber(cell.costCents) ?? null),
    priceCents: cellNumber(cell.priceCents),
    shippingCents: cellNumber(cell.shippingCents),
    amazonPriceCents: cellNumber(cell.amazonPriceCents),
    firstSeenAt: cellText(cell.firstSeenAt),
    lastUpdatedAt: cellText(cell.lastUpdatedAt),
    randomSortKey: cellNumber(cell.randomSortKey),
    history,
  };
}

const UNREADABLE = Symbol("unreadable row");

/** Stands for a row a reader could not turn into an object (bad JSON line, wrong CSV field count). */
export function unreadableRow(reason: string): { [UNREADABLE]: string } {
  return { [UNREADABLE]: reason };
}

/** The reason a reader gave for an unreadable row, or null for a row to validate. */
export function shapeError(row: unknown): string | null {
  if (row && typeof row === "object" && UNREADABLE in row) return String((row as { [UNREADABLE]: unknown })[UNREADABLE]);
  return null;
}

/** The CSV cells of a row (for writers and tests); lists and series are "|"-joined. */
export function rowToCsvFields(row: ProductImportInput): string[] {
  const h = row.history;
  const text = (v: string | number | null | undefined) => (v == null ? "" : String(v));
  const values: Record<CsvColumn, string> = {
    objectID: row.objectID,
    title: row.title,
    description: row.description,
    niches: row.niches.join("|"),
    tags: row.tags.join("|"),
    images: row.images.join("|"),
    supplierName: text(row.supplierName),
    supplierUrl: text(row.supplierUrl),
    costCents: text(row.costCents),
    priceCents: text(row.priceCents),
    shippingCents: text(row.shippingCents),
    amazonPriceCents: text(row.amazonPriceCents),
    firstSeenAt: row.firstSeenAt,
    lastUpdatedAt: text(row.lastUpdatedAt),
    randomSortKey: text(row.randomSortKey),
    historyStartDay: h.startDay,
    historyOrders: h.orders.join("|"),
    historyRevenueCents: h.revenueCents.join("|"),
    historyViews: h.views.join("|"),
    historyLikes: h.likes.join("|"),
    historyComments: h.comments.join("|"),
    historyShares: h.shares.join("|"),
    historyStoresSelling: h.storesSelling.join("|"),
  };
  return PRODUCT_CSV_COLUMNS.map((c) => values[c]);
}

/** RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled. */
export function csvEscape(field: string): string {
  return /[",\r\n]/.test(field) || /^\s|\s$/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

export function toCsvLine(fields: readonly string[]): string {
  return fields.map(csvEscape).join(",");
}

/**
 * An RFC 4180 reader fed one physical line at a time (as node:readline gives them): a quoted field
 * may span lines. push() returns the record once it is complete, else null (more lines needed).
 */
export class CsvLineReader {
  private fields: string[] = [];
  private field = "";
  private inQuotes = false;
  private pending = false;

  /** True while a quoted field is still open (the record continues on the next line). */
  get open(): boolean {
    return this.pending;
  }

  push(line: string): string[] | null {
    if (this.pending) this.field += "\n";
    let i = 0;
    const n = line.length;
    while (i < n) {
      const ch = line[i];
      if (this.inQuotes) {
        if (ch === '"') {
          if (line[i + 1] === '"') {
            this.field += '"';
            i += 2;
            continue;
          }
          this.inQuotes = false;
          i++;
          continue;
        }
        // Copy a run of ordinary characters at once.
        const next = line.indexOf('"', i);
        const end = next < 0 ? n : next;
        this.field += line.slice(i, end);
        i = end;
        continue;
      }
      if (ch === ",") {
        this.fields.push(this.field);
        this.field = "";
        i++;
      } else if (ch === '"' && this.field === "") {
        this.inQuotes = true;
        i++;
      } else {
        const comma = line.indexOf(",", i);
        const end = comma < 0 ? n : comma;
        this.field += line.slice(i, end);
        i = end;
      }
    }
    if (this.inQuotes) {
      this.pending = true;
      return null;
    }
    this.fields.push(this.field.endsWith("\r") ? this.field.slice(0, -1) : this.field);
    const record = this.fields;
    this.fields = [];
    this.field = "";
    this.pending = false;
    return record;
  }
}
