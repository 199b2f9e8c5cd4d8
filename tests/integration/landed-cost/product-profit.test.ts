// GET /api/products/{objectID}/profit and POST /api/products/{objectID}/tariff (decision 052) on a real
// migrated database: the starter tariff table loaded on first use, the contract's JSON shape, a layer whose validity
// ended never counted, only named (decision 081), 400s with a sentence, 422 "Add your cost", the seller's own code and
// origin kept with their saved product, and `npm run tariffs -- import` of a USITC CSV replacing an MFN rate.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as productAction } from "~/routes/api.products.$objectID";
import { loader as profitApi } from "~/routes/api.products.$objectID.profit";
import { loader as gridPage } from "~/routes/dashboard.products._index";
import { action as tariffApi } from "~/routes/api.products.$objectID.tariff";
import { runScript } from "../../helpers/cli";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { importTariffFile } from "~/services/landed-cost/tariffs.server";
import { landedMargins } from "~/services/landed-cost.server";
import { researchAccess } from "~/domain/products/research-access";
import { createSignedInUser } from "../../helpers/site-users";

const base = PLAIN_FIXTURE;

let seller: Awaited<ReturnType<typeof createSignedInUser>>;

beforeAll(async () => {
  await insertProducts(db, [
    { ...base, objectID: "lc-gadget", title: "Garlic press", niches: ["kitchen"] },
    { ...base, objectID: "lc-nocost", title: "Rival lamp", niches: ["lighting"] },
    { ...base, objectID: "lc-euro", title: "Euro garlic press", niches: ["kitchen"] },
  ]);
  // A measured product priced in euros (decision 059): its 2,500 are euro cents, never dollars.
  await db.product.update({ where: { objectID: "lc-euro" }, data: { priceCents: 2500, priceCurrency: "EUR", shippingCents: 450 } });
  await db.product.update({ where: { objectID: "lc-gadget" }, data: { shippingCents: 450 } });
  await db.product.update({ where: { objectID: "lc-nocost" }, data: { costCents: null, marginBps: null } });
  seller = await createSignedInUser({ userSubscribed: "yes" });
});

async function profit(objectID: string, query = "", cookie = seller.cookie) {
  return call(profitApi, `/api/products/${objectID}/profit${query}`, { cookie, params: { objectID } });
}

type Answer = {
  currency: string;
  landedCostCents: number;
  parts: Record<string, number>;
  duty: { htsCode: string; htsReason: string; origin: string; ratePercent: number; dutyCents: number; layers: { name: string; ratePercent?: number; dutyCents: number; validFrom: string; validTo: string | null; source: string }[]; asOf: string; table: string; ended: { name: string; validTo: string }[]; explanation: string };
  htsGuess: { htsCode: string; confidence: string; reason: string; alternatives: { htsCode: string; description: string; scorePercent: number; section301Checked: boolean }[] };
  netProfitCents: number;
  marginBps: number;
  breakEvenCpaCents: number;
  breakEvenRoas: number | null;
  priceForTargetMarginCents?: number | null;
};

