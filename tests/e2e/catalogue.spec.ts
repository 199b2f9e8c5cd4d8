// The measured catalogue through the browser, end to end on the real server (docs/decisions/046-048): a subscriber
// follows four stand-in Shopify stores (tests/helpers/fake-shopify-store.ts, reached through TRACKER_RESOLVE);
// three sell one neck fan under their own titles, prices and copies of the supplier photo (re-encoded, with a sale
// badge, resized), the fourth a look-alike from another supplier. The server's own jobs read the stores, fetch and
// fingerprint the pictures and match the listings. The grid then shows one product "Sold by 3 stores" whose page
// lists the three listings with the evidence of each match, and the look-alike apart, sold by 1 store. Then the
// same product inside Shopify admin. Screenshots at 1280 and 390 px go to test-results/screenshots/.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { giveSubscription, insertOfflineSession, open, submitSignup, uniqueEmail } from "./support/app";
import { E2E_FAKE_STORE_PORT } from "./support/constants";
import { createSiteUser, linkShopTo, openEmbedded, stubShopifyAdmin } from "./support/shopify-admin";
import { makeProduct, startFakeShopifyStore, type FakeShopifyStore } from "../helpers/fake-shopify-store";
import { drawPicture, lookAlikeDesign, randomDesign, variantPicture } from "../../scripts/lib/market-pictures";

let shops: FakeShopifyStore;
const tag = Date.now().toString(36);
const hosts = ["alpha", "bravo", "charlie", "delta"].map((h) => `${h}-${tag}.test`);
/** Reads, picture fetches and matching run in the server's job worker, one after the other. */
const PIPELINE_TIMEOUT = 90_000;

test.beforeAll(async () => {
  shops = await startFakeShopifyStore({ port: E2E_FAKE_STORE_PORT });
  const fan = randomDesign(4242);
  shops.pictures.set("fan-a.jpg", await variantPicture(fan, "reencode", 1));
  shops.pictures.set("fan-b.jpg", await variantPicture(fan, "badge", 2));
  shops.pictures.set("fan-c.jpg", await variantPicture(fan, "resize", 3));
  shops.pictures.set("fan-d.jpg", await drawPicture(lookAlikeDesign(fan, 13)));
  const picture = (host: string, name: string) => [{ src: `http://${host}:${E2E_FAKE_STORE_PORT}/pictures/${name}` }];
  const price = (p: string) => [{ id: 1, title: "Default", price: p, compare_at_price: null, available: true, sku: "" }];
  const listings = [
    { title: "2026 NEW Quokka Bladeless Neck Fan - USB Rechargeable (White)", picture: "fan-a.jpg", price: "19.99" },
    { title: "Quokka portable neck fan | bladeless, hands free 🔥", picture: "fan-b.jpg", price: "24.95" },
    { title: "Quokka Neck Fan Bladeless", picture: "fan-c.jpg", price: "21.50" },
    { title: "Quokka neck cooler fan with 3 speeds", picture: "fan-d.jpg", price: "22.00" },
  ];
  hosts.forEach((host, i) => {
    shops.addShop(host, {
      name: `Store ${i + 1}`,
      products: [makeProduct(100 + i, { title: listings[i].title, handle: `quokka-fan-${i}`, images: picture(host, listings[i].picture), variants: price(listings[i].price) })],
    });
  });
});

test.afterAll(async () => {
  // Only public pages and pictures were requested: no cart, no checkout.
  for (const r of shops.requests) expect(r.path).not.toMatch(/cart|checkout/);
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

test("following four stores makes one measured product sold by 3 stores, with its listings and evidence; the look-alike stays apart", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("catalogue");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/competitors");
  for (const host of hosts) {
    await page.getByLabel("The store's address").fill(`${host}:${E2E_FAKE_STORE_PORT}`);
    await page.getByRole("button", { name: "Follow this store" }).click();
    await expect(page.getByText(`You now follow ${host}:${E2E_FAKE_STORE_PORT}.`, { exact: false })).toBeVisible();
  }

  // The grid, measured products only, searched for the product's word: the page is asked again until the jobs are done.
  const grid = "/dashboard/products?source=measured&q=quokka";
  await expect(async () => {
    await open(page, grid);
    await expect(page.getByText("Sold by 3 stores").first()).toBeVisible({ timeout: 1_000 });
    // The look-alike is a product of its own, sold by one store (and one store is not a trend).
    await expect(page.getByText("Sold by 1 store").first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: PIPELINE_TIMEOUT, intervals: [2_000] });
  await photograph(page, "catalogue-grid");

  // The product sold by 3 stores: its three listings, each with a link to the store's page, and why they are one product.
  // Its title is its most typical listing's: the one sharing most words with the others, the shortest of those.
  await page.getByRole("main").getByRole("link", { name: "Quokka Neck Fan Bladeless" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/products\/measured-\d+/);
  await expect(page.getByRole("heading", { name: "Listings (3)" })).toBeVisible();
  for (const host of hosts.slice(0, 3)) {
    await expect(page.getByRole("link", { name: new RegExp(host) }).first()).toHaveAttribute("href", new RegExp(`^https?://${host}.*/products/quokka-fan-\\d`));
  }
  await expect(page.getByRole("link", { name: new RegExp(hosts[3]) })).toHaveCount(0);
  await expect(page.getByText("first listing of this product")).toBeVisible();
  await expect(page.getByText(/(same|similar|alike) picture.*titles share .*quokka.*neck.*fan/i).first()).toBeVisible();
  await expect(page.getByText(/\b\d+ orders\b/)).toHaveCount(0);
  await photograph(page, "catalogue-product");
});

test("inside Shopify admin the same measured product is listed and opens with its listings", async ({ page }) => {
  test.setTimeout(90_000);
  const shopDomain = uniqueShop("e2e-catalogue");
  const email = uniqueEmail("embedded-catalogue");
  await createSiteUser(email);
  await giveSubscription(email);
  await insertOfflineSession(shopDomain);
  await linkShopTo(shopDomain, email);
  const token = await signSessionToken({ shop: shopDomain, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shopDomain, token);
  const response = await openEmbedded(page, shopDomain, token, "/app/products?source=measured&q=quokka");
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Sold by 3 stores").first()).toBeVisible();
  await page.getByRole("link", { name: "Quokka Neck Fan Bladeless" }).first().click();
  await expect(page).toHaveURL(/\/app\/products\/measured-\d+/);
  await expect(page.getByRole("heading", { name: "Listings (3)" })).toBeVisible();
  await expect(page.getByText("first listing of this product")).toBeVisible();
  // (Store names carry this run's tag; a retried test may have a new one, so any alpha store will do.)
  await expect(page.getByRole("link", { name: /^alpha-\w+\.test/ }).first()).toBeVisible();
});
