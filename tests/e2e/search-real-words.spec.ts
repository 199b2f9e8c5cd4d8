// Issue 35, item 12, in Chromium at 1280 and 390 px on the demo catalogue (scripts/lib/product-vocabulary.ts: hair
// dryers, gold jewellery, projectors; no air fryer): the search box does not "correct" real words into other
// products, a sentence typed in it is read by the plain-words parser (its filters open in the grid, as from the
// question box), and the order label says the order shown.
import { expect, test } from "./support/test";
import { open, signUpPaid } from "./support/app";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("real words and sentences typed in the search box are not corrected into other products", async ({ page }, testInfo) => {
      await signUpPaid(page, `real-words-${size.name}`);
      await open(page, "/dashboard/products");
      const box = page.getByLabel("Search products");
      const searchButton = page.getByRole("button", { name: "Search", exact: true });

      // "air fryer": words of English, searched as typed; no "Showing results for hair dryer", no hair dryer.
      await box.fill("air fryer");
      await searchButton.click();
      await expect(page).toHaveURL(/[?&]q=air\+fryer/);
      await expect(page.getByText("Showing results for")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 3 }).filter({ hasText: /hair dryer/i })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`air-fryer-${size.width}.png`), fullPage: true });

      // A sentence: the parser's filters, as the question box would set them; nothing is searched as "pet projects".
      await page.getByLabel("Search products").fill("cheap pet products under $20 with good margin");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/[?&]niche=pets/);
      const url = new URL(page.url());
      expect(Object.fromEntries(url.searchParams)).toEqual({ niche: "pets", maxPrice: "20", minMargin: "50" });
      await expect(page.getByText("Filters for “cheap pet products under $20 with good margin”")).toBeVisible();
      await expect(page.getByLabel("Ask in plain words")).toHaveValue("cheap pet products under $20 with good margin");
      await expect(page.getByText("Showing results for")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 3 }).filter({ hasText: /gold|ring|projector/i })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`sentence-${size.width}.png`), fullPage: true });

      // "christmas gifts": few products carry both words, so those carrying most of them follow; the label says so.
      await page.getByLabel("Search products").fill("christmas gifts");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/[?&]q=christmas\+gifts/);
      await expect(page.getByText("products matching most of the words follow them")).toBeVisible();
      await expect(page.getByText("Sorted by words matched, then winning score", { exact: true })).toBeVisible();
      await expect(page.getByText(/closest first/)).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`christmas-gifts-${size.width}.png`), fullPage: true });
    });
  });
}
