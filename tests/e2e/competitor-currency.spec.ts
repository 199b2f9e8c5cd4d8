// Prices of rival stores in the browser (issue 35 items 8 and 13, decision 084): a French store selling in euros
// and a store that publishes no currency, served by the fake Shopify of tests/helpers/fake-shopify-store.ts. The
// store page shows each price in the store's currency, or says the currency is unknown, never dollars; a product
// added from the euro store shows "€… EUR" on its product page, not "$…"; (that a store's product type adds
// no niche is tests/integration/api/api-v1-currency.test.ts). The store pages are photographed at 1280 and 390 px (test-results/screenshots).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { open, signUpPaid } from "./support/app";
import { E2E_FAKE_STORE_PORT } from "./support/constants";
import { photograph } from "./support/screens";
import { makeProduct, startFakeShopifyStore, type FakeShopifyStore } from "../helpers/fake-shopify-store";

let shops: FakeShopifyStore;
const stamp = Date.now().toString(36);
const euroHost = `baume-${stamp}.test`;
const rupeeHost = `diya-${stamp}.test`;
const READ_TIMEOUT = 30_000;

test.beforeAll(async () => {
  shops = await startFakeShopifyStore({ port: E2E_FAKE_STORE_PORT });
  shops.addShop(euroHost, {
    name: "Maison Baume",
    currency: "EUR",
    products: [
      makeProduct(1, { title: "Baume réparateur", product_type: "Baume", tags: ["nouveau"], variants: [{ id: 1, title: "Default Title", price: "20.00", compare_at_price: null, available: true, sku: "B1" }] }),
      makeProduct(2, { title: "Trousse en cuir", product_type: "Accessories", tags: [], variants: [{ id: 2, title: "Default Title", price: "35.00", compare_at_price: null, available: true, sku: "T1" }] }),
    ],
  });
  // A store whose /meta.json publishes no currency.
  shops.addShop(rupeeHost, {
    name: "Diya House",
    currency: null as unknown as string,
    products: [makeProduct(3, { title: "Brass diya", product_type: "Pooja", tags: [], variants: [{ id: 3, title: "Default Title", price: "900.00", compare_at_price: null, available: true, sku: "D1" }] })],
  });
});

test.afterAll(async () => {
  await shops.close();
});

async function followAndOpen(page: Page, host: string) {
  const domain = `${host}:${E2E_FAKE_STORE_PORT}`;
  await open(page, "/dashboard/competitors");
  await page.getByLabel("The store's address").fill(`http://${domain}`);
  await page.getByRole("button", { name: "Follow this store" }).click();
  const row = page.getByRole("list", { name: "Stores you follow" }).getByRole("listitem", { name: domain });
  await expect(row.getByText("Up to date")).toBeVisible({ timeout: READ_TIMEOUT });
  await row.getByRole("link", { name: domain }).click();
  await expect(page).toHaveURL(/\/dashboard\/competitors\/\d+$/);
  return page.getByRole("list", { name: "The store's products" });
}

test("rival prices show their currency or say it is unknown; an added euro product is not dollars", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpPaid(page, "currency");

  const euro = await followAndOpen(page, euroHost);
  await expect(page.getByText("Prices as the store lists them, in EUR.", { exact: false })).toBeVisible();
  const baume = euro.getByRole("listitem", { name: "Baume réparateur" });
  await expect(baume.getByText("€20.00 EUR", { exact: true })).toBeVisible();
  await photograph(page, "competitor-store-eur");

  await baume.getByRole("button", { name: "Add to product database" }).click();
  const opened = baume.getByRole("link", { name: "Open in product database" });
  await expect(opened).toHaveAttribute("href", /^\/dashboard\/products\/competitor/);
  const productPage = await page.context().newPage();
  await open(productPage, (await opened.getAttribute("href"))!);
  await expect(productPage.getByRole("heading", { name: "Baume réparateur", level: 1 })).toBeVisible();
  await expect(productPage.getByText("€20.00 EUR").first()).toBeVisible();
  expect(await productPage.locator("main").innerText()).not.toContain("$20.00");
  await productPage.close();

  const rupee = await followAndOpen(page, rupeeHost);
  await expect(page.getByText("The store publishes no currency", { exact: false })).toBeVisible();
  const diya = rupee.getByRole("listitem", { name: "Brass diya" });
  await expect(diya.getByText("900.00 (currency unknown)", { exact: true })).toBeVisible();
  expect(await diya.innerText()).not.toContain("$");
  await photograph(page, "competitor-store-unknown-currency");

});
