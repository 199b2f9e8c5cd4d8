// Product research through the browser: search, apply a filter (and go back), open a product, save
// it, and find it in Saved. The server's catalogue may be the generated one seeded by `npm start`; the
// test adds a few products of its own with a made-up word in their titles, so it knows exactly what
// a search for that word returns whatever else the catalogue holds.
import { expect, test } from "./support/test";
import { giveSubscription, open, reload, signUpPaid, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, NOT_COUNTED, PRODUCTS, WORD } from "./support/products";

test.beforeAll(async () => {
  await insertProducts();
});

test("search, filter, open a product, save it and find it in Saved", async ({ page }, testInfo) => {
  // A dozen pages and a reload: longer than one page's 30 s on a busy machine.
  test.setTimeout(120_000);
  const email = uniqueEmail("research");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/products");
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Products", exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/products-browse.png", fullPage: true });

  // Search.
  await page.getByLabel("Search products").fill(WORD);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${WORD}`));
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  for (const p of PRODUCTS) await expect(page.getByRole("link", { name: p.title })).toBeVisible();
  // Margin after duty and fees (decisions 052, 081): the posture corrector (fitness -> 9506.91.00 from CN: MFN 4.6% 28c +
  // Section 301 (List 4A) 7.5% 46c + the note 52 layer 12.5% 76c = $1.50; Section 122 ended, not counted):
  // $24.99 - $6.10 - $3.00 shipping - $1.50 duty - $1.02 fees = $13.37 = 53.5%.
  await expect(page.getByText("Margin after duty and fees 53.5%", { exact: true })).toBeVisible();
  // The layers that ended are named once under the cards, counted in no card.
  await expect(page.getByTestId("duty-notice")).toHaveCount(1);
  await expect(page.getByTestId("duty-notice")).toContainText(NOT_COUNTED);
  // The pictures are square, as drawn: a narrow card once showed a tall strip of each, its caption cut off.
  const picture = await page.locator(`img[alt="${PRODUCTS[0].title}"]`).first().boundingBox();
  expect(picture).not.toBeNull();
  expect(Math.abs(picture!.width - picture!.height)).toBeLessThanOrEqual(1);
  await page.screenshot({ path: testInfo.outputPath("products.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/products.png", fullPage: true });

  // Apply a filter: at most $30.
  await page.getByLabel("Max price").fill("30");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/maxPrice=30/);
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[2].title })).toHaveCount(0);
  await expect(page.getByLabel("Max price")).toHaveValue("30");

  // The back button returns to the unfiltered search, and forward to the filtered one.
  await page.goBack();
  await expect(page.getByText("4 products", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Max price")).toHaveValue("");
  await page.goForward();
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();

  // Sort by orders: the posture corrector (1,840 orders) comes first.
  await page.getByLabel("Sort by").selectOption("orders");
  await expect(page).toHaveURL(/sort=orders/);
  await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText(PRODUCTS[0].title);

  // Open a product.
  await page.getByRole("link", { name: PRODUCTS[0].title }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/products/${PRODUCTS[0].objectID}$`));
  await expect(page.getByRole("heading", { name: PRODUCTS[0].title, level: 1 })).toBeVisible();
  await expect(page.getByText("orders +60% in 7 days")).toBeVisible();
  await expect(page.getByText("Estimate").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Orders per day" })).toBeVisible();
  await expect(page.getByText("Qualifies")).toBeVisible(); // Amazon price $49.99 >= $19
  await expect(page.getByRole("heading", { name: "Profit calculator" })).toBeVisible();
  await page.getByLabel("Ad cost per purchase").fill("12.50");
  await expect(page.getByText("ROAS at your ad cost")).toBeVisible();
  // Landed cost (decisions 052, 081): the title's guess, HTS 9021.10.00 (orthopedic appliances), from CN (default
  // origin). Duty on $6.10: MFN Free + Section 301 (List 3) 25% 153c (152.5 half up) + the note 52 layer 12.5% 76c =
  // $2.29 (Section 122 ended 2026-07-24: named once, not counted). Reserves on $24.99: refunds 19.3% 482c + chargebacks
  // 0.5% of $39.99 20c = $5.02. $24.99 - $6.10 - $3.00 - $1.02 fees - $2.29 - $5.02 - $12.50 ads:
  await expect(page.getByText("-$4.94")).toBeVisible();
  await expect(page.getByTestId("duty-notice")).toHaveCount(1);
  await expect(page.getByTestId("duty-notice")).toContainText(NOT_COUNTED);
  await expect(page.getByText(/expired|still counted/)).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath("product.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/product.png", fullPage: true });

  // Save it; the state survives a reload.
  await page.getByRole("button", { name: "Save product" }).click();
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();
  await reload(page);
  await expect(page.getByRole("button", { name: "Saved", exact: true })).toBeVisible();

  // Find it in Saved.
  await page.getByRole("link", { name: "Saved", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/saved$/);
  await expect(page.getByRole("heading", { name: "Saved products (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: PRODUCTS[0].title })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/saved.png", fullPage: true });
});

