// Glitch mode's spread after duty and fees (issue 24, decision 066) on worked examples: the duty layers come from
// the landed-cost module's dutyFor on hand-written rows, fees and reserves from profitOf, every figure checked by
// hand in the comments. A product whose plain spread reaches 20% but whose spread after duty does not is flagged
// with the reason; one that still reaches it is not.
import { describe, expect, it } from "vitest";
import { GLITCH_MIN_SPREAD_PERCENT, glitchLanded, landedSpreadExplanation, percentText, plainSpreadReaches } from "~/domain/glitch-mode/glitch";
import { DEFAULT_RESERVES, dutyFor, feeSettings, profitOf, type TariffRow } from "~/domain/landed-cost/landed-cost";

const row = (r: Partial<TariffRow> & Pick<TariffRow, "kind" | "series" | "name">): TariffRow => ({
  htsPrefix: "",
  origins: ["*"],
  exemptPrefixes: [],
  rateBp: null,
  perItemCents: null,
  validFrom: "2026-01-01",
  validTo: null,
  source: "test",
  ...r,
});
// A hand-written table: MFN 7.5% on 6307.90.98 and a 10% surcharge in force on the day.
const ROWS: TariffRow[] = [
  row({ kind: "mfn", series: "mfn", name: "MFN", htsPrefix: "63079098", rateBp: 750 }),
  row({ kind: "surcharge", series: "s122", name: "Section 122", rateBp: 1000, validFrom: "2026-02-24", validTo: "2026-12-24" }),
];

/** The landed parts of one product sold at its Amazon price, through the landed-cost module. */
function partsOf(amazonPriceCents: number, costCents: number, shippingCents: number, reserves = DEFAULT_RESERVES) {
  const duty = dutyFor({ rows: ROWS, hts: "63079098", origin: "CN", asOf: "2026-11-26", valueCents: costCents });
  const profit = profitOf({ priceCents: amazonPriceCents, costCents, shippingCents, dutyCents: duty.dutyCents, fees: feeSettings("shopify-payments"), reserves });
  return { dutyCents: duty.dutyCents, feesCents: profit.parts.feesCents, reservesCents: profit.parts.reservesCents, dutyExplanation: duty.explanation, landed: profit.landedCostCents };
}

