// Prices compared across stores in two currencies (issue 37 item 5, decision 089), on the real pipeline: stand-in
// stores in euros, dollars, a currency the reference table lacks (VES) and none at all, read by the tracker, their
// pictures fingerprinted, matched and materialised. Each listing carries the currency its store published when it
// was read; 20 EUR and 21.50 USD are one product, 20 EUR and 80 USD are not; the product's median converts through
// the dated table and says its day; the grid's dollar price filter finds a euro product by its converted price;
// every converted figure in the product API, /api/v1 and the CSV export says its rate's date beside the price and
// currency as listed, and a price that cannot be converted says why and is still listed.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { trackProduct } from "~/services/products.server";
import { loader as productApi } from "~/routes/api.products.$objectID";
import { loader as productsApi } from "~/routes/api.products";
import { loader as exportApi } from "~/routes/api.products.export";
import { loader as v1Product } from "~/routes/api.v1.products.$objectID";
import { productText } from "~/api/mcp/tool-text.server";
import { action as keysAction } from "~/routes/api.keys";
import { drawPicture, randomDesign } from "../../../scripts/lib/market-pictures";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { startMeasuredCatalogue, type MeasuredCatalogue } from "../../helpers/measured-catalogue";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

let m: MeasuredCatalogue;
let seller: Awaited<ReturnType<typeof createSignedInUser>>;
let key: string;
const RATE_DAY = "2022-07-18"; // the committed starter table's day (content/exchange-rates/)
const variant = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];

type Offer = { store: string; priceCents: number | null; currency: string | null; converted: { cents: number; currency: string; rateDate: string } | null; conversionNote: string | null };

beforeAll(async () => {
  m = await startMeasuredCatalogue({ start: "2026-11-01T00:00:00Z", ownerId: "cross-currency-test" });
  const fan = await drawPicture(randomDesign(301));
  const lamp = await drawPicture(randomDesign(302));
  const fanOn = (n: number, store: string, price: string) =>
    makeProduct(n, { title: "Bladeless neck fan portable", vendor: "Breezy", images: m.picture(`fan-${store}`, fan), variants: variant(price) });
  const lampOn = (n: number, store: string, price: string) =>
    makeProduct(n, { title: "Glow desk lamp dimmable", vendor: "Lumo", images: m.picture(`lamp-${store}`, lamp), variants: variant(price) });
  const { shops } = m.tracker;
  shops.addShop("euros.test", { currency: "EUR", products: [fanOn(1, "eur", "20.00"), lampOn(2, "eur", "20.00")] });
  shops.addShop("dollars.test", { currency: "USD", products: [fanOn(3, "usd", "21.50"), lampOn(4, "usd", "80.00")] });
  shops.addShop("bolivars.test", { currency: "VES", products: [fanOn(5, "ves", "500.00")] });
  // No currency published: /meta.json names none and /cart.js answers 404.
  shops.addShop("nocurrency.test", { currency: "", products: [fanOn(6, "none", "9.00")] });
  const user = await createSignedInUser({ userSubscribed: "yes" });
  await m.measure({ id: user.id, userSubscribed: "yes" }, ["euros.test", "dollars.test", "bolivars.test", "nocurrency.test"]);
  seller = await createSignedInUser({ userSubscribed: "yes" });
  const res = await call(keysAction, "/api/keys", { method: "POST", cookie: seller.cookie, json: { name: "currency" } });
  key = ((await res.json()) as { key: string }).key;
}, 90_000);

afterAll(async () => {
  await m.close();
});

async function productOf(title: string, storesSelling: number) {
  return db.product.findFirstOrThrow({
    where: { source: "measured", title, storesSelling },
    select: { objectID: true, priceCents: true, priceCurrency: true, priceUsdCents: true, priceRateDate: true, storesSelling: true },
  });
}

describe("a listing's currency", () => {
  it("is the one its store published when it was read, kept on the listing (null when none)", async () => {
    const rows = await db.competitorProduct.findMany({ select: { title: true, currency: true, store: { select: { domain: true } } }, orderBy: { id: "asc" } });
    const byStore = Object.fromEntries(rows.filter((r) => r.title.startsWith("Bladeless")).map((r) => [r.store.domain.split(":")[0], r.currency]));
    expect(byStore).toEqual({ "euros.test": "EUR", "dollars.test": "USD", "bolivars.test": "VES", "nocurrency.test": null });
  });
});

