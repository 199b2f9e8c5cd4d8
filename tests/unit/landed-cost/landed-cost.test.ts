// Landed cost and profit (app/domain/landed-cost/landed-cost.ts, decisions 052, 081): worked examples with every layer written
// out and checked by hand in the comments, a layer whose validity ended never counted (only named), and properties
// (fast-check) over random tables, costs, prices and days.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import {
  DEFAULT_RESERVES,
  dutyFor,
  endedLayersSentence,
  feeSettings,
  inForce,
  guessHtsCode,
  originFromSupplier,
  parseHtsCode,
  parseOrigin,
  percentOf,
  priceForTargetMargin,
  profitOf,
  type TariffRow,
} from "~/domain/landed-cost/landed-cost";
import { layerRows, LayersFileSchema, parseGeneralRate, usitcCsvColumns, usitcJsonLines, usitcRows } from "~/domain/landed-cost/tariff-file";
import starter from "../../../content/tariffs/us-starter-2026-12-07.json";

function row(fields: Partial<TariffRow> & Pick<TariffRow, "kind" | "series" | "name">): TariffRow {
  return { htsPrefix: "", origins: ["*"], exemptPrefixes: [], rateBp: null, perItemCents: null, validFrom: "2026-01-01", validTo: null, source: "test", ...fields };
}

// A small table in the shape of the starter table (content/tariffs/): kitchenware of plastics from China.
const KITCHEN: TariffRow[] = [
  row({ kind: "mfn", series: "mfn", name: "MFN (column 1)", htsPrefix: "39241040", rateBp: 340, validFrom: "2025-01-01" }),
  row({ kind: "section301", series: "section-301-cn", name: "Section 301 (List 3)", htsPrefix: "39241040", origins: ["CN", "HK"], rateBp: 2500, validFrom: "2019-05-10" }),
  row({ kind: "surcharge", series: "ieepa-fentanyl-cn", name: "IEEPA fentanyl surcharge (China)", origins: ["CN", "HK"], rateBp: 1000, validFrom: "2025-11-10", validTo: "2026-02-24" }),
  row({ kind: "surcharge", series: "ieepa-reciprocal", name: "IEEPA reciprocal surcharge", origins: ["CN", "HK"], rateBp: 1000, validFrom: "2025-05-14", validTo: "2026-02-24" }),
  row({ kind: "surcharge", series: "section-122", name: "Section 122 temporary import surcharge", rateBp: 1000, validFrom: "2026-02-24", validTo: "2026-07-24" }),
  row({ kind: "postal", series: "postal", name: "Postal entry, specific duty (China, IEEPA rate 16-25%)", origins: ["CN", "HK"], perItemCents: 16000, validFrom: "2025-11-10", validTo: "2026-02-24" }),
  row({ kind: "postal", series: "postal", name: "Postal entry at the Section 122 rate", rateBp: 1000, validFrom: "2026-02-24", validTo: "2026-07-24" }),
];

const shopify = feeSettings("shopify-payments");