describe("glitchLanded: the spread after duty and fees against the 20% threshold", () => {
  it("the threshold is 20% of the Amazon price", () => expect(GLITCH_MIN_SPREAD_PERCENT).toBe(20));

  it("a plain spread of 35% that lands at 15% is flagged, with the duty layers' sum and what each part takes", () => {
    // Amazon $100.00, cost $50.00, shipping $15.00: plain spread $35.00 = 35%.
    // Duty on the $50.00 cost: MFN 7.5% = $3.75 + Section 122 10% = $5.00 -> 17.5% = $8.75.
    // Fees (Shopify Payments 2.9% + 30c of $100.00): $2.90 + $0.30 = $3.20.
    // Reserves with the seller's own refund rate of 7.47%: $7.47, + chargebacks 0.5% of ($100 + $15 fee) = $0.575 -> $0.58: $8.05.
    // Landed cost 50 + 15 + 8.75 + 3.20 + 8.05 = $85.00; spread after duty $15.00 = 15% < 20%.
    const n = { amazonPriceCents: 10_000, costCents: 5000, shippingCents: 1500 };
    const parts = partsOf(n.amazonPriceCents, n.costCents, n.shippingCents, { ...DEFAULT_RESERVES, refundRateBp: 747 });
    expect(parts).toMatchObject({ dutyCents: 875, feesCents: 320, reservesCents: 805, landed: 8500 });
    const verdict = glitchLanded(n, parts);
    expect(verdict).toEqual({
      landedCostCents: 8500,
      spreadCents: 1500,
      spreadBps: 1500,
      spreadPercentText: "15%",
      qualifiesBeforeDuty: true,
      qualifies: false,
      reason:
        "Spread after duty and fees 15% (35% before) — below the 20% glitch threshold: duty 17.5% = MFN 7.5% + Section 122 10% as of 2026-11-26 takes $8.75, payment fees $3.20 and the refund and chargeback reserves $8.05.",
    });
    expect(landedSpreadExplanation(n, parts)).toBe(
      "Amazon $100.00 − landed cost $85.00 (cost $50.00 + shipping $15.00 (estimate) + duty $8.75 + fees $3.20 + reserves $8.05) = $15.00, 15% of Amazon price",
    );
  });

  it("with the default reserves a 35% plain spread lands below zero: the refund reserve alone takes 19.3%", () => {
    // Same product. Reserves: refund 19.3% of $100 = $19.30 + chargebacks $0.58 = $19.88.
    // Landed 50 + 15 + 8.75 + 3.20 + 19.88 = $96.83; spread $3.17 = 3.17% -> "3%".
    const n = { amazonPriceCents: 10_000, costCents: 5000, shippingCents: 1500 };
    const verdict = glitchLanded(n, partsOf(n.amazonPriceCents, n.costCents, n.shippingCents));
    expect(verdict).toMatchObject({ landedCostCents: 9683, spreadCents: 317, spreadBps: 317, spreadPercentText: "3%", qualifiesBeforeDuty: true, qualifies: false });
    expect(verdict.reason).toMatch(/^Spread after duty and fees 3% \(35% before\) — below the 20% glitch threshold: duty 17.5% = MFN 7.5% \+ Section 122 10%/);
  });

  it("a product that still reaches 20% after duty qualifies and has no reason", () => {
    // Amazon $100.00, cost $20.00, shipping $5.00: plain 75%. Duty 17.5% of $20 = $1.50 + $2.00 = $3.50.
    // Fees $3.20; default reserves $19.30 + $0.58 = $19.88. Landed 20 + 5 + 3.50 + 3.20 + 19.88 = $51.58.
    // Spread after duty $48.42 = 48.42% -> "48%".
    const n = { amazonPriceCents: 10_000, costCents: 2000, shippingCents: 500 };
    const verdict = glitchLanded(n, partsOf(n.amazonPriceCents, n.costCents, n.shippingCents));
    expect(verdict).toEqual({
      landedCostCents: 5158,
      spreadCents: 4842,
      spreadBps: 4842,
      spreadPercentText: "48%",
      qualifiesBeforeDuty: true,
      qualifies: true,
      reason: null,
    });
  });

  it("exactly 20% after duty qualifies; a hair under is written with one decimal so it never reads 20%", () => {
    const parts = { dutyCents: 0, feesCents: 0, reservesCents: 0, dutyExplanation: "duty 0% = MFN 0% as of 2026-11-26" };
    expect(glitchLanded({ amazonPriceCents: 10_000, costCents: 8000, shippingCents: 0 }, parts)).toMatchObject({ qualifies: true, spreadPercentText: "20%", reason: null });
    const under = glitchLanded({ amazonPriceCents: 10_000, costCents: 7000, shippingCents: 0 }, { ...parts, dutyCents: 1004 });
    // 30% plain; 10000 - 7000 - 1004 = 1996 = 19.96%: rounded it would read "20%", so it is written 19.9% (rounded down).
    expect(under.qualifies).toBe(false);
    expect(under.spreadPercentText).toBe("19.9%");
    expect(under.reason).toMatch(/^Spread after duty and fees 19\.9% \(30% before\)/);
  });

  it("a product whose plain spread is already under 20% never qualified: no reason about duty", () => {
    const n = { amazonPriceCents: 2000, costCents: 1500, shippingCents: 200 };
    expect(plainSpreadReaches(n)).toBe(false);
    expect(glitchLanded(n, partsOf(n.amazonPriceCents, n.costCents, n.shippingCents))).toMatchObject({ qualifiesBeforeDuty: false, qualifies: false, reason: null });
  });

  it("percentText keeps one decimal only when it says something", () => {
    expect(percentText(1500)).toBe("15%");
    expect(percentText(1960)).toBe("19.6%");
    expect(percentText(-785)).toBe("-7.9%"); // -7.85 rounds away from zero
  });
});
