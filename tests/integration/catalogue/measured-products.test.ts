// Measured products where sellers see them (issue 23 items 4-6, docs/decisions/048), made by the real pipeline
// (tests/helpers/measured-catalogue.ts: real tracker, real pictures, real catalogue) beside a generated sample
// catalogue, then read the way sellers meet them: GET /api/products (source filter, stores sorts and filters,
// 400s), GET /api/products/{objectID} (offers, signals, match evidence) and the product page loader. A measured
// product never shows an orders figure, and nothing names who follows a store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as productApi } from "~/routes/api.products.$objectID";
import { loader as productsApi } from "~/routes/api.products";
import { loader as productPage } from "~/routes/dashboard.products.$objectID";
import { aiAds, assistant, productDrops } from "~/services/index.server";
import { importProducts } from "~/services/products/import.server";
import { drawPicture, lookAlikeDesign, randomDesign, variantPicture } from "../../../scripts/lib/market-pictures";
import { generateProducts } from "../../../scripts/lib/product-generator";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { startMeasuredCatalogue, type MeasuredCatalogue } from "../../helpers/measured-catalogue";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

type Figure = { value: unknown; measured: boolean; asOf: string };
type Card = {
  objectID: string;
  title: string;
  source: string;
  orders: number | null;
  revenueCents: number | null;
  ordersGrowth7d: number | null;
  engagement: unknown;
  storesSelling: number | null;
  noSalesData: string | null;
  measured: null | Record<string, Figure | string | null>;
  insights: { reasons: string[]; trendingScore: number | null } | null;
};

let m: MeasuredCatalogue;
let seller: Awaited<ReturnType<typeof createSignedInUser>>;
let follower: Awaited<ReturnType<typeof createSignedInUser>>;
let fan: string;
let lookAlike: string;
let raincoat: string;
const SAMPLE = 30;
const MEASURED = 4;
const AS_OF = "2026-11-03";

const price = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];
const RECENT = "2026-10-29T10:00:00Z";

beforeAll(async () => {
  const rows = [...generateProducts(SAMPLE, { seed: 48, endDay: "2026-10-31" })].map((row, i) => ({ line: i + 1, row }));
  expect((await importProducts(db, rows, { now: new Date("2026-11-01T00:00:00Z") })).rejected).toEqual([]);

  m = await startMeasuredCatalogue({ start: "2026-11-01T00:00:00Z", ownerId: "measured-products-test" });
  const design = randomDesign(501);
  const { shops } = m.tracker;
  shops.addShop("alpha.test", {
    products: [
      makeProduct(1, { title: "2026 NEW Bladeless Neck Fan - USB Rechargeable (White)", images: m.picture("a-fan", await variantPicture(design, "reencode", 1)), variants: price("19.99"), published_at: RECENT }),
      makeProduct(2, { title: "Dog raincoat", images: m.picture("a-coat", await drawPicture(randomDesign(900))), variants: price("24.00"), published_at: "2026-05-01T10:00:00Z" }),
    ],
  });
  shops.addShop("bravo.test", {
    currency: "EUR",
    products: [makeProduct(3, { title: "Portable neck fan | bladeless, hands free", images: m.picture("b-fan", await variantPicture(design, "badge", 2)), variants: price("24.95"), published_at: RECENT })],
  });
  const charlie = shops.addShop("charlie.test", {
    products: [makeProduct(6, { title: "Glass kettle", images: m.picture("c-kettle", await drawPicture(randomDesign(777))), variants: price("39.00"), published_at: "2026-04-01T10:00:00Z" })],
  });
  shops.addShop("delta.test", {
    products: [makeProduct(5, { title: "Bladeless neck fan", images: m.picture("d-fan", await drawPicture(lookAlikeDesign(design, 7))), variants: price("22.00"), published_at: "2026-06-01T10:00:00Z" })],
  });
  // The follower's account must never show on anyone's product page.
  follower = await createSignedInUser({ userSubscribed: "yes", email: "follower-secret@example.test" });
  expect(await m.measure({ id: follower.id, userSubscribed: "yes" }, ["alpha.test", "bravo.test", "charlie.test", "delta.test"])).toHaveLength(4);
  // Two days later charlie.test starts selling the fan too: one store added it this week.
  m.tracker.time.ms += 2 * 86_400_000;
  charlie.products.push(
    makeProduct(4, {
      title: "Neck Fan Bladeless",
      images: m.picture("c-fan", await variantPicture(design, "resize", 3)),
      variants: [{ id: 1, title: "Default", price: "21.50", compare_at_price: null, available: false, sku: "" }],
      published_at: RECENT,
    }),
  );
  const measured = await m.measure({ id: follower.id, userSubscribed: "yes" }, []);
  expect(measured).toHaveLength(4);
  fan = measured.find((p) => p.storesSelling === 3)!.objectID;
  lookAlike = measured.find((p) => p.title === "Bladeless neck fan")!.objectID;
  raincoat = measured.find((p) => p.title === "Dog raincoat")!.objectID;
  seller = await createSignedInUser({ userSubscribed: "yes" });
}, 60_000);

