// Money whose currency is unknown is never called dollars (issue 35, decision 084): /api/v1 answers a price in
// the store's currency, null when the store publishes none; a followed store's amounts are kept with their
// currency (or null) instead of dropped; a rival's product added to the database keeps its store's currency and
// takes a known niche (or none) from its type, never the store's own word; the product and store pages say so.
// Also the OpenAPI document's number parameters (issue 35 item 9): integer/number with their bounds, parsed from
// the query text by the same schemas, and a bad value is a 400 sentence naming the parameter.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { loader as openApiRoute } from "~/routes/api.v1.openapi[.]json";
import { loader as searchRoute } from "~/routes/api.v1.products";
import { loader as productRoute } from "~/routes/api.v1.products.$objectID";
import { loader as profitRoute } from "~/routes/api.v1.products.$objectID.profit";
import { loader as nichesRoute } from "~/routes/api.v1.niches";
import { loader as dropsRoute } from "~/routes/api.v1.drops";
import { loader as competitorRoute } from "~/routes/api.v1.competitors.$id";
import { loader as siteStoreRoute } from "~/routes/api.competitors.$id";
import { action as importRoute } from "~/routes/api.competitors.$id.products.$productId.import";
import { action as keysAction } from "~/routes/api.keys";
import { productDrops, products } from "~/services/index.server";
import { priceRange, storeCurrencyNote } from "~/ui/competitors/competitor-store-page";
import { formatPrice } from "~/ui/research/product-card";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

type Doc = { paths: Record<string, { get: { parameters?: { name: string; in: string; schema: Record<string, unknown> }[] } }> };
type Money = { cents: number; currency: string | null } | null;

let me: Awaited<ReturnType<typeof createSignedInUser>> & { key: string };
let doc: Doc;
let ajv: Ajv2020;
const bearer = () => ({ authorization: `Bearer ${me.key}` });
const at = new Date("2026-11-20T00:00:00Z");
/** A drop holds at least 8 products. */
const DROP_FILLERS = Array.from({ length: 6 }, (_, i) => `cur-filler-${i}`);

/** A followed store (currency as given, null: it publishes none) with a few products read from it. */
async function followStore(domain: string, currency: string | null, items: { productId: string; title: string; productType: string; tags?: string[]; cents: [number, number] }[]) {
  const store = await db.competitorStore.create({ data: { domain, fetchDomain: domain, name: domain, currency, status: "ok", lastCheckedAt: at }, select: { id: true } });
  for (const p of items) {
    await db.competitorProduct.create({
      data: {
        storeId: store.id,
        productId: p.productId,
        handle: `h-${p.productId}`,
        title: p.title,
        productType: p.productType,
        vendor: "Rival",
        tags: JSON.stringify(p.tags ?? []),
        images: "[]",
        variants: "[]",
        priceMinCents: p.cents[0],
        priceMaxCents: p.cents[1],
        available: true,
        firstSeenAt: at,
        lastSeenAt: at,
      },
    });
  }
  const follow = await db.competitor.create({ data: { userId: me.id, storeId: store.id, name: domain }, select: { id: true } });
  return follow.id;
}