describe("worked examples (every layer by hand)", () => {
  it("a $29.99 kitchen gadget from China on 2026-11-26: the ended Section 122 surcharge is not counted, only named", () => {
    // Supplier cost $6.40 is the dutiable value.
    //   MFN 3.4% of 640 = 21.76 -> 22c
    //   Section 301 List 3, 25% of 640 = 160c
    //   Surcharges: the IEEPA ones ended 2026-02-24, Section 122 ended 2026-07-24: none in force, none counted.
    //   Duty = 22 + 160 = 182c; rate 3.4 + 25 = 28.4%
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2026-11-26", valueCents: 640 });
    expect(duty.layers.map((l) => [l.name, l.dutyCents])).toEqual([
      ["MFN (column 1)", 22],
      ["Section 301 (List 3)", 160],
    ]);
    expect(duty.dutyCents).toBe(182);
    expect(duty.ratePercent).toBe(28.4);
    // The series that ended are named (newest first), for the page to say once.
    expect(duty.ended.map((e) => [e.name, e.validTo])).toEqual([
      ["Section 122 temporary import surcharge", "2026-07-24"],
      ["IEEPA fentanyl surcharge (China)", "2026-02-24"],
      ["IEEPA reciprocal surcharge", "2026-02-24"],
    ]);
    expect(endedLayersSentence(duty.ended)).toBe(
      "Not counted, because their validity ended: Section 122 temporary import surcharge 10% (ended 2026-07-24); IEEPA fentanyl surcharge (China) 10% (ended 2026-02-24); IEEPA reciprocal surcharge 10% (ended 2026-02-24).",
    );
    expect(duty.explanation).toBe("duty 28.4% = MFN (column 1) 3.4% + Section 301 (List 3) 25% as of 2026-11-26");
    // With Section 122 it would have been 246c (38.4%): the figure the issue saw pushing products out of glitch mode.
    const counted = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2026-07-23", valueCents: 640 });
    expect(counted.dutyCents).toBe(246);
    expect(counted.ended.map((e) => e.name)).toEqual(["IEEPA fentanyl surcharge (China)", "IEEPA reciprocal surcharge"]);
    // A page of many products says each ended layer once, in the same order whichever product came first.
    const sentence = endedLayersSentence(duty.ended);
    expect(endedLayersSentence([...counted.ended, ...duty.ended])).toBe(sentence);
    expect(endedLayersSentence([...duty.ended].reverse())).toBe(sentence);
    expect(endedLayersSentence([])).toBeNull();
  });

  it("the last day of Section 122 (2026-07-23) counts it; its first day without (2026-07-24) does not", () => {
    const on = (asOf: string) => dutyFor({ rows: KITCHEN, hts: "39241040", origin: "VN", asOf, valueCents: 640 }).layers.map((l) => l.name);
    expect(on("2026-07-23")).toEqual(["MFN (column 1)", "Section 122 temporary import surcharge"]);
    expect(on("2026-07-24")).toEqual(["MFN (column 1)"]);
  });

  it("a $29.99 kitchen gadget's profit with the layers of 2026-03-15 (all in force)", () => {
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2026-03-15", valueCents: 640 });
    expect(duty.dutyCents).toBe(246);
    // Price $29.99, shipping $4.50, Shopify Payments, default reserves, CPA $8.00:
    //   fees: 2.9% of 2999 = 86.971 -> 87c, + 30c = 117c
    //   refund reserve: 19.3% of 2999 = 578.807 -> 579c
    //   chargebacks: 0.5% of (2999 + 1500 fee) = 22.495 -> 22c; reserves = 579 + 22 = 601c
    //   landed = 640 + 450 + 246 + 117 + 601 = 2054c
    //   break-even CPA = 2999 - 2054 = 945c; net = 945 - 800 = 145c; margin = 145 / 2999 = 4.835% -> 483 bps
    //   break-even ROAS = 2999 / 945 = 3.1735...
    const profit = profitOf({ priceCents: 2999, costCents: 640, shippingCents: 450, dutyCents: duty.dutyCents, fees: shopify, reserves: DEFAULT_RESERVES, cpaCents: 800 });
    expect(profit).toMatchObject({
      landedCostCents: 2054,
      parts: { costCents: 640, shippingCents: 450, dutyCents: 246, feesCents: 117, reservesCents: 601 },
      reserves: { refundCents: 579, chargebackCents: 22 },
      breakEvenCpaCents: 945,
      netProfitCents: 145,
      marginBps: 483,
    });
    expect(profit.breakEvenRoas).toBeCloseTo(3.17354, 5);
  });

  it("the same gadget on 2026-03-15: Section 122 is current, the IEEPA layers are gone", () => {
    // MFN 22c + Section 301 160c + Section 122 64c = 246c: every layer is in force.
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2026-03-15", valueCents: 640 });
    expect(duty.layers.map((l) => l.name)).toEqual(["MFN (column 1)", "Section 301 (List 3)", "Section 122 temporary import surcharge"]);
    expect(duty.dutyCents).toBe(246);
  });

  it("on 2025-12-01 the two IEEPA surcharges stack: 3.4% + 25% + 10% + 10% = 48.4%", () => {
    // 22 + 160 + 64 + 64 = 310c
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2025-12-01", valueCents: 640 });
    expect(duty.ratePercent).toBe(48.4);
    expect(duty.dutyCents).toBe(310);
  });

  it("a postal entry on 2025-12-01 pays the $160 specific duty instead of the surcharges", () => {
    // MFN 22c + Section 301 160c + postal $160.00 per item (16000c) = 16182c
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2025-12-01", entry: "postal", valueCents: 640 });
    expect(duty.layers.map((l) => [l.name, l.dutyCents])).toEqual([
      ["MFN (column 1)", 22],
      ["Section 301 (List 3)", 160],
      ["Postal entry, specific duty (China, IEEPA rate 16-25%)", 16000],
    ]);
    expect(duty.dutyCents).toBe(16182);
    expect(duty.explanation).toContain("+ $160.00 = ");
  });

  it("goods from Vietnam pay no Section 301 and no China surcharge", () => {
    // 2026-03-15: MFN 22c + Section 122 64c = 86c (13.4%)
    const duty = dutyFor({ rows: KITCHEN, hts: "39241040", origin: "VN", asOf: "2026-03-15", valueCents: 640 });
    expect(duty.layers.map((l) => l.name)).toEqual(["MFN (column 1)", "Section 122 temporary import surcharge"]);
    expect(duty.dutyCents).toBe(86);
  });

  it("a compound MFN rate (29c each + 6.6%) shows both parts", () => {
    // Watch, value $12.00: specific 29c + 6.6% of 1200 = 79.2 -> 79c => 108c of MFN
    const rows = [
      row({ kind: "mfn", series: "mfn-specific", name: "MFN (column 1), specific part", htsPrefix: "91021145", perItemCents: 29 }),
      row({ kind: "mfn", series: "mfn", name: "MFN (column 1)", htsPrefix: "91021145", rateBp: 660 }),
    ];
    const duty = dutyFor({ rows, hts: "9102114500", origin: "JP", asOf: "2026-11-26", valueCents: 1200 });
    expect(duty.layers.map((l) => [l.name, l.dutyCents])).toEqual([
      ["MFN (column 1), specific part", 29],
      ["MFN (column 1)", 79],
    ]);
    expect(duty.dutyCents).toBe(108);
  });

  it("a layer in force from the day another ended is counted (the note 52 layer after Section 122)", () => {
    const note52 = row({ kind: "section301", series: "section-301-note-52", name: "Section 301 forced-labour duty (U.S. note 52)", origins: ["CN"], rateBp: 1250, validFrom: "2026-07-24" });
    const duty = dutyFor({ rows: [...KITCHEN, note52], hts: "39241040", origin: "CN", asOf: "2026-11-26", valueCents: 640 });
    // MFN 22c + List 3 160c + note 52 12.5% of 640 = 80c = 262c
    expect(duty.layers.map((l) => [l.name, l.dutyCents])).toEqual([
      ["MFN (column 1)", 22],
      ["Section 301 (List 3)", 160],
      ["Section 301 forced-labour duty (U.S. note 52)", 80],
    ]);
    expect(duty.dutyCents).toBe(262);
  });

  it("the longest HTS prefix and the named origin win; exemptions and future rows are left out", () => {
    const rows = [
      row({ kind: "mfn", series: "mfn", name: "MFN heading", htsPrefix: "3924", rateBp: 500 }),
      row({ kind: "mfn", series: "mfn", name: "MFN line", htsPrefix: "39241040", rateBp: 340 }),
      row({ kind: "surcharge", series: "s", name: "All", rateBp: 1000, exemptPrefixes: ["3924"] }),
      row({ kind: "surcharge", series: "t", name: "Later", rateBp: 5000, validFrom: "2027-01-01" }),
    ];
    const duty = dutyFor({ rows, hts: "39241040", origin: "CN", asOf: "2026-11-26", valueCents: 1000 });
    expect(duty.layers.map((l) => l.name)).toEqual(["MFN line"]);
    expect(duty.ended).toEqual([]);
  });

  it("a code with no MFN row, or none in force yet, is refused with a sentence (422)", () => {
    expect(() => dutyFor({ rows: KITCHEN, hts: "8471", origin: "CN", asOf: "2026-11-26", valueCents: 640 })).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining("no MFN (column 1) rate for HTS 8471") }),
    );
    expect(() => dutyFor({ rows: KITCHEN, hts: "8471", origin: "CN", asOf: "2026-11-26", valueCents: 640 })).toThrow(
      expect.objectContaining({ message: expect.not.stringMatching(/npm|import FILE/) }),
    );
    expect(() => dutyFor({ rows: KITCHEN, hts: "39241040", origin: "CN", asOf: "2024-12-31", valueCents: 640 })).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining("in force on 2024-12-31") }),
    );
  });

  it("the price for a 30% margin is the lowest whole-cent price that reaches it", () => {
    // Fixed per order: 640 + 450 + 246 duty + 30 fee + 800 CPA + 0.5% of the $15 chargeback fee (7.5c) = 2173.5c
    // Percentages of price: 2.9% fee + 19.3% refunds + 0.5% chargebacks = 22.7%; room = 100 - 30 - 22.7 = 47.3%
    // 2173.5 / 0.473 = 4595.1c; rounding to the cent moves it by at most a few cents.
    const input = { costCents: 640, shippingCents: 450, dutyCents: 246, fees: shopify, reserves: DEFAULT_RESERVES, cpaCents: 800 };
    const price = priceForTargetMargin(input, 3000)!;
    expect(Math.abs(price - 4595)).toBeLessThanOrEqual(3);
    expect(profitOf({ ...input, priceCents: price }).netProfitCents * 10000).toBeGreaterThanOrEqual(3000 * price);
    expect(profitOf({ ...input, priceCents: price - 1 }).netProfitCents * 10000).toBeLessThan(3000 * (price - 1));
    expect(priceForTargetMargin(input, 8000)).toBeNull();
  });
});

