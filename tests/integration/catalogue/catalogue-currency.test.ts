// Measured prices in other currencies (issue 23, docs/decisions/059, amended by 089). A store selling in euros
// gives a measured product priced in euros; the grid's price filter and price sorts compare US dollars, so that
// product is filtered and sorted by its price in dollars at the dated reference rate (25.00 EUR is $25.33 at the
// starter table's rate of 2022-07-18), on the built-in engine and in what the Algolia engine indexes and re-sorts,
// and every place that shows its price shows the currency: the card, the product API and its offers. Real pipeline: stand-in stores read by the tracker, real
// pictures, the real catalogue (tests/helpers/measured-catalogue.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { parseProductQuery } from "~/domain/products/product-query";
import { matchesFilters, sortHits, toAlgoliaRecord } from "~/integrations/algolia.server";
import { loader as productApi } from "~/routes/api.products.$objectID";
import { loader as productsApi } from "~/routes/api.products";
import { drawPicture, randomDesign } from "../../../scripts/lib/market-pictures";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { startMeasuredCatalogue, type MeasuredCatalogue } from "../../helpers/measured-catalogue";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

type Card = { objectID: string; title: string; priceCents: number; priceCurrency: string | null };

let m: MeasuredCatalogue;
let seller: Awaited<ReturnType<typeof createSignedInUser>>;
const ids: Record<string, string> = {};
const price = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];

beforeAll(async () => {
  m = await startMeasuredCatalogue({ start: "2026-11-01T00:00:00Z", ownerId: "catalogue-currency-test" });
  const { shops } = m.tracker;
  shops.addShop("dollars.test", {
    products: [
      makeProduct(1, { title: "Cheap lamp gadget", images: m.picture("lamp", await drawPicture(randomDesign(71))), variants: price("15.00") }),
      makeProduct(2, { title: "Dear kettle gadget", images: m.picture("kettle", await drawPicture(randomDesign(72))), variants: price("45.00") }),
    ],
  });
  shops.addShop("euros.test", {
    currency: "EUR",
    products: [makeProduct(3, { title: "Euro blender gadget", images: m.picture("blender", await drawPicture(randomDesign(73))), variants: price("25.00") })],
  });
  const user = await createSignedInUser({ userSubscribed: "yes" });
  const products = await m.measure({ id: user.id, userSubscribed: "yes" }, ["dollars.test", "euros.test"]);
  expect(products).toHaveLength(3);
  for (const p of products) ids[p.title] = p.objectID;
  seller = await createSignedInUser({ userSubscribed: "yes" });
}, 60_000);

afterAll(async () => {
  await m.close();
});

async function grid(query: string): Promise<Card[]> {
  const res = await call(productsApi, `/api/products?source=measured&pageSize=48&${query}`, { cookie: seller.cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Card[] }).items;
}

describe("a measured product priced in euros", () => {
  it("is stored with its currency and shows it on the card", async () => {
    const row = await db.product.findUniqueOrThrow({ where: { objectID: ids["Euro blender gadget"] }, select: { priceCents: true, priceCurrency: true } });
    expect(row).toEqual({ priceCents: 2500, priceCurrency: "EUR" });
    expect(await db.product.findUniqueOrThrow({ where: { objectID: ids["Euro blender gadget"] }, select: { priceUsdCents: true, priceRateDate: true } })).toEqual({ priceUsdCents: 2533, priceRateDate: "2022-07-18" });
    const cards = await grid("");
    expect(cards.find((c) => c.title === "Euro blender gadget")).toMatchObject({ priceCents: 2500, priceCurrency: "EUR" });
    expect(cards.find((c) => c.title === "Cheap lamp gadget")).toMatchObject({ priceCents: 1500, priceCurrency: null });
  });

  it("is in a dollar price filter by its converted price, not by its number in euros", async () => {
    expect((await grid("minPrice=20&maxPrice=25")).map((c) => c.title)).toEqual([]);
    expect((await grid("minPrice=25.30&maxPrice=25.40")).map((c) => c.title)).toEqual(["Euro blender gadget"]);
    expect((await grid("maxPrice=100")).map((c) => c.title).sort()).toEqual(["Cheap lamp gadget", "Dear kettle gadget", "Euro blender gadget"]);
    expect((await grid("")).map((c) => c.title).sort()).toEqual(["Cheap lamp gadget", "Dear kettle gadget", "Euro blender gadget"]);
  });

  it("sorts among the dollar prices by its converted price, high to low and low to high", async () => {
    expect((await grid("sort=price")).map((c) => c.title)).toEqual(["Dear kettle gadget", "Euro blender gadget", "Cheap lamp gadget"]);
    expect((await grid("sort=price-asc")).map((c) => c.title)).toEqual(["Cheap lamp gadget", "Euro blender gadget", "Dear kettle gadget"]);
    // The same through a text search (the engine then sorts its matches rather than walking an order).
    expect((await grid("q=gadget&sort=price-asc")).map((c) => c.title)).toEqual(["Cheap lamp gadget", "Euro blender gadget", "Dear kettle gadget"]);
  });

  it("is indexed in Algolia with its converted dollar price, and re-sorted by it", async () => {
    const rows = await db.product.findMany({ where: { source: "measured" }, orderBy: { id: "asc" } });
    const euro = rows.find((r) => r.title === "Euro blender gadget")!;
    const titleOf = new Map(rows.map((r) => [r.id, r.title]));
    expect(toAlgoliaRecord(euro).priceCents).toBe(2533);
    expect(toAlgoliaRecord(rows.find((r) => r.title === "Cheap lamp gadget")!).priceCents).toBe(1500);
    const q = (params: string) => parseProductQuery(new URLSearchParams(params));
    expect(matchesFilters(euro, q("minPrice=20&maxPrice=25"))).toBe(false);
    expect(matchesFilters(euro, q("minPrice=25&maxPrice=26"))).toBe(true);
    expect(matchesFilters(euro, q(""))).toBe(true);
    expect(sortHits(rows, q("sort=price-asc")).map((r) => titleOf.get(r.id))).toEqual(["Cheap lamp gadget", "Euro blender gadget", "Dear kettle gadget"]);
    expect(sortHits(rows, q("sort=price")).map((r) => titleOf.get(r.id))).toEqual(["Dear kettle gadget", "Euro blender gadget", "Cheap lamp gadget"]);
  });

  it("shows its currency in the product API and on its offers", async () => {
    const res = await call(productApi, `/api/products/${ids["Euro blender gadget"]}`, { cookie: seller.cookie, params: { objectID: ids["Euro blender gadget"] } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { priceCents: number; priceCurrency: string | null; offers: Array<{ priceCents: number; currency: string }> };
    expect(body.priceCurrency).toBe("EUR");
    expect(body.offers).toEqual([expect.objectContaining({ priceCents: 2500, currency: "EUR" })]);
  });
});
