// The grid's margin filter and sort read the margin after duty and fees (decision 065), on a real migrated database
// with the starter tariff table: products imported through the product import (which figures Product.landedMarginBps),
// then the grid (GET /api/products, the built-in engine), the public API (/api/v1/products), the assistant, the
// Algolia adapter against its local stand-in, and a tariff import that raises a rate followed by the refresh.
//
// Worked figures (kitchen, guessed HTS 3924.10.40, origin CN from the AliExpress supplier, day 2026-11-26): MFN 3.4%
// + the U.S. note 52 layer for China 12.5% = 15.9% of the supplier cost, each layer rounded to the cent, half up
// (3924.10.40 is on the suspended List 4B: no Section 301 list layer, decision 066; Section 122's 10% ended on
// 2026-07-24 and is never counted, decision 081); Shopify Payments' fees 2.9% of $100 + 30c = $3.20.
//   lm-roomy    $100, cost $20, shipping $20: gross 60%; duty 0.68 + 2.50 = $3.18; 100 - 40 - 3.18 - 3.20 = $53.62: 53.62%
//   lm-mid      $100, cost $10, shipping $50: gross 40%; duty 0.34 + 1.25 = $1.59; 100 - 60 - 1.59 - 3.20 = $35.21: 35.21%
//   lm-squeezed $100, cost $55, shipping $5: gross 40%; duty 1.87 + 6.88 = $8.75; 100 - 60 - 8.75 - 3.20 = $28.05: 28.05%
//   lm-nocost   $100, cost unknown: no margin at all ("Add your cost")
// After a 70% surcharge on Chinese kitchenware from 2026-11-01, stacked on the layers above: duty 3.4% + 12.5% + 70% =
// 85.9%: roomy 100 - 40 - (0.68 + 2.50 + 14.00) - 3.20 = $39.62, mid 100 - 60 - (0.34 + 1.25 + 7.00) - 3.20 = $28.21,
// squeezed 100 - 60 - (1.87 + 6.88 + 38.50) - 3.20 = -$10.45.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { parseProductQuery } from "~/domain/products/product-query";
import { researchAccess } from "~/domain/products/research-access";
import { createAlgoliaEngine } from "~/integrations/algolia.server";
import { loader as productsApi } from "~/routes/api.products";
import { action as keysAction } from "~/routes/api.keys";
import { loader as v1Search } from "~/routes/api.v1.products";
import { loader as openApiRoute } from "~/routes/api.v1.openapi[.]json";
import { action as apiCreate } from "~/routes/api.threads";
import { action as apiMessages } from "~/routes/api.threads.$id.messages";
import { landedMargins } from "~/services/landed-cost.server";
import { createJobs } from "~/services/jobs.server";
import { createLandedMargins, LANDED_MARGINS_JOB, landedMarginState, refreshLandedMargins } from "~/services/landed-cost/margins.server";
import { importProducts } from "~/services/products/import.server";
import { algoliaRowSource } from "~/services/search/algolia-rows.server";
import { importTariffFile } from "~/services/landed-cost/tariffs.server";
import { generateProducts } from "../../../scripts/lib/product-generator";
import { startFakeAlgolia, type FakeAlgolia } from "../../helpers/algolia-server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const NOW = new Date("2026-11-26T09:00:00Z");
const SUPPLIER = { supplierName: "AliExpress", supplierUrl: "https://www.aliexpress.com/item/1.html" };
// Inserted in this order: squeezed after mid, so by gross margin (a tie at 40%, ties to the higher id) squeezed would come first.
const FIGURES: [string, number | null, number][] = [
  ["lm-roomy", 2000, 2000],
  ["lm-nocost", null, 2000],
  ["lm-mid", 1000, 5000],
  ["lm-squeezed", 5500, 500],
];

let seller: Awaited<ReturnType<typeof createSignedInUser>>;
let key: string;
let fake: FakeAlgolia;

beforeAll(async () => {
  const generated = [...generateProducts(FIGURES.length, { seed: 65, endDay: "2026-11-25" })];
  const rows = FIGURES.map(([objectID, costCents, shippingCents], i) => ({
    line: i + 1,
    row: { ...generated[i], objectID, title: `Ledger ${objectID}`, niches: ["kitchen"], priceCents: 10000, costCents, shippingCents, ...SUPPLIER },
  }));
  const summary = await importProducts(db, rows, { now: NOW });
  expect(summary.rejected).toEqual([]);
  // The server's start-up check (a fresh state: every product is figured again) finds the import's figures right.
  expect(await refreshLandedMargins(db, { now: NOW })).toMatchObject({ refigured: true, products: FIGURES.length, changed: 0, asOf: "2026-11-26" });
  seller = await createSignedInUser({ userSubscribed: "yes" });
  key = ((await (await call(keysAction, "/api/keys", { method: "POST", cookie: seller.cookie, json: { name: "margins" } })).json()) as { key: string }).key;
  fake = await startFakeAlgolia();
});

afterAll(async () => {
  await fake.close();
});