afterAll(async () => {
  await m.close();
});

async function grid(query: string, cookie = seller.cookie): Promise<Card[]> {
  const res = await call(productsApi, `/api/products?pageSize=48&${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Card[] }).items;
}

async function refused(query: string): Promise<{ param: string; error: string }> {
  const res = await call(productsApi, `/api/products?${query}`, { cookie: seller.cookie });
  expect(res.status).toBe(400);
  return (await res.json()) as { param: string; error: string };
}

describe("the product grid with measured products", () => {
  it("lists measured products first in the default order, then the sample catalogue", async () => {
    const items = await grid("");
    expect(items).toHaveLength(SAMPLE + MEASURED);
    expect(items.slice(0, MEASURED).map((c) => c.source)).toEqual(Array(MEASURED).fill("measured"));
    expect(items.slice(MEASURED).every((c) => c.source === "sample")).toBe(true);
  });

  it("filters by source: measured, sample or all", async () => {
    const measured = (await grid("source=measured")).map((c) => c.objectID);
    expect(measured).toHaveLength(MEASURED);
    expect(measured).toEqual(expect.arrayContaining([fan, lookAlike, raincoat]));
    const sample = await grid("source=sample");
    expect(sample).toHaveLength(SAMPLE);
    expect(sample.every((c) => c.source === "sample")).toBe(true);
    expect(await grid("source=all")).toHaveLength(SAMPLE + MEASURED);
  });

  it("sorts by stores added this week and by stores selling, products without the figure last", async () => {
    const added = await grid("sort=storesAdded7d");
    expect(added[0].objectID).toBe(fan);
    expect(added[0].measured).toMatchObject({ storesAdded7d: { value: 1, measured: true } });
    expect(added.slice(MEASURED).every((c) => c.source !== "measured")).toBe(true);
    const measuredOnly = await grid("source=measured&sort=storesAdded7d");
    expect(measuredOnly.map((c) => c.objectID)[0]).toBe(fan);
    const selling = await grid("source=measured&sort=storesSelling");
    expect(selling.map((c) => c.storesSelling)).toEqual([3, 1, 1, 1]);
  });

  it("filters on stores selling, stores added this week and price", async () => {
    expect((await grid("source=measured&minStores=2")).map((c) => c.objectID)).toEqual([fan]);
    const addedThisWeek = await grid("minStoresAdded7d=1");
    expect(addedThisWeek.map((c) => c.objectID)).toEqual([fan]);
    // The fan's price is the median of its listings in dollars, the euro one converted at the dated reference rate
    // (decision 089): $19.99, $21.50 and 24.95 EUR ($25.28 at 2022-07-18's rate) give $21.50.
    expect((await grid("source=measured&maxPrice=21.50")).map((c) => c.objectID)).toEqual([fan]);
    expect((await grid("source=measured&maxPrice=21.49")).map((c) => c.objectID)).toEqual([]);
    expect((await grid("source=measured&minPrice=30")).map((c) => c.title)).toEqual(["Glass kettle"]);
    expect((await grid("source=measured&minPrice=21.51&maxPrice=22.5")).map((c) => c.objectID)).toEqual([lookAlike]);
  });

  it("never matches a measured product on an orders figure, and ranks it after every product with one", async () => {
    expect((await grid("minOrders=0")).some((c) => c.source === "measured")).toBe(false);
    const byOrders = await grid("sort=orders");
    expect(byOrders.slice(-MEASURED).every((c) => c.source === "measured")).toBe(true);
  });

  it("refuses bad values with a 400 naming the parameter", async () => {
    expect(await refused("source=real")).toMatchObject({ param: "source" });
    expect(await refused("sort=storesAdded")).toMatchObject({ param: "sort" });
    expect(await refused("minStoresAdded7d=-1")).toMatchObject({ param: "minStoresAdded7d" });
    expect(await refused("minStoresAdded7d=two")).toMatchObject({ param: "minStoresAdded7d" });
  });

  it("a measured card shows stores, not orders: each figure measured or estimated with its day", async () => {
    const card = (await grid("source=measured&minStores=2"))[0];
    expect(card).toMatchObject({ orders: null, revenueCents: null, ordersGrowth7d: null, engagement: null, storesSelling: 3 });
    expect(card.noSalesData).toMatch(/orders are not measured/);
    expect(card.measured).toMatchObject({
      asOf: AS_OF,
      storesSelling: { value: 3, measured: true, asOf: AS_OF },
      storesAdded7d: { value: 1, measured: true },
      winningScore: { measured: false },
      lifecycleStage: { measured: false },
      saturation: { measured: false },
      firstSeenAt: { measured: true },
      thinEvidence: expect.stringMatching(/observed for 3 days/),
    });
    expect(card.insights?.trendingScore).toBeNull();
    expect(card.insights?.reasons.join(" ")).toMatch(/added by 1 store in 7 days: 2 -> 3/);
    const sample = (await grid("source=sample"))[0];
    expect(sample.measured).toBeNull();
    expect(typeof sample.orders).toBe("number");
  });
});

describe("a measured product's page and API", () => {
  it("GET /api/products/{objectID} has its offers, signals and the evidence of each match", async () => {
    const res = await call(productApi, `/api/products/${fan}`, { cookie: seller.cookie, params: { objectID: fan } });
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text);
    const port = m.tracker.shops.port;
    expect(body.offers).toHaveLength(3);
    expect(body.offers[0]).toEqual({
      store: `alpha.test:${port}`,
      url: `https://alpha.test:${port}/products/product-1`,
      title: "2026 NEW Bladeless Neck Fan - USB Rechargeable (White)",
      priceCents: 1999,
      currency: "USD",
      available: true,
      firstSeenAt: expect.stringMatching(/^2026-11-01T/),
      converted: null,
      conversionNote: null,
      // No product page read yet (decision 094): no review data, never 0.
      reviews: null,
      reviewsAsOf: null,
      reviewsNote: null,
    });
    expect(body.offers.map((o: { store: string; currency: string; available: boolean }) => [o.store, o.currency, o.available])).toEqual([
      [`alpha.test:${port}`, "USD", true],
      [`charlie.test:${port}`, "USD", false],
      [`bravo.test:${port}`, "EUR", true],
    ]);
    expect(body.signals).toMatchObject({
      asOf: AS_OF,
      storesSelling: { value: 3, measured: true, asOf: AS_OF },
      storesAdded7d: { value: 1, measured: true },
      storesAdded30d: { value: 1, measured: true },
      storesDropped7d: { value: 0, measured: true },
      outOfStock: { value: 1, measured: true },
      firstSeenAnywhere: { measured: true },
    });
    expect(body.signals.series.storesSelling.at(-1)).toBe(3);
    expect(body.matchEvidence).toHaveLength(3);
    expect(body.matchEvidence[0]).toMatchObject({ via: "anchor", reason: "first listing of this product" });
    for (const e of body.matchEvidence.slice(1)) {
      expect(e.via).toBe("picture");
      expect(e.reason).toMatch(/picture: .*titles share .*neck/);
      expect(e.listing.url).toMatch(/^https:\/\/(bravo|charlie|alpha)\.test:\d+\/products\/product-\d$/);
    }
    expect(body).toMatchObject({ orders: null, revenueCents: null, history: null });
    // Who follows a store is never shown.
    expect(text).not.toContain(follower.email);
    expect(text).not.toContain(follower.id);
  });

  it("a sample product has no offers, signals or evidence", async () => {
    const sample = (await grid("source=sample"))[0];
    const res = await call(productApi, `/api/products/${sample.objectID}`, { cookie: seller.cookie, params: { objectID: sample.objectID } });
    expect(await res.json()).toMatchObject({ offers: [], signals: null, matchEvidence: [], measured: null, source: "sample" });
  });

  it("the product page loader has the listings, the chart's series and the evidence", async () => {
    const res = await call(productPage, `/dashboard/products/${fan}`, { cookie: seller.cookie, params: { objectID: fan } });
    expect(res.status).toBe(200);
    const { product } = (await res.json()) as { product: { offers: unknown[]; signals: { series: { startDay: string; storesSelling: number[] } }; matchEvidence: unknown[]; orders: unknown } };
    expect(product.offers).toHaveLength(3);
    expect(product.signals.series).toMatchObject({ startDay: "2026-11-01", storesSelling: [2, 2, 3] });
    expect(product.matchEvidence).toHaveLength(3);
    expect(product.orders).toBeNull();
  });

  it("a one-store product says its evidence is thin, in correct English", async () => {
    const res = await call(productApi, `/api/products/${raincoat}`, { cookie: seller.cookie, params: { objectID: raincoat } });
    const body = await res.json();
    expect(body.measured.thinEvidence).toMatch(/^sold by 1 store: too few to call a trend/);
    expect(body.offers).toHaveLength(1);
    expect(body.matchEvidence).toEqual([expect.objectContaining({ via: "anchor", reason: "first listing of this product" })]);
  });
});

