// The US duty table (decisions 052, 081): dated rows in TariffLayer, never constants in code. Owns loading the
// starter table (content/tariffs/, when no row of its edition is loaded), importing a layers file or a full USITC revision
// (`npm run tariffs -- import FILE`), reading the rows that can apply to one HTS code, and the HTS lines (with their
// descriptions) that a product's title is matched against.
import { readFileSync } from "node:fs";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { dialectOf, readerFor, type Db } from "~/db.server";
import { CsvLineReader } from "~/domain/products/product-import";
import { indexHtsLines, type HtsIndex } from "~/domain/landed-cost/hts-match";
import { parseHtsCode, type NicheHtsGuess, type TariffKind, type TariffRow } from "~/domain/landed-cost/landed-cost";
import { LayersFileSchema, layerRows, usitcCsvColumns, usitcJsonLines, usitcRows, type LayersFile, type UsitcLine } from "~/domain/landed-cost/tariff-file";

export const STARTER_TARIFF_FILE = path.resolve("content/tariffs/us-starter-2026-12-07.json");

let starter: LayersFile | null = null;

/** The starter table as shipped (read once). */
export function starterTable(): LayersFile {
  starter ??= LayersFileSchema.parse(JSON.parse(readFileSync(STARTER_TARIFF_FILE, "utf8")));
  return starter;
}

/** HTS guesses per niche, with their reasons (from the starter table's `niches`). */
export function nicheHtsTable(): Record<string, NicheHtsGuess> {
  return starterTable().niches;
}

/** The table the duties come from, as a page says it: "2026 HTS Revision 20 (exported 2026-09-29)". */
export function tariffTableName(): string {
  const file = starterTable();
  return file.htsRevision ? `${file.htsRevision}${file.htsExported ? ` (exported ${file.htsExported})` : ""}` : file.edition;
}

let htsIndex: { index: HtsIndex; unchecked301: Set<string> } | null = null;

/** The HTS lines of the starter table, indexed once for the title matcher, and the lines whose Section 301 list was not checked. */
export function htsLineIndex(): { index: HtsIndex; unchecked301: Set<string> } {
  htsIndex ??= {
    index: indexHtsLines(starterTable().htsLines),
    unchecked301: new Set(starterTable().htsLines.filter((l) => !l.section301Checked).map((l) => l.htsCode)),
  };
  return htsIndex;
}

const COLUMNS = ["kind", "series", "name", "htsPrefix", "origins", "exemptPrefixes", "rateBp", "perItemCents", "validFrom", "validTo", "source", "revision"] as const;
const BATCH = 500;
/** PostgreSQL's types of COLUMNS: a VALUES list read by INSERT ... SELECT has no column to take them from (decision 098). */
const POSTGRES_TYPES = ["text", "text", "text", "text", "text", "text", "int", "int", "text", "text", "text", "text"] as const;

function values(row: TariffRow, revision: string): unknown[] {
  return [row.kind, row.series, row.name, row.htsPrefix, JSON.stringify(row.origins), JSON.stringify(row.exemptPrefixes), row.rateBp, row.perItemCents, row.validFrom, row.validTo, row.source, revision];
}

async function insertRows(db: Db, rows: readonly TariffRow[], revision: string, onlyIfMissing = false): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const postgres = dialectOf(db) === "postgresql";
    const cells = COLUMNS.map((_, c) => (postgres ? `?::${POSTGRES_TYPES[c]}` : "?")).join(",");
    const placeholders = batch.map(() => `(${cells})`).join(",");
    const params = batch.flatMap((r) => values(r, revision));
    // The starter load is one statement that inserts only while no row of its edition exists, so two processes
    // starting at once load it once.
    inserted += onlyIfMissing
      ? await db.$executeRawUnsafe(
          `INSERT INTO "TariffLayer" (${COLUMNS.map((c) => `"${c}"`).join(",")}) SELECT * FROM (VALUES ${placeholders}) ${postgres ? "AS v " : ""}WHERE NOT EXISTS (SELECT 1 FROM "TariffLayer" WHERE "revision" = ?)`,
          ...params,
          revision,
        )
      : await db.$executeRawUnsafe(`INSERT INTO "TariffLayer" (${COLUMNS.map((c) => `"${c}"`).join(",")}) VALUES ${placeholders}`, ...params);
  }
  return inserted;
}

