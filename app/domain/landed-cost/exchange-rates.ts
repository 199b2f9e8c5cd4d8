// Reference exchange rates as dated data, and the one conversion every cross-store price figure uses (decision 089).
//
// A rate table is one day's European Central Bank euro reference rates: units of each currency for one euro, as
// the ECB publishes them (decimal text, kept exact). Conversions run on integer cents in exact integer arithmetic
// (BigInt), rounded half-up to the cent, and every converted amount carries the rate's date and the original
// amount and currency. A currency that is unknown (null) or absent from the table never converts: the answer is
// null, never a guess. The ECB's daily XML (eurofxref-daily.xml) and its CSV (eurofxref.csv, in eurofxref.zip)
// are read here; the file and network parts live in app/services/landed-cost/exchange-rates.server.ts.

/** One day's reference rates: `rates[code]` is that currency's units for one `base` unit, as published. */
export interface RateTable {
  /** The publisher and the document, in words ("European Central Bank, euro foreign exchange reference rates"). */
  source: string;
  /** The day the rates are for (YYYY-MM-DD), as the publisher dates them. */
  date: string;
  base: "EUR";
  /** ISO 4217 code -> decimal text ("1.0131"), at most 6 decimals. The base itself is implied (1). */
  rates: Record<string, string>;
}

/** An amount in cents of a currency, and when it was converted, from what and at which day's rate. */
export interface ComparableMoney {
  cents: number;
  currency: string;
  /** Present when converted: the amount as the store listed it. */
  convertedFrom?: { cents: number; currency: string };
  /** Present when converted: the date of the reference rate used (YYYY-MM-DD). */
  rateDate?: string;
}

export const ECB_SOURCE = "European Central Bank, euro foreign exchange reference rates";
export const ECB_DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";

export class RateFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RateFileError";
  }
}

const ISO = /^[A-Z]{3}$/;
const RATE = /^\d{1,12}(\.\d{1,6})?$/;
const SCALE = 1_000_000n;

/** A published rate as millionths (exact): "1.0131" -> 1013100n. Null for text that is not a positive decimal. */
function micro(rate: string): bigint | null {
  if (!RATE.test(rate)) return null;
  const [whole, fraction = ""] = rate.split(".");
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(6, "0"));
  return value > 0n ? value : null;
}

function rateOf(table: RateTable, code: string): bigint | null {
  if (code === table.base) return SCALE;
  const text = table.rates[code];
  return text === undefined ? null : micro(text);
}

/** Whether the table can convert this currency (the base, or a code it lists). Unknown (null) never can. */
export function canConvert(currency: string | null | undefined, table: RateTable | null): boolean {
  return !!currency && !!table && rateOf(table, currency) !== null;
}

/**
 * `cents` of `from` in `to` at the table's rates (through the euro), rounded half-up to the cent; null when either
 * currency is unknown or not in the table, or the amount is not a whole number of cents. The same currency comes
 * back as it is, with no rate date (nothing was converted).
 */
export function convertCents(cents: number, from: string | null | undefined, to: string, table: RateTable | null): ComparableMoney | null {
  if (!Number.isSafeInteger(cents) || !from || !ISO.test(to)) return null;
  if (from === to) return { cents, currency: to };
  if (!table) return null;
  const rateFrom = rateOf(table, from);
  const rateTo = rateOf(table, to);
  if (rateFrom === null || rateTo === null) return null;
  const numerator = BigInt(cents) * rateTo;
  const sign = numerator < 0n ? -1n : 1n;
  // Half-up on the magnitude: (2n + d) / 2d, floored, is n/d rounded to the nearest cent with halves away from zero.
  const rounded = ((2n * sign * numerator + rateFrom) / (2n * rateFrom)) * sign;
  return { cents: Number(rounded), currency: to, convertedFrom: { cents, currency: from }, rateDate: table.date };
}

/** "€20.00 EUR at the ECB rate of 2022-07-18" style note for a converted amount; "" when nothing was converted. */
export function conversionNote(money: ComparableMoney): string {
  if (!money.convertedFrom || !money.rateDate) return "";
  const from = money.convertedFrom;
  return `converted from ${(from.cents / 100).toFixed(2)} ${from.currency} at the reference rate of ${money.rateDate}`;
}

