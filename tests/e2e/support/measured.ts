// Measured products (source "measured", docs/decisions/046 and 048) the end-to-end tests add to the server's
// database as the catalogue writes them: three stores, their listings, the catalogue's members with their
// evidence, the products and their daily signals. Inserting is idempotent.
import { e2eDb, sqliteDate } from "./app";

const DAY_MS = 86_400_000;
export const MEASURED_FAN = { objectID: "measured-e2e-fan", title: "Zebrawick bladeless neck fan" };
export const MEASURED_MUG = { objectID: "measured-e2e-mug", title: "Zebrawick self-stirring mug" };
const STORES = ["alpha-e2e.test", "bravo-e2e.test", "charlie-e2e.test"];

export async function insertMeasuredProducts() {
  const db = e2eDb();
  const now = new Date();
  const day = (d: number) => new Date(now.getTime() - d * DAY_MS);
  const today = now.toISOString().slice(0, 10);
  try {
    for (const [i, domain] of STORES.entries()) {
      await db.execute({
        sql: `INSERT INTO "CompetitorStore" ("domain","fetchDomain","name","currency","status") VALUES (?,?,?,?,'ok') ON CONFLICT("domain") DO NOTHING`,
        args: [domain, domain, domain, i === 1 ? "EUR" : "USD"],
      });
    }
    const storeId = async (domain: string) => Number((await db.execute({ sql: `SELECT "id" FROM "CompetitorStore" WHERE "domain" = ?`, args: [domain] })).rows[0][0]);
    const listings: Array<{ store: string; handle: string; title: string; cents: number; available: boolean; seen: number }> = [
      { store: STORES[0], handle: "neck-fan", title: "2026 NEW Bladeless Neck Fan (White)", cents: 1999, available: true, seen: 20 },
      { store: STORES[1], handle: "portable-neck-fan", title: "Portable neck fan | bladeless", cents: 2495, available: true, seen: 5 },
      { store: STORES[2], handle: "neck-fan-bladeless", title: "Neck Fan Bladeless", cents: 2150, available: false, seen: 2 },
      { store: STORES[0], handle: "stirring-mug", title: "Self stirring mug", cents: 1800, available: true, seen: 12 },
    ];
    const ids: number[] = [];
    for (const [i, l] of listings.entries()) {
      const sid = await storeId(l.store);
      await db.execute({
        sql: `INSERT INTO "CompetitorProduct" ("storeId","productId","handle","title","productType","vendor","tags","images","variants","priceMinCents","priceMaxCents","available","firstSeenAt","lastSeenAt","currency")
              VALUES (?,?,?,?,'Gadgets','Acme','[]','[]','[]',?,?,?,?,?,(SELECT "currency" FROM "CompetitorStore" WHERE "id" = ?)) ON CONFLICT("storeId","productId") DO NOTHING`,
        args: [sid, `e2e-${i}`, l.handle, l.title, l.cents, l.cents, l.available ? 1 : 0, sqliteDate(day(l.seen)), sqliteDate(now), sid],
      });
      ids.push(Number((await db.execute({ sql: `SELECT "id" FROM "CompetitorProduct" WHERE "storeId" = ? AND "productId" = ?`, args: [sid, `e2e-${i}`] })).rows[0][0]));
    }
    const products = [
      { ...MEASURED_FAN, price: 2075, stores: 3, added7d: 2, added30d: 3, score: 58, stage: "rising", saturation: 24, seen: 20, thin: null, members: [0, 1, 2],
        reasons: ["added by 2 stores in 7 days: 1 -> 3", "first seen anywhere 2026-11-06 (20 days ago)"] },
      { ...MEASURED_MUG, price: 1800, stores: 1, added7d: 0, added30d: 1, score: 22, stage: "emerging", saturation: 15, seen: 12, thin: "sold by 1 store: too few to call a trend (we need 3)", members: [3],
        reasons: ["sold by 1 store: too few to call a trend (we need 3)", "sold by 1 store, none added in 7 days"] },
    ];
    for (const p of products) {
      await db.execute({
        sql: `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","costCents","priceCents","shippingCents",
                "orders","revenueCents","likes","comments","shares","views","storesSelling","firstSeenAt","lastUpdatedAt","randomSortKey","winningScore",
                "lifecycleStage","saturation","marginBps","orders7d","ordersGrowth7d","trendingScore","reasons","insightsAt","source","storesAdded7d","storesAdded30d","thinEvidence")
              VALUES (?,?,?,'["tech-gadgets"]','tech-gadgets','[]',?,NULL,?,0,0,0,0,0,0,0,?,?,?,7,?,?,?,NULL,0,NULL,0,?,?,'measured',?,?,?)
              ON CONFLICT("objectID") DO NOTHING`,
        args: [
          p.objectID, p.title, `Sold by ${p.stores} ${p.stores === 1 ? "store" : "stores"} we observe.`, JSON.stringify([`/product-images/${p.objectID}-1.svg`]),
          p.price, p.stores, sqliteDate(day(p.seen)), sqliteDate(now), p.score, p.stage, p.saturation, JSON.stringify(p.reasons), sqliteDate(now), p.added7d, p.added30d, p.thin,
        ],
      });
      const productId = Number((await db.execute({ sql: `SELECT "id" FROM "Product" WHERE "objectID" = ?`, args: [p.objectID] })).rows[0][0]);
      for (const [k, m] of p.members.entries()) {
        const evidence = k === 0 ? null : JSON.stringify({ withId: ids[p.members[0]], distance: 3 + k, sharedWords: ["neck", "fan", "bladeless"], prices: [1999, listings[m].cents], currency: "USD",
          reason: `similar picture: ${3 + k} of 64 bits differ; titles share neck, fan, bladeless; $19.99 and $${(listings[m].cents / 100).toFixed(2)}` });
        await db.execute({
          sql: `INSERT INTO "CatalogueMember" ("listingId","productId","via","evidence","matchedAt") VALUES (?,?,?,?,?) ON CONFLICT("listingId") DO NOTHING`,
          args: [ids[m], productId, k === 0 ? "anchor" : "picture", evidence, sqliteDate(now)],
        });
      }
      const days = 21;
      const start = day(days - 1).toISOString().slice(0, 10);
      const storesSelling = Array.from({ length: days }, (_, d) => (p.stores === 1 ? (d >= days - 12 ? 1 : 0) : d < 15 ? 1 : d < 19 ? 2 : 3));
      const added = storesSelling.map((v, d) => Math.max(0, v - (storesSelling[d - 1] ?? 0)));
      const series = {
        startDay: start, endDay: today, storesSelling, added, dropped: storesSelling.map(() => 0),
        priceMin: storesSelling.map((v) => (v ? 1999 : null)), priceMedian: storesSelling.map((v) => (v ? 2075 : null)), priceMax: storesSelling.map((v) => (v ? 2150 : null)),
        outOfStock: storesSelling.map((v) => (v === 3 ? 1 : 0)), restocked: storesSelling.map(() => 0), priceChanges: storesSelling.map(() => 0),
      };
      await db.execute({
        sql: `INSERT INTO "ProductSignals" ("productId","startDay","endDay","series","computedAt") VALUES (?,?,?,?,?) ON CONFLICT("productId") DO NOTHING`,
        args: [productId, start, today, JSON.stringify(series), sqliteDate(now)],
      });
    }
    await db.execute(`UPDATE "CatalogState" SET "version" = "version" + 1 WHERE "id" = 1`);
  } finally {
    db.close();
  }
}
