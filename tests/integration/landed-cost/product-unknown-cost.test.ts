// Unknown supplier cost and absent sales data (docs/decisions/026), read back the way sellers meet them: a
// rival's product added through the competitors service, then the product service, the product page loader
// and the product grid (GET /api/products) with margin and orders filters and sorts. Rival stores are the fake
// Shopify of tests/helpers/fake-shopify-store.ts on 127.0.0.1, as in competitors.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const fake = await vi.hoisted(async () => {
  const { startFakeShopifyStore } = await import("../../helpers/fake-shopify-store");
  const store = await startFakeShopifyStore();
  Object.assign(process.env, { TRACKER_ALLOW_HOSTS: `127.0.0.1:${store.port}`, TRACKER_RESOLVE: "*.test=127.0.0.1", TRACKER_STANDIN_GAP_MS: "20" });
  return { store };
});

import { db } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { loader as productsApi } from "~/routes/api.products";
import { action as addRoute } from "~/routes/api.competitors";
import { loader as productPage } from "~/routes/dashboard.products.$objectID";
import { competitors, jobs, products } from "~/services/index.server";
import { importProducts } from "~/services/products/import.server";
import { generateProducts } from "../../../scripts/lib/product-generator";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const shops = fake.store;
const host = `rival-cost.test:${shops.port}`;
const NOW = new Date("2026-06-01T09:00:00Z");

afterAll(async () => {
  await shops.close();
});

type Card = { objectID: string; orders: number | null; winningScore: number | null; noSalesData: string | null; insights: { marginBps: number | null; costCents: number | null } | null };