/** Databases whose starter edition is known current: asked once per process. */
const starterCurrent = new WeakSet<object>();

/**
 * Loads the starter table when the duty table has none of this edition: on first use after migration 027, and
 * after an upgrade that ships a corrected starter (decision 066), whose rows then replace the earlier starter's.
 * Rows an operator imported (`npm run tariffs -- import`) have their own revision and stay.
 */
export async function ensureTariffTable(db: Db): Promise<void> {
  if (starterCurrent.has(db)) return;
  const file = starterTable();
  // Asked on every grid and product page until it holds: a prepared statement where there is a SqlReader (decision 039).
  const reader = readerFor(db);
  const current = reader
    ? (await reader.rows('SELECT 1 FROM "TariffLayer" WHERE "revision" = ? LIMIT 1', [file.edition])).length > 0
    : (await db.tariffLayer.findFirst({ where: { revision: file.edition }, select: { id: true } })) !== null;
  if (!current) {
    const rows = layerRows(file);
    if (rows.length > BATCH) throw new Error("the starter tariff table must fit one statement");
    // Each statement checks the edition is still missing, so two processes starting at once replace it once.
    await db.$executeRawUnsafe(
      `DELETE FROM "TariffLayer" WHERE "revision" LIKE 'us-starter-%' AND "revision" <> ? AND NOT EXISTS (SELECT 1 FROM "TariffLayer" WHERE "revision" = ?)`,
      file.edition,
      file.edition,
    );
    await insertRows(db, rows, file.edition, true);
  }
  starterCurrent.add(db);
}

const prefixesOf = (htsDigits: string) => {
  const prefixes = [""];
  for (let n = 2; n <= htsDigits.length; n += 2) prefixes.push(htsDigits.slice(0, n));
  return prefixes;
};

/** Every row that could apply to these HTS digits (any origin, any date): the domain picks among them. */
export async function tariffRowsFor(db: Db, htsDigits: string): Promise<TariffRow[]> {
  return (await tariffRowsForMany(db, [htsDigits])).get(htsDigits) ?? [];
}

/** tariffRowsFor for several codes at once: one query for a grid page's cards instead of one per code. */
export async function tariffRowsForMany(db: Db, htsCodes: readonly string[]): Promise<Map<string, TariffRow[]>> {
  await ensureTariffTable(db);
  const prefixes = [...new Set(htsCodes.flatMap(prefixesOf))];
  const rows = (await readTariffLayers(db, prefixes)).map((r) => ({
    ...r,
    kind: r.kind as TariffKind,
    origins: JSON.parse(r.origins) as string[],
    exemptPrefixes: JSON.parse(r.exemptPrefixes) as string[],
  }));
  return new Map(
    htsCodes.map((hts) => {
      const own = new Set(prefixesOf(hts));
      return [hts, rows.filter((r) => own.has(r.htsPrefix))];
    }),
  );
}

const TARIFF_COLUMNS = ["kind", "series", "name", "htsPrefix", "origins", "exemptPrefixes", "rateBp", "perItemCents", "validFrom", "validTo", "source"] as const;
type TariffLayerRow = { kind: string; series: string; name: string; htsPrefix: string; origins: string; exemptPrefixes: string; rateBp: number | null; perItemCents: number | null; validFrom: string; validTo: string | null; source: string };

/**
 * The layers whose prefix is one of these, in the table's order. Every grid and product page reads them, so it is a
 * prepared statement on the SqlReader (~0.02 ms against ~1 ms for a Prisma query; docs/decisions/017, 039), with
 * Prisma where there is no reader (a transaction's client).
 */
