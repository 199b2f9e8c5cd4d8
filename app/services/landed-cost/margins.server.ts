// Product.landedMarginBps, the margin after duty and fees the grid's filter and sort read (decision 065). Owns the
// table of duty layers chosen per guessed HTS code and origin (landedMarginTable: what an import figures each row
// with), and the refresh that figures every product again when that table's fingerprint changed: after a tariff
// import, at start and daily (a layer that starts on a day), and at the end of a product import that ran while the
// layers changed. Idempotent: with the same fingerprint it only records the day it checked.
import { createHash } from "node:crypto";
import { dialectOf, jsonItem, jsonRows, readerFor, retryBusy, type Db, type Dialect } from "~/db.server";
import { AppError } from "~/domain/errors";
import { dayOf, DEFAULT_ORIGIN, dutyFor, endedLayersSentence, originFromSupplier, parseHtsCode } from "~/domain/landed-cost/landed-cost";
import { dutyKey, landedMarginFingerprint, landedMarginOf, type LandedMarginTable } from "~/domain/landed-cost/margin";
import type { Jobs } from "~/services/jobs.server";
import { nicheHtsTable, tariffRowsForMany } from "~/services/landed-cost/tariffs.server";

/** Products read and written per statement by the refresh. */
export const REFRESH_CHUNK = 5_000;

/** Every origin a guess can give (the supplier's marketplace, else the default). */
const GUESSED_ORIGINS = [...new Set([DEFAULT_ORIGIN, originFromSupplier("AliExpress", "https://aliexpress.com").origin])];

/** The layers for every guessed code and origin on the day: a few queries, whatever the catalogue's size. */
export async function landedMarginTable(db: Db, now: Date = new Date()): Promise<LandedMarginTable> {
  const niches = nicheHtsTable();
  const codes = [...new Set(Object.values(niches).map((n) => parseHtsCode(n.htsCode)))];
  const rows = await tariffRowsForMany(db, codes);
  const asOf = dayOf(now);
  const duties: Record<string, LandedMarginTable["duties"][string]> = {};
  for (const hts of codes) {
    for (const origin of GUESSED_ORIGINS) {
      try {
        duties[dutyKey(hts, origin)] = dutyFor({ rows: rows.get(hts) ?? [], hts, origin, asOf, valueCents: 0 });
      } catch (error) {
        // No MFN rate for the code: no duty can be figured, so its products have no stored margin after duty.
        if (!(error instanceof AppError)) throw error;
        duties[dutyKey(hts, origin)] = null;
      }
    }
  }
  return { asOf, niches, duties };
}

export function landedMarginKey(table: LandedMarginTable): string {
  return createHash("sha256").update(landedMarginFingerprint(table)).digest("hex").slice(0, 32);
}

/** The day the stored figures were last checked against the layers in force, and what they were figured with. */
export async function landedMarginState(db: Db): Promise<{ key: string | null; asOf: string | null }> {
  const rows = await db.$queryRawUnsafe<{ landedMarginKey: string | null; landedMarginAsOf: string | null }[]>(
    `SELECT "landedMarginKey", "landedMarginAsOf" FROM "CatalogState" WHERE "id" = 1`,
  );
  return { key: rows[0]?.landedMarginKey ?? null, asOf: rows[0]?.landedMarginAsOf ?? null };
}

async function recordState(db: Db, key: string, asOf: string, bumpVersion: boolean): Promise<void> {
  const at = new Date().toISOString().replace("Z", "+00:00");
  await retryBusy(() =>
    db.$executeRawUnsafe(
      `INSERT INTO "CatalogState" ("id", "version", "updatedAt", "landedMarginKey", "landedMarginAsOf") VALUES (1, ${bumpVersion ? 1 : 0}, ?, ?, ?)
       ON CONFLICT("id") DO UPDATE SET "landedMarginKey" = excluded."landedMarginKey", "landedMarginAsOf" = excluded."landedMarginAsOf"
       ${bumpVersion ? `, "version" = "CatalogState"."version" + 1, "updatedAt" = excluded."updatedAt"` : ""}`,
      at,
      key,
      asOf,
    ),
  );
}

/** [[id, landedMarginBps], ...] as one JSON parameter (json_each on SQLite, jsonb_array_elements on PostgreSQL). */
const updateSql = (dialect: Dialect) =>
  `UPDATE "Product" SET "landedMarginBps" = ${jsonItem(dialect, "j", 1, "Product", "landedMarginBps")} ` +
  `FROM ${jsonRows(dialect, "j")} WHERE "Product"."id" = ${jsonItem(dialect, "j", 0, "Product", "id")}`;
const READ_SQL =
  `SELECT "id", "objectID", "priceCents", "priceCurrency", "costCents", "shippingCents", "niches", "supplierName", "supplierUrl", "landedMarginBps" ` +
  `FROM "Product" WHERE "id" > ? ORDER BY "id" LIMIT ?`;

type Row = [number, string, number, string | null, number | null, number, string, string | null, string | null, number | null];

