// Measured products as a seller sees them (docs/decisions/048), on a desktop and a phone: the grid lists them
// first with "Sold by 3 stores · +2 this week" and a "Measured" label, the source filter narrows to them, and a
// product's page shows its listings with links to the stores, stores over time and the evidence of each match,
// and no orders figure. Screenshots go to test-results/screenshots/.
import { expect, test } from "./support/test";
import { open, signUpPaid } from "./support/app";
import { insertMeasuredProducts, MEASURED_FAN, MEASURED_MUG } from "./support/measured";

test.beforeAll(async () => {
  await insertMeasuredProducts();
});


for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`measured products in the grid and on their page (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signUpPaid(page, `measured-${name}`);
    await open(page, "/dashboard/products");
    const main = page.getByRole("main");
    await expect(main.getByText("Sold by 3 stores · +2 this week")).toBeVisible();
    await expect(main.getByText(/^Measured [A-Z][a-z]{2} \d{1,2}, \d{4}$/).first()).toBeVisible();
    const sampleBadge = main.locator("span", { hasText: /^Sample data$/ });
    // .first(): the catalogue spec, run before this one, leaves a look-alike sold by one store too.
    await expect(main.getByText("Sold by 1 store: too few to call a trend (we need 3).").first()).toBeVisible();
    await main.getByText("Sold by 3 stores · +2 this week").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/measured-grid-${name}.png`, fullPage: name === "desktop" });
    // Since every listing counts (decision 091) the measured products fill the first page; the sample ones say so.
    await open(page, "/dashboard/products?source=sample");
    await expect(sampleBadge.filter({ visible: true }).first()).toBeVisible();

    await open(page, "/dashboard/products?source=measured&sort=storesAdded7d");
    await expect(main.getByRole("heading", { name: MEASURED_FAN.title })).toBeVisible();
    await expect(main.getByRole("heading", { name: MEASURED_MUG.title })).toBeVisible();
    await expect(sampleBadge).toHaveCount(0);

    await open(page, `/dashboard/products/${MEASURED_FAN.objectID}`);
    await expect(main.getByRole("heading", { name: "Listings (3)" })).toBeVisible();
    await expect(main.getByRole("link", { name: "alpha-e2e.test" }).first()).toHaveAttribute("href", "https://alpha-e2e.test/products/neck-fan");
    await expect(main.getByText("€24.95")).toBeVisible();
    await expect(main.getByRole("cell", { name: "Out of stock", exact: true })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Stores over time" })).toBeVisible();
    await expect(main.getByText("first listing of this product", { exact: false })).toBeVisible();
    await expect(main.getByText(/similar picture: 4 of 64 bits differ/)).toBeVisible();
    await expect(main.getByRole("cell", { name: "Not measured", exact: true })).toBeVisible();
    await expect(main.getByText(/Orders \(30 days\)/)).toHaveCount(0);
    await page.screenshot({ path: `test-results/screenshots/measured-product-${name}.png`, fullPage: name === "desktop" });
    await main.getByRole("heading", { name: "Listings (3)" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/measured-product-listings-${name}.png` });
  });
}