async function grid(cookie: string, query: string): Promise<Card[]> {
  const res = await call(productsApi, `/api/products?pageSize=48&${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Card[] }).items;
}

let seller: Awaited<ReturnType<typeof createSignedInUser>>;
let rivalObjectID: string;

beforeAll(async () => {
  // A research catalogue with known costs and sales, as the seed and file imports write it.
  const rows = [...generateProducts(30, { seed: 26, endDay: "2026-05-31" })].map((row, i) => ({ line: i + 1, row }));
  const summary = await importProducts(db, rows, { now: NOW });
  expect(summary.rejected).toEqual([]);

  shops.addShop("rival-cost.test", { products: [makeProduct(1, { title: "Glow Desk Lamp" })], currency: "USD" });
  seller = await createSignedInUser({ userSubscribed: "yes" });
  const added = await call(addRoute, "/api/competitors", { cookie: seller.cookie, json: { url: host } });
  expect(added.status, await added.clone().text()).toBe(201);
  const follow = (await added.json()) as { id: number };
  await jobs.runDue();
  const detail = await competitors.get(seller.id, follow.id);
  const lamp = detail.products.find((p) => p.title === "Glow Desk Lamp")!;
  const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
  ({ objectID: rivalObjectID } = await competitors.importProduct(user, follow.id, lamp.productId));
});

describe("a rival's product added to the product database", () => {
  it("is stored with an unknown cost, no sales history and where it came from", async () => {
    const row = await db.product.findUniqueOrThrow({
      where: { objectID: rivalObjectID },
      select: { costCents: true, marginBps: true, source: true, sourceStore: true, sourceAddedAt: true, reasons: true, history: { select: { productId: true } } },
    });
    expect(row).toMatchObject({ costCents: null, marginBps: null, source: "tracked-store", sourceStore: host, reasons: "[]", history: null });
    expect(row.sourceAddedAt).toBeInstanceOf(Date);
  });

  it("the product service and the page loader show no margin, orders, score or stage we never measured", async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
    const product = await products.getProduct({ userId: seller.id, objectID: rivalObjectID, access: researchAccess(user) });
    expect(product).toMatchObject({
      orders: null,
      orders7d: null,
      ordersGrowth7d: null,
      revenueCents: null,
      storesSelling: null,
      winningScore: null,
      lifecycleStage: null,
      saturation: null,
      history: null,
      insights: { costCents: null, marginBps: null, reasons: [], trendingScore: null },
    });
    expect(product.noSalesData).toMatch(/^No sales data: imported from a tracked store on [A-Z][a-z]{2} \d{1,2}, \d{4} \(rival-cost\.test:\d+\)$/);

    const page = await call(productPage, `/dashboard/products/${rivalObjectID}`, { cookie: seller.cookie, params: { objectID: rivalObjectID } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("No sales data: imported from a tracked store on");
    expect(text).not.toMatch(/100%|"marginBps":\d|"orders":0\b|"winningScore":\d/);
  });

  it("re-adding it keeps the day it was first added", async () => {
    const before = await db.product.findUniqueOrThrow({ where: { objectID: rivalObjectID }, select: { sourceAddedAt: true } });
    const store = await db.competitor.findFirstOrThrow({ where: { userId: seller.id }, select: { id: true, storeId: true } });
    const lamp = await db.competitorProduct.findFirstOrThrow({ where: { storeId: store.storeId }, select: { productId: true } });
    vi.useFakeTimers({ now: Date.now() + 3 * 86_400_000, toFake: ["Date"] });
    try {
      const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
      await competitors.importProduct(user, store.id, lamp.productId);
    } finally {
      vi.useRealTimers();
    }
    const after = await db.product.findUniqueOrThrow({ where: { objectID: rivalObjectID }, select: { sourceAddedAt: true } });
    expect(after.sourceAddedAt).toEqual(before.sourceAddedAt);
  });
});

describe("the product grid", () => {
  it("finds it by its title, with its note instead of figures", async () => {
    const items = await grid(seller.cookie, "q=glow+desk+lamp");
    const card = items.find((c) => c.objectID === rivalObjectID);
    expect(card).toMatchObject({ orders: null, winningScore: null, insights: { costCents: null, marginBps: null } });
    expect(card!.noSalesData).toMatch(/^No sales data/);
  });

  it("never matches it with a margin, cost, orders or stage filter, open-ended or not", async () => {
    for (const filter of ["minMargin=0", "maxMargin=100", "minMargin=-1000", "maxCost=1000", "minCost=0", "maxOrders=100000", "minOrders=0", "stage=emerging"]) {
      const items = await grid(seller.cookie, filter);
      expect(items.length, filter).toBeGreaterThan(0);
      expect(items.map((c) => c.objectID), filter).not.toContain(rivalObjectID);
    }
    // Without those filters it is in the catalogue like any product.
    expect((await grid(seller.cookie, "sort=newest")).map((c) => c.objectID)).toContain(rivalObjectID);
  });

  it("ranks it after every product with a known figure when sorting by margin, orders or score", async () => {
    for (const sort of ["margin", "orders", "winning-score", "trending", "revenue"]) {
      const items = await grid(seller.cookie, `sort=${sort}`);
      const at = items.findIndex((c) => c.objectID === rivalObjectID);
      expect(at, sort).toBeGreaterThanOrEqual(0);
      const known = sort === "margin" ? items.filter((c) => c.insights?.marginBps !== null) : items.filter((c) => c.noSalesData === null);
      expect(known.length, sort).toBeGreaterThan(0);
      for (const c of known) expect(items.indexOf(c), `${sort}: ${c.objectID}`).toBeLessThan(at);
    }
  });
});

describe("a file import that leaves the cost empty", () => {
  it("keeps its sales data and scores it from the measured parts, without a margin", async () => {
    const [withCost] = [...generateProducts(1, { seed: 99, endDay: "2026-05-31" })];
    const known = { ...withCost, objectID: "cost-known" };
    const unknown = { ...withCost, objectID: "cost-unknown", costCents: null };
    const summary = await importProducts(db, [{ line: 1, row: known }, { line: 2, row: unknown }], { now: NOW });
    expect(summary.rejected).toEqual([]);
    const rows = await db.product.findMany({
      where: { objectID: { in: ["cost-known", "cost-unknown"] } },
      select: { objectID: true, costCents: true, marginBps: true, orders: true, reasons: true, source: true },
      orderBy: { objectID: "asc" },
    });
    const [k, u] = rows;
    expect(k).toMatchObject({ costCents: withCost.costCents, source: "catalog" });
    expect(k.marginBps).toEqual(expect.any(Number));
    expect(u).toMatchObject({ costCents: null, marginBps: null, orders: k.orders, source: "catalog" });
    expect(JSON.parse(u.reasons)).toHaveLength(3);
    expect(u.reasons).not.toMatch(/margin/);
    const items = await grid(seller.cookie, "minMargin=0");
    expect(items.map((c) => c.objectID)).not.toContain("cost-unknown");
  });

  it("refuses a row that names no cost at all, so a misspelt column is not read as unknown", async () => {
    const [row] = [...generateProducts(1, { seed: 98, endDay: "2026-05-31" })];
    const { costCents: _dropped, ...withoutCost } = row;
    const summary = await importProducts(db, [{ line: 7, row: { ...withoutCost, objectID: "cost-missing" } }], { now: NOW });
    expect(summary.rejected).toEqual([{ line: 7, reason: "costCents is required (null or an empty cell when the cost is unknown)" }]);
  });
});
