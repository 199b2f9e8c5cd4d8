// Product research through the browser: search, apply a filter (and go back), open a product, save
// it, and find it in Saved. The server's catalogue may be the generated one seeded by `npm start`; the
// test adds a few products of its own with a made-up word in their titles, so it knows exactly what
// a search for that word returns whatever else the catalogue holds.
import { expect, test } from "./support/test";
import { giveSubscription, open, reload, signUpPaid, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";

test.beforeAll(async () => {
  await insertProducts();
});

test("search, filter, open a product, save it and find it in Saved", async ({ page }, testInfo) => {
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
  // Margin after duty and fees (decision 052), flagged while the newest surcharge has lapsed: the posture corrector's
  // $24.99 - $6.10 - $3.00 shipping - $1.35 duty - $1.02 fees = $13.52 = 54.1%.
  await expect(page.getByText("Margin after duty and fees 54.1%", { exact: true })).toBeVisible();
  // The lapsed layer is said once above the cards, not in every card's line.
  await expect(page.getByText("A duty layer has expired", { exact: true })).toHaveCount(1);
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
  // Landed cost (decision 052): fitness -> HTS 9506.91.00 from CN (default origin). Duty on $6.10: MFN 4.6% 28c +
  // Section 301 (List 4A) 7.5% 46c (45.75 half up) + the lapsed Section 122 10% 61c = $1.35. Reserves on $24.99: refunds 19.3%
  // 482c + chargebacks 0.5% of $39.99 20c = $5.02. $24.99 - $6.10 - $3.00 - $1.02 fees - $1.35 - $5.02 - $12.50 ads:
  await expect(page.getByText("-$4.00")).toBeVisible();
  await expect(page.getByText("A duty layer has expired")).toBeVisible();
  await expect(page.getByText(/Section 122 temporary import surcharge \(10%\) was valid until 2026-07-24/)).toBeVisible();
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
