// The Algolia adapter (app/integrations/algolia.server.ts) driven against a local server that speaks
// Algolia's REST shapes, on a real migrated SQLite database: what it sends (keys, text, filters, hits
// wanted) and what it does with the answer (order, unknown objectIDs, stale figures, sort, page).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { parseProductQuery } from "~/domain/products/product-query";
import { researchAccess } from "~/domain/products/research-access";
import { algoliaFilters, createAlgoliaEngine, parseAlgoliaHosts, type AlgoliaEngine } from "~/integrations/algolia.server";
import { searchResultPage } from "~/pages/research/research.server";
import { searchProducts } from "~/services/products.server";
import { startFakeAlgolia, type FakeAlgolia } from "../../helpers/algolia-server";
import { fixtureCatalogue, insertProducts, type FixtureProduct } from "../../helpers/products";
import { createUser } from "../../helpers/site-users";
import { algoliaRowSource } from "~/services/search/algolia-rows.server";

const APP_ID = "TESTAPP42";
const SEARCH_KEY = "search-only-key";
const ADMIN_KEY = "admin-key-secret";
const INDEX = "products_test";

// Six products with figures chosen so every sort gives a different order.
const base = fixtureCatalogue(1)[0];
function product(n: number, fields: Partial<FixtureProduct>): FixtureProduct {
  return { ...base, objectID: `al-${n}`, title: `algolia lamp ${n}`, niches: ["home-decor"], amazonPriceCents: null, ...fields };
}
const products: FixtureProduct[] = [
  product(1, { priceCents: 1500, orders: 40, winningScore: 50, randomSortKey: 10 }),
  product(2, { priceCents: 2500, orders: 900, winningScore: 70, randomSortKey: 60 }),
  product(3, { priceCents: 900, orders: 300, winningScore: 90, randomSortKey: 30, amazonPriceCents: 2400 }),
  product(4, { priceCents: 4200, orders: 10, winningScore: 20, randomSortKey: 50 }),
  product(5, { priceCents: 3100, orders: 600, winningScore: 40, randomSortKey: 20, niches: ["pets", "home-decor"] }),
  product(6, { priceCents: 5200, orders: 120, winningScore: 60, randomSortKey: 40 }),
];

let fake: FakeAlgolia;
let engine: AlgoliaEngine;
let idOf: Map<string, number>;
const objectOf = (ids: number[]) => ids.map((id) => [...idOf].find(([, v]) => v === id)?.[0]);

beforeAll(async () => {
  await insertProducts(db, products);
  const rows = await db.product.findMany({ select: { id: true, objectID: true } });
  idOf = new Map(rows.map((r) => [r.objectID, r.id]));
  fake = await startFakeAlgolia();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.records.clear();
  engine = createAlgoliaEngine({ appId: APP_ID, apiKey: SEARCH_KEY, adminApiKey: ADMIN_KEY, indexName: INDEX, hosts: fake.hosts, rows: algoliaRowSource(db) });
});

const query = (params: Record<string, string>) => parseProductQuery(new URLSearchParams(params));
const hitsOf = (...objectIDs: string[]) => objectIDs.map((objectID) => ({ objectID }));