describe("inputs", () => {
  it("reads HTS codes with or without dots and refuses anything else with a 400", () => {
    expect(parseHtsCode("3924.10.40")).toBe("39241040");
    expect(parseHtsCode(" 3924104000 ")).toBe("3924104000");
    for (const bad of ["39", "3924.1", "3924.10.40.00.11", "abcd", "3924-10", ""]) {
      expect(() => parseHtsCode(bad)).toThrow(AppError);
    }
    expect(parseOrigin("vn")).toBe("VN");
    expect(() => parseOrigin("China")).toThrow(expect.objectContaining({ status: 400 }));
  });

  it("guesses origin from the supplier, else the stated default, and the HTS code from the niche, with reasons", () => {
    expect(originFromSupplier("AliExpress", "https://www.aliexpress.com/item/1.html")).toMatchObject({ origin: "CN" });
    expect(originFromSupplier(null, null)).toEqual({ origin: "CN", reason: expect.stringContaining("default CN") });
    const table = { kitchen: { htsCode: "3924.10.40", reason: "kitchenware of plastics" }, general: { htsCode: "3926.90.99", reason: "other plastics" } };
    expect(guessHtsCode(["unknown", "kitchen"], table)).toEqual({ htsCode: "3924.10.40", reason: 'guessed from the niche "kitchen": kitchenware of plastics' });
    expect(guessHtsCode(["unknown"], table)?.htsCode).toBe("3926.90.99");
  });

  it("reads USITC general rates it can apply per order and skips the rest", () => {
    expect(parseGeneralRate("Free")).toEqual({ rateBp: 0, perItemCents: null });
    expect(parseGeneralRate("3.4%")).toEqual({ rateBp: 340, perItemCents: null });
    expect(parseGeneralRate("29¢ each + 6.6%")).toEqual({ rateBp: 660, perItemCents: 29 });
    expect(parseGeneralRate("2.8¢/kg")).toBeNull();
    expect(parseGeneralRate("29¢ each + 6.6% on the case and strap")).toBeNull();
    const { rows, skipped } = usitcRows(
      [
        { htsno: "3924", general: "" },
        { htsno: "3924.10.40", general: "3.4%" },
        { htsno: "3924.10.40.00", general: "" },
        { htsno: "0201.10.10", general: "26.4¢/kg" },
      ],
      "2026 HTS Revision 99",
      "2026-12-01",
    );
    expect(rows).toEqual([expect.objectContaining({ kind: "mfn", htsPrefix: "39241040", rateBp: 340, validFrom: "2026-12-01", validTo: null })]);
    expect(skipped).toEqual([{ htsno: "0201.10.10", general: "26.4¢/kg" }]);
  });
});

