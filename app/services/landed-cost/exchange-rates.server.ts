// Reference exchange rates as dated data (decision 089): the table conversions use (the newest ExchangeRateTable
// row, else the committed starter in content/exchange-rates/), importing a file (`npm run rates -- import FILE`:
// the ECB's XML or CSV, or a JSON snapshot), and the daily "rates.refresh" job that reads the ECB's daily XML
// through the SSRF-safe fetcher. With no network the job logs a sentence and the table in use stays as it is.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Db } from "~/db.server";
import { parseRateFile, parseRateJson, RateFileError, type RateTable } from "~/domain/landed-cost/exchange-rates";
import type { SafeFetcher } from "~/integrations/safe-fetch.server";
import type { Jobs } from "~/services/jobs.server";

export const STARTER_RATES_FILE = path.resolve("content/exchange-rates/ECB-2022-07-18.json");
export const RATES_JOB = "rates.refresh";
/** Daily at 16:40 UTC: after the ECB publishes (around 16:00 CET) on a working day. */
export const RATES_SCHEDULE = { name: "rates.refresh", pattern: "40 16 * * *" } as const;

let starter: RateTable | null = null;

/** The committed starter snapshot (read once). */
export function starterRateTable(): RateTable {
  starter ??= parseRateJson(readFileSync(STARTER_RATES_FILE, "utf8"));
  return starter;
}

const ratesJson = z.record(z.string(), z.string());

/** The newest imported day, else the starter. */
export async function currentRateTable(db: Db): Promise<RateTable> {
  const row = await db.exchangeRateTable.findFirst({ orderBy: { date: "desc" }, select: { date: true, source: true, rates: true } });
  if (!row) return starterRateTable();
  const rates = ratesJson.safeParse(JSON.parse(row.rates));
  return rates.success ? { source: row.source, date: row.date, base: "EUR", rates: rates.data } : starterRateTable();
}

/** Writes one day's table (a day already stored is replaced: the publisher's own correction wins). */
export async function saveRateTable(db: Db, table: RateTable): Promise<void> {
  const data = { source: table.source, base: table.base, rates: JSON.stringify(table.rates) };
  await db.exchangeRateTable.upsert({ where: { date: table.date }, create: { date: table.date, ...data }, update: { ...data, importedAt: new Date() } });
}

/** `npm run rates -- import FILE`: the ECB's XML or CSV, or a JSON snapshot. A file that is none of them throws RateFileError. */
export async function importRateFile(db: Db, file: string): Promise<RateTable> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new RateFileError(`${file} could not be read.`);
  }
  const table = parseRateFile(text);
  await saveRateTable(db, table);
  return table;
}

export type RefreshOutcome =
  | { kind: "imported"; date: string; currencies: number }
  | { kind: "kept"; date: string; reason: string };

/**
 * Reads the ECB's daily XML at `url` and stores its day. Any failure (no network, an error status, a page that is
 * not the rates XML) keeps the table in use and says why; it never throws, so the job does not retry all day.
 */
export async function refreshRates(db: Db, deps: { fetcher: SafeFetcher; url: string }): Promise<RefreshOutcome> {
  const kept = async (reason: string): Promise<RefreshOutcome> => ({ kind: "kept", date: (await currentRateTable(db)).date, reason });
  let text: string;
  try {
    const res = await deps.fetcher.fetch(deps.url, { headers: { accept: "application/xml, text/xml" }, maxBytes: 512 * 1024 });
    if (res.status !== 200) return kept(`${deps.url} answered ${res.status}.`);
    text = res.text();
  } catch (error) {
    return kept(`${deps.url} could not be read (${(error as Error).message}).`);
  }
  let table: RateTable;
  try {
    table = parseRateFile(text);
  } catch (error) {
    return kept(`${deps.url} did not send the rates XML: ${(error as Error).message}`);
  }
  await saveRateTable(db, table);
  return { kind: "imported", date: table.date, currencies: Object.keys(table.rates).length };
}

export interface RateJobDeps {
  db: Db;
  fetcher: SafeFetcher;
  /** EXCHANGE_RATES_URL; "off": the job is not scheduled (the table changes only by import). */
  url: string;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

export function registerRateJobs(jobs: Jobs, deps: RateJobDeps): void {
  if (deps.url === "off") return;
  jobs.register(RATES_JOB, async () => {
    const outcome = await refreshRates(deps.db, deps);
    if (outcome.kind === "imported") deps.log.info(outcome, `Reference rates of ${outcome.date} stored (${outcome.currencies} currencies).`);
    else deps.log.warn(outcome, `Reference rates not refreshed, the table of ${outcome.date} stays in use: ${outcome.reason}`);
  });
  jobs.schedule(RATES_SCHEDULE.name, RATES_SCHEDULE.pattern, RATES_JOB);
}
