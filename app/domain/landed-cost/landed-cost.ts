// What a product really earns (decisions 052, 081): the duty layers that apply to one HTS code and origin on one
// day, and the landed cost and profit of one order built from them. Pure: the tariff rows come from the
// database (app/services/landed-cost/tariffs.server.ts), never from this file, because tariffs are dated data.
//
// Money is whole US cents. Rounding: every percentage of an amount (each duty layer, the payment fee's
// percentage, each reserve) is rounded half up to the cent on its own, then the parts are added; so each
// part shown is exactly a part of the sum. Break-even ROAS is the only non-integer figure and is not rounded.
import { AppError } from "../errors";

export const DEFAULT_ORIGIN = "CN";
export const CURRENCY = "USD";

// ---------------------------------------------------------------------------------------------------------
// Inputs that a person types: HTS codes, origins, dates.

/** "3924.10.40", "39241040", "3924.10" ... -> the digits ("39241040"); 4, 6, 8 or 10 digits. */
export function parseHtsCode(input: string): string {
  const trimmed = input.trim();
  if (!/^\d{4}(\.?\d{2}){0,3}$/.test(trimmed)) {
    throw new AppError(400, `"${trimmed.slice(0, 20)}" is not an HTS code: use 4 to 10 digits, like 3924.10.40.`);
  }
  return trimmed.replace(/\./g, "");
}

/** HTS digits written the way the schedule prints them: 3924.10.40.00. */
export function formatHtsCode(digits: string): string {
  const parts = [digits.slice(0, 4)];
  for (let i = 4; i < digits.length; i += 2) parts.push(digits.slice(i, i + 2));
  return parts.join(".");
}

/** An ISO 3166 alpha-2 country code, upper case. */
export function parseOrigin(input: string): string {
  const trimmed = input.trim();
  if (!/^[A-Za-z]{2}$/.test(trimmed)) throw new AppError(400, `"${trimmed.slice(0, 20)}" is not a country: use a two-letter code like CN or VN.`);
  return trimmed.toUpperCase();
}

/** A UTC day, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

// Suppliers whose goods ship from mainland China (their own sites say so; marketplaces of Chinese sellers).
const CHINA_SUPPLIERS = ["aliexpress.", "alibaba.com", "1688.com", "temu.com", "cjdropshipping.com", "dhgate.com", "made-in-china.com", "banggood.com", "zendrop.com"];

/** The country of origin from the supplier we know, else the stated default, with the reason. */
export function originFromSupplier(supplierName: string | null, supplierUrl: string | null): { origin: string; reason: string } {
  const haystack = `${supplierUrl ?? ""} ${supplierName ?? ""}`.toLowerCase();
  const hit = CHINA_SUPPLIERS.find((s) => haystack.includes(s) || haystack.includes(s.replace(/\.(com)?$/, "")));
  if (hit) return { origin: "CN", reason: `supplier ${supplierName ?? hit} ships from China` };
  return { origin: DEFAULT_ORIGIN, reason: `no supplier country known: the default ${DEFAULT_ORIGIN} (most dropshipping suppliers ship from China)` };
}

export interface NicheHtsGuess {
  htsCode: string;
  reason: string;
}

/** The HTS code guessed from a product's niches (the first one the table knows), with the reason. */
export function guessHtsCode(niches: readonly string[], table: Readonly<Record<string, NicheHtsGuess>>): { htsCode: string; reason: string } | null {
  for (const niche of niches) {
    const guess = table[niche];
    if (guess) return { htsCode: guess.htsCode, reason: `guessed from the niche "${niche}": ${guess.reason}` };
  }
  const fallback = table.general;
  return fallback ? { htsCode: fallback.htsCode, reason: `no niche we know: ${fallback.reason}` } : null;
}

// ---------------------------------------------------------------------------------------------------------
// Duty layers.

export const TARIFF_KINDS = ["mfn", "section301", "surcharge", "postal"] as const;
export type TariffKind = (typeof TARIFF_KINDS)[number];
export type EntryType = "commercial" | "postal";

