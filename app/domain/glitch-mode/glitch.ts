// Glitch mode's rules (seed: "Glitch mode: uses credits. Only products with amazonPrice of at least 19
// qualify"; docs/decisions/018). A glitch is a price gap: a product that sells on Amazon for far more
// than it costs from the supplier, shipping included. Pure: no I/O, money in integer cents (USD).
import { roundHalfAway } from "~/domain/products/insights";
import { QueryError } from "~/domain/products/product-query";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** 249999 -> "$2,499.99" (as the product screens write money). */
function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}

/** The seed's rule: only products with an Amazon price of at least $19 qualify. */
export const GLITCH_MIN_AMAZON_PRICE_CENTS = 1900;
/** The credit feature a reveal spends (1 credit, app/domain/billing/credits.ts). */
export const GLITCH_FEATURE = "glitch-mode";
/** The seed's page size of product lists. */
export const GLITCH_PAGE_SIZE = 12;
/** As far as the product grid pages (app/domain/products/product-query.ts MAX_PAGE). */
export const GLITCH_MAX_PAGE = 500;

/** Does a product with this Amazon price qualify for glitch mode? */
export function glitchQualifies(amazonPriceCents: number | null | undefined): amazonPriceCents is number {
  return typeof amazonPriceCents === "number" && amazonPriceCents >= GLITCH_MIN_AMAZON_PRICE_CENTS;
}

/** Why a product cannot be revealed in glitch mode, in one sentence; null when it qualifies. */
export function notQualifyingReason(amazonPriceCents: number | null | undefined): string | null {
  if (glitchQualifies(amazonPriceCents)) return null;
  const rule = `Glitch mode only takes products with an Amazon price of ${formatUsd(GLITCH_MIN_AMAZON_PRICE_CENTS)} or more`;
  return amazonPriceCents === null || amazonPriceCents === undefined
    ? `${rule}; this one has no Amazon price.`
    : `${rule}; this one is ${formatUsd(amazonPriceCents)} on Amazon.`;
}

export interface GlitchNumbers {
  amazonPriceCents: number;
  costCents: number;
  shippingCents: number;
}

export interface GlitchSpread {
  /** Amazon price - supplier cost - shipping. Zero or negative when there is no gap. */
  spreadCents: number;
  /** The spread as a share of the Amazon price, whole percent (rounded half away from zero). */
  spreadPercent: number;
  /** A real glitch has money left after cost and shipping. */
  hasSpread: boolean;
}