describe("Algolia search", () => {
  it("sends one query with the search key, the text, every filter, and asks for up to 1,000 objectIDs", async () => {
    fake.onQuery = () => ({ hits: [], nbHits: 0 });
    const q = query({
      q: "led lamp",
      niche: "pets,home-decor",
      stage: "rising",
      minPrice: "10",
      maxPrice: "50.5",
      minMargin: "40",
      minOrders: "100",
      minRevenue: "1000.50",
      maxStores: "20",
      minEngagement: "500",
      hasAmazonPrice: "true",
      firstSeenAfter: "2026-09-01",
    });
    await engine.search(q);

    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe(`/1/indexes/${INDEX}/query`);
    expect(sent.headers["x-algolia-application-id"]).toBe(APP_ID);
    expect(sent.headers["x-algolia-api-key"]).toBe(SEARCH_KEY);
    expect(sent.body).toMatchObject({ query: "led lamp", hitsPerPage: 1000, page: 0, attributesToRetrieve: ["objectID"] });
    expect(sent.body?.filters).toBe(
      '(niches:"pets" OR niches:"home-decor") AND lifecycleStage:"rising" AND priceCents:1000 TO 5050 AND ' +
        "landedMarginBps >= 4000 AND orders >= 100 AND revenueCents >= 100100 AND engagement >= 500 AND storesSelling <= 20 AND " +
        "firstSeenDay >= 20697 AND amazonPriceCents >= 0",
    );
  });

  it("sends no filters parameter when nothing filters, and an empty text for browsing", async () => {
    await engine.search(query({}));
    expect(fake.requests[0].body).toMatchObject({ query: "", hitsPerPage: 1000 });
    expect(fake.requests[0].body).not.toHaveProperty("filters");
  });

  it("keeps Algolia's order for relevance, drops objectIDs the database does not have, and pages", async () => {
    fake.onQuery = () => ({ hits: hitsOf("al-4", "ghost-1", "al-2", "al-6", "al-1", "al-3", "al-5"), nbHits: 7 });
    const page1 = await engine.search(query({ q: "lamp", sort: "relevance", pageSize: "2" }));
    expect(objectOf(page1.ids)).toEqual(["al-4", "al-2"]);
    expect(page1).toMatchObject({ total: 6, totalIsEstimate: false, hasMore: true });

    const page2 = await engine.search(query({ q: "lamp", sort: "relevance", pageSize: "2", page: "2" }));
    expect(objectOf(page2.ids)).toEqual(["al-6", "al-1"]);
    const page3 = await engine.search(query({ q: "lamp", sort: "relevance", pageSize: "2", page: "3" }));
    expect(objectOf(page3.ids)).toEqual(["al-3", "al-5"]);
    expect(page3.hasMore).toBe(false);
    const past = await engine.search(query({ q: "lamp", sort: "relevance", pageSize: "2", page: "4" }));
    expect(past.ids).toEqual([]);
  });

  it("keeps its own typo tolerance: the text goes as typed and no correction is reported", async () => {
    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-2"), nbHits: 2 });
    const { id } = await createUser({ userSubscribed: "yes" });
    const access = researchAccess(await db.user.findUniqueOrThrow({ where: { id } }));
    for (const params of ["q=algolia%20lmap", "q=algolia%20lmap&literal=1"]) {
      const result = await searchProducts(db, engine, { userId: id, access, query: parseProductQuery(new URLSearchParams(params)) });
      expect(searchResultPage(result)).toMatchObject({ total: 2, correctedQuery: null, originalQuery: null });
    }
    expect(fake.requests.map((r) => r.body?.query)).toEqual(["algolia lmap", "algolia lmap"]);
  });

  it("applies the other sorts to the hits with the database's figures", async () => {
    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-2", "al-3", "al-4", "al-5", "al-6"), nbHits: 6 });
    expect(objectOf((await engine.search(query({ sort: "orders" }))).ids)).toEqual(["al-2", "al-5", "al-3", "al-6", "al-1", "al-4"]);
    expect(objectOf((await engine.search(query({ sort: "price-asc" }))).ids)).toEqual(["al-3", "al-1", "al-2", "al-5", "al-4", "al-6"]);
    expect(objectOf((await engine.search(query({ q: "lamp", sort: "winning-score" }))).ids)).toEqual([
      "al-3",
      "al-2",
      "al-6",
      "al-1",
      "al-5",
      "al-4",
    ]);
  });

  it("random order follows randomSortKey rotated by the visitor's seed: one seed, one order", async () => {
    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-2", "al-3", "al-4", "al-5", "al-6"), nbHits: 6 });
    const byKey = ["al-2", "al-4", "al-6", "al-3", "al-5", "al-1"]; // randomSortKey 60, 50, 40, 30, 20, 10
    const seed8 = await engine.search(query({ sort: "random", seed: "8" })); // 8 % 6 = 2
    expect(objectOf(seed8.ids)).toEqual([...byKey.slice(2), ...byKey.slice(0, 2)]);
    expect((await engine.search(query({ sort: "random", seed: "8" }))).ids).toEqual(seed8.ids);
    expect((await engine.search(query({ sort: "random", seed: "9" }))).ids).not.toEqual(seed8.ids);
  });

  it("re-checks the filters on current figures: a hit the index still thinks is cheap is dropped", async () => {
    // The index is stale: it returns al-6 ($52) for "under $30".
    fake.onQuery = () => ({ hits: hitsOf("al-6", "al-1", "al-3"), nbHits: 3 });
    const result = await engine.search(query({ maxPrice: "30", sort: "price" }));
    expect(objectOf(result.ids)).toEqual(["al-1", "al-3"]);
    expect(result.total).toBe(2);

    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-3", "al-5"), nbHits: 3 });
    const withAmazon = await engine.search(query({ minAmazonPrice: "19" }));
    expect(objectOf(withAmazon.ids)).toEqual(["al-3"]);
    const pets = await engine.search(query({ niche: "pets" }));
    expect(objectOf(pets.ids)).toEqual(["al-5"]);
  });

  it("labels the total an estimate when Algolia found more than the 1,000 hits it returns, or says its count is approximate", async () => {
    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-2"), nbHits: 25_000 });
    expect(await engine.search(query({ q: "lamp" }))).toMatchObject({ total: 25_000, totalIsEstimate: true });

    fake.onQuery = () => ({ hits: hitsOf("al-1", "al-2"), nbHits: 2, exhaustive: { nbHits: false } });
    expect(await engine.search(query({ q: "lamp" }))).toMatchObject({ total: 2, totalIsEstimate: true });
  });

  it("fails loudly when Algolia refuses the key, instead of showing an empty catalogue", async () => {
    fake.onQuery = () => ({ hits: [], status: 403, message: "Invalid Application-ID or API key" });
    await expect(engine.search(query({ q: "lamp" }))).rejects.toThrow(/Invalid Application-ID or API key/);
  });

  it("lists niches from the index's facet values, alphabetically", async () => {
    fake.onQuery = (_index, body) =>
      body.hitsPerPage === 0 ? { hits: [], facets: { niches: { pets: 3, "home-decor": 9, baby: 1 } } } : { hits: [] };
    expect(await engine.niches()).toEqual(["baby", "home-decor", "pets"]);
    expect(fake.requests[0].body).toMatchObject({ facets: ["niches"], hitsPerPage: 0 });
  });
});

