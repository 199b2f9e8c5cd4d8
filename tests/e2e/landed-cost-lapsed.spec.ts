// A duty layer whose validity has ended is flagged on every surface that shows a landed cost (issue 24, decisions
// 052 and 057), in Chromium at 1280 px: the grid's cards, the product page's calculator, and the exported files of
// the grid and of Saved, on the site and inside Shopify admin (where the file comes through the page's signed link).
// The starter table's newest surcharge (Section 122, 10%) ended on 2026-07-24 and nothing newer is loaded, so every
// China-origin figure counts it and says so. At 390 px the export buttons stay on screen.
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, test } from "./support/test";
import { giveSubscription, open, signUpPaid } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

const LAPSED = /Section 122 temporary import surcharge \(10%\) was valid until 2026-07-24; no newer layer is loaded, so it is still counted/;

test.beforeAll(async () => {
  await insertProducts();
});


/** The downloaded CSV's rows, after checking its BOM. */
function csvRows(download: Download, path: string): Record<string, string>[] {
  const bytes = readFileSync(path);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(download.suggestedFilename()).toMatch(/^winning-products-.*-\d{4}-\d{2}-\d{2}-\d{4}utc\.csv$/);
  return parse(bytes.toString("utf8"), { bom: true, columns: true }) as Record<string, string>[];
}

async function downloadCsv(page: Page, name: RegExp | string): Promise<Record<string, string>[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).first().click()]);
  const path = await download.path();
  expect(path).toBeTruthy();
  return csvRows(download, path!);
}

test("the site flags the lapsed layer on the grid, the calculator and the grid's and Saved's files", async ({ page }) => {
  // Several pages, two downloads: longer than one page's 30 s on a busy machine.
  test.setTimeout(120_000);
  await signUpPaid(page, "lapsed");
  await open(page, `/dashboard/products?q=${WORD}`);
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await expect(page.getByText("Margin after duty and fees 54.1%", { exact: true })).toBeVisible();
  // The lapsed layer is said once above the cards, not in every card's line.
  await expect(page.getByText("A duty layer has expired", { exact: true })).toHaveCount(1);
  await page.screenshot({ path: "test-results/screenshots/landed-grid-1280.png", fullPage: true });

  const rows = await downloadCsv(page, "Export every result of this search as CSV, with landed cost");
  expect(rows.map((r) => r.title).sort()).toEqual(PRODUCTS.map((p) => p.title).sort());
  const posture = rows.find((r) => r.objectID === PRODUCTS[0].objectID)!;
  // Fitness -> 9506.91.00 from CN: MFN 4.6% 28c + Section 301 (List 4A) 7.5% 46c + the lapsed Section 122 10% 61c = $1.35.
  expect(posture).toMatchObject({ hts_code: "9506.91.00", origin: "CN", duty_usd: "1.35", margin_after_duty_and_fees_pct: "54.1" });
  expect(posture.duty_warning).toMatch(LAPSED);
  for (const r of rows) expect(r.duty_warning).toMatch(LAPSED);

  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toBeVisible();
  await expect(page.getByText("A duty layer has expired")).toBeVisible();
  await expect(page.getByText(LAPSED).first()).toBeVisible();
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();

  await open(page, "/dashboard/saved");
  await page.screenshot({ path: "test-results/screenshots/landed-saved-1280.png", fullPage: true });
  const saved = await downloadCsv(page, "Export your saved products as CSV, with landed cost");
  expect(saved.map((r) => r.objectID)).toEqual([PRODUCTS[0].objectID]);
  expect(saved[0].duty_warning).toMatch(LAPSED);
});

test("inside Shopify admin the grid's file comes through its signed link and flags the lapsed layer", async ({ page }) => {
  const { email } = await openLinkedShop(page, `/app/products?q=${WORD}`, "e2e-lapsed");
  await giveSubscription(email);
  await page.reload();
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  await expect(page.getByText("Margin after duty and fees 54.1%", { exact: true })).toBeVisible();
  // The lapsed layer is said once above the cards, not in every card's line.
  await expect(page.getByText("A duty layer has expired", { exact: true })).toHaveCount(1);
  const link = page.getByRole("link", { name: "Export every result of this search as CSV, with landed cost" });
  await expect(link).toHaveAttribute("href", /^\/api\/products\/export\?q=quokkarama&format=csv&u=[\w-]+&expires=\d+&sig=[\w-]+$/);
  await page.screenshot({ path: "test-results/screenshots/landed-embedded-grid-1280.png", fullPage: true });
  const rows = await downloadCsv(page, "Export every result of this search as CSV, with landed cost");
  expect(rows).toHaveLength(4);
  for (const r of rows) expect(r.duty_warning).toMatch(LAPSED);
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the export buttons are on screen on the grid and Saved", async ({ page }) => {
    test.setTimeout(90_000);
    await signUpPaid(page, "lapsed-phone");
    await open(page, `/dashboard/products?q=${WORD}`);
    const button = page.getByRole("link", { name: "Export every result of this search as CSV, with landed cost" });
    await expect(button).toBeVisible();
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: "test-results/screenshots/landed-grid-390.png", fullPage: true });
    await page.getByRole("link", { name: PRODUCTS[0].title }).click();
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();
    await open(page, "/dashboard/saved");
    const saved = page.getByRole("link", { name: "Export your saved products as CSV, with landed cost" });
    await expect(saved).toBeVisible();
    const savedBox = await saved.boundingBox();
    expect(savedBox!.x).toBeGreaterThanOrEqual(8);
    expect(savedBox!.x + savedBox!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: "test-results/screenshots/landed-saved-390.png", fullPage: true });
  });
});