test("a misspelt search shows the corrected one, and can search the text as typed", async ({ page }) => {
  const email = uniqueEmail("spelling");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  // The demo catalogue (scripts/lib/product-vocabulary.ts) sells Bluetooth speakers.
  await open(page, "/dashboard/products");
  await page.getByLabel("Search products").fill("bluetoth speker");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("Showing results for bluetooth speaker")).toBeVisible();
  // Results are ranked by score, not by how literally the title matches: a Bluetooth speaker is among them.
  await expect(page.getByRole("heading", { level: 3 }).filter({ hasText: /bluetooth speaker/i }).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/products-spelling.png", fullPage: true });

  await page.getByRole("link", { name: "bluetoth speker" }).click();
  await expect(page).toHaveURL(/[?&]literal=1/);
  await expect(page.getByRole("heading", { name: "No products match" })).toBeVisible();
  await expect(page.getByText("Showing results for")).toHaveCount(0);

  // A new text may be corrected again.
  await page.getByLabel("Search products").fill("bluetoth");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).not.toHaveURL(/literal=/);
  await expect(page.getByText("Showing results for bluetooth")).toBeVisible();
});

test("the rarely used filters are folded under More filters, and open by themselves when one is set", async ({ page }) => {
  await signUpPaid(page, "more-filters");

  await open(page, `/dashboard/products?q=${WORD}`);
  const more = page.getByRole("button", { name: "More filters", exact: true });
  await expect(more).toHaveAttribute("aria-expanded", "false");
  // Folded fields are not on the page at all (the server does not render them), the common ones are.
  await expect(page.getByLabel("Max price")).toBeVisible();
  await expect(page.getByLabel("Min engagement (30 days)")).toHaveCount(0);
  await expect(page.getByLabel("First seen")).toHaveCount(0);

  // Opened, they are there; a value typed in one is applied with the others.
  await more.click();
  await expect(page.getByRole("button", { name: "Fewer filters", exact: true })).toHaveAttribute("aria-expanded", "true");
  await page.getByLabel("Min engagement (30 days)").fill("1");
  await page.getByLabel("Max price").fill("30");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/minEngagement=1/);
  await expect(page).toHaveURL(/maxPrice=30/);

  // A page whose URL sets one of them opens with the fold open, saying how many are set.
  await open(page, `/dashboard/products?q=${WORD}&minEngagement=1`);
  await expect(page.getByRole("button", { name: "Fewer filters (1 set)" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByLabel("Min engagement (30 days)")).toHaveValue("1");
  await page.screenshot({ path: "test-results/screenshots/products-more-filters.png", fullPage: true });
  // Folding it again keeps the value: "Apply filters" still sends it.
  await page.getByRole("button", { name: "Fewer filters (1 set)" }).click();
  await expect(page.getByLabel("Min engagement (30 days)")).toHaveCount(0);
  await page.getByLabel("Max price").fill("30");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/maxPrice=30/);
  await expect(page).toHaveURL(/minEngagement=1/);

  // A refused value in a folded field opens the fold on it, with the server's sentence.
  await open(page, `/dashboard/products?q=${WORD}&minViews=lots`);
  await expect(page.getByLabel("Min views (30 days)")).toBeVisible();
  await expect(page.getByLabel("Min views (30 days)")).toHaveAttribute("aria-invalid", "true");
});
