// Product research through the browser: search, apply a filter (and go back), open a product, save
// it, and find it in Saved. The server's catalogue may be the generated one seeded by `npm start`; the
// test adds a few products of its own with a made-up word in their titles, so it knows exactly what
// a search for that word returns whatever else the catalogue holds.
import { expect, test } from "./support/test";
import { e2eDb, giveSubscription, open, submitSignup, uniqueEmail } from "./support/app";

const WORD = "quokkarama";
const DAY_MS = 86_400_000;

interface E2eProduct {
  objectID: string;
  title: string;
  niche: string;
  priceCents: number;
  costCents: number;
  orders: number;
  score: number;
  stage: string;
}

const PRODUCTS: E2eProduct[] = [
  { objectID: "e2e-quokkarama-1", title: `Quokkarama posture corrector`, niche: "fitness", priceCents: 2499, costCents: 610, orders: 1840, score: 88, stage: "rising" },
  { objectID: "e2e-quokkarama-2", title: `Quokkarama pet hair remover`, niche: "pets", priceCents: 1999, costCents: 420, orders: 960, score: 74, stage: "peak" },
  { objectID: "e2e-quokkarama-3", title: `Quokkarama sunset lamp`, niche: "home-decor", priceCents: 3999, costCents: 1150, orders: 410, score: 61, stage: "emerging" },
  { objectID: "e2e-quokkarama-4", title: `Quokkarama blender bottle`, niche: "kitchen", priceCents: 4599, costCents: 1800, orders: 120, score: 39, stage: "declining" },
];

/** Prisma stores DateTime in SQLite as ISO 8601 text with an explicit offset. */
function sqliteDate(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

async function insertProducts() {
  const db = e2eDb();
  const now = new Date();
  try {
    for (const [i, p] of PRODUCTS.entries()) {
      const marginBps = Math.round(((p.priceCents - p.costCents - 300) * 10_000) / p.priceCents);
      await db.execute({
        sql: `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","supplierName","supplierUrl",
                "costCents","priceCents","shippingCents","amazonPriceCents","orders","revenueCents","likes","comments","shares","views",
                "storesSelling","firstSeenAt","lastUpdatedAt","randomSortKey","winningScore","lifecycleStage","saturation","marginBps",
                "orders7d","ordersGrowth7d","trendingScore","reasons","insightsAt")
              VALUES (?,?,?,?,?,?,?,?,?,?,?,300,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
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

test.beforeAll(async () => {
  await insertProducts();
});

test("search, filter, open a product, save it and find it in Saved", async ({ page }, testInfo) => {
  const email = uniqueEmail("research");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/products");
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Products", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/products-browse.png", fullPage: true });

  // Search.
  await page.getByLabel("Search products").fill(WORD);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${WORD}`));
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  for (const p of PRODUCTS) await expect(page.getByRole("link", { name: p.title })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("products.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/products.png", fullPage: true });

  // Apply a filter: at most $30.
  await page.getByLabel("Max price").fill("30");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/maxPrice=30/);
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[2].title })).toHaveCount(0);
  await expect(page.getByLabel("Max price")).toHaveValue("30");

  // The back button returns to the unfiltered search, and forward to the filtered one.
  await page.goBack();
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Max price")).toHaveValue("");
  await page.goForward();
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();

  // Sort by orders: the posture corrector (1,840 orders) comes first.
  await page.getByLabel("Sort by").selectOption("orders");
  await expect(page).toHaveURL(/sort=orders/);
  await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText(PRODUCTS[0].title);

  // Open a product.
  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/products/${PRODUCTS[0].objectID}$`));
  await expect(page.getByRole("heading", { name: PRODUCTS[0].title, level: 1 })).toBeVisible();
  await expect(page.getByText("orders +60% in 7 days")).toBeVisible();
  await expect(page.getByText("Estimate").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Orders per day" })).toBeVisible();
  await expect(page.getByText("Qualifies")).toBeVisible(); // Amazon price $49.99 >= $19
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toBeVisible();
  await page.getByLabel("Ad cost per purchase").fill("12.50");
  await expect(page.getByText("ROAS at your ad cost")).toBeVisible();
  await expect(page.getByText("$2.37")).toBeVisible(); // $24.99 - $6.10 - $3.00 - $1.02 fees - $12.50 ads
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath("product.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/product.png", fullPage: true });

  // Save it; the state survives a reload.
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();

  // Find it in Saved.
  await page.getByRole("link", { name: "Saved", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/saved$/);
  await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[0].title })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/saved.png", fullPage: true });
});