describe("tariff files", () => {
  it("recognises the USITC JSON and CSV exports by their own field names", () => {
    const json = [{ htsno: "3924.10.40", indent: "1", description: "Other", superior: null, units: [], general: "3.4%", special: "Free (A+,AU)", other: "80%", footnotes: [] }];
    expect(usitcJsonLines(json)).toEqual([{ htsno: "3924.10.40", general: "3.4%" }]);
    expect(usitcJsonLines([{ code: "3924", rate: "3.4%" }])).toBeNull();
    expect(usitcCsvColumns(["\uFEFFHTS Number", "Indent", "Description", "Unit of Quantity", "General Rate of Duty"])).toEqual({ htsno: 0, general: 4 });
    expect(usitcCsvColumns(["Code", "Rate"])).toBeNull();
  });

  it("the starter table parses, every row names a source and dates, and every niche guess has an MFN row", () => {
    const file = LayersFileSchema.parse(starter);
    for (const layer of file.layers) expect(layer.source.length).toBeGreaterThan(20);
    const mfn = new Set(file.layers.filter((l) => l.kind === "mfn").map((l) => l.htsPrefix));
    for (const [niche, guess] of Object.entries(file.niches)) expect(mfn.has(parseHtsCode(guess.htsCode)), niche).toBe(true);
    // The HTS lines the title is matched against each have an MFN row (a guess the calculator would refuse is no guess).
    for (const line of file.htsLines) expect(mfn.has(parseHtsCode(line.htsCode)), line.htsCode).toBe(true);
  });

  it("the starter table is HTS 2026 Revision 20: Section 122 ends 2026-07-24, China pays the note 52 layer from that day", () => {
    const file = LayersFileSchema.parse(starter);
    expect(file.htsRevision).toBe("2026 HTS Revision 20");
    expect(file.htsExported).toBe("2026-09-29");
    const rows = layerRows(file);
    // A gadget of kitchenware from China on 2026-12-07: MFN 3.4% + note 52 12.5%, no Section 122 (ended), List 4B suspended.
    const duty = dutyFor({ rows: rows.filter((r) => r.htsPrefix === "" || "39241040".startsWith(r.htsPrefix)), hts: "39241040", origin: "CN", asOf: "2026-12-07", valueCents: 1000 });
    expect(duty.layers.map((l) => [l.name, l.ratePercent])).toEqual([
      ["MFN (column 1)", 3.4],
      ["Section 301 forced-labour duty (U.S. note 52)", 12.5],
    ]);
    expect(duty.ended.map((e) => e.name)).toContain("Section 122 temporary import surcharge");
    // A power bank from China: the 2024 review's 25% (9903.91.06) replaced List 4A's 7.5% on 2026-01-01.
    const bank = dutyFor({ rows: rows.filter((r) => r.htsPrefix === "" || "85076000".startsWith(r.htsPrefix)), hts: "85076000", origin: "CN", asOf: "2026-12-07", valueCents: 1000 });
    expect(bank.layers.map((l) => [l.name, l.ratePercent])).toEqual([
      ["MFN (column 1)", 3.4],
      ["Section 301 (2024 review, 9903.91.06)", 25],
      ["Section 301 forced-labour duty (U.S. note 52)", 12.5],
    ]);
    // Vietnam 12.5%, India 10%, each row naming its heading and the revision.
    for (const [origin, rate, heading] of [["VN", 12.5, "9903.05.84"], ["IN", 10, "9903.05.44"]] as const) {
      const l = file.layers.find((x) => x.series === "section-301-note-52" && x.origins.includes(origin))!;
      expect([l.ratePercent, l.validFrom, l.validTo]).toEqual([rate, "2026-07-24", null]);
      expect(l.source).toContain(heading);
      expect(l.source).toContain("2026 HTS Revision 20");
    }
  });
});