async function readChunk(db: Db, afterId: number, limit: number): Promise<Row[]> {
  const reader = readerFor(db);
  const raw = reader ? await reader.rows(READ_SQL, [afterId, limit]) : ((await db.$queryRawUnsafe<Record<string, unknown>[]>(READ_SQL, afterId, limit)).map((r) => Object.values(r)) as unknown[][]);
  return raw.map((r) => [Number(r[0]), String(r[1]), Number(r[2]), r[3] === null ? null : String(r[3]), r[4] === null ? null : Number(r[4]), Number(r[5]), String(r[6]), r[7] === null ? null : String(r[7]), r[8] === null ? null : String(r[8]), r[9] === null ? null : Number(r[9])]);
}

function nichesOf(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export interface LandedMarginRefresh {
  /** false: the stored figures already matched the layers in force (only the day checked was recorded). */
  refigured: boolean;
  products: number;
  /** Products whose stored margin moved. */
  changed: number;
  ms: number;
  key: string;
  asOf: string;
  /** The layers whose validity ended and that are no longer counted (one sentence), for the operator's log line. */
  lapsed: string[];
}

/** The layers of the table's duties whose validity ended (not counted, decision 081), each said once. */
function lapsedWarnings(table: Awaited<ReturnType<typeof landedMarginTable>>): string[] {
  const sentence = endedLayersSentence(Object.values(table.duties).flatMap((duty) => duty?.ended ?? []));
  return sentence ? [sentence] : [];
}

/**
 * Figures every product's margin after duty and fees again when the layers, guesses or fees they were figured with
 * changed (or always, with `force`), writing only the rows whose figure moved, REFRESH_CHUNK at a time (one read and
 * one UPDATE per chunk, its own short write). Bumps the catalogue version when a figure moved (the built-in engine
 * reloads) and hands the moved products to `onChanged` (the Algolia push).
 */
export async function refreshLandedMargins(
  db: Db,
  options: { now?: Date; force?: boolean; chunk?: number; onChanged?: (objectIDs: string[]) => Promise<unknown> } = {},
): Promise<LandedMarginRefresh> {
  const started = Date.now();
  const table = await landedMarginTable(db, options.now ?? new Date());
  const key = landedMarginKey(table);
  const state = await landedMarginState(db);
  if (!options.force && state.key === key) {
    if (state.asOf !== table.asOf) await recordState(db, key, table.asOf, false);
    return { refigured: false, products: 0, changed: 0, ms: Date.now() - started, key, asOf: table.asOf, lapsed: lapsedWarnings(table) };
  }
  const chunk = options.chunk ?? REFRESH_CHUNK;
  let afterId = 0;
  let products = 0;
  let changed = 0;
  for (;;) {
    const rows = await readChunk(db, afterId, chunk);
    if (rows.length === 0) break;
    afterId = rows[rows.length - 1][0];
    products += rows.length;
    const moved: [number, number | null][] = [];
    const movedObjectIDs: string[] = [];
    for (const [id, objectID, priceCents, priceCurrency, costCents, shippingCents, niches, supplierName, supplierUrl, stored] of rows) {
      const figure = landedMarginOf({ priceCents, priceCurrency, costCents, shippingCents, niches: nichesOf(niches), supplierName, supplierUrl }, table);
      if (figure === stored) continue;
      moved.push([id, figure]);
      movedObjectIDs.push(objectID);
    }
    if (moved.length > 0) {
      await retryBusy(() => db.$executeRawUnsafe(updateSql(dialectOf(db)), JSON.stringify(moved)));
      changed += moved.length;
      if (options.onChanged) await options.onChanged(movedObjectIDs);
    }
  }
  await recordState(db, key, table.asOf, changed > 0);
  return { refigured: true, products, changed, ms: Date.now() - started, key, asOf: table.asOf, lapsed: lapsedWarnings(table) };
}

/** The job that checks the stored figures against the layers in force (at start, keyed, and daily). */
export const LANDED_MARGINS_JOB = "landed-margins.refresh";
export const LANDED_MARGINS_SCHEDULE = { name: "landed-margins", pattern: "10 0 * * *" } as const;

/** The refresh as a job kind with its daily schedule (once a day however many processes run), and its start-up run. */
export function createLandedMargins(deps: {
  db: Db;
  onChanged?: (objectIDs: string[]) => Promise<unknown>;
  /** Where the operator is told that a layer ended with nothing newer loaded (it is no longer counted). */
  log?: { warn(details: object, message: string): void };
}) {
  const refresh = (options: { force?: boolean } = {}) => refreshLandedMargins(deps.db, { ...options, onChanged: deps.onChanged });
  return {
    refresh,
    registerJobs(on: Pick<Jobs, "register" | "schedule">): void {
      on.register(LANDED_MARGINS_JOB, async () => {
        const result = await refresh();
        if (result.lapsed.length > 0) {
          deps.log?.warn(
            { lapsed: result.lapsed, asOf: result.asOf },
            "A duty layer ended and nothing newer is loaded for its series, so it is no longer counted: check whether something replaced it and load a current tariff table if so (npm run tariffs -- import FILE, docs/decisions/052, 081).",
          );
        }
      });
      on.schedule(LANDED_MARGINS_SCHEDULE.name, LANDED_MARGINS_SCHEDULE.pattern, LANDED_MARGINS_JOB);
    },
    /** At start, keyed (one run however many processes start): a catalogue from before migration 034 is figured here. */
    async queueAtStart(on: Pick<Jobs, "enqueue">): Promise<void> {
      await on.enqueue(LANDED_MARGINS_JOB, {}, { key: LANDED_MARGINS_JOB });
    },
  };
}
