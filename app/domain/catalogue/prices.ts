// Prices compared across stores (decision 089). Two stores' prices are compared only when they are in one unit:
// - the same known currency: as listed;
// - two known currencies: both in US dollars at one dated table of reference rates (convertCents: exact, half-up
//   to the cent), and the sentence says the rate's date: "20.00 EUR and $21.50 (20.00 EUR is $20.26 at the
//   reference rate of 2022-07-18)";
// - a currency that is unknown (the store publishes none) or has no rate: not compared. Two listings whose
//   currency is unknown are compared as they are only within ONE store (a store sells in one currency, whatever it
//   is); across stores their numbers are in units we do not know (9.00 may be dollars, kronor or yen), so the price
//   neither joins nor separates them: the pictures, titles, identifiers and look-alike rules decide.
// A price that cannot be compared is never dropped: it is shown as listed, with why it was not converted.
// Pure: no I/O. The rate table is read by the service and passed in.
import { convertCents, type RateTable } from "~/domain/landed-cost/exchange-rates";

/** The currency cross-store figures are converted into: the grid's price filter and price sorts are in dollars. */
export const COMPARE_CURRENCY = "USD";

/** A listing's price as matching compares it. */
export interface ComparablePrice {
  /** Its lowest price, in cents of `currency`. */
  priceCents: number | null;
  /** ISO 4217, the currency its store published when it was read; null when none was published. */
  currency: string | null;
  /** priceCents in US dollars at the reference rate of `rateDate`; null or absent when it cannot be converted. */
  usdCents?: number | null;
  /** The day of the reference rate behind usdCents. */
  rateDate?: string;
  /** The store it is listed on: two prices of unknown currency are compared only within one store. */
  storeId?: number;
}

/** priceCents in US dollars at the table's rates, or null (unknown currency, no rate, no price). Dollars stay as they are. */
export function usdCentsOf(cents: number | null, currency: string | null, table: RateTable | null): number | null {
  if (cents === null) return null;
  return convertCents(cents, currency, COMPARE_CURRENCY, table)?.cents ?? null;
}

/**
 * The dearer price over the cheaper one when the two can be compared (see the head of this file), else 0. No
 * allocation: grouping asks this of every candidate pair.
 */
export function priceRatio(a: ComparablePrice, b: ComparablePrice): number {
  let x: number | null | undefined;
  let y: number | null | undefined;
  if (a.currency !== null && a.currency === b.currency) {
    x = a.priceCents;
    y = b.priceCents;
  } else if (a.currency === null && b.currency === null) {
    if (a.storeId === undefined || a.storeId !== b.storeId) return 0;
    x = a.priceCents;
    y = b.priceCents;
  } else {
    x = a.usdCents;
    y = b.usdCents;
  }
  if (x === null || x === undefined || y === null || y === undefined || x <= 0 || y <= 0) return 0;
  return x > y ? x / y : y / x;
}

/** An amount in a sentence: "$19.99" in dollars, "19.99 EUR", and "19.99 (currency unknown)" when the store publishes none. */
export function evidenceMoney(cents: number, currency: string | null): string {
  const amount = (cents / 100).toFixed(2);
  if (currency === null) return `${amount} (currency unknown)`;
  return currency === "USD" ? `$${amount}` : `${amount} ${currency}`;
}

/** What the evidence sentence says of two listings' prices, with the rate's date when one was converted. */
export function pricePairClause(a: ComparablePrice, b: ComparablePrice): string {
  if (a.priceCents === null || b.priceCents === null) return "a price unknown";
  const both = `${evidenceMoney(a.priceCents, a.currency)} and ${evidenceMoney(b.priceCents, b.currency)}`;
  if (a.currency === b.currency) {
    if (a.currency !== null || (a.storeId !== undefined && a.storeId === b.storeId)) return both;
    return `${both}: not compared, neither store publishes its currency`;
  }
  if (a.currency === null || b.currency === null) return `${both}: not compared, one store publishes no currency`;
  const converted = [a, b].filter((p) => p.currency !== COMPARE_CURRENCY);
  const missing = converted.find((p) => p.usdCents === null || p.usdCents === undefined);
  if (missing) return `${both}: not compared, no reference rate for ${missing.currency}`;
  const said = converted.map((p) => `${evidenceMoney(p.priceCents!, p.currency)} is ${evidenceMoney(p.usdCents!, COMPARE_CURRENCY)}`).join(", ");
  return `${both} (${said} at the reference rate of ${converted[0].rateDate ?? "an undated table"})`;
}

