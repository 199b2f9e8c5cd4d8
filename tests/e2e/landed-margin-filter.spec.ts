// The grid's margin filter is the margin after duty and fees (decision 065), as a seller sees it at 1280 and 390 px:
// its label and the line saying what is included, and a minimum of 50% that keeps only the product whose margin after
// duty and fees reaches it (the pet hair remover, 51.6%), though all four have a gross margin above 54%.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { open, signUpPaid } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";

const HELP = "Price minus cost, shipping, US duty and Shopify Payments fees, over price. Products without a known cost are left out.";

test.beforeAll(async () => {
  await insertProducts();
});


async function filterAtFifty(page: Page, screenshot: string) {
  const filters = page.getByRole("button", { name: "Filters", exact: true });
  if ((await filters.count()) > 0 && (await filters.getAttribute("aria-expanded")) === "false") await filters.click();
  await expect(page.getByText("Margin after duty and fees", { exact: true })).toBeVisible();
  await expect(page.getByText(HELP)).toBeVisible();
  await page.getByLabel("Min margin after duty and fees").fill("50");
  await page.getByText(HELP).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/screenshots/${screenshot}-filter.png` });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/minMargin=50/);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[1].title })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[0].title })).toBeHidden();
  await page.screenshot({ path: `test-results/screenshots/${screenshot}-result.png`, fullPage: true });
}

test("at 1280 px the margin filter says it is after duty and fees and filters on that margin", async ({ page }) => {
  await signUpPaid(page, "landed-filter");
  await open(page, `/dashboard/products?q=${WORD}`);
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await filterAtFifty(page, "landed-margin-1280");
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the folded filters show the same label and line, and the same result", async ({ page }) => {
    await signUpPaid(page, "landed-filter-phone");
    await open(page, `/dashboard/products?q=${WORD}`);
    await expect(page.getByText("4 products", { exact: true })).toBeVisible();
    await filterAtFifty(page, "landed-margin-390");
  });
});
