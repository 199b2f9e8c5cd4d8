// Exports of product lists (issue 24 item 5, decision 057): the columns every export has, one row's cells from a
// product's figures and its landed cost, what the file is called, and the text a signed download link covers.
// Pure: the export service reads the rows in pages and streams them; the CSV itself is written by csv-stringify.
import { AppError } from "../errors";

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Products read from the database per step of a streamed export: bounded memory whatever the export's size, and a
 * bounded hold of the event loop (a page's rows are read and written in one go: ~0.1 ms of CPU a row on a busy
 * machine, so ~10 ms a page; decision 093).
 */
export const EXPORT_PAGE_SIZE = 100;
/** Ids asked of the search engine at once (numbers only: 40 KB), so the engine walks its index once per batch. */
export const EXPORT_ID_BATCH = 5_000;
/** The most rows one export of the grid holds (the file stops there; decision 057). */
export const EXPORT_MAX_ROWS = 100_000;

export function parseExportFormat(raw: string | null): ExportFormat {
  if (raw === "csv" || raw === "json") return raw;
  throw new AppError(400, "format must be csv or json.");
}

/** Every column, in order, with the one sentence that says what it holds (the decision lists them too). */
export const EXPORT_COLUMNS = [
  ["objectID", "our product id (empty for a competitor's product we have not imported)"],
  ["title", "the product's title"],
  ["product_url", "its page on our site, or on the competitor's store"],
  ["source", "research data, measured catalogue, tracked store, or competitor store"],
  ["niches", "its niches, separated by |"],
  ["list_note", "the drop's reason, or the change since tracking"],
  ["figures_as_of", "the day the store and sales figures hold for (UTC)"],
  ["currency", "the currency of every money column whose name ends in _usd"],
  ["price_usd", "selling price in US dollars: as listed, or converted at the reference rate of price_usd_rate_date; empty when its currency is unknown or has no rate"],
  ["price_usd_rate_date", "the day of the reference rate price_usd was converted at (European Central Bank); empty when the price is listed in dollars"],
  ["price_as_listed", "the selling price as the stores list it, in price_currency_as_listed"],
  ["price_currency_as_listed", "ISO 4217 code of price_as_listed; empty when the stores publish no currency (never assumed to be dollars)"],
  ["supplier_cost_usd", "supplier cost (empty when unknown)"],
  ["cost_note", "'Add your cost' when the supplier cost is unknown"],
  ["shipping_usd", "shipping to the buyer"],
  ["amazon_price_usd", "the same product's Amazon price, when known"],
  ["gross_margin_pct", "(price - cost - shipping) / price, before duty and fees"],
  ["hts_code", "the HTS code the duty is figured for"],
  ["hts_reason", "where the code comes from: yours, or guessed from the niche"],
  ["origin", "country of origin"],
  ["origin_reason", "where the origin comes from"],
  ["duty_rate_pct", "the ad valorem duty layers added up"],
  ["duty_usd", "duty on one order, on the supplier cost"],
  ["duty_layers", "the sum written out: each layer and its rate, and the day"],
  ["duty_as_of", "the day the layers were chosen for"],
  ["duty_not_counted", "the duty layers whose validity ended on or before the day of the figures: never counted, named here"],
  ["payment_fees_usd", "Shopify Payments 2.9% + 30c"],
  ["refund_reserve_usd", "19.3% of the price (decision 052)"],
  ["chargeback_reserve_usd", "0.5% of (price + $15 fee)"],
  ["landed_cost_usd", "cost + shipping + duty + fees + reserves"],
  ["margin_after_duty_and_fees_pct", "(price - cost - shipping - duty - fees) / price: the grid's margin"],
  ["net_profit_before_ads_usd", "price - landed cost = the break-even cost per purchase"],
  ["net_margin_pct", "net profit before ads / price"],
  ["break_even_cpa_usd", "what one purchase may cost in ads before the order loses money"],
  ["break_even_roas", "price / break-even CPA (empty when nothing breaks even)"],
  ["orders", "orders in 30 days"],
  ["orders_7d", "orders in the last 7 days"],
  ["orders_growth_7d_pct", "week-on-week growth of orders"],
  ["revenue_usd", "revenue in 30 days"],
  ["trending_score", "orders a week"],
  ["sales_basis", "research data, or not measured (the sales columns are then empty)"],
  ["stores_selling", "stores selling it"],
  ["stores_added_7d", "stores that added it in 7 days (measured catalogue only)"],
  ["stores_added_30d", "stores that added it in 30 days (measured catalogue only)"],
  ["stores_basis", "measured, research data, or not measured"],
  ["winning_score", "0-100"],
  ["lifecycle_stage", "emerging, rising, peak or declining"],
  ["saturation", "0-100"],
  ["score_basis", "research data, estimated from measured counts, or not measured"],
  ["first_seen", "the day it was first seen"],
  ["last_updated", "the day its row last changed"],
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number][0];
export const EXPORT_COLUMN_NAMES: readonly ExportColumn[] = EXPORT_COLUMNS.map(([name]) => name);
export type ExportCell = string | number | null;
export type ExportRecord = Record<ExportColumn, ExportCell>;

