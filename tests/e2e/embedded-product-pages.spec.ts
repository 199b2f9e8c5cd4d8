// Product pages inside Shopify admin (/app/product-pages): a linked merchant finds Product pages in the
// app's menu and home, creates a page from a product, follows the link to the editor without leaving
// the admin, finds the page in the list, edits it with the live preview following and saves it. The app
// is opened as the admin opens it (session token signed for real, App Bridge stood in for, adding the
// token to the app's own fetches); no site cookie is ever set.
import { expect, test } from "./support/test";
import { e2eDb, grantProductPageCredits } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

const PRODUCT = PRODUCTS[0];

test.beforeAll(async () => {
  await insertProducts();
});

async function storedPage(id: number) {
  const db = e2eDb();
  try {
    const result = await db.execute({
      sql: `SELECT "title", "priceCents", "status" FROM "ProductPage" WHERE "id" = ?`,
      args: [id],
    });
    const row = result.rows[0];
    return row ? { title: row[0], priceCents: Number(row[1]), status: row[2] } : null;
  } finally {
    db.close();
  }
}

test("a linked merchant creates a product page from a product, finds it in Product pages, edits and saves it", async ({
  page,
  context,
}) => {
  const { shop, email } = await openLinkedShop(page, "/app", "e2e-pages");
  await grantProductPageCredits(email, 2);

  // The app's menu lists Product pages after Saved, and the home links to it.
  const menu = page.locator("ui-nav-menu a");
  await expect(menu).toHaveText([
    "Home",
    "Products",
    "Saved",
    "Product drops",
    "Product pages",
    "AI ads",
    "Brand kits",
    "TikToks",
    "Research assistant",
    "Glitch mode",
    "Competitors",
    "Course",
    "Billing & credits",
    "Stores & themes",
    "Settings",
  ]);
  await expect(page.locator('ui-nav-menu a[href="/app/product-pages"]')).toHaveCount(1);
  await page.getByRole("link", { name: "Open Product pages" }).click();
  await expect(page).toHaveURL(/\/app\/product-pages$/);
  await expect(page.getByText("No product pages yet")).toBeVisible();

  // From the empty list to a product, all inside the admin.
  await page.getByRole("link", { name: "Find a product" }).click();
  await expect(page).toHaveURL(/\/app\/products$/);
  await page.getByLabel("Search products").fill(WORD);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("link", { name: PRODUCT.title }).click();
  await expect(page.getByRole("heading", { name: PRODUCT.title, level: 1 })).toBeVisible();

  // Create its page (the JSON API, authenticated by the session token); the editor is linked in the admin.
  await page.getByRole("button", { name: "Create product page" }).click();
  await expect(page.getByRole("heading", { name: "Product page created" })).toBeVisible();
  const editorLink = page.getByRole("link", { name: "Edit and push it in the editor" });
  await expect(editorLink).toHaveAttribute("href", /^\/app\/product-pages\?page=\d+$/);
  await expect(editorLink).not.toHaveAttribute("target", "_blank");
  const id = Number(new URL((await editorLink.getAttribute("href"))!, "https://x.invalid").searchParams.get("page"));
  const created = await storedPage(id);
  expect(created).toMatchObject({ status: "draft" });
  const title = String(created!.title);

  // The list: the page, its status, not pushed yet, written by the built-in writer; one credit left.
  await editorLink.click();
  await expect(page).toHaveURL(new RegExp(`/app/product-pages\\?page=${id}$`));
  await expect(page.getByRole("heading", { name: "Edit the page" })).toBeVisible();
  await page.getByRole("link", { name: "All product pages" }).click();
  await expect(page).toHaveURL(/\/app\/product-pages$/);
  await expect(page.getByText("1 left")).toBeVisible();
  const list = page.getByRole("list", { name: "Product pages" });
  await expect(list.getByRole("link", { name: title })).toHaveAttribute("href", `/app/product-pages?page=${id}`);
  await expect(list.getByText("Draft", { exact: true })).toBeVisible();
  await expect(list.getByText(/Not pushed yet · built-in writer/)).toBeVisible();

  // Edit it: the preview follows the form.
  await list.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/product-pages\\?page=${id}$`));
  const preview = page.getByTestId("product-page-preview");
  await expect(preview).toContainText(PRODUCT.title.split(" ")[0]);
  await page.getByLabel("Title", { exact: true }).fill("Quokkarama Posture Pro");
  await expect(page.getByRole("heading", { name: "Quokkarama Posture Pro" })).toBeVisible();
  await page.getByLabel("Description", { exact: true }).fill("Stand **taller** at your desk.");
  await expect(preview.locator("strong")).toHaveText("taller");

  // Below cost + shipping ($9.10): refused by the field, nothing saved.
  await page.getByLabel("Price", { exact: true }).fill("5.00");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Some fields need attention: Price.")).toBeVisible();
  await expect(page.getByText("The price must be more than the product's cost plus shipping ($9.10).")).toBeVisible();
  expect((await storedPage(id))?.title).toBe(title);

  await page.getByLabel("Price", { exact: true }).fill("34.99");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect(await storedPage(id)).toEqual({ title: "Quokkarama Posture Pro", priceCents: 3499, status: "draft" });

  // The shop is the account's linked store, so the page can be pushed to it.
  await expect(page.getByLabel("Store")).toHaveValue(shop);
  await expect(page.getByRole("button", { name: "Push to store" })).toBeEnabled();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "test-results/screenshots/embedded-product-pages.png", fullPage: true });

  // Back in the list, the saved title.
  await page.getByRole("link", { name: "All product pages" }).click();
  await expect(list.getByRole("link", { name: "Quokkarama Posture Pro" })).toBeVisible();

  // The merchant never needed, and never got, a site session.
  expect((await context.cookies()).map((c) => c.name)).not.toContain("__session");
});