describe("properties", () => {
  const money = fc.integer({ min: 0, max: 500_000 });
  const rate = fc.integer({ min: 0, max: 20_000 });
  const fees = fc.record({ rateBp: fc.integer({ min: 0, max: 1000 }), fixedCents: fc.integer({ min: 0, max: 100 }) }).map((f) => ({ preset: "stripe" as const, ...f }));
  const reserves = fc.record({ refundRateBp: fc.integer({ min: 0, max: 3000 }), chargebackRateBp: fc.integer({ min: 0, max: 500 }), chargebackFeeCents: fc.integer({ min: 0, max: 3000 }) });
  const layerRates = fc.record({ mfn: rate, s301: rate, surcharge: rate, perItem: fc.integer({ min: 0, max: 30_000 }) });

  function table(r: { mfn: number; s301: number; surcharge: number; perItem: number }): TariffRow[] {
    return [
      row({ kind: "mfn", series: "mfn", name: "MFN", htsPrefix: "3924", rateBp: r.mfn }),
      row({ kind: "section301", series: "301", name: "301", origins: ["CN"], rateBp: r.s301 }),
      row({ kind: "surcharge", series: "s", name: "Surcharge", rateBp: r.surcharge, perItemCents: r.perItem, validTo: "2026-06-01" }),
    ];
  }

  it("a layer whose validity ended on or before the day is never counted; every layer in force is", () => {
    const day = fc.integer({ min: 0, max: 2000 }).map((n) => new Date(Date.UTC(2024, 0, 1) + n * 86_400_000).toISOString().slice(0, 10));
    const span = fc.tuple(day, fc.option(day, { nil: null })).filter(([from, to]) => to === null || to > from);
    const randomRow = fc.record({
      kind: fc.constantFrom("mfn", "section301", "surcharge", "postal") as fc.Arbitrary<TariffRow["kind"]>,
      series: fc.constantFrom("a", "b", "c"),
      origins: fc.constantFrom(["*"], ["CN"], ["VN"]),
      rateBp: fc.integer({ min: 0, max: 5000 }),
      span,
    }).map(({ kind, series, origins, rateBp, span: [validFrom, validTo] }) => row({ kind, series: `${kind}-${series}`, name: `${kind} ${series} ${validFrom}`, origins, rateBp, validFrom, validTo }));
    const always = row({ kind: "mfn", series: "mfn-base", name: "MFN base", rateBp: 100, validFrom: "2020-01-01" });
    fc.assert(
      fc.property(fc.array(randomRow, { maxLength: 12 }), day, fc.constantFrom("CN", "VN", "US"), fc.constantFrom("commercial", "postal") as fc.Arbitrary<"commercial" | "postal">, (rows, asOf, origin, entry) => {
        const all = [always, ...rows.map((r, i) => ({ ...r, name: `${r.name} #${i}` }))];
        const duty = dutyFor({ rows: all, hts: "39241040", origin, asOf, entry, valueCents: 10_000 });
        const byName = new Map(all.map((r) => [r.name, r]));
        // Nothing counted has ended (or not begun); everything named as ended has.
        for (const l of duty.layers) expect(inForce(byName.get(l.name)!, asOf)).toBe(true);
        for (const e of duty.ended) expect(e.validTo <= asOf).toBe(true);
        // A series with a row in force on the day is counted once; the duty is the sum of what is counted.
        const series = new Set(duty.layers.map((l) => byName.get(l.name)!.series));
        expect(series.size).toBe(duty.layers.length);
        expect(duty.dutyCents).toBe(duty.layers.reduce((s, l) => s + l.dutyCents, 0));
      }),
    );
  });

  it("inForce: from the first day up to the day before validTo", () => {
    expect(inForce({ validFrom: "2026-02-24", validTo: "2026-07-24" }, "2026-02-23")).toBe(false);
    expect(inForce({ validFrom: "2026-02-24", validTo: "2026-07-24" }, "2026-02-24")).toBe(true);
    expect(inForce({ validFrom: "2026-02-24", validTo: "2026-07-24" }, "2026-07-23")).toBe(true);
    expect(inForce({ validFrom: "2026-02-24", validTo: "2026-07-24" }, "2026-07-24")).toBe(false);
    expect(inForce({ validFrom: "2026-07-24", validTo: null }, "2099-01-01")).toBe(true);
  });

  it("landed cost never decreases when a duty rate rises", () => {
    fc.assert(
      fc.property(layerRates, fc.constantFrom("mfn", "s301", "surcharge", "perItem"), fc.integer({ min: 0, max: 5000 }), money, money, money, fees, reserves, fc.constantFrom("2026-03-01", "2026-11-26"), (rates, which, rise, value, shipping, price, fee, reserve, asOf) => {
        const landed = (r: typeof rates) => {
          const duty = dutyFor({ rows: table(r), hts: "39241040", origin: "CN", asOf, valueCents: value });
          return profitOf({ priceCents: price, costCents: value, shippingCents: shipping, dutyCents: duty.dutyCents, fees: fee, reserves: reserve }).landedCostCents;
        };
        expect(landed({ ...rates, [which]: rates[which] + rise })).toBeGreaterThanOrEqual(landed(rates));
      }),
    );
  });

  it("the parts add up to the landed cost, and break-even ROAS times break-even profit is the price within a cent", () => {
    fc.assert(
      fc.property(money, money, money, fc.integer({ min: 1, max: 1_000_000 }), fees, reserves, money, (cost, shipping, duty, price, fee, reserve, cpa) => {
        const p = profitOf({ priceCents: price, costCents: cost, shippingCents: shipping, dutyCents: duty, fees: fee, reserves: reserve, cpaCents: cpa });
        const { costCents, shippingCents, dutyCents, feesCents, reservesCents } = p.parts;
        expect(costCents + shippingCents + dutyCents + feesCents + reservesCents).toBe(p.landedCostCents);
        expect(p.netProfitCents).toBe(price - p.landedCostCents - cpa);
        if (p.breakEvenCpaCents > 0) expect(Math.abs(p.breakEvenRoas! * p.breakEvenCpaCents - price)).toBeLessThan(1);
        else expect(p.breakEvenRoas).toBeNull();
      }),
    );
  });

  it("the price for a target margin reaches it, one cent less does not", () => {
    fc.assert(
      fc.property(money, money, money, fees, reserves, fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 9000 }), (cost, shipping, duty, fee, reserve, cpa, target) => {
        const input = { costCents: cost, shippingCents: shipping, dutyCents: duty, fees: fee, reserves: reserve, cpaCents: cpa };
        const price = priceForTargetMargin(input, target);
        const reaches = (p: number) => profitOf({ ...input, priceCents: p }).netProfitCents * 10000 >= target * p;
        if (price === null) {
          expect(fee.rateBp + reserve.refundRateBp + reserve.chargebackRateBp + target).toBeGreaterThanOrEqual(10000);
          return;
        }
        expect(reaches(price)).toBe(true);
        if (price > 1) expect(reaches(price - 1)).toBe(false);
      }),
    );
  });

  it("each percentage rounds half up to the cent", () => {
    expect(percentOf(640, 340)).toBe(22); // 21.76
    expect(percentOf(100, 50)).toBe(1); // 0.5
    expect(percentOf(100, 49)).toBe(0); // 0.49
  });
});