async function readTariffLayers(db: Db, prefixes: string[]): Promise<TariffLayerRow[]> {
  const reader = readerFor(db);
  if (!reader) {
    return db.tariffLayer.findMany({
      where: { htsPrefix: { in: prefixes } },
      select: Object.fromEntries(TARIFF_COLUMNS.map((c) => [c, true])) as Record<(typeof TARIFF_COLUMNS)[number], true>,
      orderBy: { id: "asc" },
    });
  }
  const sql = `SELECT ${TARIFF_COLUMNS.map((c) => `"${c}"`).join(", ")} FROM "TariffLayer" WHERE "htsPrefix" IN (${prefixes.map(() => "?").join(",")}) ORDER BY "id"`;
  return (await reader.rows(sql, prefixes)).map((row) => {
    const [kind, series, name, htsPrefix, origins, exemptPrefixes, rateBp, perItemCents, validFrom, validTo, source] = row;
    const text = (v: unknown) => String(v);
    const count = (v: unknown) => (v === null ? null : Number(v));
    return {
      kind: text(kind),
      series: text(series),
      name: text(name),
      htsPrefix: text(htsPrefix),
      origins: text(origins),
      exemptPrefixes: text(exemptPrefixes),
      rateBp: count(rateBp),
      perItemCents: count(perItemCents),
      validFrom: text(validFrom),
      validTo: validTo === null ? null : text(validTo),
      source: text(source),
    };
  });
}

export class TariffFileError extends Error {}

export interface TariffImportSummary {
  format: "layers" | "usitc-json" | "usitc-csv";
  revision: string;
  inserted: number;
  /** MFN rows of earlier revisions closed on the new revision's first day. */
  closed: number;
  skipped: { htsno: string; general: string }[];
}

/**
 * Imports a tariff file. A layers file (our JSON: { edition, layers }) adds its rows as they are. A USITC
 * revision (JSON or CSV as USITC publishes it) adds an MFN row per line with a general rate, valid from
 * `validFrom`, and closes the open MFN rows of earlier tables on that day, so a line the new revision dropped is
 * flagged instead of silently kept. Nothing is written when the file cannot be read.
 */
export async function importTariffFile(db: Db, file: string, options: { validFrom: string; revision?: string }): Promise<TariffImportSummary> {
  await ensureTariffTable(db);
  const lower = file.toLowerCase();
  if (lower.endsWith(".csv")) {
    const lines = await readUsitcCsv(file);
    return importUsitc(db, lines, "usitc-csv", options.revision ?? path.basename(file), options.validFrom);
  }
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new TariffFileError(`${file} is not readable JSON or CSV: ${(error as Error).message}`);
  }
  const usitc = usitcJsonLines(data);
  if (usitc) return importUsitc(db, usitc, "usitc-json", options.revision ?? path.basename(file), options.validFrom);
  const parsed = LayersFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TariffFileError(`${file} is neither a USITC export (htsno, general) nor a layers file: ${issue.path.join(".") || "file"} ${issue.message}`);
  }
  for (const niche of Object.values(parsed.data.niches)) parseHtsCode(niche.htsCode);
  const inserted = await insertRows(db, layerRows(parsed.data), options.revision ?? parsed.data.edition);
  return { format: "layers", revision: options.revision ?? parsed.data.edition, inserted, closed: 0, skipped: [] };
}

async function importUsitc(db: Db, lines: UsitcLine[], format: "usitc-json" | "usitc-csv", revision: string, validFrom: string): Promise<TariffImportSummary> {
  const { rows, skipped } = usitcRows(lines, revision, validFrom);
  if (rows.length === 0) throw new TariffFileError(`no HTS line in ${revision} has a general rate we can read`);
  const closed = await db.tariffLayer.updateMany({
    where: { kind: "mfn", validTo: null, validFrom: { lt: validFrom } },
    data: { validTo: validFrom },
  });
  const inserted = await insertRows(db, rows, revision);
  return { format, revision, inserted, closed: closed.count, skipped };
}

async function readUsitcCsv(file: string): Promise<UsitcLine[]> {
  const input = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  const reader = new CsvLineReader();
  let columns: { htsno: number; general: number } | null = null;
  const lines: UsitcLine[] = [];
  for await (const line of input) {
    const fields = reader.push(line);
    if (!fields) continue;
    if (!columns) {
      columns = usitcCsvColumns(fields);
      if (!columns) throw new TariffFileError(`${file} has no "HTS Number" and "General Rate of Duty" columns (the USITC CSV export's header)`);
      continue;
    }
    lines.push({ htsno: fields[columns.htsno] ?? "", general: fields[columns.general] ?? "" });
  }
  if (!columns) throw new TariffFileError(`${file} is empty`);
  return lines;
}