describe("GET /api/products/{objectID}/profit", () => {
  it("answers the contract's shape from the starter table (HTS 2026 Revision 20), the code guessed from the title with its confidence and alternatives", async () => {
    const res = await profit("lc-gadget", "?priceCents=2999&cpaCents=800&fees=shopify-payments&targetMarginBps=3000");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as Answer;
    // "Garlic press" (kitchen) -> 8205.59.80 (other handtools; our terms name the garlic press), origin CN (no supplier
    // known): MFN 5.3% of 640 = 33.92 -> 34c + Section 301 List 3 25% = 160c + the note 52 layer 12.5% = 80c = 274c
    // (42.8%); Section 122 ended 2026-07-24 and is not counted. Fees 117c, reserves 601c: landed 640 + 450 + 274 + 117 +
    // 601 = 2082c, break-even CPA 2999 - 2082 = 917c, net 917 - 800 = 117c, margin 117 / 2999 = 3.90% -> 390 bps.
    expect(body).toMatchObject({
      currency: "USD",
      landedCostCents: 2082,
      parts: { costCents: 640, shippingCents: 450, dutyCents: 274, feesCents: 117, reservesCents: 601 },
      duty: { htsCode: "8205.59.80", origin: "CN", ratePercent: 42.8, table: "2026 HTS Revision 20 (exported 2026-09-29)" },
      netProfitCents: 117,
      marginBps: 390,
      breakEvenCpaCents: 917,
    });
    expect(body.duty.htsReason).toMatch(/^guessed from the product's title \((high|medium) confidence\): "garlic", "kitchen", "press" match 8205\.59\.80/);
    expect(body.duty.layers.map((l) => [l.name, l.ratePercent, l.validFrom, l.validTo])).toEqual([
      ["MFN (column 1)", 5.3, "2026-01-01", null],
      ["Section 301 (List 3)", 25, "2019-05-10", null],
      ["Section 301 forced-labour duty (U.S. note 52)", 12.5, "2026-07-24", null],
    ]);
    for (const layer of body.duty.layers) expect(layer.source.length).toBeGreaterThan(10);
    expect(body.duty.ended.map((e) => [e.name, e.validTo])).toContainEqual(["Section 122 temporary import surcharge", "2026-07-24"]);
    expect(JSON.stringify(body)).not.toMatch(/"expired":true|still counted|"warning"/);
    // The guess, how sure, why, and the nearest codes to pick from (each with its HTS text).
    expect(body.htsGuess.htsCode).toBe("8205.59.80");
    expect(["high", "medium"]).toContain(body.htsGuess.confidence);
    expect(body.htsGuess.alternatives[0]).toMatchObject({ htsCode: "8205.59.80", section301Checked: true });
    expect(body.htsGuess.alternatives.map((a) => a.htsCode)).toContain("3924.10.40");
    expect(body.htsGuess.alternatives[0].description).toMatch(/^Handtools/);
    expect(body.breakEvenRoas! * body.breakEvenCpaCents).toBeCloseTo(2999, 6);
    expect(body.priceForTargetMarginCents).toBeGreaterThan(2999);
  });

  it("refuses malformed codes, prices and parameters with a sentence (400) and unknown codes with 422", async () => {
    for (const [query, sentence] of [
      ["?hts=39x4", "is not an HTS code"],
      ["?priceCents=29.99", "priceCents must be a whole number of cents"],
      ["?priceCents=0", "priceCents must be between 1"],
      ["?origin=China", "is not a country"],
      ["?fees=visa", "fees must be one of shopify-payments, paypal, stripe"],
      ["?priceCents=1&priceCents=2", "priceCents is given twice"],
      ["?colour=red", "Unknown parameter: colour"],
    ] as const) {
      const res = await profit("lc-gadget", query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(sentence);
    }
    const unknown = await profit("lc-gadget", "?hts=8471.30.01");
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: string }).error).toContain("no MFN (column 1) rate for HTS 8471.30.01");
  });

  it("a product without a known cost answers 422 'Add your cost', or takes costCents", async () => {
    const res = await profit("lc-nocost");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Add your cost/);
    const withCost = await profit("lc-nocost", "?costCents=500");
    expect(withCost.status).toBe(200);
    expect(((await withCost.json()) as Answer).duty.htsCode).toBe("9405.42.84");
  });

  it("a product priced in another currency asks for a dollar price (422) instead of reading euros as dollars", async () => {
    const res = await profit("lc-euro");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(/priced in EUR, not US dollars: send priceCents/);
    const withPrice = await profit("lc-euro", "?priceCents=2999");
    expect(withPrice.status).toBe(200);
    // Same cost, shipping, code (the title's guess, 8205.59.80) and origin as lc-gadget at the same price, so the same
    // landed cost: 640 + 450 + duty 274 (MFN 5.3% + List 3 25% + note 52 12.5%; Section 122 ended, not counted) + fees
    // 117 + reserves 601 = 2082c.
    const euro = (await withPrice.json()) as Answer;
    expect(euro.duty).toMatchObject({ htsCode: "8205.59.80", ratePercent: 42.8 });
    expect(euro.landedCostCents).toBe(2082);
    // Its grid card gets no margin after duty either (the stored filter figure is null for it too, decision 065).
    const cards = await landedMargins(db, { userId: seller.id, objectIDs: ["lc-gadget", "lc-euro"], access: researchAccess(await db.user.findUniqueOrThrow({ where: { id: seller.id } })), now: new Date() });
    expect(Object.keys(cards)).toEqual(["lc-gadget"]);
  });

  it("is part of paid research access (403 with the reason otherwise)", async () => {
    const free = await createSignedInUser();
    const res = await profit("lc-gadget", "", free.cookie);
    expect(res.status).toBe(403);
  });
});