describe("Algolia sync", () => {
  it("writes the index settings once, then the products' records with the admin key", async () => {
    const first = await engine.syncProducts(["al-3", "al-5", "al-3"]);
    await engine.syncProducts(["al-1"]);
    expect(first).toMatchObject({ saved: 2, deleted: 0 });

    const settings = fake.requests.filter((r) => r.path.endsWith("/settings"));
    expect(settings).toHaveLength(1);
    expect(settings[0].method).toBe("PUT");
    expect(settings[0].body).toMatchObject({
      attributesForFaceting: expect.arrayContaining(["niches", "filterOnly(lifecycleStage)"]),
      customRanking: ["desc(winningScore)", "desc(orders)"],
    });

    const batches = fake.requests.filter((r) => r.path === `/1/indexes/${INDEX}/batch`);
    expect(batches).toHaveLength(2);
    for (const b of [...settings, ...batches]) {
      expect(b.headers["x-algolia-api-key"]).toBe(ADMIN_KEY);
      expect(b.headers["x-algolia-application-id"]).toBe(APP_ID);
    }
    const requests = batches[0].body?.requests as { action: string; body: Record<string, unknown> }[];
    expect(requests.map((r) => [r.action, r.body.objectID])).toEqual([
      ["addObject", "al-3"],
      ["addObject", "al-5"],
    ]);

    const stored = fake.records.get(INDEX)!;
    const p5 = products[4];
    expect(stored.get("al-5")).toMatchObject({
      objectID: "al-5",
      title: "algolia lamp 5",
      niches: ["pets", "home-decor"],
      priceCents: 3100,
      orders: 600,
      revenueCents: p5.revenueCents,
      engagement: p5.likes + p5.comments + p5.shares,
      firstSeenDay: Math.floor(Date.parse(p5.firstSeenAt) / 86_400_000),
      winningScore: 40,
      randomSortKey: 20,
      image: "/product-images/al-5-1.svg",
    });
    expect(stored.get("al-5")).not.toHaveProperty("amazonPriceCents");
    expect(stored.get("al-3")).toMatchObject({ amazonPriceCents: 2400 });
    expect([...stored.keys()].sort()).toEqual(["al-1", "al-3", "al-5"]);
  });

  it("deletes from the index the objectIDs the database no longer has", async () => {
    await engine.syncProducts(["al-2"]);
    const result = await engine.syncProducts(["al-2", "removed-7"]);
    expect(result).toMatchObject({ saved: 1, deleted: 1 });
    const last = fake.requests.at(-1)!;
    expect(last.body).toEqual({ requests: [{ action: "deleteObject", body: { objectID: "removed-7" } }] });
  });

  it("refuses to write without the admin key, with a message that names it", async () => {
    const readOnly = createAlgoliaEngine({ appId: APP_ID, apiKey: SEARCH_KEY, indexName: INDEX, hosts: fake.hosts, rows: algoliaRowSource(db) });
    await expect(readOnly.syncProducts(["al-1"])).rejects.toThrow("ALGOLIA_ADMIN_KEY");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("Algolia configuration", () => {
  it("reads ALGOLIA_HOSTS as comma-separated base URLs", () => {
    expect(parseAlgoliaHosts(undefined)).toBeUndefined();
    expect(parseAlgoliaHosts("http://127.0.0.1:7700, https://search.example.com")).toEqual([
      { url: "127.0.0.1", port: 7700, protocol: "http", accept: "readWrite" },
      { url: "search.example.com", protocol: "https", accept: "readWrite" },
    ]);
    expect(() => parseAlgoliaHosts("127.0.0.1:7700")).toThrow(/ALGOLIA_HOSTS/);
    expect(() => parseAlgoliaHosts("http://127.0.0.1:7700/1/indexes")).toThrow(/no path/);
  });

  it("quotes facet values and joins ranges the way Algolia's filters syntax wants", () => {
    expect(algoliaFilters(query({ niche: "home-decor", minStores: "0", maxStores: "0" }))).toBe(
      'niches:"home-decor" AND storesSelling:0 TO 0',
    );
    expect(algoliaFilters(query({ minMargin: "-20", maxAmazonPrice: "40" }))).toBe("landedMarginBps >= -2000 AND amazonPriceCents:0 TO 4000");
  });
});