describe("matching across currencies", () => {
  it("makes 20 EUR and 21.50 USD one product, with the conversion and its date in the evidence", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    const members = await db.catalogueMember.findMany({ where: { product: { objectID: fan.objectID } }, select: { evidence: true, listing: { select: { store: { select: { domain: true } } } } } });
    expect(members).toHaveLength(4);
    const usd = members.find((x) => x.listing.store.domain.startsWith("dollars.test"))!;
    expect(usd.evidence).toContain(`20.00 EUR is $20.26 at the reference rate of ${RATE_DAY}`);
    const none = members.find((x) => x.listing.store.domain.startsWith("nocurrency.test"))!;
    expect(none.evidence).toContain("not compared, one store publishes no currency");
    const ves = members.find((x) => x.listing.store.domain.startsWith("bolivars.test"))!;
    expect(ves.evidence).toContain("not compared, no reference rate for VES");
  });

  it("keeps 20 EUR and 80 USD apart: prices too far apart once converted", async () => {
    const lamps = await db.product.findMany({ where: { source: "measured", title: "Glow desk lamp dimmable" }, select: { storesSelling: true, priceCents: true, priceCurrency: true } });
    expect(lamps.map((l) => [l.storesSelling, l.priceCents, l.priceCurrency]).sort()).toEqual([
      [1, 2000, "EUR"],
      [1, 8000, null],
    ]);
  });
});

describe("the measured product's price across its stores", () => {
  it("is the median in its most common known currency, the others converted at the dated rate, and in dollars for the filter", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    // EUR and USD one listing each: the first read's currency (EUR). 21.50 USD = 21.22 EUR; median of 20.00 and
    // 21.22 = 20.61 EUR; in dollars 20.61 * 1.0131 = 20.88. VES (no rate) and the unknown currency are left out.
    expect(fan).toMatchObject({ priceCents: 2061, priceCurrency: "EUR", priceUsdCents: 2088, priceRateDate: RATE_DAY });
  });

  it("is found by the grid's dollar price filter through its converted price, and sorted by it", async () => {
    const grid = async (q: string) => {
      const res = await call(productsApi, `/api/products?source=measured&pageSize=48&${q}`, { cookie: seller.cookie });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: Array<{ title: string; priceCents: number; priceCurrency: string | null; priceUsdCents: number | null; priceRateDate: string | null }> }).items;
    };
    const found = await grid("minPrice=20.5&maxPrice=21");
    expect(found.map((c) => c.title)).toEqual(["Bladeless neck fan portable"]);
    expect(found[0]).toMatchObject({ priceCents: 2061, priceCurrency: "EUR", priceUsdCents: 2088, priceRateDate: RATE_DAY });
    expect((await grid("sort=price-asc")).map((c) => [c.title, c.priceUsdCents ?? c.priceCents])).toEqual([
      ["Glow desk lamp dimmable", 2026],
      ["Bladeless neck fan portable", 2088],
      ["Glow desk lamp dimmable", 8000],
    ]);
  });

  it("gives its price range and median in the product's currency, converted listings included", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    const res = await call(productApi, `/api/products/${fan.objectID}`, { cookie: seller.cookie, params: { objectID: fan.objectID } });
    const body = (await res.json()) as { signals: { priceMinCents: { value: number }; priceMaxCents: { value: number }; priceMedianCents: { value: number }; priceCurrency: string | null; priceRateDate: string | null } };
    expect(body.signals).toMatchObject({ priceMinCents: { value: 2000 }, priceMedianCents: { value: 2061 }, priceMaxCents: { value: 2122 }, priceCurrency: "EUR", priceRateDate: RATE_DAY });
  });
});