describe("POST /api/products/{objectID}/tariff", () => {
  it("keeps the seller's code and origin with their saved product, and the profit uses them", async () => {
    const unsaved = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { htsCode: "3924.90.56", origin: "vn" } });
    expect(unsaved.status).toBe(409);

    const saved = await call(productAction, "/api/products/lc-gadget", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { intent: "save" } });
    expect(saved.status).toBe(200);
    const set = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { htsCode: "39249056", origin: "vn" } });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(await set.json()).toEqual({ objectID: "lc-gadget", htsCode: "3924.90.56", origin: "VN" });

    const body = (await (await profit("lc-gadget")).json()) as Answer & { duty: { originReason: string } };
    // From Vietnam: no China Section 301 list; MFN 3.4% (21.76 -> 22c) + the note 52 layer for Vietnam 12.5% (80c) =
    // 102c. Section 122 ended on 2026-07-24: not counted, only named.
    expect(body.duty).toMatchObject({ htsCode: "3924.90.56", origin: "VN", ratePercent: 15.9, dutyCents: 102 });
    expect(body.duty.layers.map((l) => [l.name, l.ratePercent, l.dutyCents])).toEqual([
      ["MFN (column 1)", 3.4, 22],
      ["Section 301 forced-labour duty (U.S. note 52)", 12.5, 80],
    ]);
    expect(body.duty.ended.map((e) => [e.name, e.validTo])).toContainEqual(["Section 122 temporary import surcharge", "2026-07-24"]);
    expect(body.duty.htsReason).toBe("your code, kept with your saved product");
    expect(body.duty.originReason).toBe("your origin, kept with your saved product");

    // A field left out is kept: only the origin goes back to the guess (no supplier known: China).
    const originOnly = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { origin: null } });
    expect(await originOnly.json()).toEqual({ objectID: "lc-gadget", htsCode: "3924.90.56", origin: null });
    const empty = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: {} });
    expect(empty.status).toBe(400);

    const bad = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { htsCode: "12", origin: null } });
    expect(bad.status).toBe(400);
    const reset = await call(tariffApi, "/api/products/lc-gadget/tariff", { cookie: seller.cookie, params: { objectID: "lc-gadget" }, json: { htsCode: null, origin: null } });
    expect(reset.status).toBe(200);
    // Back to the guess from the title ("Garlic press"), not the niche's code.
    const guessed = ((await (await profit("lc-gadget")).json()) as Answer).duty;
    expect(guessed).toMatchObject({ htsCode: "8205.59.80", origin: "CN" });
    expect(guessed.htsReason).toMatch(/^guessed from the product's title/);
  });
});

describe("the product grid", () => {
  it("shows each card's margin after duty and fees with the sum; the ended Section 122 layer is not counted, only named", async () => {
    const res = await call(gridPage, "/dashboard/products?q=garlic", { cookie: seller.cookie });
    expect(res.status).toBe(200);
    type Margin = { marginBps: number; dutyCents: number; feesCents: number; explanation: string; asOf: string; table: string; ended: { name: string; validTo: string }[] };
    const body = (await res.json()) as { results: { items: { objectID: string }[]; landedMargins: Record<string, Margin> } };
    expect(body.results.items.map((p) => p.objectID)).toContain("lc-gadget");
    // The grid keeps the niche's code (kitchen -> 3924.10.40, decision 081), from CN: MFN 3.4% 22c + the note 52 layer
    // 12.5% 80c = 102c (List 4B is suspended, decision 066; Section 122 ended 2026-07-24 and is not counted).
    // 2999 - 640 cost - 450 shipping - 102 duty - 117 fees = 1690c; 1690 / 2999 = 56.35% -> 5635 bps (gross: 63.65%)
    const card = body.results.landedMargins["lc-gadget"];
    expect(card).toMatchObject({ marginBps: 5635, dutyCents: 102, feesCents: 117, table: "2026 HTS Revision 20 (exported 2026-09-29)" });
    expect(card.explanation).toMatch(/^duty 15\.9% = MFN \(column 1\) 3\.4% \+ Section 301 forced-labour duty \(U\.S\. note 52\) 12\.5% as of \d{4}-\d{2}-\d{2}; fees 1\.17 USD/);
    expect(card.explanation).not.toContain("Section 122");
    // The page names it once under the cards (CardsDutyNotice) from this list.
    expect(card.ended.map((e) => [e.name, e.validTo])).toContainEqual(["Section 122 temporary import surcharge", "2026-07-24"]);
    expect(JSON.stringify(body.results.landedMargins)).not.toMatch(/"warning"|still counted/);
  });
});

