// Competitor tracking through the browser: a subscriber follows a rival store served by the fake Shopify of
// tests/helpers/fake-shopify-store.ts (on 127.0.0.1; the server may reach it through TRACKER_ALLOW_HOSTS and
// TRACKER_RESOLVE in playwright.config.ts). The server's own job worker reads it: the first read on adding,
// then "Check now" after the store launched a product and dropped the price of the product the user follows.
// The store page shows the launch and the measured changes, the bell both alerts. Then the same pages inside
// Shopify admin. Both pages are photographed at 1280 and 390 px (test-results/screenshots, not committed),
// and at 390 px nothing may overflow sideways.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { giveSubscription, insertOfflineSession, open, submitSignup, uniqueEmail } from "./support/app";
import { E2E_FAKE_STORE_PORT } from "./support/constants";
import { createSiteUser, linkShopTo, openEmbedded, stubShopifyAdmin } from "./support/shopify-admin";
import {
  makeCatalogue,
  makeProduct,
  startFakeShopifyStore,
  type FakeShopifyStore,
} from "../helpers/fake-shopify-store";

let shops: FakeShopifyStore;
const host = `rival-${Date.now().toString(36)}.test`;
const domain = `${host}:${E2E_FAKE_STORE_PORT}`;
/** A read is queued, then the worker (polling every second) runs it; the page asks again every 3 s. */
const READ_TIMEOUT = 30_000;

test.beforeAll(async () => {
  shops = await startFakeShopifyStore({ port: E2E_FAKE_STORE_PORT });
  shops.addShop(host, { name: "Rival Test Store", products: makeCatalogue(3) });
});

test.afterAll(async () => {
  // Only what any visitor may read was requested: no cart, no checkout.
  for (const r of shops.requests) expect(r.path).not.toMatch(/cart|checkout/);
  await shops.close();
});

async function noSidewaysOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, "page wider than the screen").toBeLessThanOrEqual(widths.client);
}