/** The landed-cost figures of one product (app/services/landed-cost.server.ts `landedFigures`). */
export interface ExportLanded {
  htsCode: string;
  htsReason: string;
  origin: string;
  originReason: string;
  dutyRatePercent: number;
  dutyCents: number;
  dutyExplanation: string;
  dutyAsOf: string;
  dutyNotCounted: string | null;
  feesCents: number;
  refundCents: number;
  chargebackCents: number;
  landedCostCents: number;
  marginAfterDutyAndFeesBps: number;
  netProfitCents: number;
  netMarginBps: number;
  breakEvenCpaCents: number;
  breakEvenRoas: number | null;
}

/** A product as an export reads it: what the card shows (figures null when not measured), plus where it is. */
export interface ExportProduct {
  objectID: string | null;
  title: string;
  url: string;
  source: "sample" | "measured" | "tracked-store" | "competitor-store";
  niches: readonly string[];
  listNote: string | null;
  figuresAsOf: string;
  /** The selling price as listed, in priceCurrency. */
  priceCents: number;
  /** ISO 4217 of priceCents ("USD" when absent); null: the stores publish no currency (decision 089). */
  priceCurrency?: string | null;
  /** The price in US dollars (as listed, or converted at priceRateDate's reference rate); null when it has no dollar figure. Absent: priceCents. */
  priceUsdCents?: number | null;
  /** The day of the reference rate priceUsdCents was converted at; null when nothing was converted. */
  priceRateDate?: string | null;
  costCents: number | null;
  shippingCents: number | null;
  amazonPriceCents: number | null;
  grossMarginBps: number | null;
  orders: number | null;
  orders7d: number | null;
  ordersGrowth7d: number | null;
  revenueCents: number | null;
  trendingScore: number | null;
  storesSelling: number | null;
  storesAdded7d: number | null;
  storesAdded30d: number | null;
  winningScore: number | null;
  lifecycleStage: string | null;
  saturation: number | null;
  firstSeen: string | null;
  lastUpdated: string | null;
}

const SOURCE_LABEL: Record<ExportProduct["source"], string> = {
  sample: "research data",
  measured: "measured catalogue",
  "tracked-store": "tracked store",
  "competitor-store": "competitor store",
};

function usd(cents: number | null | undefined): number | null {
  return cents === null || cents === undefined ? null : Math.round(cents) / 100;
}

function pct(bps: number | null | undefined): number | null {
  return bps === null || bps === undefined ? null : bps / 100;
}

