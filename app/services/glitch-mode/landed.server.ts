// Glitch mode's spread after duty and fees (issue 24, decision 066): for products sold at their Amazon price, the
// landed cost from the landed-cost module with its defaults (the HTS code guessed from the niche, the origin from
// the supplier, the layers in force on the day, Shopify Payments' fees, the default refund and chargeback
// reserves; no seller's own code, since the ranking is the same for everyone; a layer whose validity ended is never
// counted, decision 081), and the verdict against the 20%
// threshold (app/domain/glitch-mode/glitch.ts). Products whose code has no MFN rate get no figures (`null`): the page says the
// duty is not included rather than guessing zero.
import type { Db } from "~/db.server";
import type { EndedLayer } from "~/domain/landed-cost/landed-cost";
import { GLITCH_MIN_SPREAD_PERCENT, glitchLanded, landedSpreadExplanation, type GlitchLanded, type GlitchNumbers } from "~/domain/glitch-mode/glitch";
import { breakdownOf, landedFigures, type LandedCostView } from "~/services/landed-cost.server";

/** A product as glitch mode reads it for its landed figures. */
export interface GlitchCandidate extends GlitchNumbers {
  id: number;
  objectID: string;
  niches: string;
  supplierName: string | null;
  supplierUrl: string | null;
}

/** The spread after duty and fees of one product, with the breakdown the page's expandable lines show. */
export interface GlitchLandedView extends GlitchLanded {
  /** "Amazon $100.00 − landed cost $85.00 (cost ... + reserves $8.05) = $15.00, 15% of Amazon price" */
  explanation: string;
  dutyCents: number;
  feesCents: number;
  refundCents: number;
  chargebackCents: number;
  /** The day of the duty layers. */
  asOf: string;
  breakdown: LandedCostView;
}

/** What the ranking needs of one product: its spread after duty and fees, the verdict, the day and the layers not counted. */
export interface GlitchRankFigures {
  spreadCents: number;
  qualifies: boolean;
  asOf: string;
  ended: EndedLayer[];
}

function figuresOf(db: Db, products: readonly GlitchCandidate[], now?: Date) {
  return landedFigures(db, {
    // No user: the guessed code and origin only, as drops do (a glitch's ranking is the same for every seller).
    userId: "",
    products: products.map((p) => ({ ...p, priceCents: p.amazonPriceCents })),
    now,
  });
}

/**
 * The ranking's figures of many products (every candidate of a list): the landed cost's sum and the verdict only, no
 * sentences or breakdowns, which only the rows shown need (glitchLandedOf).
 */
export async function glitchRankFiguresOf(db: Db, products: readonly GlitchCandidate[], now?: Date): Promise<Map<string, GlitchRankFigures>> {
  const figures = await figuresOf(db, products, now);
  const out = new Map<string, GlitchRankFigures>();
  for (const p of products) {
    const f = figures.get(p.objectID);
    if (!f) continue;
    const spreadCents = p.amazonPriceCents - f.profit.landedCostCents;
    out.set(p.objectID, {
      spreadCents,
      qualifies: spreadCents * 100 >= GLITCH_MIN_SPREAD_PERCENT * p.amazonPriceCents,
      asOf: f.duty.asOf,
      ended: f.duty.ended,
    });
  }
  return out;
}

/** The spread after duty and fees of each product (by objectID), with its sentences; products without a duty rate are left out. */
export async function glitchLandedOf(db: Db, products: readonly GlitchCandidate[], now?: Date): Promise<Map<string, GlitchLandedView>> {
  const figures = await figuresOf(db, products, now);
  const out = new Map<string, GlitchLandedView>();
  for (const p of products) {
    const f = figures.get(p.objectID);
    if (!f) continue;
    const numbers = { amazonPriceCents: p.amazonPriceCents, costCents: p.costCents, shippingCents: p.shippingCents };
    const parts = { dutyCents: f.duty.dutyCents, feesCents: f.profit.parts.feesCents, reservesCents: f.profit.parts.reservesCents, dutyExplanation: f.duty.explanation };
    out.set(p.objectID, {
      ...glitchLanded(numbers, parts),
      explanation: landedSpreadExplanation(numbers, parts),
      dutyCents: parts.dutyCents,
      feesCents: parts.feesCents,
      refundCents: f.profit.reserves.refundCents,
      chargebackCents: f.profit.reserves.chargebackCents,
      asOf: f.duty.asOf,
      breakdown: breakdownOf(f),
    });
  }
  return out;
}