async function photograph(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysOverflow(page);
  await page.screenshot({ path: `test-results/screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a subscriber follows a store, sees its launches and changes, and gets the alerts in the bell", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("competitors");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);

  // Without a plan the page says what the feature is and where to get it, and offers no form.
  await open(page, "/dashboard/competitors");
  await expect(page.getByText(/Following rival stores is part of every plan/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose a plan" })).toHaveAttribute("href", "/choose-plan");
  await expect(page.getByLabel("The store's address")).toHaveCount(0);
  await photograph(page, "competitors-locked");

  await giveSubscription(email);

  await open(page, "/dashboard/competitors");
  await expect(page.getByRole("heading", { name: "Competitors", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "You follow no store yet" })).toBeVisible();
  await expect(
    page.getByText("We never add to its cart, probe its stock or place orders, and never log in.").first(),
  ).toBeVisible();

  // Something that is not a store's address is refused next to the field, and nothing is followed.
  const address = page.getByLabel("The store's address");
  await address.fill("not a store");
  await page.getByRole("button", { name: "Follow this store" }).click();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("list", { name: "Stores you follow" })).toHaveCount(0);

  await address.fill(`http://${domain}/products/product-1`);
  await page.getByRole("button", { name: "Follow this store" }).click();
  await expect(page.getByText(`You now follow ${domain}.`, { exact: false })).toBeVisible();
  const row = page.getByRole("list", { name: "Stores you follow" }).getByRole("listitem", { name: domain });
  // The first read runs in the server's worker; the page asks again until it is done.
  await expect(row.getByText("Up to date")).toBeVisible({ timeout: READ_TIMEOUT });
  await expect(row).toContainText("3 products · last checked just now · next check in 6 h");
  await expect(row).toContainText("Not enough evidence");

  // Rename, for this user only.
  await row.getByRole("button", { name: "Rename" }).click();
  await row.getByLabel("Name").fill("Main rival");
  await row.getByRole("button", { name: "Save name" }).click();
  const renamed = page.getByRole("list", { name: "Stores you follow" }).getByRole("listitem", { name: "Main rival" });
  await expect(renamed.getByText(domain, { exact: true })).toBeVisible();
  await photograph(page, "competitors-list");

  await renamed.getByRole("link", { name: "Main rival" }).click();
  await expect(page).toHaveURL(/\/dashboard\/competitors\/\d+$/);
  await expect(page.getByRole("heading", { name: "Main rival", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Estimate", exact: true })).toBeVisible();
  await expect(page.getByText("Not enough evidence", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "How we estimate" }).click();
  await expect(page.getByText(/Shopify stores publish whether a variant is in stock/)).toBeVisible();
  const products = page.getByRole("list", { name: "The store's products" });
  await expect(products.getByRole("listitem")).toHaveCount(3);

  // Follow the price of Product 1, and add Product 2 to our product database.
  const first = products.getByRole("listitem", { name: "Product 1" });
  await first.getByRole("button", { name: "Follow price" }).click();
  await expect(first.getByRole("button", { name: "Following price" })).toBeVisible();
  const second = products.getByRole("listitem", { name: "Product 2" });
  await second.getByRole("button", { name: "Add to product database" }).click();
  const opened = second.getByRole("link", { name: "Open in product database" });
  await expect(opened).toHaveAttribute("href", /^\/dashboard\/products\/competitor/);
  // After a reload it is still linked, not offered again; its first-seen day is the one its page gives.
  await page.reload();
  await expect(second.getByRole("link", { name: "Open in product database" })).toBeVisible();
  await expect(second.getByRole("button", { name: "Add to product database" })).toHaveCount(0);
  await expect(first.getByRole("button", { name: "Add to product database" })).toBeVisible();
  // The rival's pictures live on its CDN (unreachable here): each shows a placeholder, never its alt text spilling.
  await expect(first.getByRole("img", { name: "Product 1 (picture not available)" })).toBeVisible();
  await expect(products.locator("img")).toHaveCount(0);
  const firstSeen = (await second.getByText(/^First seen /).textContent())!.trim();

  // Its product page says what we do not know (docs/decisions/026): no cost, so no margin or profit; no sales
  // data, so no orders, growth, stage or score. Never the 100% margin a cost of 0 would give.
  const productPage = await page.context().newPage();
  await open(productPage, (await opened.getAttribute("href"))!);
  await expect(productPage.getByRole("heading", { name: "Product 2", level: 1 })).toBeVisible();
  await expect(productPage.getByText(firstSeen, { exact: false }).first()).toBeVisible();
  const days = [...(await productPage.locator("body").innerText()).matchAll(/First seen\s+([A-Z][a-z]{2} \d{1,2}, \d{4})/g)].map((m) => m[1]);
  expect(days.length).toBeGreaterThanOrEqual(2);
  expect(new Set(days)).toEqual(new Set([firstSeen.replace(/^First seen /, "")]));
  await expect(productPage.getByText("No sales data: imported from a tracked store on", { exact: false }).first()).toBeVisible();
  await expect(productPage.getByRole("cell", { name: "Add your cost" })).toBeVisible();
  await expect(productPage.getByRole("heading", { name: "Add your cost" })).toBeVisible();
  await expect(productPage.getByText("100%")).toHaveCount(0);
  await expect(productPage.getByText(/\b0 orders\b|Winning score \d|\/100\b/)).toHaveCount(0);
  // The seller types their cost; the calculator works from it and says it is their figure.
  await productPage.getByLabel("Your product cost").fill("4.00");
  await expect(productPage.getByText("From your cost of $4.00")).toBeVisible();
  await photograph(productPage, "competitor-product-unknown-cost");
  // Its card in the product grid says the same.
  await open(productPage, "/dashboard/products?q=Product+2&literal=1");
  await expect(productPage.getByText("No sales data: imported from a tracked store on", { exact: false }).first()).toBeVisible();
  await expect(productPage.getByText("Margin: Add your cost").first()).toBeVisible();
  await photograph(productPage, "competitor-product-unknown-cost-card");
  await productPage.close();

  // The rival launches a product and drops Product 1's price; "Check now" reads it again.
  const shop = shops.shops.get(host)!;
  shop.products.unshift(makeProduct(4, { title: "Launchpad moon lamp" }));
  shop.products.find((p) => p.title === "Product 1")!.variants[0].price = "5.99";
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page).toHaveURL(/\?check=\d+$/);
  const launches = page.getByRole("list", { name: "Launches" });
  await expect(launches).toContainText("Launchpad moon lamp", { timeout: READ_TIMEOUT });
  const changes = page.getByRole("list", { name: "Changes, newest first" });
  await expect(changes.getByRole("listitem").filter({ hasText: "Product 1" }).first()).toContainText("Measured");
  await expect(page.getByText("Read finished.")).toBeVisible();
  await expect(products.getByRole("listitem")).toHaveCount(4);

  // Both alerts are in the bell (the shell's loader ran again after the read).
  await open(page, page.url());
  // Photographed before the bell opens: resizing to phone width swaps the shell's top bar, which closes it.
  await photograph(page, "competitor-store");
  const bell = page.getByRole("button", { name: "Notifications, 2 unread" });
  await bell.click();
  const list = page.getByRole("dialog", { name: "Notifications" });
  await expect(list).toContainText("Main rival launched 1 new product");
  await expect(list).toContainText('Price drop: "Product 1" at Main rival');
  await page.screenshot({ path: "test-results/screenshots/competitor-notifications-1280.png" });
  await list.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  // A second "Check now" within 10 minutes is refused with its sentence.
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByText("Main rival was checked at your request a moment ago.", { exact: false })).toBeVisible();

  // After a reload the bell has nothing unread.
  await open(page, "/dashboard/competitors");
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
});

test("inside Shopify admin the same pages list the stores, with links that stay in the app", async ({ page }) => {
  test.setTimeout(90_000);
  const shopDomain = uniqueShop("e2e-competitors");
  const email = uniqueEmail("embedded-competitors");
  await createSiteUser(email);
  await giveSubscription(email);
  await insertOfflineSession(shopDomain);
  await linkShopTo(shopDomain, email);
  const token = await signSessionToken({ shop: shopDomain, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shopDomain, token);
  const response = await openEmbedded(page, shopDomain, token, "/app/competitors");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Competitors", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Notifications" })).toBeVisible();

  // The store another user follows is shared: already read, so it is up to date at once.
  await page.getByLabel("The store's address").fill(domain);
  await page.getByRole("button", { name: "Follow this store" }).click();
  const row = page.getByRole("list", { name: "Stores you follow" }).getByRole("listitem", { name: domain });
  await expect(row.getByText("Up to date")).toBeVisible({ timeout: READ_TIMEOUT });
  await expect(row.getByRole("link", { name: domain })).toHaveAttribute("href", /^\/app\/competitors\/\d+$/);
  await photograph(page, "embedded-competitors-list");

  await row.getByRole("link", { name: domain }).click();
  await expect(page.getByRole("heading", { name: domain, level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Launches" })).toContainText("Launchpad moon lamp");
  await photograph(page, "embedded-competitor-store");
});
