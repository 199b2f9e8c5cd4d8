// Research products the end-to-end tests add to whatever catalogue the server holds: a made-up word
// in their titles, so a test knows exactly what a search for that word returns. The first one has an
// Amazon price and thirty days of history (for its trend chart). Inserting is idempotent.
import { e2eDb, sqliteDate } from "./app";

export const WORD = "quokkarama";
const DAY_MS = 86_400_000;

export interface E2eProduct {
  objectID: string;
  title: string;
  niche: string;
  priceCents: number;
  costCents: number;
  orders: number;
  score: number;
  stage: string;
  /**
   * The margin after duty and fees the grid filters on (decision 065), as the import figures it: the guessed HTS code
   * from CN, the starter table's layers (on 2026-11-26), $3 shipping and Shopify Payments' fees. Written here because
   * these rows are inserted by hand, not through the import.
   */
  landedMarginBps: number;
}

export const PRODUCTS: E2eProduct[] = [
  { objectID: "e2e-quokkarama-1", title: `Quokkarama posture corrector`, niche: "fitness", priceCents: 2499, costCents: 610, orders: 1840, score: 88, stage: "rising", landedMarginBps: 4982 },
  { objectID: "e2e-quokkarama-2", title: `Quokkarama pet hair remover`, niche: "pets", priceCents: 1999, costCents: 420, orders: 960, score: 74, stage: "peak", landedMarginBps: 5163 },
  { objectID: "e2e-quokkarama-3", title: `Quokkarama sunset lamp`, niche: "home-decor", priceCents: 3999, costCents: 1150, orders: 410, score: 61, stage: "emerging", landedMarginBps: 4799 },
  { objectID: "e2e-quokkarama-4", title: `Quokkarama blender bottle`, niche: "kitchen", priceCents: 4599, costCents: 1800, orders: 120, score: 39, stage: "declining", landedMarginBps: 3577 },
];

/**
 * What a page says once about the duty of these (China-origin) products (decision 081): the starter table's layers that
 * applied to them and ended, none of them counted.
 */
export const NOT_COUNTED =
  "Not counted, because their validity ended: Section 122 temporary import surcharge 10% (ended 2026-07-24); IEEPA fentanyl surcharge (China) 10% (ended 2026-02-24); IEEPA reciprocal surcharge 10% (ended 2026-02-24).";

export async function insertProducts() {
  const db = e2eDb();
  const now = new Date();
  try {
    for (const [i, p] of PRODUCTS.entries()) {
      const marginBps = Math.round(((p.priceCents - p.costCents - 300) * 10_000) / p.priceCents);
      await db.execute({
        sql: `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","supplierName","supplierUrl",
                "costCents","priceCents","shippingCents","amazonPriceCents","orders","revenueCents","likes","comments","shares","views",
                "storesSelling","firstSeenAt","lastUpdatedAt","randomSortKey","winningScore","lifecycleStage","saturation","marginBps",
                "orders7d","ordersGrowth7d","trendingScore","reasons","insightsAt","landedMarginBps")
              VALUES (?,?,?,?,?,?,?,?,?,?,?,300,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
              ON CONFLICT("objectID") DO NOTHING`,
        args: [
          p.objectID,
          p.title,
          `${p.title}: a test product for the end-to-end run.`,
          JSON.stringify([p.niche]),
          p.niche,
          JSON.stringify(["e2e"]),
          JSON.stringify([`/product-images/${p.objectID}-1.svg`, `/product-images/${p.objectID}-2.svg`]),
          "Shenzhen Test Supply Co.",
          "https://supplier.example.com/item/1",
          p.costCents,
          p.priceCents,
          i === 0 ? 4999 : null,
          p.orders,
          p.orders * p.priceCents,
          p.orders * 9,
          p.orders,
          Math.floor(p.orders / 3),
          p.orders * 120,
          4 + i * 7,
          sqliteDate(new Date(now.getTime() - (20 + i * 10) * DAY_MS)),
          sqliteDate(now),
          1000 + i,
          p.score,
          p.stage,
          20 + i * 15,
          marginBps,
          Math.floor(p.orders / 4),
          i === 3 ? -35 : 60 - i * 20,
          100 - i * 40,
          JSON.stringify([`orders +${60 - i * 20}% in 7 days`, `margin ${Math.round(marginBps / 100)}%`, `sold by only ${4 + i * 7} stores`]),
          sqliteDate(now),
          p.landedMarginBps,
        ],
      });
    }
    // Thirty days of history for the first product, for its trend chart.
    const first = await db.execute({ sql: `SELECT "id" FROM "Product" WHERE "objectID" = ?`, args: [PRODUCTS[0].objectID] });
    const days = Array.from({ length: 30 }, (_, d) => d);
    const start = new Date(now.getTime() - 30 * DAY_MS).toISOString().slice(0, 10);
    const series = (f: (d: number) => number) => days.map((d) => Math.max(0, Math.round(f(d)))).join(",");
    await db.execute({
      sql: `INSERT INTO "ProductHistory" ("productId","startDay","days","orders","revenueCents","views","likes","comments","shares","storesSelling")
            VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT("productId") DO NOTHING`,
      args: [
        Number(first.rows[0][0]),
        start,
        30,
        series((d) => 20 + d * 3 + (d % 7) * 4),
        series((d) => (20 + d * 3) * 2499),
        series((d) => 8000 + d * 600 + (d % 5) * 900),
        series(() => 300),
        series(() => 40),
        series(() => 12),
        series((d) => 3 + Math.floor(d / 10)),
      ],
    });
    // The search's caches reload when the catalogue version changes.
    await db.execute(`UPDATE "CatalogState" SET "version" = "version" + 1 WHERE "id" = 1`);
  } finally {
    db.close();
  }
}
