// A duty layer whose validity has ended is never counted, and is named once per page (issue 35 item 14, decision 081,
// replacing decision 052's "counted and flagged") on every surface that shows a landed cost, in Chromium at 1280 px:
// the grid's cards, the product page's calculator, and the exported files of the grid and of Saved, on the site and
// inside Shopify admin (where the file comes through the page's signed link). The starter table (2026 HTS Revision 20)
// has Section 122's 10% ending on 2026-07-24 and the U.S. note 52 layer (China 12.5%) in force from that day, so every
// China-origin figure counts the note 52 layer and not Section 122. At 390 px the export buttons stay on screen.
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, test } from "./support/test";
import { giveSubscription, open, signUpPaid } from "./support/app";
import { insertProducts, NOT_COUNTED, PRODUCTS, WORD } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

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

/** One notice on the page: the day, the table, and the ended layers, not counted; nothing says a layer is still counted. */
async function expectOneNotice(page: Page) {
  const notice = page.getByTestId("duty-notice");
  await expect(notice).toHaveCount(1);
  await expect(notice).toHaveText(new RegExp(`^Duty as of \\d{4}-\\d{2}-\\d{2}, from 2026 HTS Revision 20 \\(exported 2026-09-29\\)\\. ${NOT_COUNTED.replace(/[.()]/g, "\\$&")}$`));
  await expect(page.getByText(/expired|still counted/)).toHaveCount(0);
}

async function downloadCsv(page: Page, name: RegExp | string): Promise<Record<string, string>[]> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).first().click()]);
  const path = await download.path();
  expect(path).toBeTruthy();
  return csvRows(download, path!);
}

test("the site names the ended layer once, and counts it nowhere: the grid, the calculator and the grid's and Saved's files", async ({ page }) => {
  // Several pages, two downloads: longer than one page's 30 s on a busy machine.
  test.setTimeout(120_000);
  await signUpPaid(page, "lapsed");
  await open(page, `/dashboard/products?q=${WORD}`);
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  // $24.99 - $6.10 - $3.00 shipping - $1.50 duty - $1.02 fees = $13.37 = 53.5%.
  await expect(page.getByText("Margin after duty and fees 53.5%", { exact: true })).toBeVisible();
  // The ended layer is named once under the cards, not in every card's line.
  await expectOneNotice(page);
  await page.screenshot({ path: "test-results/screenshots/landed-grid-1280.png", fullPage: true });

  const rows = await downloadCsv(page, "Export every result of this search as CSV, with landed cost");
  expect(rows.map((r) => r.title).sort()).toEqual(PRODUCTS.map((p) => p.title).sort());
  const posture = rows.find((r) => r.objectID === PRODUCTS[0].objectID)!;
  // Fitness -> 9506.91.00 (the niche's code: files keep it) from CN: MFN 4.6% 28c + Section 301 (List 4A) 7.5% 46c
  // (45.75 half up) + the note 52 layer 12.5% 76c = $1.50; Section 122 not counted.
  expect(posture).toMatchObject({ hts_code: "9506.91.00", origin: "CN", duty_usd: "1.5", margin_after_duty_and_fees_pct: "53.5" });
  expect(posture.duty_layers).not.toContain("Section 122");
  for (const r of rows) expect(r.duty_not_counted).toBe(NOT_COUNTED);
  expect(rows[0]).not.toHaveProperty("duty_warning");

  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toBeVisible();
  await expectOneNotice(page);
  // The duty's sum (the title's guess, 9021.10.00, orthopedic appliances): MFN Free + List 3 25% + note 52 12.5%.
  const duty = page.getByTestId("landed-cost-duty");
  await expect(duty.locator("summary")).toHaveText(
    /^Duty \$2\.29: duty 37\.5% = MFN \(column 1\) 0% \+ Section 301 \(List 3\) 25% \+ Section 301 forced-labour duty \(U\.S\. note 52\) 12\.5% as of \d{4}-\d{2}-\d{2}$/,
  );
  await duty.locator("summary").click();
  await expect(duty.getByRole("listitem")).toHaveCount(3);
  await expect(duty.getByText(/Section 122/)).toHaveCount(0);
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();

  await open(page, "/dashboard/saved");
  await page.screenshot({ path: "test-results/screenshots/landed-saved-1280.png", fullPage: true });
  const saved = await downloadCsv(page, "Export your saved products as CSV, with landed cost");
  expect(saved.map((r) => r.objectID)).toEqual([PRODUCTS[0].objectID]);
  expect(saved[0].duty_not_counted).toBe(NOT_COUNTED);
});

test("inside Shopify admin the grid names the ended layer once, and its file comes through its signed link", async ({ page }) => {
  const { email } = await openLinkedShop(page, `/app/products?q=${WORD}`, "e2e-lapsed");
  await giveSubscription(email);
  await page.reload();
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  await expect(page.getByText("Margin after duty and fees 53.5%", { exact: true })).toBeVisible();
  // The ended layer is named once under the cards, not in every card's line.
  await expectOneNotice(page);
  const link = page.getByRole("link", { name: "Export every result of this search as CSV, with landed cost" });
  await expect(link).toHaveAttribute("href", /^\/api\/products\/export\?q=quokkarama&format=csv&u=[\w-]+&expires=\d+&sig=[\w-]+$/);
  await page.screenshot({ path: "test-results/screenshots/landed-embedded-grid-1280.png", fullPage: true });
  const rows = await downloadCsv(page, "Export every result of this search as CSV, with landed cost");
  expect(rows).toHaveLength(4);
  for (const r of rows) expect(r.duty_not_counted).toBe(NOT_COUNTED);
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
    // The notice under the cards keeps the page's margin (the cards run edge to edge on a phone).
    const notice = await page.getByTestId("duty-notice").locator("p").boundingBox();
    expect(notice!.x).toBeGreaterThanOrEqual(12);
    expect(notice!.x + notice!.width).toBeLessThanOrEqual(390 - 12);
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