export interface TariffRow {
  kind: TariffKind;
  series: string;
  name: string;
  /** HTS digits ("" = every product). */
  htsPrefix: string;
  /** ISO alpha-2 codes, or "*". */
  origins: readonly string[];
  exemptPrefixes: readonly string[];
  /** Hundredths of a percent: 750 = 7.5%. */
  rateBp: number | null;
  perItemCents: number | null;
  validFrom: string;
  /** The first day the row no longer applies; null = open. */
  validTo: string | null;
  source: string;
}

export interface DutyLayer {
  name: string;
  kind: TariffKind;
  ratePercent?: number;
  perItemCents?: number;
  dutyCents: number;
  validFrom: string;
  validTo: string | null;
  source: string;
}

/** A series whose newest row ended on or before the day asked about, nothing newer loaded: not counted, named so. */
export interface EndedLayer {
  name: string;
  kind: TariffKind;
  ratePercent?: number;
  perItemCents?: number;
  validFrom: string;
  /** The first day it no longer applied. */
  validTo: string;
  source: string;
}

export interface Duty {
  htsCode: string;
  origin: string;
  entry: EntryType;
  /** The ad valorem layers added up, in percent. */
  ratePercent: number;
  perItemCents: number;
  dutyCents: number;
  layers: DutyLayer[];
  asOf: string;
  /** "duty 17.5% = MFN 3.4% + Section 301 (List 3) 25% ... as of 2026-11-26" */
  explanation: string;
  /** Layers that applied to this code and origin before and ended on or before `asOf`: never counted, listed once. */
  ended: EndedLayer[];
}

function applies(row: TariffRow, hts: string, origin: string): boolean {
  return (
    hts.startsWith(row.htsPrefix) &&
    (row.origins.includes("*") || row.origins.includes(origin)) &&
    !row.exemptPrefixes.some((p) => p !== "" && hts.startsWith(p))
  );
}

/**
 * The one rule for dates (decision 081): a row counts on `day` only while it is in force, from its first day up to the
 * day before `validTo`. A row whose validity ended (validTo on or before the day) is never counted, whatever else is loaded.
 */
export function inForce(row: Pick<TariffRow, "validFrom" | "validTo">, day: string): boolean {
  return row.validFrom <= day && (row.validTo === null || day < row.validTo);
}

/** Newer first, then the origin named over "*", then the longer HTS prefix. */
function preferred(a: TariffRow, b: TariffRow, origin: string): number {
  if (a.validFrom !== b.validFrom) return a.validFrom > b.validFrom ? -1 : 1;
  const ao = a.origins.includes(origin) ? 1 : 0;
  const bo = b.origins.includes(origin) ? 1 : 0;
  if (ao !== bo) return bo - ao;
  return b.htsPrefix.length - a.htsPrefix.length;
}

/** value * bp / 10000, rounded half up to the cent (exact in integers). */
export function percentOf(cents: number, bp: number): number {
  return Math.floor((cents * bp + 5000) / 10000);
}

function percentText(bp: number): string {
  return `${Number((bp / 100).toFixed(2))}%`;
}