/** One export row. `landed` is null when the cost is unknown or no duty can be figured: those columns stay empty. */
export function exportRecord(p: ExportProduct, landed: ExportLanded | null): ExportRecord {
  const measured = p.source === "measured";
  const hasSales = p.source === "sample";
  const hasStores = p.source === "sample" || measured;
  return {
    objectID: p.objectID,
    title: p.title,
    product_url: p.url,
    source: SOURCE_LABEL[p.source],
    niches: p.niches.join("|"),
    list_note: p.listNote,
    figures_as_of: p.figuresAsOf,
    currency: "USD",
    price_usd: usd(p.priceUsdCents === undefined ? p.priceCents : p.priceUsdCents),
    price_usd_rate_date: p.priceRateDate ?? null,
    price_as_listed: usd(p.priceCents),
    price_currency_as_listed: p.priceCurrency === undefined ? "USD" : p.priceCurrency,
    supplier_cost_usd: usd(p.costCents),
    cost_note: p.costCents === null ? "Add your cost" : null,
    shipping_usd: usd(p.shippingCents),
    amazon_price_usd: usd(p.amazonPriceCents),
    gross_margin_pct: p.costCents === null ? null : pct(p.grossMarginBps),
    hts_code: landed?.htsCode ?? null,
    hts_reason: landed?.htsReason ?? null,
    origin: landed?.origin ?? null,
    origin_reason: landed?.originReason ?? null,
    duty_rate_pct: landed?.dutyRatePercent ?? null,
    duty_usd: usd(landed?.dutyCents),
    duty_layers: landed?.dutyExplanation ?? null,
    duty_as_of: landed?.dutyAsOf ?? null,
    duty_not_counted: landed?.dutyNotCounted ?? null,
    payment_fees_usd: usd(landed?.feesCents),
    refund_reserve_usd: usd(landed?.refundCents),
    chargeback_reserve_usd: usd(landed?.chargebackCents),
    landed_cost_usd: usd(landed?.landedCostCents),
    margin_after_duty_and_fees_pct: pct(landed?.marginAfterDutyAndFeesBps),
    net_profit_before_ads_usd: usd(landed?.netProfitCents),
    net_margin_pct: pct(landed?.netMarginBps),
    break_even_cpa_usd: usd(landed?.breakEvenCpaCents),
    break_even_roas: landed?.breakEvenRoas === null || landed?.breakEvenRoas === undefined ? null : Math.round(landed.breakEvenRoas * 10000) / 10000,
    orders: p.orders,
    orders_7d: p.orders7d,
    orders_growth_7d_pct: p.ordersGrowth7d,
    revenue_usd: usd(p.revenueCents),
    trending_score: p.trendingScore,
    sales_basis: hasSales ? "research data" : "not measured",
    stores_selling: p.storesSelling,
    stores_added_7d: measured ? p.storesAdded7d : null,
    stores_added_30d: measured ? p.storesAdded30d : null,
    stores_basis: measured ? "measured" : hasStores ? "research data" : "not measured",
    winning_score: p.winningScore,
    lifecycle_stage: p.lifecycleStage,
    saturation: p.saturation,
    score_basis: measured ? "estimated from measured counts" : hasStores ? "research data" : "not measured",
    first_seen: p.firstSeen,
    last_updated: p.lastUpdated,
  };
}

/** What is exported, as the file name and the JSON's `what` say it. */
export type ExportSubject =
  | { kind: "search"; q: string }
  | { kind: "saved" }
  | { kind: "tracked" }
  | { kind: "competitor"; domain: string }
  | { kind: "drop"; date: string };

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
}

export function describeSubject(s: ExportSubject): string {
  switch (s.kind) {
    case "search":
      return s.q ? `search "${s.q}"` : "search";
    case "saved":
      return "saved products";
    case "tracked":
      return "tracked products";
    case "competitor":
      return `competitor ${s.domain}`;
    case "drop":
      return `drop ${s.date}`;
  }
}

/** winning-products-search-posture-2026-11-26-1204utc.csv: what and when (UTC), safe in any file system. */
export function exportFileName(s: ExportSubject, at: Date, format: ExportFormat): string {
  const what =
    s.kind === "search" ? ["search", slug(s.q)] : s.kind === "competitor" ? ["competitor", slug(s.domain)] : s.kind === "drop" ? ["drop", s.date] : [s.kind];
  const iso = at.toISOString();
  const when = `${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}utc`;
  return `winning-products-${what.filter(Boolean).join("-")}-${when}.${format}`;
}

/** The query parameters a signed link carries besides the export's own (left out of what the signature covers). */
export const SIGNED_LINK_PARAMS = ["u", "expires", "sig"] as const;

/**
 * The text a signed export link's signature covers: the path and every parameter except the format and the
 * signature itself, sorted, with the user and the expiry; so a link cannot be widened to another search or list.
 */
export function signedExportPayload(path: string, params: URLSearchParams, userId: string, expires: number): string {
  const kept = [...params].filter(([k]) => k !== "format" && !(SIGNED_LINK_PARAMS as readonly string[]).includes(k)).sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  return `product-export:${path}:${new URLSearchParams(kept).toString()}:${userId}:${expires}`;
}
