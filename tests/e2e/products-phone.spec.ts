// The product grid on a phone (390 x 844) and on a desktop: a full-width search field, the first
// products on the first screen, the filters folded behind a "Filters" button, and a Save button on
// every card that saves without leaving the page (site and Shopify admin), found in Saved after a reload.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { giveSubscription, insertOfflineSession, open, reload, signUpPaid, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";
import { adminUrl, createSiteUser, linkShopTo, stubShopifyAdmin } from "./support/shopify-admin";

const PHONE = { width: 390, height: 844 };

test.beforeAll(async () => {
  await insertProducts();
});


const saveButton = (page: Page, title: string) => page.getByRole("button", { name: `Save ${title}`, exact: true });
const savedButton = (page: Page, title: string) => page.getByRole("button", { name: `Saved ${title}. Select to remove it from Saved.`, exact: true });

test.describe("at phone width", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test("search is full width, products are on the first screen, filters unfold, a card saves", async ({ page }) => {
    await signUpPaid(page, "phone-grid");
    await open(page, "/dashboard/products");
    await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/products-phone.png" });

    const search = await page.getByLabel("Search products").boundingBox();
    expect(search!.width).toBeGreaterThanOrEqual(PHONE.width * 0.9);
    // The first card (its picture opens it) starts on the first screen, not under the filters.
    const firstCard = await page.getByRole("main").locator("img").first().boundingBox();
    expect(firstCard!.y).toBeLessThan(PHONE.height - 100);

    await page.getByLabel("Search products").fill(WORD);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("4 products", { exact: true })).toBeVisible();

    // The filters are folded behind the button, which opens them.
    const filters = page.getByRole("button", { name: "Filters", exact: true });
    await expect(filters).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByLabel("Max price")).toBeHidden();
    await expect(page.getByRole("button", { name: "Save this search" })).toBeHidden();
    await filters.click();
    await expect(filters).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByLabel("Max price")).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/products-phone-filters.png" });

    // Applying one folds them away and the button counts it.
    await page.getByLabel("Max price").fill("30");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/maxPrice=30/);
    await expect(page.getByText("2 products", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Filters (1)", exact: true })).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByLabel("Max price")).toBeHidden();

    // Save a card's product from the grid: no navigation, the card says Saved at once and after a reload.
    const url = page.url();
    await saveButton(page, PRODUCTS[1].title).click();
    await expect(savedButton(page, PRODUCTS[1].title)).toBeVisible();
    expect(page.url()).toBe(url);
    await page.screenshot({ path: "test-results/screenshots/products-phone-saved.png" });
    await reload(page);
    await expect(savedButton(page, PRODUCTS[1].title)).toBeVisible();
    await expect(saveButton(page, PRODUCTS[0].title)).toBeVisible();

    await open(page, "/dashboard/saved");
    await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
    await expect(page.getByRole("link", { name: PRODUCTS[1].title })).toBeVisible();
  });

  test("a product page's Save and Track buttons keep a margin from the screen's edges (issue 35)", async ({ page }) => {
    await signUpPaid(page, "phone-product");
    await open(page, `/dashboard/products/${PRODUCTS[0].objectID}`);
    const save = page.getByRole("button", { name: "Save product" });
    await expect(save).toBeVisible();
    for (const button of [save, page.getByRole("button", { name: "Track changes" })]) {
      const box = (await button.boundingBox())!;
      expect(box.x, "left margin").toBeGreaterThanOrEqual(12);
      expect(PHONE.width - (box.x + box.width), "right margin").toBeGreaterThanOrEqual(12);
    }
    await page.screenshot({ path: "test-results/screenshots/product-page-phone.png", fullPage: true });
  });
});

test("at desktop width the filters are open and a card saves and unsaves", async ({ page }) => {
  await signUpPaid(page, "desktop-grid");
  await open(page, `/dashboard/products?q=${WORD}`);
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Max price")).toBeVisible();
  await expect(page.getByRole("button", { name: "Filters", exact: true })).toBeHidden();

  await saveButton(page, PRODUCTS[2].title).click();
  await expect(savedButton(page, PRODUCTS[2].title)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/products-desktop-saved.png" });
  await reload(page);
  await expect(savedButton(page, PRODUCTS[2].title)).toBeVisible();
  await open(page, "/dashboard/saved");
  await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[2].title })).toBeVisible();

  // Unsave from the grid: gone from Saved.
  await open(page, `/dashboard/products?q=${WORD}`);
  await savedButton(page, PRODUCTS[2].title).click();
  await expect(saveButton(page, PRODUCTS[2].title)).toBeVisible();
  await reload(page);
  await expect(saveButton(page, PRODUCTS[2].title)).toBeVisible();
  await open(page, "/dashboard/saved");
  await expect(page.getByRole("heading", { name: "Saved products (0)" })).toBeVisible();
});

test("inside Shopify admin a card saves through the session token", async ({ page }) => {
  const shop = uniqueShop("e2e-grid-save");
  const email = uniqueEmail("embedded-grid-save");
  await createSiteUser(email);
  await giveSubscription(email);
  await insertOfflineSession(shop);
  await linkShopTo(shop, email);
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);
  await page.goto(adminUrl(shop, token, `/app/products?q=${WORD}`));
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));

  await saveButton(page, PRODUCTS[3].title).click();
  await expect(savedButton(page, PRODUCTS[3].title)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/embedded-products-saved.png" });
  await page.goto(adminUrl(shop, token, "/app/saved"));
  await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[3].title })).toBeVisible();
});
