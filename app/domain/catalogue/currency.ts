// A store's currency from its public answers (decision 089): /meta.json's `currency` first, then /cart.js's.
// Both are public GETs any visitor's browser makes; a GET of /cart.js reads the visitor's (empty) cart and
// creates none. Unknown stays unknown (null), never dollars: an answer that is not JSON (a 404 page, a wall for
// bots, a theme's HTML) is skipped with a sentence and the next source is tried.

export type CurrencySourcePath = "/meta.json" | "/cart.js";

/** One answer as the crawler saw it. */
export interface CurrencyAnswer {
  status: number;
  /** The Content-Type header, lower case ("" when absent). */
  contentType: string;
  body: string;
}

export type CurrencyReading = { currency: string; from: CurrencySourcePath } | { currency: null; skipped: string };

/** An ISO 4217 code a store can price in: three capitals, and not ISO's "no currency" (XXX) or a test code (XTS). */
export const isPriceCurrency = (value: unknown): value is string => typeof value === "string" && /^[A-Z]{3}$/.test(value) && value !== "XXX" && value !== "XTS";

/** The currency one answer states, or the sentence saying why it states none. */
export function currencyFromAnswer(path: CurrencySourcePath, answer: CurrencyAnswer): CurrencyReading {
  if (answer.status !== 200) return { currency: null, skipped: `${path} answered ${answer.status}: no currency there.` };
  const body = answer.body.trimStart();
  if (answer.contentType.includes("html") || body.startsWith("<")) {
    return { currency: null, skipped: `${path} answered a web page, not JSON: we read no currency from it.` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { currency: null, skipped: `${path} answered text that is not JSON: we read no currency from it.` };
  }
  const value = parsed && typeof parsed === "object" ? (parsed as { currency?: unknown }).currency : undefined;
  if (isPriceCurrency(value)) return { currency: value, from: path };
  return {
    currency: null,
    skipped: value === undefined ? `${path} states no currency.` : `${path} states a currency we do not recognise (${JSON.stringify(value).slice(0, 20)}).`,
  };
}

/** A store's currency from its answers in order: the first that states one, else null with every skip's sentence. */
export function storeCurrency(readings: CurrencyReading[]): { currency: string | null; from: CurrencySourcePath | null; note: string | null } {
  const found = readings.find((r): r is Extract<CurrencyReading, { currency: string }> => r.currency !== null);
  if (found) return { currency: found.currency, from: found.from, note: null };
  const skips = readings.map((r) => ("skipped" in r ? r.skipped : "")).filter(Boolean);
  return { currency: null, from: null, note: skips.length ? `Currency unknown: ${skips.join(" ")}` : null };
}
