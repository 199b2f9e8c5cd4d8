// Product research inside Shopify admin (/app/products, /app/products/{objectID}, /app/saved): the same
// pages as the site's, for the account the shop is linked to. The app is opened as the admin opens it
// (embedded=1, shop, host and a session token signed for real); App Bridge's script is a stand-in that,
// like the real one, adds the session token to the app's own fetches, so client-side navigation and
// the pages' actions authenticate as they do in the admin. No site cookie is ever set.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { giveSubscription, grantProductPageCredits, insertOfflineSession, uniqueEmail } from "./support/app";
import { insertProducts, NOT_COUNTED, PRODUCTS, WORD } from "./support/products";
import { adminUrl, createSiteUser, linkShopTo, stubShopifyAdmin } from "./support/shopify-admin";

test.beforeAll(async () => {
  await insertProducts();
});

/** An installed shop linked to a new site account (paid or not), opened at `path` in the admin. */
async function openLinkedShop(page: Page, path: string, { paid }: { paid: boolean }) {
  const shop = uniqueShop("e2e-research");
  const email = uniqueEmail("embedded-research");
  await createSiteUser(email);
  if (paid) {
    await giveSubscription(email);
    await grantProductPageCredits(email, 1);
  }
  await insertOfflineSession(shop);
  await linkShopTo(shop, email);
  // Long enough for the whole test; the real App Bridge fetches a fresh one-minute token per request.
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);
  const response = await page.goto(adminUrl(shop, token, path));
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  return response?.status();
}

test("a linked merchant searches, filters, opens a product, saves it and finds it in Saved", async ({ page, context }) => {
  expect(await openLinkedShop(page, "/app/products", { paid: true })).toBe(200);
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();

  // Search: the state goes into the URL, and the results come from the server through App Bridge's fetch.
  await page.getByLabel("Search products").fill(WORD);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/products\\?q=${WORD}$`));
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  for (const p of PRODUCTS) await expect(page.getByRole("link", { name: p.title })).toHaveAttribute("href", `/app/products/${p.objectID}`);

  // Filter: at most $30.
  await page.getByLabel("Max price").fill("30");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/app\/products\?.*maxPrice=30/);
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[2].title })).toHaveCount(0);
  // Paid: the cards show their reasons, not the upgrade prompt.
  await expect(page.getByText("orders +60% in 7 days")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Unlock the evidence" })).toHaveCount(0);
  // Margin after duty and fees (decisions 052, 081; sums in products.spec.ts).
  await expect(page.getByText("Margin after duty and fees 53.5%", { exact: true })).toBeVisible();
  // The layers that ended (Section 122 among them) are named once under the cards, counted in no card.
  await expect(page.getByTestId("duty-notice")).toHaveCount(1);
  await expect(page.getByTestId("duty-notice")).toContainText(NOT_COUNTED);
  await expect(page.getByText(/expired|still counted/)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/embedded-products.png", fullPage: true });

  // Open a product: the same detail page as on the site, inside the admin.
  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page).toHaveURL(new RegExp(`/app/products/${PRODUCTS[0].objectID}$`));
  await expect(page.getByRole("heading", { name: PRODUCTS[0].title, level: 1 })).toBeVisible();
  await expect(page.getByText("orders +60% in 7 days")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Orders per day" })).toBeVisible();
  await expect(page.getByText("Qualifies")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toBeVisible();
  await expect(page.getByTestId("duty-notice")).toHaveCount(1);
  await expect(page.getByTestId("duty-notice")).toContainText(NOT_COUNTED);
  await expect(page.getByRole("heading", { name: "Sell this product" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create product page" })).toBeVisible();
  // The way back keeps the search.
  await expect(page.locator(".Polaris-Page").getByRole("link", { name: "Products" })).toHaveAttribute("href", `/app/products?q=${WORD}&maxPrice=30`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "test-results/screenshots/embedded-product.png", fullPage: true });

  // Save it (the page's action, authenticated by the session token).
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();

  // Create a product page for it (the JSON API, authenticated by the session token): the editor is
  // linked inside the admin (tests/e2e/embedded-product-pages.spec.ts follows the link).
  await page.getByRole("button", { name: "Create product page" }).click();
  await expect(page.getByRole("heading", { name: "Product page created" })).toBeVisible();
  const editor = page.getByRole("link", { name: "Edit and push it in the editor" });
  await expect(editor).toHaveAttribute("href", /^\/app\/product-pages\?page=\d+$/);
  await expect(editor).not.toHaveAttribute("target", "_blank");

  // Find it in Saved.
  await page.getByRole("link", { name: "Open saved products" }).click();
  await expect(page).toHaveURL(/\/app\/saved$/);
  await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[0].title })).toHaveAttribute("href", `/app/products/${PRODUCTS[0].objectID}`);
  await page.screenshot({ path: "test-results/screenshots/embedded-saved.png", fullPage: true });

  // Remove it again from Saved.
  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("heading", { name: "Saved products (0)" })).toBeVisible();

  // The merchant never needed, and never got, a site session.
  expect((await context.cookies()).map((c) => c.name)).not.toContain("__session");
});

test("an unpaid linked merchant sees the upgrade prompt in place of insights", async ({ page }) => {
  expect(await openLinkedShop(page, `/app/products?q=${WORD}`, { paid: false })).toBe(200);
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Unlock the evidence" })).toBeVisible();
  // Choosing a plan stays inside the admin.
  await expect(page.getByRole("link", { name: "Choose a plan" })).toHaveAttribute("href", "/app/billing");
  await expect(page.getByRole("link", { name: "Unlock insights" })).toHaveCount(4);
  await expect(page.getByText("orders +60% in 7 days")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/embedded-products-unpaid.png", fullPage: true });

  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page.getByRole("heading", { name: PRODUCTS[0].title, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Unlock the evidence" })).toBeVisible();
  // Everyone sees the figures; the reasons, trend and profit calculator stay locked.
  await expect(page.getByRole("heading", { name: "Why it scores 88" })).toBeVisible();
  await expect(page.getByText("orders +60% in 7 days")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Orders per day" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/embedded-product-unpaid.png", fullPage: true });

  // No credits: buying them stays inside the admin too.
  await page.getByRole("button", { name: "Create product page" }).click();
  await expect(page.getByRole("heading", { name: "Not enough credits" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Get more credits" })).toHaveAttribute("href", "/app/billing#buy-credits");
});

test("an unknown product is a not-found page inside the admin", async ({ page }) => {
  expect(await openLinkedShop(page, "/app/products/e2e-no-such-product", { paid: true })).toBe(404);
  await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Search products" })).toHaveAttribute("href", "/app/products");
});
