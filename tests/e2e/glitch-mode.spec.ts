// Glitch mode through the browser: a subscriber opens /dashboard/glitch-mode, reveals the top glitch
// for one credit, sees its numbers with how the spread was computed, and the balance drop by one; a
// second look costs nothing. Then the same page inside Shopify admin for a linked shop. The test adds
// one product whose spread is far above anything in the generated catalogue, so it ranks first.
import { expect, test } from "./support/test";
import { e2eDb, grantCredits, open, signUpPaid } from "./support/app";
import { insertProducts, PRODUCTS } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

// Its own words: a title or description with the research test's word would add a fifth match there.
const GLITCH = { objectID: "e2e-glitch-1", title: "Glitchbeam star projector" };

/** A copy of the first test product with a $2,499.99 Amazon price, $12.00 cost and $3.00 shipping. */
async function insertGlitchProduct() {
  await insertProducts();
  const db = e2eDb();
  try {
    // One connection, so the temporary copy is there for the insert; a NULL id takes the next one.
    await db.execute({ sql: `CREATE TEMP TABLE "glitchCopy" AS SELECT * FROM "Product" WHERE "objectID" = ?`, args: [PRODUCTS[0].objectID] });
    await db.execute({
      sql: `UPDATE "glitchCopy" SET "id" = NULL, "objectID" = ?, "title" = ?, "description" = ? || ': a test product for glitch mode.', "costCents" = 1200, "shippingCents" = 300, "amazonPriceCents" = 249999`,
      args: [GLITCH.objectID, GLITCH.title, GLITCH.title],
    });
    await db.execute(`INSERT INTO "Product" SELECT * FROM "glitchCopy" WHERE true ON CONFLICT("objectID") DO NOTHING`);
  } finally {
    db.close();
  }
}

test.beforeAll(async () => {
  await insertGlitchProduct();
});

test("a subscriber reveals the top glitch for one credit and sees its numbers", async ({ page }) => {
  const email = await signUpPaid(page, "glitch");
  await grantCredits(email, "glitch-mode", 3);

  await open(page, "/dashboard/glitch-mode");
  await expect(page.getByRole("heading", { name: "Glitch mode", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /products qualify$/ })).toBeVisible();
  await expect(page.getByText("Glitch-mode credits: 3 left")).toBeVisible();

  const list = page.getByRole("list", { name: "Qualifying products, ranked by spread" });
  const top = list.getByRole("listitem").first();
  await expect(top).toContainText("#1");
  await expect(top.getByRole("link", { name: GLITCH.title })).toHaveAttribute("href", `/dashboard/products/${GLITCH.objectID}`);
  await expect(top).toContainText("Amazon price $2,499.99");

  await top.getByRole("button", { name: "Reveal (1 credit)" }).click();
  await expect(page.getByText("Glitch-mode credits: 2 left")).toBeVisible();
  const explanation = "Amazon $2,499.99 − cost $12.00 − shipping $3.00 (estimate) = $2,484.99, 99% of Amazon price";
  await expect(top.getByText("Revealed", { exact: true })).toBeVisible();
  await expect(top.getByText(explanation)).toBeVisible();
  await expect(top.getByRole("button", { name: "Reveal (1 credit)" })).toHaveCount(0);

  // Kept in the user's glitches with the supplier, each number and when the numbers were updated.
  const mine = page.getByRole("list", { name: "Your revealed glitches" });
  await expect(mine.getByRole("link", { name: GLITCH.title })).toBeVisible();
  await expect(mine.getByRole("link", { name: "Supplier: Shenzhen Test Supply Co." })).toHaveAttribute("href", "https://supplier.example.com/item/1");
  await expect(mine.getByRole("cell", { name: "$2,484.99 (99%)" })).toBeVisible();
  await expect(mine.getByText("Shipping (estimate)")).toBeVisible();
  await expect(mine.getByText(/^Numbers last updated .+ · revealed .+$/)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/glitch-mode.png", fullPage: true });

  // After a reload it is still revealed and the balance did not move again.
  await open(page, "/dashboard/glitch-mode");
  await expect(page.getByText("Glitch-mode credits: 2 left")).toBeVisible();
  await expect(list.getByRole("listitem").first().getByText(explanation)).toBeVisible();

  // The product's page links to glitch mode, since it qualifies.
  await open(page, `/dashboard/products/${GLITCH.objectID}`);
  await expect(page.getByRole("link", { name: "Find its spread in Glitch mode" })).toHaveAttribute("href", "/dashboard/glitch-mode");
});

test("the embedded app shows glitch mode for a linked shop, with its links inside the admin", async ({ page }) => {
  const { response } = await openLinkedShop(page, "/app/glitch-mode", "e2e-glitch");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Glitch mode", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /products qualify$/ })).toBeVisible();
  const top = page.getByRole("list", { name: "Qualifying products, ranked by spread" }).getByRole("listitem").first();
  await expect(top.getByRole("link", { name: GLITCH.title })).toHaveAttribute("href", `/app/products/${GLITCH.objectID}`);
  // A new account has no paid plan: titles only, and the way to choose one stays in the admin.
  await expect(top.getByText("Paid plans")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose a plan" })).toHaveAttribute("href", "/app/billing");
});