describe("npm run tariffs -- import", () => {
  it("loads a USITC CSV revision: its rate replaces the starter's from its first day, with its source", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tariffs-"));
    const file = path.join(dir, "hts_2026_revision_99.csv");
    writeFileSync(
      file,
      [
        '"HTS Number","Indent","Description","Unit of Quantity","General Rate of Duty","Special Rate of Duty","Column 2 Rate of Duty","Quota Quantity","Additional Duties"',
        '"3924","0","Tableware, kitchenware, other household articles ... of plastics:","","","","","",""',
        '"3924.10.40","1","Other","","4%","Free (A,AU)","80%","",""',
        '"3924.10.40.00","2","Other","[""kg""]","","","","",""',
        '"0201.10.10","1","Beef","","26.4¢/kg","Free","30.8¢/kg","",""',
      ].join("\n"),
    );
    const result = await runScript("tariffs", ["import", file, "--valid-from", "2026-11-01", "--revision", "2026 HTS Revision 99"], { timeout: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("1 line skipped");
    const body = (await (await profit("lc-gadget", "?hts=3924.10.40")).json()) as Answer;
    expect(body.duty.layers[0]).toMatchObject({ name: "MFN (column 1)", ratePercent: 4, validFrom: "2026-11-01", source: expect.stringContaining("2026 HTS Revision 99") });
    // A line the new revision does not carry (the title's guess, 8205.59.80) has its MFN row closed on the revision's
    // first day: no base duty in force, so no figure (422) rather than an ended rate counted (decision 081).
    const dropped = await profit("lc-gadget");
    expect(dropped.status).toBe(422);
    expect(((await dropped.json()) as { error: string }).error).toBe(
      `We have no MFN (column 1) rate for HTS 8205.59.80 in force on ${body.duty.asOf}: the one we had ended on 2026-11-01.`,
    );

    const broken = path.join(dir, "broken.csv");
    writeFileSync(broken, '"Code","Rate"\n"3924.10.40","4%"\n');
    const refused = await runScript("tariffs", ["import", broken], { timeout: 120_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no "HTS Number" and "General Rate of Duty" columns');
  }, 300_000);
});

describe("importing layers and USITC JSON through the tariffs service", () => {
  it("a layers file's rows count from their first day, an ended layer stays named and uncounted; a USITC JSON revision is read by its field names", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tariffs-json-"));
    const layers = path.join(dir, "no-surcharge.json");
    writeFileSync(
      layers,
      JSON.stringify({
        edition: "test-no-surcharge",
        layers: [{ kind: "surcharge", series: "none", name: "No general surcharge", htsPrefix: "", origins: ["*"], ratePercent: 0, validFrom: "2026-07-24", source: "test: the operator checked that nothing replaced Section 122" }],
      }),
    );
    const before = (await (await profit("lc-gadget", "?hts=3924.10.40")).json()) as Answer;
    expect(await importTariffFile(db, layers, { validFrom: "2026-11-26" })).toMatchObject({ format: "layers", inserted: 1 });
    const after = (await (await profit("lc-gadget", "?hts=3924.10.40")).json()) as Answer;
    // The explicit 0% is a layer in force (0c); Section 122 was never counted after it ended and still is not: the
    // duty is the same, and the ended layer is still named (its own series has nothing newer).
    expect(after.duty.layers.map((l) => [l.name, l.dutyCents])).toContainEqual(["No general surcharge", 0]);
    expect(after.duty.dutyCents).toBe(before.duty.dutyCents);
    expect(after.duty.layers.map((l) => l.name)).not.toContain("Section 122 temporary import surcharge");
    expect(after.duty.ended.map((e) => e.name)).toContain("Section 122 temporary import surcharge");

    const usitc = path.join(dir, "hts.json");
    writeFileSync(usitc, JSON.stringify([{ htsno: "3924.90.56", indent: "2", description: "Other", superior: null, units: [], general: "3.5%", special: "Free (A+,AU)", other: "80%", footnotes: [], quotaQuantity: "", additionalDuties: "" }]));
    expect(await importTariffFile(db, usitc, { validFrom: "2026-11-03", revision: "JSON revision" })).toMatchObject({ format: "usitc-json", inserted: 1 });
    const other = (await (await profit("lc-gadget", "?hts=3924.90.56")).json()) as Answer;
    expect(other.duty.layers[0]).toMatchObject({ ratePercent: 3.5, source: expect.stringContaining("JSON revision") });

    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ edition: "x", layers: [{ kind: "surcharge" }] }));
    await expect(importTariffFile(db, bad, { validFrom: "2026-11-26" })).rejects.toThrow(/neither a USITC export .* nor a layers file/);
  });
});