function assertCents(name: string, value: number) {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be whole cents, got ${value}`);
}

/** The glitch spread of a product's numbers. The Amazon price must be positive. */
export function glitchSpread(n: GlitchNumbers): GlitchSpread {
  assertCents("amazonPriceCents", n.amazonPriceCents);
  assertCents("costCents", n.costCents);
  assertCents("shippingCents", n.shippingCents);
  if (n.amazonPriceCents <= 0) throw new RangeError(`amazonPriceCents must be positive, got ${n.amazonPriceCents}`);
  const spreadCents = n.amazonPriceCents - n.costCents - n.shippingCents;
  return {
    spreadCents,
    spreadPercent: roundHalfAway((spreadCents * 100) / n.amazonPriceCents),
    hasSpread: spreadCents > 0,
  };
}

/**
 * How the spread was computed, in one line the UI prints as it is:
 * "Amazon $49.99 − cost $8.20 − shipping $3.00 (estimate) = $38.79, 78% of Amazon price".
 * Shipping is always labelled an estimate (docs/decisions/018: it is the supplier's listed rate and
 * varies with the buyer's address).
 */
export function spreadExplanation(n: GlitchNumbers): string {
  const { spreadCents, spreadPercent } = glitchSpread(n);
  const spread = spreadCents < 0 ? `−${formatUsd(-spreadCents)}` : formatUsd(spreadCents);
  return (
    `Amazon ${formatUsd(n.amazonPriceCents)} − cost ${formatUsd(n.costCents)} − shipping ` +
    `${formatUsd(n.shippingCents)} (estimate) = ${spread}, ${spreadPercent}% of Amazon price`
  );
}

/** What each number means and where it comes from, shown next to a revealed glitch. */
export const GLITCH_NOTES = {
  spread:
    "Spread before duty = Amazon price − supplier cost − shipping; the spread after duty and fees also takes off the duty layers, payment fees and the refund and chargeback reserves, and is what qualifies a glitch. Both are estimates: Amazon's own selling fees are not taken off, and shipping varies with where the buyer lives.",
  shipping: "Shipping is the supplier's listed rate at the last update ($0.00 means free shipping or none on record).",
  amazonPrice: "The price the product sells for on Amazon at the last update.",
  ranking: "Qualifying products are ranked by the spread after duty and fees, largest first.",
} as const;

/**
 * The idempotency key of a reveal: one per user and product, so revealing the same product again
 * (a second click, a retried request, the other surface) is charged once.
 */
export function glitchRevealKey(userId: string, objectID: string): string {
  return `glitch-mode:reveal:${userId}:${objectID}`;
}

/** The list's URL parameters; throws QueryError naming the parameter. Other parameters are ignored. */
export function parseGlitchListQuery(params: URLSearchParams): { page: number } {
  const all = params.getAll("page");
  if (all.length > 1) throw new QueryError("page", "give it once");
  const raw = all[0]?.trim();
  if (raw === undefined || raw === "") return { page: 1 };
  if (!/^\d+$/.test(raw)) throw new QueryError("page", `"${raw}" is not a whole number`);
  const page = Number(raw);
  if (page < 1) throw new QueryError("page", "must be at least 1");
  if (page > GLITCH_MAX_PAGE) throw new QueryError("page", `must be at most ${GLITCH_MAX_PAGE}`);
  return { page };
}

// ---------------------------------------------------------------------------------------------------------
// The spread after duty and fees (issue 24, decision 066): Amazon price minus landed cost (supplier cost +
// shipping + the duty layers + payment fees + the refund and chargeback reserves, app/domain/landed-cost/landed-cost.ts).

/** A glitch is a gap of at least this share of the Amazon price, after duty and fees (decision 066). */
export const GLITCH_MIN_SPREAD_PERCENT = 20;

/** The landed-cost parts of one product sold at its Amazon price (profitOf's parts with its duty). */
export interface GlitchLandedParts {
  dutyCents: number;
  feesCents: number;
  reservesCents: number;
  /** "duty 17.5% = MFN (column 1) 7.5% + ... as of 2026-11-26" (the landed-cost module's explanation). */
  dutyExplanation: string;
}

export interface GlitchLanded {
  landedCostCents: number;
  spreadCents: number;
  /** The spread after duty and fees over the Amazon price, basis points (half away from zero). */
  spreadBps: number;
  /** "15%", "19.6%": one decimal when the whole number would hide which side of the threshold it is on. */
  spreadPercentText: string;
  /** The plain spread (before duty and fees) reaches the threshold. */
  qualifiesBeforeDuty: boolean;
  /** The spread after duty and fees reaches the threshold: a glitch. */
  qualifies: boolean;
  /** Why a product that qualified on the plain spread no longer does; null when it qualifies or never did. */
  reason: string | null;
}

function reaches(spreadCents: number, amazonPriceCents: number): boolean {
  return spreadCents * 100 >= GLITCH_MIN_SPREAD_PERCENT * amazonPriceCents;
}

function bpsOf(spreadCents: number, amazonPriceCents: number): number {
  return roundHalfAway((spreadCents * 10_000) / amazonPriceCents);
}

/** 1500 -> "15%", 1960 -> "19.6%", -785 -> "-7.9%" (one decimal, dropped when it is 0). */
export function percentText(bps: number): string {
  return `${Number((roundHalfAway(bps / 10) / 10).toFixed(1))}%`;
}

/** Does the plain spread (Amazon − cost − shipping) reach the threshold? The cheap test before any duty. */
export function plainSpreadReaches(n: GlitchNumbers): boolean {
  return reaches(n.amazonPriceCents - n.costCents - n.shippingCents, n.amazonPriceCents);
}

/**
 * The spread after duty and fees of a product sold at its Amazon price, and the verdict: a glitch when it is at
 * least GLITCH_MIN_SPREAD_PERCENT of the Amazon price. A product whose plain spread reached the threshold but whose
 * spread after duty does not gets the reason, in one sentence the page prints as it is.
 */
export function glitchLanded(n: GlitchNumbers, parts: GlitchLandedParts): GlitchLanded {
  const plain = glitchSpread(n);
  for (const [name, v] of [["dutyCents", parts.dutyCents], ["feesCents", parts.feesCents], ["reservesCents", parts.reservesCents]] as const) assertCents(name, v);
  const landedCostCents = n.costCents + n.shippingCents + parts.dutyCents + parts.feesCents + parts.reservesCents;
  const spreadCents = n.amazonPriceCents - landedCostCents;
  const spreadBps = bpsOf(spreadCents, n.amazonPriceCents);
  const qualifiesBeforeDuty = reaches(plain.spreadCents, n.amazonPriceCents);
  const qualifies = reaches(spreadCents, n.amazonPriceCents);
  // Rounding must not print "20%" for a spread that missed 20% by a hair: one decimal, rounded down, then.
  const whole = `${roundHalfAway(spreadBps / 100)}%`;
  const spreadPercentText = !qualifies && roundHalfAway(spreadBps / 100) >= GLITCH_MIN_SPREAD_PERCENT ? `${Math.floor(spreadBps / 10) / 10}%` : whole;
  const reason =
    qualifiesBeforeDuty && !qualifies
      ? `Spread after duty and fees ${spreadPercentText} (${plain.spreadPercent}% before) — below the ${GLITCH_MIN_SPREAD_PERCENT}% glitch threshold: ` +
        `${parts.dutyExplanation} takes ${formatUsd(parts.dutyCents)}, payment fees ${formatUsd(parts.feesCents)} and the refund and chargeback reserves ${formatUsd(parts.reservesCents)}.`
      : null;
  return { landedCostCents, spreadCents, spreadBps, spreadPercentText, qualifiesBeforeDuty, qualifies, reason };
}

/**
 * "Amazon $100.00 − landed cost $85.00 (cost $50.00 + shipping $15.00 (estimate) + duty $8.75 + fees $3.20 +
 * reserves $8.05) = $15.00, 15% of Amazon price"
 */
export function landedSpreadExplanation(n: GlitchNumbers, parts: GlitchLandedParts): string {
  const l = glitchLanded(n, parts);
  const spread = l.spreadCents < 0 ? `−${formatUsd(-l.spreadCents)}` : formatUsd(l.spreadCents);
  return (
    `Amazon ${formatUsd(n.amazonPriceCents)} − landed cost ${formatUsd(l.landedCostCents)} (cost ${formatUsd(n.costCents)} + shipping ` +
    `${formatUsd(n.shippingCents)} (estimate) + duty ${formatUsd(parts.dutyCents)} + fees ${formatUsd(parts.feesCents)} + reserves ` +
    `${formatUsd(parts.reservesCents)}) = ${spread}, ${l.spreadPercentText} of Amazon price`
  );
}

/** Why a product whose plain spread is under the threshold is not a glitch, before any duty. */
export function belowBeforeDutyReason(n: GlitchNumbers): string {
  const { spreadPercent } = glitchSpread(n);
  return `Spread ${spreadPercent}% before duty and fees — already below the ${GLITCH_MIN_SPREAD_PERCENT}% glitch threshold.`;
}