async function api(route: Parameters<typeof call>[0], url: string, params: Record<string, string> = {}) {
  const res = await call(route, url, { headers: bearer(), params });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function validates(path: string, body: unknown): string | null {
  const pointer = `openapi#/paths/${path.replaceAll("/", "~1")}/get/responses/200/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  return validate(body) ? null : JSON.stringify(validate.errors?.slice(0, 3));
}

beforeAll(async () => {
  const user = await createSignedInUser({ userSubscribed: "yes" });
  const res = await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "currency" } });
  me = { ...user, key: ((await res.json()) as { key: string }).key };
  await insertProducts(db, [
    { ...PLAIN_FIXTURE, objectID: "cur-usd", title: "Dollar lamp", niches: ["lighting"] },
    { ...PLAIN_FIXTURE, objectID: "cur-eur", title: "Euro lamp", niches: ["lighting"], priceCents: 2500 },
    { ...PLAIN_FIXTURE, objectID: "cur-unknown", title: "Rupee lamp", niches: ["lighting"], priceCents: 90000 },
    ...DROP_FILLERS.map((objectID) => ({ ...PLAIN_FIXTURE, objectID, title: `Filler ${objectID}`, niches: ["kitchen"] })),
  ]);
  // Measured products as the catalogue writes them (decision 059): null is dollars, XXX a store with no currency.
  await db.product.update({ where: { objectID: "cur-eur" }, data: { source: "measured", priceCurrency: "EUR" } });
  await db.product.update({ where: { objectID: "cur-unknown" }, data: { source: "measured", priceCurrency: "XXX" } });
  const docRes = await call(openApiRoute, "/api/v1/openapi.json");
  doc = (await docRes.json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");
});

describe("/api/v1 money", () => {
  it("answers a product's price in its own currency, null when the store publishes none, never USD", async () => {
    const prices: Record<string, Money> = {};
    for (const id of ["cur-usd", "cur-eur", "cur-unknown"]) {
      const { status, body } = await api(productRoute, `/api/v1/products/${id}`, { objectID: id });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(validates("/products/{objectID}", body)).toBeNull();
      prices[id] = body.price as Money;
    }
    expect(prices).toEqual({
      "cur-usd": { cents: 2999, currency: "USD" },
      "cur-eur": { cents: 2500, currency: "EUR" },
      "cur-unknown": { cents: 90000, currency: null },
    });
    const search = await api(searchRoute, "/api/v1/products?q=lamp&limit=10");
    expect(validates("/products", search.body)).toBeNull();
    const byId = Object.fromEntries((search.body.items as { objectID: string; price: Money }[]).map((p) => [p.objectID, p.price]));
    expect(byId["cur-unknown"]).toEqual({ cents: 90000, currency: null });
    // The dollar price filter does not count it: consistent with the answer no longer calling it dollars.
    const filtered = await api(searchRoute, "/api/v1/products?q=lamp&minPrice=1&limit=10");
    expect((filtered.body.items as { objectID: string }[]).map((p) => p.objectID)).toEqual(["cur-usd"]);
  });

  it("answers a drop's product in its own currency", async () => {
    await productDrops.publish("2026-11-23", ["cur-unknown", "cur-usd", ...DROP_FILLERS].map((objectID) => ({ objectID, reason: "test" })));
    await productDrops.reveal(await db.user.findUniqueOrThrow({ where: { id: me.id } }), "2026-11-23");
    const { body } = await api(dropsRoute, "/api/v1/drops");
    expect(validates("/drops", body)).toBeNull();
    const items = (body.items as { products: { objectID: string; price: Money }[] }[])[0].products;
    expect(Object.fromEntries(items.map((p) => [p.objectID, p.price]))).toMatchObject({
      "cur-unknown": { cents: 90000, currency: null },
      "cur-usd": { cents: 2999, currency: "USD" },
    });
  });

  it("keeps a followed store's amounts when it publishes no currency (currency null), and the EUR store's in EUR", async () => {
    const unknown = await followStore("rupee-rival.test", null, [
      { productId: "1", title: "Kumkumadi oil", productType: "Oils", cents: [90000, 90000] },
      { productId: "2", title: "Brass lamp", productType: "", cents: [120000, 150000] },
    ]);
    const { status, body } = await api(competitorRoute, `/api/v1/competitors/${unknown}`, { id: String(unknown) });
    expect(status).toBe(200);
    expect(validates("/competitors/{id}", body)).toBeNull();
    expect(body.currency).toBeNull();
    const shown = (body.products as { title: string; priceMin: Money; priceMax: Money }[]).map((p) => [p.title, p.priceMin, p.priceMax]);
    expect(shown).toEqual(
      expect.arrayContaining([
        ["Kumkumadi oil", { cents: 90000, currency: null }, { cents: 90000, currency: null }],
        ["Brass lamp", { cents: 120000, currency: null }, { cents: 150000, currency: null }],
      ]),
    );
    const euro = await followStore("euro-rival.test", "EUR", [{ productId: "9", title: "Baume à lèvres", productType: "Baume", cents: [2000, 2000] }]);
    const eur = await api(competitorRoute, `/api/v1/competitors/${euro}`, { id: String(euro) });
    expect((eur.body.products as { priceMin: Money }[])[0].priceMin).toEqual({ cents: 2000, currency: "EUR" });
  });
});

describe("a rival's product added to the product database", () => {
  it("keeps its store's currency (or none), takes a known niche from its type or none, and no store word becomes a niche", async () => {
    const euro = await followStore("fr-rival.test", "EUR", [
      { productId: "31", title: "Baume réparateur", productType: "Baume", cents: [2000, 2000] },
      { productId: "32", title: "Laisse pour chien", productType: "Accessories", tags: ["Dogs", "Nouveautés"], cents: [1500, 1500] },
    ]);
    const unknown = await followStore("in-rival.test", null, [{ productId: "41", title: "Brass diya", productType: "Pooja", cents: [90000, 90000] }]);
    const add = async (id: number, productId: string) => {
      const res = await call(importRoute, "/x", { cookie: me.cookie, method: "POST", params: { id: String(id), productId } });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { objectID: string }).objectID;
    };
    const baume = await add(euro, "31");
    const leash = await add(euro, "32");
    const diya = await add(unknown, "41");
    const rows = await db.product.findMany({ where: { objectID: { in: [baume, leash, diya] } }, select: { objectID: true, priceCents: true, priceCurrency: true, niches: true, description: true } });
    const row = (objectID: string) => rows.find((r) => r.objectID === objectID)!;
    expect(row(baume)).toMatchObject({ priceCents: 2000, priceCurrency: "EUR", niches: "[]" });
    expect(row(leash)).toMatchObject({ priceCents: 1500, priceCurrency: "EUR", niches: '["pets"]' });
    expect(row(diya)).toMatchObject({ priceCents: 90000, priceCurrency: "XXX", niches: "[]" });
    expect(row(diya).description).toMatch(/publishes no currency/);

    const niches = (await api(nichesRoute, "/api/v1/niches")).body.items as string[];
    for (const word of ["baume", "accessories", "pooja", "general"]) expect(niches).not.toContain(word);

    const apiPrice = async (objectID: string) => (await api(productRoute, `/api/v1/products/${encodeURIComponent(objectID)}`, { objectID })).body.price;
    expect(await apiPrice(baume)).toEqual({ cents: 2000, currency: "EUR" });
    expect(await apiPrice(diya)).toEqual({ cents: 90000, currency: null });

    // What the grid card and the product page write for them (the card's price line, the page's price).
    const access = researchAccess(await db.user.findUniqueOrThrow({ where: { id: me.id } }));
    const shown = async (objectID: string) => {
      const p = await products.getProduct({ userId: me.id, objectID, access });
      return formatPrice(p.priceCents, p.priceCurrency);
    };
    expect(await shown(baume)).toBe("€20.00 EUR");
    expect(await shown(diya)).toBe("900.00 (currency unknown)");
  });
});

describe("the store page's prices", () => {
  it("show the store's currency, or say it is unknown, never a bare amount or dollars", async () => {
    const unknown = await followStore("page-rival.test", null, [{ productId: "51", title: "Brass lamp", productType: "", cents: [120000, 150000] }]);
    const euro = await followStore("page-euro.test", "EUR", [{ productId: "52", title: "Baume", productType: "Baume", cents: [2000, 2000] }]);
    const site = async (id: number) => (await (await call(siteStoreRoute, `/api/competitors/${id}`, { cookie: me.cookie, params: { id: String(id) } })).json()) as {
      currency: string | null;
      products: { priceMinCents: number | null; priceMaxCents: number | null; currency: string | null }[];
    };
    const u = await site(unknown);
    expect(priceRange(u.products[0])).toBe("1200.00 – 1500.00 (currency unknown)");
    expect(storeCurrencyNote(u.currency)).toMatch(/publishes no currency/);
    const e = await site(euro);
    expect(priceRange(e.products[0])).toBe("€20.00 EUR");
    expect(storeCurrencyNote(e.currency)).toBe("Prices as the store lists them, in EUR.");
    expect(priceRange({ priceMinCents: 1999, priceMaxCents: 2499, currency: "USD" })).toBe("$19.99 – $24.99");
    expect(renderToString(createElement("p", null, priceRange(u.products[0])))).not.toContain("$");
  });
});

describe("the OpenAPI document's number parameters", () => {
  const params = (path: string) => Object.fromEntries((doc.paths[path].get.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.schema]));

  it("are integers or numbers with their bounds, not free strings", () => {
    const search = params("/products");
    expect(search.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 48 });
    expect(search.minPrice).toMatchObject({ type: "number", minimum: 0, maximum: 999999999.99 });
    expect(search.maxPrice).toMatchObject({ type: "number", minimum: 0 });
    expect(search.minMargin).toMatchObject({ type: "number", minimum: -1000, maximum: 100 });
    expect(search.minOrders).toMatchObject({ type: "integer", minimum: 0, maximum: 2147483647 });
    expect(search.firstSeenDays).toMatchObject({ type: "integer", minimum: 1, maximum: 3650 });
    expect(search.seed).toMatchObject({ type: "integer", minimum: 0 });
    for (const name of ["minCost", "maxCost", "minRevenue", "maxRevenue", "minAmazonPrice", "maxAmazonPrice", "maxMargin", "maxOrders", "minStores", "maxStores", "minStoresAdded7d", "minViews", "minEngagement"]) {
      expect(["integer", "number"], name).toContain(search[name]?.type);
    }
    const profit = params("/products/{objectID}/profit");
    expect(profit.priceCents).toMatchObject({ type: "integer", minimum: 1, maximum: 100000000 });
    for (const name of ["cpaCents", "costCents", "shippingCents"]) expect(profit[name], name).toMatchObject({ type: "integer", minimum: 0, maximum: 100000000 });
    expect(profit.targetMarginBps).toMatchObject({ type: "integer", minimum: 0, maximum: 9999 });
    expect(profit.feeRateBp).toMatchObject({ type: "integer", minimum: 0, maximum: 5000 });
  });

  it("still parse from the query text, and a bad value is a 400 sentence naming the parameter", async () => {
    expect((await api(searchRoute, "/api/v1/products?limit=2&minPrice=19.99&minOrders=1")).status).toBe(200);
    const bad: [string, string, RegExp][] = [
      ["limit=0", "limit", /limit must be a whole number from 1 to 48/],
      ["limit=49", "limit", /from 1 to 48/],
      ["limit=2.5", "limit", /whole number/],
      ["limit=abc", "limit", /limit must be/],
      ["minPrice=-1", "minPrice", /minPrice must be an amount with at most two decimals from 0 to/],
      ["minPrice=19.999", "minPrice", /two decimals/],
      ["minOrders=1e3", "minOrders", /minOrders must be a whole number/],
      ["firstSeenDays=4000", "firstSeenDays", /from 1 to 3650/],
      ["seed=1&seed=2", "seed", /given twice/],
    ];
    for (const [qs, param, sentence] of bad) {
      const { status, body } = await api(searchRoute, `/api/v1/products?${qs}`);
      expect(status, qs).toBe(400);
      expect(body.param, qs).toBe(param);
      expect(body.error, qs).toMatch(sentence);
    }
    const profit = await api(profitRoute, "/api/v1/products/cur-usd/profit?priceCents=0", { objectID: "cur-usd" });
    expect(profit.status).toBe(400);
    expect(profit.body).toMatchObject({ param: "priceCents", error: expect.stringMatching(/priceCents must be a whole number from 1 to 100000000/) });
    const bps = await api(profitRoute, "/api/v1/products/cur-usd/profit?targetMarginBps=10000", { objectID: "cur-usd" });
    expect(bps.body).toMatchObject({ param: "targetMarginBps" });
    expect((await api(profitRoute, "/api/v1/products/cur-usd/profit?priceCents=2999&cpaCents=800", { objectID: "cur-usd" })).status).toBe(200);
  });
});
