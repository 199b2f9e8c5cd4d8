// The research assistant through the browser: a subscriber asks a question in plain words on the site,
// sees the answer's products with why each fits, labelled as the built-in parser's, and the link to its
// filters; the link opens the product grid with those filters set; a follow-up "cheaper" lowers the
// price band. Then the grid's own question box fills the filters from a question. The test's products
// carry a made-up word, so the answers are known exactly.
import { expect, test } from "./support/test";
import { giveSubscription, open, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";

test.beforeAll(async () => {
  await insertProducts();
});

const [posture, petHair] = PRODUCTS; // $24.99, 1,840 orders; $19.99, 960 orders (both under $30)

test("ask the assistant, open its filters in the grid, then ask for cheaper", async ({ page }) => {
  const email = uniqueEmail("assistant");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/assistant");
  await expect(page.getByRole("heading", { name: "Research assistant", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Research assistant" })).toBeVisible();
  await page.getByLabel("Ask about products").fill(`${WORD} products under $30 sorted by most orders`);
  await page.getByRole("button", { name: "Ask", exact: true }).click();

  const conversation = page.getByRole("list", { name: "Conversation" });
  await expect(conversation.getByText("from the built-in parser")).toBeVisible();
  await expect(conversation.getByText(`I searched for words “${WORD}”, price $30.00 or less, sorted by most orders (30 days). 2 products match; here are the top 2.`)).toBeVisible();
  const products = conversation.getByRole("list", { name: "Products in this answer" });
  await expect(products.getByRole("listitem")).toHaveCount(2);
  // Sample products say so in the answer too (issue 25).
  await expect(products.getByText("Sample data")).toHaveCount(2);
  await expect(products.getByRole("link", { name: `1. ${posture.title}` })).toHaveAttribute("href", `/dashboard/products/${posture.objectID}`);
  await expect(products.getByText("$24.99 · 1,840 orders in 30 days · winning score 88/100")).toBeVisible();
  await expect(products.getByRole("link", { name: `2. ${petHair.title}` })).toBeVisible();
  // The first question names the thread.
  await expect(page.getByRole("list", { name: "Your threads" }).getByRole("link", { name: `${WORD} products under $30 sorted by most orders` })).toBeVisible();
  const filtersLink = conversation.getByRole("link", { name: "Open these filters in the product grid" });
  await expect(filtersLink).toHaveAttribute("href", `/dashboard/products?q=${WORD}&maxPrice=30&sort=orders`);
  await page.screenshot({ path: "test-results/screenshots/assistant-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/assistant-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The grid opens with those filters set, visible and editable.
  await filtersLink.click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/products\\?q=${WORD}&maxPrice=30&sort=orders$`));
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Search products")).toHaveValue(WORD);
  await expect(page.getByLabel("Sort by")).toHaveValue("orders");
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText(posture.title);
  const maxPrice = page.getByLabel("Max price");
  if (!(await maxPrice.isVisible())) await page.getByRole("button", { name: /^Filters/ }).click();
  await expect(maxPrice).toHaveValue("30");

  // A follow-up refines the last answer: a quarter off the price band.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Research assistant", level: 1 })).toBeVisible();
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  // Shift+Enter is a new line; Enter sends (issue 25).
  const box = page.getByLabel("Ask about products");
  await box.fill("cheaper");
  await box.press("Shift+Enter");
  await expect(box).toHaveValue("cheaper\n");
  await box.fill("cheaper");
  await box.press("Enter");
  const answers = conversation.getByRole("listitem").filter({ has: page.getByText("from the built-in parser") });
  await expect(answers).toHaveCount(2);
  const second = answers.nth(1);
  await expect(second.getByText("“Cheaper” moved the price band down by a quarter: $30.00 or less became $22.00 or less.")).toBeVisible();
  await expect(second.getByRole("link", { name: "Open these filters in the product grid" })).toHaveAttribute("href", `/dashboard/products?q=${WORD}&maxPrice=22&sort=orders`);
  await expect(second.getByRole("list", { name: "Products in this answer" }).getByRole("listitem")).toHaveCount(1);
  await expect(second.getByRole("link", { name: `1. ${petHair.title}` })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/assistant-follow-up.png", fullPage: true });
});

test("the grid's question box fills the filters from plain words", async ({ page }) => {
  const email = uniqueEmail("grid-question");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, "/dashboard/products");
  await page.getByLabel("Ask in plain words").fill(`${WORD} pet products under $25`);
  await page.getByRole("button", { name: "Fill the filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/products\\?q=${WORD}&niche=pets&maxPrice=25$`));
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: petHair.title })).toBeVisible();
  await expect(page.getByText(`Filters for “${WORD} pet products under $25”`)).toBeVisible();
  const maxPrice = page.getByLabel("Max price");
  if (!(await maxPrice.isVisible())) await page.getByRole("button", { name: /^Filters/ }).click();
  await expect(maxPrice).toHaveValue("25");
  await expect(page.getByRole("checkbox", { name: "Pets" })).toBeChecked();
  await page.screenshot({ path: "test-results/screenshots/grid-question-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/grid-question-390.png", fullPage: true });
});
