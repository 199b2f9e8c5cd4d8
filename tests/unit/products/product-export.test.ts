// The export's pure rules (decision 057): the file name says what and when, the signed link's text covers the
// list and not the format, a row says "Add your cost" and leaves the landed columns empty without a cost, and
// the layers chosen once per code and origin give every cost the duty dutyFor gives it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dutyAtValue, dutyFor, type TariffRow } from "~/domain/landed-cost/landed-cost";
import { EXPORT_COLUMN_NAMES, exportFileName, exportRecord, parseExportFormat, signedExportPayload, type ExportProduct } from "~/domain/products/product-export";

const AT = new Date("2026-11-26T09:05:00Z");

describe("exportFileName", () => {
  it("names what and when, in UTC, with only safe characters", () => {
    expect(exportFileName({ kind: "search", q: 'Posture "corrector" / back' }, AT, "csv")).toBe("winning-products-search-posture-corrector-back-2026-11-26-0905utc.csv");
    expect(exportFileName({ kind: "search", q: "" }, AT, "json")).toBe("winning-products-search-2026-11-26-0905utc.json");
    expect(exportFileName({ kind: "competitor", domain: "rival.example" }, AT, "csv")).toBe("winning-products-competitor-rival-example-2026-11-26-0905utc.csv");
    expect(exportFileName({ kind: "drop", date: "2026-11-02" }, AT, "csv")).toBe("winning-products-drop-2026-11-02-2026-11-26-0905utc.csv");
    expect(exportFileName({ kind: "tracked" }, AT, "csv")).toBe("winning-products-tracked-2026-11-26-0905utc.csv");
  });
});

describe("parseExportFormat", () => {
  it("takes csv or json, and refuses anything else with a sentence", () => {
    expect(parseExportFormat("csv")).toBe("csv");
    expect(parseExportFormat("json")).toBe("json");
    expect(() => parseExportFormat(null)).toThrow("format must be csv or json.");
    expect(() => parseExportFormat("CSV")).toThrow("format must be csv or json.");
  });
});

describe("signedExportPayload", () => {
  it("covers the path, the list's parameters in any order, the user and the expiry, not the format or the signature", () => {
    const a = signedExportPayload("/api/products/export", new URLSearchParams("q=lamp&niche=pets&format=csv&u=u1&expires=9&sig=x"), "u1", 9);
    const b = signedExportPayload("/api/products/export", new URLSearchParams("niche=pets&q=lamp&format=json"), "u1", 9);
    expect(a).toBe(b);
    expect(signedExportPayload("/api/products/export", new URLSearchParams("q=lamps&niche=pets"), "u1", 9)).not.toBe(a);
    expect(signedExportPayload("/api/saved/export", new URLSearchParams("q=lamp&niche=pets"), "u1", 9)).not.toBe(a);
    expect(signedExportPayload("/api/products/export", new URLSearchParams("q=lamp&niche=pets"), "u2", 9)).not.toBe(a);
    expect(signedExportPayload("/api/products/export", new URLSearchParams("q=lamp&niche=pets"), "u1", 10)).not.toBe(a);
  });
});

describe("exportRecord", () => {
  const product: ExportProduct = {
    objectID: "p1", title: "Lamp", url: "/dashboard/products/p1", source: "measured", niches: ["lighting", "home"], listNote: null, figuresAsOf: "2026-11-25",
    priceCents: 2999, costCents: null, shippingCents: 0, amazonPriceCents: null, grossMarginBps: null, orders: null, orders7d: null, ordersGrowth7d: null,
    revenueCents: null, trendingScore: null, storesSelling: 4, storesAdded7d: 2, storesAdded30d: 3, winningScore: 61, lifecycleStage: "rising", saturation: 12,
    firstSeen: "2026-10-01", lastUpdated: "2026-11-25",
  };

  it("has every column, says Add your cost, and marks which figures are measured and which estimated", () => {
    const row = exportRecord(product, null);
    expect(Object.keys(row)).toEqual(EXPORT_COLUMN_NAMES);
    expect(row).toMatchObject({ cost_note: "Add your cost", supplier_cost_usd: null, duty_usd: null, landed_cost_usd: null, gross_margin_pct: null, stores_basis: "measured", score_basis: "estimated from measured counts", sales_basis: "not measured", niches: "lighting|home", price_usd: 29.99 });
  });
});

describe("dutyAtValue", () => {
  const rows: TariffRow[] = [
    { kind: "mfn", series: "mfn", name: "MFN", htsPrefix: "3924", origins: ["*"], exemptPrefixes: [], rateBp: 340, perItemCents: null, validFrom: "2026-01-01", validTo: null, source: "s" },
    { kind: "section301", series: "301", name: "301", htsPrefix: "3924", origins: ["CN"], exemptPrefixes: [], rateBp: 2500, perItemCents: null, validFrom: "2019-05-10", validTo: null, source: "s" },
    { kind: "surcharge", series: "s122", name: "S122", htsPrefix: "", origins: ["*"], exemptPrefixes: [], rateBp: 1000, perItemCents: 7, validFrom: "2026-02-24", validTo: "2026-07-24", source: "s" },
  ];
  it("gives every cost the duty dutyFor gives it, the ended layer left out of the layers and listed as ended", () => {
    const chosen = dutyFor({ rows, hts: "39241040", origin: "CN", asOf: "2026-11-26", valueCents: 0 });
    expect(chosen.layers.map((l) => l.name)).toEqual(["MFN", "301"]);
    expect(chosen.ended.map((e) => [e.name, e.ratePercent, e.perItemCents, e.validTo])).toEqual([["S122", 10, 7, "2026-07-24"]]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (value) => {
        expect(dutyAtValue(chosen, value)).toEqual(dutyFor({ rows, hts: "39241040", origin: "CN", asOf: "2026-11-26", valueCents: value }));
      }),
    );
  });
});