type Card = { objectID: string; insights: { marginBps: number | null; landedMarginBps: number | null } | null };

async function grid(query: string): Promise<string[]> {
  const res = await call(productsApi, `/api/products?pageSize=48&niche=kitchen&${query}`, { cookie: seller.cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Card[] }).items.map((c) => c.objectID).filter((o) => o.startsWith("lm-"));
}

async function v1(query: string) {
  const res = await call(v1Search, `/api/v1/products?limit=48&niche=kitchen&${query}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: { objectID: string; insights: { marginBps: number | null; landedMarginBps: number | null } | null }[] }).items;
}

describe("the stored margin after duty and fees", () => {
  it("is figured by the import for every product with a cost, worked out by hand above, and null without one", async () => {
    const rows = await db.product.findMany({ where: { objectID: { startsWith: "lm-" } }, select: { objectID: true, marginBps: true, landedMarginBps: true } });
    expect(Object.fromEntries(rows.map((r) => [r.objectID, [r.marginBps, r.landedMarginBps]]))).toEqual({
      "lm-roomy": [6000, 5362],
      "lm-nocost": [null, null],
      "lm-mid": [4000, 3521],
      "lm-squeezed": [4000, 2805],
    });
  });

  it("is the figure the grid's cards show", async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
    const shown = await landedMargins(db, { userId: seller.id, objectIDs: ["lm-roomy", "lm-mid", "lm-squeezed"], access: researchAccess(user), now: NOW });
    expect([shown["lm-roomy"].marginBps, shown["lm-mid"].marginBps, shown["lm-squeezed"].marginBps]).toEqual([5362, 3521, 2805]);
  });
});

describe("the grid's margin filter and sort (built-in engine)", () => {
  it("minMargin=30 leaves out a product whose gross margin is 40% but whose margin after duty and fees is 28.05%, and one without a cost", async () => {
    expect(await grid("minMargin=30&sort=winning-score")).toEqual(expect.arrayContaining(["lm-roomy", "lm-mid"]));
    expect(await grid("minMargin=30")).not.toContain("lm-squeezed");
    expect(await grid("minMargin=30")).not.toContain("lm-nocost");
    expect(await grid("maxMargin=30")).toEqual(["lm-squeezed"]);
  });

  it("sort=margin orders by the margin after duty and fees, a product without a cost last", async () => {
    expect(await grid("sort=margin")).toEqual(["lm-roomy", "lm-mid", "lm-squeezed", "lm-nocost"]);
  });
});

describe("the public API", () => {
  it("/api/v1/products?minMargin=30 filters and sort=margin orders on the margin after duty and fees, which each product carries", async () => {
    const kept = await v1("minMargin=30");
    expect(kept.map((p) => p.objectID).sort()).toEqual(["lm-mid", "lm-roomy"]);
    const sorted = await v1("sort=margin");
    expect(sorted.map((p) => p.objectID).filter((o) => o.startsWith("lm-"))).toEqual(["lm-roomy", "lm-mid", "lm-squeezed", "lm-nocost"]);
    expect(sorted.find((p) => p.objectID === "lm-squeezed")?.insights).toMatchObject({ marginBps: 4000, landedMarginBps: 2805 });
  });

  it("the OpenAPI document says the margin parameters and sort are after duty and fees", async () => {
    const doc = JSON.stringify(await (await call(openApiRoute, "/api/v1/openapi.json")).json());
    // Each bound is its own parameter with its own description since eaaaa62 (query-params.server.ts).
    expect(doc).toContain("Margin after duty and fees, percent, at least: ");
    expect(doc).toContain("Margin after duty and fees, percent, at most");
    expect(doc).toContain("margin: highest margin after duty and fees first");
  });
});

describe("the assistant", () => {
  it("“margin after duty over 30%” is the margin filter; the answer says the margin is after duty and fees, and as of which day", async () => {
    const thread = (await (await call(apiCreate, "/api/threads", { cookie: seller.cookie, json: {} })).json()) as { id: number };
    const res = await call(apiMessages, `/api/threads/${thread.id}/messages`, {
      cookie: seller.cookie,
      json: { text: "kitchen products with margin after duty over 30%" },
      params: { id: String(thread.id) },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = { answer: (await res.json()) as { text: string; query: Record<string, unknown>; products: { objectID: string; why: string[] }[]; notes: string[] } };
    expect(body.answer.query).toEqual({ niche: ["kitchen"], minMargin: 30 });
    const shown = body.answer.products.map((p) => p.objectID);
    expect(shown).toEqual(expect.arrayContaining(["lm-roomy", "lm-mid"]));
    expect(shown).not.toContain("lm-squeezed");
    expect(body.answer.text).toContain("margin after duty and fees 30% or more");
    expect((await landedMarginState(db)).asOf).toBe("2026-11-26");
    expect(body.answer.notes.join(" ")).toContain("Margins are after duty and fees as of 2026-11-26");
    const why = body.answer.products.find((p) => p.objectID === "lm-mid")?.why ?? [];
    expect(why, why.join(" | ")).toContain("margin after duty and fees 35.2%");
  });
});

describe("Algolia", () => {
  it("each record carries landedMarginBps (left out without a cost), the filter asks for it and the database re-filters and sorts on it", async () => {
    const engine = createAlgoliaEngine({ appId: "APP", apiKey: "search", adminApiKey: "admin", indexName: "margins", hosts: fake.hosts, rows: algoliaRowSource(db) });
    await engine.syncProducts(FIGURES.map(([o]) => o));
    const records = fake.records.get("margins")!;
    expect(records.get("lm-squeezed")).toMatchObject({ marginBps: 4000, landedMarginBps: 2805 });
    expect(records.get("lm-nocost")).not.toHaveProperty("landedMarginBps");
    fake.onQuery = () => ({ hits: FIGURES.map(([objectID]) => ({ objectID })), nbHits: FIGURES.length });
    const filtered = await engine.search(parseProductQuery(new URLSearchParams("minMargin=30")));
    expect(fake.requests.at(-1)?.body?.filters).toBe("landedMarginBps >= 3000");
    const sorted = await engine.search(parseProductQuery(new URLSearchParams("sort=margin")));
    const objectIDs = new Map((await db.product.findMany({ select: { id: true, objectID: true } })).map((r) => [r.id, r.objectID]));
    expect(filtered.ids.map((id) => objectIDs.get(id)).sort()).toEqual(["lm-mid", "lm-roomy"]);
    expect(sorted.ids.map((id) => objectIDs.get(id))).toEqual(["lm-roomy", "lm-mid", "lm-squeezed", "lm-nocost"]);
  });
});

describe("a tariff import that raises a rate", () => {
  it("changes the filter's result once the margins are refreshed; a second refresh changes nothing", async () => {
    expect(await refreshLandedMargins(db, { now: NOW })).toMatchObject({ refigured: false, changed: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), "landed-margin-"));
    const file = path.join(dir, "kitchen-surcharge.json");
    writeFileSync(
      file,
      JSON.stringify({
        edition: "test-kitchen-surcharge",
        layers: [{ kind: "surcharge", series: "test-kitchen", name: "Test surcharge on kitchenware", htsPrefix: "3924", origins: ["CN"], ratePercent: 70, validFrom: "2026-11-01", source: "test" }],
      }),
    );
    await importTariffFile(db, file, { validFrom: "2026-11-26" });
    const pushed: string[] = [];
    const refreshed = await refreshLandedMargins(db, { now: NOW, onChanged: async (ids) => void pushed.push(...ids) });
    expect(refreshed).toMatchObject({ refigured: true, products: 4, changed: 3, asOf: "2026-11-26" });
    expect(pushed.sort()).toEqual(["lm-mid", "lm-roomy", "lm-squeezed"]);
    const rows = await db.product.findMany({ where: { objectID: { startsWith: "lm-" } }, select: { objectID: true, landedMarginBps: true }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.landedMarginBps)).toEqual([3962, null, 2821, -1045]);
    expect(await grid("minMargin=30")).toEqual(["lm-roomy"]);
    expect(await refreshLandedMargins(db, { now: NOW })).toMatchObject({ refigured: false, changed: 0 });
  });
});

describe("the start-up and daily job", () => {
  it("figures a catalogue from before migration 034 (every margin null, no state) once, on the job system", async () => {
    await db.$executeRawUnsafe(`UPDATE "Product" SET "landedMarginBps" = NULL`);
    await db.$executeRawUnsafe(`UPDATE "CatalogState" SET "landedMarginKey" = NULL, "landedMarginAsOf" = NULL`);
    const jobs = createJobs({ db, ownerId: "landed-margin-test" });
    const told: { details: object; message: string }[] = [];
    const margins = createLandedMargins({ db, log: { warn: (details, message) => void told.push({ details, message }) } });
    margins.registerJobs(jobs);
    await margins.queueAtStart(jobs);
    await margins.queueAtStart(jobs);
    await jobs.runDue({ kinds: [LANDED_MARGINS_JOB] });
    // The layers that ended with nothing newer in their series are not counted; the operator is told once, in one
    // sentence, in case something replaced them that the table does not carry yet.
    expect(told).toEqual([
      {
        details: {
          asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          lapsed: [
            "Not counted, because their validity ended: Section 122 temporary import surcharge 10% (ended 2026-07-24); IEEPA fentanyl surcharge (China) 10% (ended 2026-02-24); IEEPA reciprocal surcharge 10% (ended 2026-02-24).",
          ],
        },
        message: expect.stringMatching(/^A duty layer ended and nothing newer is loaded for its series, so it is no longer counted: .*npm run tariffs -- import FILE/),
      },
    ]);
    const rows = await db.product.findMany({ where: { objectID: { startsWith: "lm-" } }, select: { landedMarginBps: true }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.landedMarginBps)).toEqual([3962, null, 2821, -1045]);
    expect((await landedMarginState(db)).key).toMatch(/^[0-9a-f]{32}$/);
    expect(await db.job.count({ where: { kind: LANDED_MARGINS_JOB } })).toBe(1);
  });
});