function moneyText(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function rateOf(row: TariffRow): Pick<DutyLayer, "ratePercent" | "perItemCents"> {
  return { ...(row.rateBp !== null ? { ratePercent: row.rateBp / 100 } : {}), ...(row.perItemCents !== null ? { perItemCents: row.perItemCents } : {}) };
}

function toLayer(row: TariffRow, valueCents: number, quantity: number): DutyLayer {
  const dutyCents = (row.rateBp === null ? 0 : percentOf(valueCents, row.rateBp)) + (row.perItemCents ?? 0) * quantity;
  return { name: row.name, kind: row.kind, ...rateOf(row), dutyCents, validFrom: row.validFrom, validTo: row.validTo, source: row.source };
}

/** The duty of these layers on another supplier value (the calculator's typed cost), as dutyFor figures it. */
export function dutyOnValue(layers: readonly Pick<DutyLayer, "ratePercent" | "perItemCents">[], valueCents: number, quantity = 1): number {
  return layers.reduce(
    (sum, l) => sum + (l.ratePercent === undefined ? 0 : percentOf(valueCents, Math.round(l.ratePercent * 100))) + (l.perItemCents ?? 0) * quantity,
    0,
  );
}

export interface DutyInput {
  rows: readonly TariffRow[];
  /** HTS digits. */
  hts: string;
  origin: string;
  /** The UTC day the duty is figured for. */
  asOf: string;
  entry?: EntryType;
  /** The dutiable value: what the supplier charges for the goods (transaction value), in cents. */
  valueCents: number;
  quantity?: number;
}

/**
 * The duty on one order: for each series of rows that applies (MFN, Section 301 and its note 52 layer, each surcharge;
 * with a postal entry the postal rows stand in for the surcharges), the row in force on `asOf`. Series stack. A row
 * whose validity ended on or before `asOf` is never counted (decision 081, replacing decision 052's "a lapse is counted
 * and flagged"): when a series has nothing in force, its newest ended row is listed in `ended`, so the page can say once
 * what is no longer counted. A code with no MFN row in force is refused (422): the figure would leave out the base duty.
 */
export function dutyFor(input: DutyInput): Duty {
  const entry = input.entry ?? "commercial";
  const quantity = input.quantity ?? 1;
  const kinds: TariffKind[] = ["mfn", "section301", entry === "postal" ? "postal" : "surcharge"];
  const layers: DutyLayer[] = [];
  const ended: EndedLayer[] = [];
  for (const kind of kinds) {
    const rows = input.rows.filter((r) => r.kind === kind && applies(r, input.hts, input.origin));
    if (kind === "mfn" && rows.length === 0) {
      throw new AppError(
        422,
        `We have no MFN (column 1) rate for HTS ${formatHtsCode(input.hts)}: the tariff table we have does not list this code, so choose another one.`,
      );
    }
    const bySeries = new Map<string, TariffRow[]>();
    for (const r of rows) bySeries.set(r.series, [...(bySeries.get(r.series) ?? []), r]);
    let current = 0;
    for (const seriesRows of bySeries.values()) {
      const valid = seriesRows.filter((r) => inForce(r, input.asOf)).sort((a, b) => preferred(a, b, input.origin));
      if (valid.length > 0) {
        layers.push(toLayer(valid[0], input.valueCents, quantity));
        current++;
        continue;
      }
      const lapsed = seriesRows.filter((r) => r.validTo !== null && r.validTo <= input.asOf);
      if (lapsed.length === 0) continue;
      const newest = lapsed.sort((a, b) => (a.validTo! !== b.validTo! ? (a.validTo! > b.validTo! ? -1 : 1) : preferred(a, b, input.origin)))[0];
      ended.push({ name: newest.name, kind: newest.kind, ...rateOf(newest), validFrom: newest.validFrom, validTo: newest.validTo!, source: newest.source });
    }
    if (kind === "mfn" && current === 0) {
      const last = ended.filter((e) => e.kind === "mfn").map((e) => e.validTo).sort().pop();
      throw new AppError(
        422,
        `We have no MFN (column 1) rate for HTS ${formatHtsCode(input.hts)} in force on ${input.asOf}${last ? `: the one we had ended on ${last}` : ""}.`,
      );
    }
  }
  const rateBp = layers.reduce((sum, l) => sum + Math.round((l.ratePercent ?? 0) * 100), 0);
  const perItemCents = layers.reduce((sum, l) => sum + (l.perItemCents ?? 0), 0);
  const dutyCents = layers.reduce((sum, l) => sum + l.dutyCents, 0);
  const terms = layers.map((l) =>
    [l.ratePercent !== undefined ? `${l.name} ${percentText(Math.round(l.ratePercent * 100))}` : null, l.perItemCents !== undefined ? `${l.name} ${moneyText(l.perItemCents)} per item` : null]
      .filter(Boolean)
      .join(" + "),
  );
  const head = [`${percentText(rateBp)}`, perItemCents > 0 ? `${moneyText(perItemCents * quantity)}` : null].filter(Boolean).join(" + ");
  return {
    htsCode: formatHtsCode(input.hts),
    origin: input.origin,
    entry,
    ratePercent: rateBp / 100,
    perItemCents,
    dutyCents,
    layers,
    asOf: input.asOf,
    explanation: `duty ${head} = ${terms.join(" + ") || "nothing"} as of ${input.asOf}`,
    ended: ended.sort((a, b) => (a.validTo > b.validTo ? -1 : a.validTo < b.validTo ? 1 : a.name.localeCompare(b.name))),
  };
}

/**
 * "Section 122 temporary import surcharge 10% (ended 2026-07-24)": what a page says once about layers it no longer counts,
 * each once, the latest to end first (then by name), whatever order the page's products came in.
 */
export function endedLayersSentence(ended: readonly Pick<EndedLayer, "name" | "ratePercent" | "perItemCents" | "validTo">[]): string | null {
  const seen = new Set<string>();
  const parts: string[] = [];
  const ordered = [...ended].sort((a, b) => (a.validTo > b.validTo ? -1 : a.validTo < b.validTo ? 1 : a.name.localeCompare(b.name)));
  for (const e of ordered) {
    const rate = e.ratePercent !== undefined ? ` ${percentText(Math.round(e.ratePercent * 100))}` : e.perItemCents !== undefined ? ` ${moneyText(e.perItemCents)} per item` : "";
    const text = `${e.name}${rate} (ended ${e.validTo})`;
    if (!seen.has(text)) parts.push(text);
    seen.add(text);
  }
  return parts.length > 0 ? `Not counted, because their validity ended: ${parts.join("; ")}.` : null;
}

/**
 * The same duty on another supplier value: the layers (chosen by code, origin and day, not by value) kept, each
 * layer's cents figured again as dutyFor figures them. Lets a reader of many products choose the layers once per
 * code and origin.
 */
export function dutyAtValue(duty: Duty, valueCents: number, quantity = 1): Duty {
  const layers = duty.layers.map((l) => ({
    ...l,
    dutyCents: (l.ratePercent === undefined ? 0 : percentOf(valueCents, Math.round(l.ratePercent * 100))) + (l.perItemCents ?? 0) * quantity,
  }));
  return { ...duty, layers, dutyCents: layers.reduce((sum, l) => sum + l.dutyCents, 0) };
}

// ---------------------------------------------------------------------------------------------------------
// Payment fees and reserves.

export const FEE_PRESETS = {
  "shopify-payments": {
    label: "Shopify Payments",
    rateBp: 290,
    fixedCents: 30,
    source: "Shopify Payments, US online card rate on the Basic plan: 2.9% + 30c (shopify.com/pricing, read 2026-11-26)",
  },
  paypal: {
    label: "PayPal",
    rateBp: 349,
    fixedCents: 49,
    source: "PayPal Checkout, US commercial transaction rate: 3.49% + 49c (paypal.com/us/business/paypal-business-fees, read 2026-11-26)",
  },
  stripe: {
    label: "Stripe",
    rateBp: 290,
    fixedCents: 30,
    source: "Stripe, US domestic card rate: 2.9% + 30c (stripe.com/pricing, read 2026-11-26)",
  },
} as const;
export type FeePresetId = keyof typeof FEE_PRESETS;
export const FEE_PRESET_IDS = Object.keys(FEE_PRESETS) as FeePresetId[];

export interface FeeSettings {
  preset: FeePresetId;
  rateBp: number;
  fixedCents: number;
}

export function feeSettings(preset: FeePresetId = "shopify-payments", edits: { rateBp?: number; fixedCents?: number } = {}): FeeSettings {
  const p = FEE_PRESETS[preset];
  return { preset, rateBp: edits.rateBp ?? p.rateBp, fixedCents: edits.fixedCents ?? p.fixedCents };
}

export interface ReserveSettings {
  /** Share of revenue refunded, in basis points. */
  refundRateBp: number;
  /** Share of orders disputed, in basis points. */
  chargebackRateBp: number;
  /** What a lost dispute costs on top of the refunded price. */
  chargebackFeeCents: number;
}

export const DEFAULT_RESERVES: ReserveSettings = { refundRateBp: 1930, chargebackRateBp: 50, chargebackFeeCents: 1500 };
export const RESERVE_SOURCES = {
  refundRateBp:
    "19.3%: the share of US online sales expected to be returned in 2025 (NRF and Happy Returns, 2025 Retail Returns Landscape). A dropshipped refund rarely gets the goods back, so the whole price is reserved; use your store's own refund rate.",
  chargebackRateBp: "0.5% of orders: our assumption (no public figure for dropshipping stores); use your own.",
  chargebackFeeCents: "$15: Shopify Payments' US chargeback fee (help.shopify.com, read 2026-11-26).",
} as const;

// ---------------------------------------------------------------------------------------------------------
// Landed cost and profit.

export interface ProfitInput {
  priceCents: number;
  costCents: number;
  shippingCents: number;
  dutyCents: number;
  fees: FeeSettings;
  reserves: ReserveSettings;
  /** Ad cost per purchase. */
  cpaCents?: number;
}

export interface Profit {
  landedCostCents: number;
  parts: { costCents: number; shippingCents: number; dutyCents: number; feesCents: number; reservesCents: number };
  reserves: { refundCents: number; chargebackCents: number };
  netProfitCents: number;
  /** Net profit over price, basis points, rounded half up (half away from zero for losses). */
  marginBps: number;
  /** What one purchase may cost in ads before the order loses money: price minus landed cost. */
  breakEvenCpaCents: number;
  /** Price over break-even CPA (revenue per ad dollar at which profit is zero); null when no ad spend breaks even. */
  breakEvenRoas: number | null;
}

export function feesOf(priceCents: number, fees: FeeSettings): number {
  return percentOf(priceCents, fees.rateBp) + fees.fixedCents;
}

export function reservesOf(priceCents: number, reserves: ReserveSettings): { refundCents: number; chargebackCents: number } {
  return {
    refundCents: percentOf(priceCents, reserves.refundRateBp),
    chargebackCents: percentOf(priceCents + reserves.chargebackFeeCents, reserves.chargebackRateBp),
  };
}

export function profitOf(input: ProfitInput): Profit {
  const feesCents = feesOf(input.priceCents, input.fees);
  const { refundCents, chargebackCents } = reservesOf(input.priceCents, input.reserves);
  const reservesCents = refundCents + chargebackCents;
  const landedCostCents = input.costCents + input.shippingCents + input.dutyCents + feesCents + reservesCents;
  const breakEvenCpaCents = input.priceCents - landedCostCents;
  const netProfitCents = breakEvenCpaCents - (input.cpaCents ?? 0);
  return {
    landedCostCents,
    parts: { costCents: input.costCents, shippingCents: input.shippingCents, dutyCents: input.dutyCents, feesCents, reservesCents },
    reserves: { refundCents, chargebackCents },
    netProfitCents,
    marginBps: input.priceCents > 0 ? Math.sign(netProfitCents) * Math.round((Math.abs(netProfitCents) * 10000) / input.priceCents) : 0,
    breakEvenCpaCents,
    breakEvenRoas: breakEvenCpaCents > 0 ? input.priceCents / breakEvenCpaCents : null,
  };
}

/**
 * The lowest whole-cent price whose net profit (after the same costs, fees, reserves and CPA) is at least
 * `targetMarginBps` of the price; null when no price reaches it (the percentage costs alone take the margin).
 * Duty does not move with the selling price: it is charged on the supplier's value.
 */
export function priceForTargetMargin(input: Omit<ProfitInput, "priceCents">, targetMarginBps: number): number | null {
  const variableBp = input.fees.rateBp + input.reserves.refundRateBp + input.reserves.chargebackRateBp;
  const room = 10000 - targetMarginBps - variableBp;
  if (room <= 0) return null;
  const fixed =
    input.costCents + input.shippingCents + input.dutyCents + input.fees.fixedCents + (input.cpaCents ?? 0) + (input.reserves.chargebackFeeCents * input.reserves.chargebackRateBp) / 10000;
  const reaches = (price: number) => profitOf({ ...input, priceCents: price }).netProfitCents * 10000 >= targetMarginBps * price;
  let price = Math.max(1, Math.floor((fixed * 10000) / room) - 3);
  // The closed form ignores rounding to the cent; walk to the exact lowest price (a few steps either way).
  while (price > 1 && reaches(price - 1)) price--;
  for (let steps = 0; !reaches(price); steps++) {
    if (steps > 10_000) return null;
    price++;
  }
  return price;
}
