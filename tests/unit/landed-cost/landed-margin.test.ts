// The stored margin after duty and fees (app/domain/landed-cost/margin.ts, decision 065): a worked example, what has no
// figure, and the fingerprint that decides when every product is figured again.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dutyFor, type TariffRow } from "~/domain/landed-cost/landed-cost";
import { landedMarginFingerprint, landedMarginOf, marginAfterDutyAndFeesBps, type LandedMarginTable } from "~/domain/landed-cost/margin";

function row(fields: Partial<TariffRow> & Pick<TariffRow, "kind" | "series" | "name">): TariffRow {
  return { htsPrefix: "", origins: ["*"], exemptPrefixes: [], rateBp: null, perItemCents: null, validFrom: "2026-01-01", validTo: null, source: "test", ...fields };
}

const KITCHEN: TariffRow[] = [
  row({ kind: "mfn", series: "mfn", name: "MFN (column 1)", htsPrefix: "39241040", rateBp: 340, validFrom: "2025-01-01" }),
  row({ kind: "section301", series: "section-301-cn", name: "Section 301 (List 3)", htsPrefix: "39241040", origins: ["CN", "HK"], rateBp: 2500, validFrom: "2019-05-10" }),
  row({ kind: "surcharge", series: "section-122", name: "Section 122 temporary import surcharge", rateBp: 1000, validFrom: "2026-02-24", validTo: "2026-07-24" }),
];

function table(rows: TariffRow[], asOf: string): LandedMarginTable {
  return {
    asOf,
    niches: { kitchen: { htsCode: "3924.10.40", reason: "kitchenware" }, gadgets: { htsCode: "8543.70.99", reason: "no MFN row in this table" } },
    duties: { "39241040|CN": dutyFor({ rows, hts: "39241040", origin: "CN", asOf, valueCents: 0 }), "85437099|CN": null },
  };
}

const product = { priceCents: 10000, costCents: 3000, shippingCents: 3000, niches: ["kitchen"], supplierName: "AliExpress", supplierUrl: null };

describe("the margin after duty and fees of one product", () => {
  it("worked example: $100, cost $30, shipping $30, kitchenware from China (28.4% = 3.4 + 25; Section 122 ended, not counted)", () => {
    // duty 1.02 + 7.50 = 8.52 (Section 122's 10% ended on 2026-07-24: never counted, decision 081); fees 2.90 + 0.30 =
    // 3.20; 100 - 30 - 30 - 8.52 - 3.20 = 28.28 -> 2828 bps
    const t = table(KITCHEN, "2026-11-26");
    expect(landedMarginOf(product, t)).toBe(2828);
    expect(t.duties["39241040|CN"]?.ended.map((e) => [e.name, e.validTo])).toEqual([["Section 122 temporary import surcharge", "2026-07-24"]]);
    // The day before it ended it was in force and counted: duty 11.52, 100 - 60 - 11.52 - 3.20 = 25.28 -> 2528 bps.
    expect(landedMarginOf(product, table(KITCHEN, "2026-07-23"))).toBe(2528);
  });

  it("has none without a cost, for a price in another currency, for no price, or when the code has no duty rate", () => {
    const t = table(KITCHEN, "2026-11-26");
    expect(landedMarginOf({ ...product, costCents: null }, t)).toBeNull();
    expect(landedMarginOf({ ...product, priceCurrency: "EUR" }, t)).toBeNull();
    expect(landedMarginOf({ ...product, priceCents: 0 }, t)).toBeNull();
    expect(landedMarginOf({ ...product, niches: ["gadgets"] }, t)).toBeNull();
  });

  it("a loss is a negative margin, rounded half away from zero", () => {
    expect(marginAfterDutyAndFeesBps({ priceCents: 1000, costCents: 1000, shippingCents: 0, dutyCents: 0 })).toBe(-590);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_00 }), fc.integer({ min: 0, max: 10_000_00 }), fc.integer({ min: 0, max: 10_000 }), (price, cost, duty) => {
        const m = marginAfterDutyAndFeesBps({ priceCents: price, costCents: cost, shippingCents: 0, dutyCents: duty });
        expect(m).toBeLessThanOrEqual(marginAfterDutyAndFeesBps({ priceCents: price, costCents: cost, shippingCents: 0, dutyCents: 0 }));
      }),
    );
  });
});

describe("the fingerprint", () => {
  it("does not move with the day while the same layers apply, and moves when a rate does", () => {
    const before = landedMarginFingerprint(table(KITCHEN, "2026-11-26"));
    expect(landedMarginFingerprint(table(KITCHEN, "2026-11-27"))).toBe(before);
    const raised = KITCHEN.map((r) => (r.series === "section-301-cn" ? { ...r, rateBp: 5000 } : r));
    expect(landedMarginFingerprint(table(raised, "2026-11-26"))).not.toBe(before);
  });
});
