// A store's currency as its public answers state it (decision 089): /meta.json, then /cart.js when /meta.json
// names none (the real stores of issue 37 answered 404 for it). Both are GETs any visitor's browser makes through
// the same polite session as the catalogue (robots.txt, pacing); a GET of /cart.js reads an empty cart and creates
// none. What each answer meant is decided by the pure rule in ~/domain/catalogue/currency.
import { currencyFromAnswer, storeCurrency, type CurrencyReading, type CurrencySourcePath } from "~/domain/catalogue/currency";
import type { PoliteSession } from "./storefront-politeness.server";

export interface StoreCurrencyResult {
  currency: string | null;
  from: CurrencySourcePath | null;
  /** Why the currency is unknown, in a sentence (null when it is known, or nothing could be asked). */
  note: string | null;
}

async function ask(s: PoliteSession, host: string, path: CurrencySourcePath): Promise<CurrencyReading> {
  try {
    const answer = await s.get(host, path, { accept: "application/json", maxBytes: 256 * 1024 });
    if (answer.kind !== "answer") return { currency: null, skipped: `${path} was not read (${answer.kind === "robots" ? "robots.txt" : "the store asked us to wait"}).` };
    return currencyFromAnswer(path, { status: answer.res.status, contentType: answer.res.headers["content-type"] ?? "", body: answer.res.text() });
  } catch {
    return { currency: null, skipped: `${path} could not be read.` };
  }
}

export async function readStoreCurrency(s: PoliteSession, host: string): Promise<StoreCurrencyResult> {
  const meta = await ask(s, host, "/meta.json");
  if (meta.currency !== null) return storeCurrency([meta]);
  return storeCurrency([meta, await ask(s, host, "/cart.js")]);
}