/**
 * `cents` of `from` in `to` at the table's rates (half-up to the cent), `cents` itself when the currencies are the
 * same (two unknown ones included: the caller decides whether that comparison holds), null when it cannot convert.
 */
export function centsIn(cents: number, from: string | null, to: string | null, table: RateTable | null): number | null {
  if (from === to) return cents;
  if (to === null) return null;
  return convertCents(cents, from, to, table)?.cents ?? null;
}

/** A measured product's price, from its present listings' lowest prices. */
export interface ProductPriceFigure {
  /** The median, in `currency`; null when no listing has a price. */
  cents: number | null;
  /** The most common known currency of its priced listings; null when none of them publishes one. */
  currency: string | null;
  /** The median in US dollars (the price filter's and sorts' figure): cents itself for dollars, else converted; null when it cannot be. */
  usdCents: number | null;
  /** The reference rate's day when anything was converted (another currency into `currency`, or `cents` into dollars). */
  rateDate: string | null;
  /** Listings left out of the median: their currency is unknown or has no rate ("1 listing in VES: no reference rate"). */
  leftOut: number;
}

function medianOf(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : Math.round((s[mid - 1] + s[mid]) / 2);
}

/**
 * The product's price: the median of its listings' prices in their most common known currency, prices in other
 * currencies converted at the table's rates; a listing of unknown currency (or one with no rate) is left out when
 * the others are in a known currency. When no listing's currency is known, the median of the amounts as listed,
 * in an unknown currency (never dollars). Then that median in US dollars for the price filter and sorts.
 */
export function productPrice(listings: Array<{ priceCents: number | null; currency: string | null }>, table: RateTable | null): ProductPriceFigure {
  const priced = listings.filter((l): l is { priceCents: number; currency: string | null } => l.priceCents !== null);
  const counts = new Map<string, number>();
  let currency: string | null = null;
  for (const l of priced) {
    if (l.currency === null) continue;
    const n = (counts.get(l.currency) ?? 0) + 1;
    counts.set(l.currency, n);
    if (n > (currency === null ? 0 : counts.get(currency)!)) currency = l.currency;
  }
  let converted = false;
  const values: number[] = [];
  for (const l of priced) {
    const cents = centsIn(l.priceCents, l.currency, currency, table);
    if (cents === null) continue;
    if (l.currency !== currency) converted = true;
    values.push(cents);
  }
  const cents = medianOf(values);
  const usdCents = cents === null ? null : centsIn(cents, currency, COMPARE_CURRENCY, table);
  if (usdCents !== null && currency !== COMPARE_CURRENCY) converted = true;
  return { cents, currency, usdCents, rateDate: converted && table ? table.date : null, leftOut: priced.length - values.length };
}

/** A price converted into the comparison currency, with the day of the reference rate it was converted at. */
export interface ConvertedPrice {
  cents: number;
  currency: string;
  rateDate: string;
}

/**
 * A listed price beside its conversion (decision 089): in dollars at the table's rate for another currency; none
 * for dollars; and for a currency that is unknown or has no rate, a sentence saying so (the price stays listed).
 */
export function listedPriceConversion(cents: number | null, currency: string | null, table: RateTable | null): { converted: ConvertedPrice | null; conversionNote: string | null } {
  if (cents === null || currency === COMPARE_CURRENCY) return { converted: null, conversionNote: null };
  if (currency === null) return { converted: null, conversionNote: "The store publishes no currency: the price is shown as listed, not converted." };
  const money = convertCents(cents, currency, COMPARE_CURRENCY, table);
  if (!money || !money.rateDate) {
    return { converted: null, conversionNote: `No reference rate for ${currency}${table ? ` in the table of ${table.date}` : ""}: the price is shown as listed, not converted.` };
  }
  return { converted: { cents: money.cents, currency: money.currency, rateDate: money.rateDate }, conversionNote: null };
}

/** Offers cheapest first in one unit (dollars, as listed or converted); those that cannot be converted after, by store (their amounts are in units that do not compare). */
export function byComparablePrice<T extends { priceCents: number | null; currency: string | null; converted: ConvertedPrice | null; store: string }>(a: T, b: T): number {
  const usd = (o: T) => (o.currency === COMPARE_CURRENCY ? o.priceCents : (o.converted?.cents ?? null));
  const ua = usd(a);
  const ub = usd(b);
  if ((ua === null) !== (ub === null)) return ua === null ? 1 : -1;
  return (ua !== null && ub !== null ? ua - ub : 0) || a.store.localeCompare(b.store);
}