// ---------------------------------------------------------------------------------------------------------
// Reading published files

function checked(date: string, rates: Record<string, string>, source: string): RateTable {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new RateFileError(`The rates file's date "${date}" is not a calendar day (YYYY-MM-DD).`);
  }
  const codes = Object.keys(rates);
  if (codes.length === 0) throw new RateFileError("The rates file lists no currency with a rate.");
  for (const code of codes) {
    if (!ISO.test(code)) throw new RateFileError(`"${code}" is not an ISO 4217 currency code.`);
    if (micro(rates[code]) === null) throw new RateFileError(`The rate for ${code} ("${rates[code]}") is not a positive number with at most 6 decimals.`);
  }
  return { source, date, base: "EUR", rates: Object.fromEntries(codes.sort().map((c) => [c, rates[c]])) };
}

/** The ECB's daily XML (gesmes:Envelope > Cube > Cube time > Cube currency rate). Only the first (newest) day is kept. */
export function parseEcbXml(text: string): RateTable {
  if (!/<gesmes:Envelope|<Cube/.test(text)) throw new RateFileError("The file is not the ECB's reference-rate XML (no <Cube> elements).");
  const day = /<Cube\s+time=['"]([^'"]+)['"]\s*>([\s\S]*?)<\/Cube>/.exec(text);
  if (!day) throw new RateFileError("The ECB XML has no dated <Cube time='...'> element.");
  const rates: Record<string, string> = {};
  for (const m of day[2].matchAll(/<Cube\s+currency=['"]([^'"]*)['"]\s+rate=['"]([^'"]*)['"]\s*\/>/g)) rates[m[1]] = m[2];
  return checked(day[1], rates, ECB_SOURCE);
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "18 July 2022" (eurofxref.csv) or "2022-07-18" (eurofxref-hist.csv) as YYYY-MM-DD; the text itself otherwise. */
function csvDate(text: string): string {
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text);
  const month = m ? MONTHS.indexOf(m[2].toLowerCase()) : -1;
  return m && month >= 0 ? `${m[3]}-${String(month + 1).padStart(2, "0")}-${m[1].padStart(2, "0")}` : text;
}

/** The ECB's CSV: a "Date, USD, JPY, ..." header and one row a day (newest first); only the first row is kept. "N/A" cells are left out. */
export function parseEcbCsv(text: string): RateTable {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = (lines[0] ?? "").split(",").map((c) => c.trim());
  if (header[0] !== "Date" || lines.length < 2) throw new RateFileError('The CSV is not the ECB\'s reference-rate shape (a "Date, USD, ..." header and a row of rates).');
  const row = lines[1].split(",").map((c) => c.trim());
  const rates: Record<string, string> = {};
  header.forEach((code, i) => {
    if (i > 0 && code && row[i] && row[i] !== "N/A") rates[code] = row[i];
  });
  return checked(csvDate(row[0]), rates, ECB_SOURCE);
}

/** A committed snapshot (content/exchange-rates/*.json: { source, sourceUrl?, date, base: "EUR", rates }). */
export function parseRateJson(text: string): RateTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new RateFileError("The JSON rates file could not be read as JSON.");
  }
  const r = raw as Partial<RateTable> | null;
  if (!r || typeof r !== "object" || r.base !== "EUR" || typeof r.date !== "string" || typeof r.source !== "string" || !r.rates || typeof r.rates !== "object") {
    throw new RateFileError('The JSON rates file needs { source, date, base: "EUR", rates: { CODE: "rate" } }.');
  }
  const rates = Object.fromEntries(Object.entries(r.rates).map(([k, v]) => [k, String(v)]));
  return checked(r.date, rates, r.source);
}

/** Any of the three shapes, told apart by their first characters. */
export function parseRateFile(text: string): RateTable {
  const start = text.trimStart();
  if (start.startsWith("{")) return parseRateJson(start);
  if (start.startsWith("<")) return parseEcbXml(start);
  return parseEcbCsv(start);
}