describe("the assistant, drops and AI ads read measured products", () => {
  it("the assistant finds them by stores and answers in correct English, never with an orders figure", async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
    const many = await assistant.answer(user, "measured products sold by more than 1 store");
    expect(many.gridParams).toContain("source=measured");
    expect(many.products.map((p) => p.objectID)).toEqual([fan]);
    expect(many.products[0].why).toContain("sold by 3 stores");
    expect(many.products[0].why.join(" ")).not.toMatch(/orders in 30 days|no sales data/);
    const week = await assistant.answer(user, "products added by stores this week");
    expect(week.products.map((p) => p.objectID)).toEqual([fan]);
    expect(week.products[0].why).toContain("added by 1 store this week");
    const single = await assistant.answer(user, "measured products sold by at most 1 store");
    expect(single.products).toHaveLength(MEASURED - 1);
    for (const p of single.products) expect(p.why).toContain("sold by 1 store");
  });

  it("a drop's reason for a measured product comes from its measured reasons", async () => {
    const sample = (await grid("source=sample")).slice(0, 4).map((c) => c.objectID);
    const measured = (await grid("source=measured")).map((c) => c.objectID);
    await productDrops.publish("2026-11-05", [...measured, ...sample].map((objectID) => ({ objectID })));
    const item = await db.productDropItem.findFirstOrThrow({ where: { objectID: fan }, select: { reason: true } });
    expect(item.reason).toMatch(/^[A-Z][a-z ]+, winning score \d+ \(from store counts\): .*added by 1 store in 7 days: 2 -> 3/);
    expect(item.reason).not.toMatch(/orders|margin/);
  });

  it("an AI ad's script quotes the stores selling it, not orders", async () => {
    const ad = await aiAds.create({ user: { id: seller.id, userSubscribed: "yes", aiAdsFirstUse: true }, objectID: fan });
    const words = ad.scenes.map((s) => s.text).join(" | ");
    expect(words).toContain("Already sold by 3 stores");
    expect(words).not.toMatch(/orders/i);
  });
});
