// The polite crawler's states on the store page (decision 088), through the browser: a subscriber follows a rival
// store (the fake Shopify of tests/helpers/fake-shopify-store.ts), it is read once, then it puts up a wall for bots
// (403 on its catalogue): "Check now" leaves its products as they were, and the page says "Blocked", why and when
// it tries again. Then its robots.txt forbids the catalogue: "Not read: robots.txt" with the rule and when we look
// again. Both photographed at 1280 and 390 px (test-results/screenshots, not committed); nothing overflows sideways.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { e2eDb, open, signUpPaid } from "./support/app";
import { E2E_FAKE_STORE_PORT } from "./support/constants";
import { makeCatalogue, startFakeShopifyStore, type FakeShopifyStore } from "../helpers/fake-shopify-store";

let shops: FakeShopifyStore;
const host = `walled-${Date.now().toString(36)}.test`;
const domain = `${host}:${E2E_FAKE_STORE_PORT}`;
const READ_TIMEOUT = 30_000;

test.beforeAll(async () => {
  shops = await startFakeShopifyStore({ port: E2E_FAKE_STORE_PORT });
  shops.addShop(host, { name: "Walled Rival", products: makeCatalogue(3), robotsTxt: "User-agent: *\nDisallow: /cart\n" });
});
test.afterAll(async () => {
  await shops.close();
});

async function photograph(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, "page wider than the screen").toBeLessThanOrEqual(widths.client);
  await page.screenshot({ path: `test-results/screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a store behind a wall for bots, then behind its robots.txt, keeps its products and says why and when", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpPaid(page, "blocked");
  await open(page, "/dashboard/competitors");
  await page.getByLabel("The store's address").fill(domain);
  await page.getByRole("button", { name: "Follow this store" }).click();
  const row = page.getByRole("list", { name: "Stores you follow" }).getByRole("listitem", { name: domain });
  await expect(row.getByText("Up to date")).toBeVisible({ timeout: READ_TIMEOUT });
  await row.getByRole("link", { name: domain }).click();
  await expect(page).toHaveURL(/\/dashboard\/competitors\/\d+$/);
  const products = page.getByRole("list", { name: "The store's products" });
  await expect(products.getByRole("listitem")).toHaveCount(3);

  // The wall goes up: 403 on the catalogue.
  shops.shops.get(host)!.mode = "blocked";
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText("Blocked", { exact: true }).first()).toBeVisible({ timeout: READ_TIMEOUT });
  await expect(page.getByText(/refused it \(403 Forbidden\), the way a wall for bots does, so we could not read it\. Its products stay as they were at the last read, and none is counted as removed\. We will try again on /)).toBeVisible();
  await expect(products.getByRole("listitem")).toHaveCount(3);
  await photograph(page, "competitor-blocked");

  // The wall comes down, and robots.txt now forbids the catalogue (the kept copy dropped, as a day passing would).
  const shop = shops.shops.get(host)!;
  shop.mode = "open";
  shop.robotsTxt = "User-agent: *\nDisallow: /products.json\n";
  const db = e2eDb();
  try {
    await db.execute({ sql: `UPDATE "CompetitorStore" SET "robots" = NULL, "nextRequestAt" = NULL WHERE "domain" = ?`, args: [domain] });
    // "Check now" is once per store per 10 minutes: the earlier press is moved back instead of waiting.
    await db.execute({ sql: `UPDATE "CompetitorCheckRequest" SET "at" = '2000-01-01T00:00:00.000+00:00' WHERE "storeId" = (SELECT "id" FROM "CompetitorStore" WHERE "domain" = ?)`, args: [domain] });
  } finally {
    db.close();
  }
  await page.reload();
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText("Not read: robots.txt", { exact: true }).first()).toBeVisible({ timeout: READ_TIMEOUT });
  await expect(page.getByText(/robots\.txt asks crawlers like ours not to read \/products\.json \(its rule "Disallow: \/products\.json"\), so we do not read its catalogue\./)).toBeVisible();
  await expect(products.getByRole("listitem")).toHaveCount(3);
  await photograph(page, "competitor-robots");
  for (const r of shops.requests) expect(r.path).not.toMatch(/cart|checkout/);
});
