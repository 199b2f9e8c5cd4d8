// The margin after duty and fees the grid filters and sorts on (decision 065), stored per product as
// Product.landedMarginBps: the same figure the grid's cards show (decision 052: price minus supplier cost,
// shipping, duty and Shopify Payments' fees, over price; no reserves, no ads), for the product's guessed HTS code
// and origin. A seller's own code and origin (kept with their saved product) change their card, not the index.
//
// Pure: the duty layers come in a LandedMarginTable (plain data, chosen once per guessed code and origin by
// app/services/landed-cost/margins.server.ts), so an import can figure the margin on a worker thread.
import { dutyAtValue, feeSettings, feesOf, guessHtsCode, originFromSupplier, parseHtsCode, type Duty, type FeeSettings, type NicheHtsGuess } from "./landed-cost";

/** Raised when what the stored figure means changes (a fee, a rounding): every product is figured again. */
export const LANDED_MARGIN_RULES = 1;

/** The fees the stored figure assumes: Shopify Payments' US card rate (the grid card's). */
export const LANDED_MARGIN_FEES: FeeSettings = feeSettings("shopify-payments");

/** What is inside the figure, for the filter's help text, the API's contract and the assistant. */
export const LANDED_MARGIN_INCLUDES =
  "Price minus supplier cost, shipping, US duty (every layer in force for the product's guessed HTS code and origin) and Shopify Payments' fees (2.9% + 30c), over price. No refund reserve and no ad cost. Products without a known cost have none.";

/** The duty layers chosen for every guessed code and origin on one day, and the niche guesses. */
export interface LandedMarginTable {
  /** The day the layers were chosen for (YYYY-MM-DD). */
  asOf: string;
  niches: Readonly<Record<string, NicheHtsGuess>>;
  /** `${htsDigits}|${origin}` -> the layers (figured on a value of 0), or null when no duty can be figured (no MFN rate). */
  duties: Readonly<Record<string, Duty | null>>;
}

export const dutyKey = (htsDigits: string, origin: string) => `${htsDigits}|${origin}`;

/** (price - cost - shipping - duty - fees) / price in basis points, rounded half away from zero. */
export function marginAfterDutyAndFeesBps(input: { priceCents: number; costCents: number; shippingCents: number; dutyCents: number; fees?: FeeSettings }): number {
  const kept = input.priceCents - input.costCents - input.shippingCents - input.dutyCents - feesOf(input.priceCents, input.fees ?? LANDED_MARGIN_FEES);
  return Math.sign(kept) * Math.round((Math.abs(kept) * 10000) / input.priceCents);
}

export interface LandedMarginProduct {
  priceCents: number;
  /** null: US dollars. */
  priceCurrency?: string | null;
  costCents: number | null;
  shippingCents: number;
  niches: readonly string[];
  supplierName: string | null;
  supplierUrl: string | null;
}

/**
 * The stored margin after duty and fees of one product; null when its cost is unknown, its price is not a
 * positive dollar amount, or no duty can be figured for its guessed code (no MFN rate in the table).
 */
export function landedMarginOf(p: LandedMarginProduct, table: LandedMarginTable): number | null {
  if (p.costCents === null || p.priceCents <= 0 || (p.priceCurrency ?? null) !== null) return null;
  const guess = guessHtsCode(p.niches, table.niches);
  if (!guess) return null;
  const chosen = table.duties[dutyKey(parseHtsCode(guess.htsCode), originFromSupplier(p.supplierName, p.supplierUrl).origin)];
  if (!chosen) return null;
  const dutyCents = dutyAtValue(chosen, p.costCents).dutyCents;
  return marginAfterDutyAndFeesBps({ priceCents: p.priceCents, costCents: p.costCents, shippingCents: p.shippingCents, dutyCents });
}

/**
 * What decides every stored figure, as text: the rule's version, the fees, the niche guesses and each chosen layer's
 * rate (not its dates: while the same layers are in force the figures do not move; the day a layer's validity ends it
 * leaves the layers, decision 081, and every product is figured again). Two tables with the same text give every
 * product the same margin; the service keeps a hash of it.
 */
export function landedMarginFingerprint(table: LandedMarginTable): string {
  const duties = Object.keys(table.duties)
    .sort()
    .map((key) => {
      const d = table.duties[key];
      return [key, d === null ? null : d.layers.map((l) => [l.name, l.ratePercent ?? null, l.perItemCents ?? null])];
    });
  const niches = Object.keys(table.niches)
    .sort()
    .map((n) => [n, table.niches[n].htsCode]);
  return JSON.stringify([LANDED_MARGIN_RULES, LANDED_MARGIN_FEES, niches, duties]);
}