describe("every converted figure says its rate's date, beside the price as listed", () => {
  it("on the product API's offers, and a price that cannot be converted says why and stays listed", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    const res = await call(productApi, `/api/products/${fan.objectID}`, { cookie: seller.cookie, params: { objectID: fan.objectID } });
    expect(res.status).toBe(200);
    const offers = ((await res.json()) as { offers: Offer[] }).offers;
    const of = (store: string) => offers.find((o) => o.store.startsWith(store))!;
    expect(offers).toHaveLength(4);
    expect(of("euros.test")).toMatchObject({ priceCents: 2000, currency: "EUR", converted: { cents: 2026, currency: "USD", rateDate: RATE_DAY }, conversionNote: null });
    expect(of("dollars.test")).toMatchObject({ priceCents: 2150, currency: "USD", converted: null, conversionNote: null });
    expect(of("bolivars.test")).toMatchObject({ priceCents: 50000, currency: "VES", converted: null });
    expect(of("bolivars.test").conversionNote).toMatch(/no reference rate for VES.*not converted/i);
    expect(of("nocurrency.test")).toMatchObject({ priceCents: 900, currency: null, converted: null });
    expect(of("nocurrency.test").conversionNote).toMatch(/publishes no currency.*not converted/i);
    // Cheapest first in one unit: dollars at the rate; those that cannot be converted last.
    expect(offers.map((o) => o.store.split(":")[0])).toEqual(["euros.test", "dollars.test", "bolivars.test", "nocurrency.test"]);
  });

  it("uses the listing's own currency, not the store's later one", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    await db.competitorStore.updateMany({ where: { domain: { startsWith: "euros.test" } }, data: { currency: "GBP" } });
    try {
      const res = await call(productApi, `/api/products/${fan.objectID}`, { cookie: seller.cookie, params: { objectID: fan.objectID } });
      const offers = ((await res.json()) as { offers: Offer[] }).offers;
      expect(offers.find((o) => o.store.startsWith("euros.test"))).toMatchObject({ currency: "EUR" });
    } finally {
      await db.competitorStore.updateMany({ where: { domain: { startsWith: "euros.test" } }, data: { currency: "EUR" } });
    }
  });

  it("on /api/v1: offers with price as listed and converted with rateDate, the product's price in dollars with its day", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    const res = await call(v1Product, `/api/v1/products/${fan.objectID}`, { headers: { authorization: `Bearer ${key}` }, params: { objectID: fan.objectID } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      price: { cents: number; currency: string | null };
      priceConverted: { cents: number; currency: string; rateDate: string } | null;
      offers: Array<{ store: string; price: { cents: number | null; currency: string | null }; converted: { cents: number; currency: string; rateDate: string } | null; conversionNote: string | null }>;
    };
    expect(body.price).toEqual({ cents: 2061, currency: "EUR" });
    expect(body.priceConverted).toEqual({ cents: 2088, currency: "USD", rateDate: RATE_DAY });
    const eur = body.offers.find((o) => o.store.startsWith("euros.test"))!;
    expect(eur).toMatchObject({ price: { cents: 2000, currency: "EUR" }, converted: { cents: 2026, currency: "USD", rateDate: RATE_DAY }, conversionNote: null });
    const none = body.offers.find((o) => o.store.startsWith("nocurrency.test"))!;
    expect(none).toMatchObject({ price: { cents: 900, currency: null }, converted: null });
    // The MCP tool's structured content is this answer; its text says the same beside each amount.
    const text = productText(body as unknown as Parameters<typeof productText>[0]);
    expect(text).toContain(`20.61 EUR, 20.88 USD at the reference rate of ${RATE_DAY}`);
    expect(text).toContain(`20.00 EUR, 20.26 USD at the reference rate of ${RATE_DAY}`);
    expect(text).toMatch(/9\.00 \(currency unknown\), not converted: The store publishes no currency/);
  });

  it("since tracking: the price change in the product's currency, and in dollars at the dated rate", async () => {
    const fan = await productOf("Bladeless neck fan portable", 4);
    await trackProduct(db, seller.id, fan.objectID);
    // Tracked at 25.00 EUR: the price is 20.61 EUR now, a change of -4.39 EUR = -4.45 USD (-4.4475 rounded half-up away from zero).
    await db.trackedProduct.updateMany({ where: { userId: seller.id }, data: { priceCentsAtTrack: 2500 } });
    const res = await call(productApi, `/api/products/${fan.objectID}`, { cookie: seller.cookie, params: { objectID: fan.objectID } });
    const body = (await res.json()) as { sinceTracking: Record<string, unknown> };
    expect(body.sinceTracking).toMatchObject({ priceCents: -439, priceCurrency: "EUR", priceChangeConverted: { cents: -445, currency: "USD", rateDate: RATE_DAY } });
  });

  it("in the CSV export: price_usd converted and dated, beside the price and currency as listed", async () => {
    const res = await call(exportApi, "/api/products/export?format=csv&source=measured", { cookie: seller.cookie });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { columns: true }) as Array<Record<string, string>>;
    const fan = rows.find((r) => r.title === "Bladeless neck fan portable")!;
    expect(fan).toMatchObject({ price_usd: "20.88", price_usd_rate_date: RATE_DAY, price_as_listed: "20.61", price_currency_as_listed: "EUR" });
    const dollarLamp = rows.find((r) => r.title === "Glow desk lamp dimmable" && r.price_currency_as_listed === "USD")!;
    expect(dollarLamp).toMatchObject({ price_usd: "80", price_usd_rate_date: "", price_as_listed: "80" });
  });
});
