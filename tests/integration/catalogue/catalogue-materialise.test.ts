// Materialising measured products reads their listings' price and stock history in a few queries per batch of
// products, never one per listing (issue 23, a known defect): a store of twelve products, each a measured product
// of its own with a price change and a sell-out, is materialised through a client that counts the queries it
// sends (a real Prisma client extension on the test database, nothing mocked), and the figures it writes are the
// measured ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, type Db } from "~/db.server";
import { createCatalogueMaterialise } from "~/services/catalogue/materialise.server";
import { drawPicture, randomDesign } from "../../../scripts/lib/market-pictures";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { startMeasuredCatalogue, type MeasuredCatalogue } from "../../helpers/measured-catalogue";
import { createUser } from "../../helpers/site-users";

let m: MeasuredCatalogue;
const PRODUCTS = 12;

beforeAll(async () => {
  m = await startMeasuredCatalogue({ start: "2026-11-01T00:00:00Z", ownerId: "catalogue-materialise-test" });
  const products = [];
  for (let n = 1; n <= PRODUCTS; n++) {
    products.push(
      makeProduct(n, {
        title: `Gadget number ${n}`,
        published_at: "2026-10-01T10:00:00Z",
        images: m.picture(`g${n}`, await drawPicture(randomDesign(3000 + n))),
        variants: [{ id: 100 + n, title: "Default", price: "20.00", compare_at_price: null, available: true, sku: "" }],
      }),
    );
  }
  const shop = m.tracker.shops.addShop("batch.test", { products });
  const user = await createUser({ userSubscribed: "yes" });
  expect(await m.measure({ id: user.id, userSubscribed: "yes" }, ["batch.test"])).toHaveLength(PRODUCTS);
  // A day later every product is cheaper and sold out: two measured changes per listing.
  m.tracker.time.ms += 86_400_000;
  for (const p of shop.products) p.variants = p.variants.map((v) => ({ ...v, price: "15.00", available: false }));
  m.tracker.time.ms += 4 * 3_600_000;
  await m.tracker.jobs.runDue();
}, 60_000);

afterAll(async () => {
  await m.close();
});

describe("materialising measured products", () => {
  it("reads every listing's history in one query for the batch, and writes the measured figures", async () => {
    expect(await db.competitorChange.count({ where: { kind: { in: ["price-change", "sold-out"] } } })).toBe(2 * PRODUCTS);
    const queries: string[] = [];
    const counted = db.$extends({
      query: {
        $allModels: {
          async $allOperations({ model, operation, args, query }) {
            queries.push(`${model}.${operation}`);
            return query(args);
          },
        },
      },
    }) as unknown as Db;
    const summary = await createCatalogueMaterialise({ db: counted, now: m.tracker.now }).run();
    expect(summary.products).toBe(PRODUCTS);
    expect(queries.filter((q) => q.startsWith("CompetitorChange."))).toEqual(["CompetitorChange.findMany"]);
    expect(queries.filter((q) => q.startsWith("CompetitorProduct."))).toEqual(["CompetitorProduct.findMany"]);
    expect(queries.filter((q) => q.startsWith("CompetitorCheck."))).toHaveLength(1);

    const written = await db.product.findMany({ where: { source: "measured" }, select: { priceCents: true, signals: { select: { series: true } } } });
    expect(written).toHaveLength(PRODUCTS);
    for (const p of written) {
      const series = JSON.parse(p.signals!.series) as { priceMin: Array<number | null>; outOfStock: number[]; priceChanges: number[] };
      expect(p.priceCents).toBe(1500);
      expect(series.priceMin.at(0)).toBe(2000);
      expect(series.priceMin.at(-1)).toBe(1500);
      expect(series.outOfStock.at(-1)).toBe(1);
      expect(series.priceChanges.at(-1)).toBe(1);
    }
  });
});
