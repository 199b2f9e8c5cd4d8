// The demo catalogue does not look fake (docs/decisions/028): a generated bag shows a drawing of a handbag (not
// a phone), on its card and on its page, and its supplier is marked "Demo data" instead of a link to a made-up
// company. The server's catalogue is the one `npm start` seeds (3,000 generated products, seed 42).
import { expect, test } from "./support/test";
import { e2eDb, giveSubscription, open, submitSignup, uniqueEmail } from "./support/app";

test("a generated product shows its category's drawing and says its supplier is demo data", async ({ page, request }) => {
  const db = e2eDb();
  const found = await db.execute(`SELECT "objectID", "title" FROM "Product" WHERE "primaryNiche" = 'bags' AND "objectID" LIKE 'gen42-%' ORDER BY "id" LIMIT 1`);
  db.close();
  const { objectID, title } = found.rows[0] as unknown as { objectID: string; title: string };
  expect(title).not.toMatch(/\b(\w+) \1\b/i); // no word twice in a row, as in "Calming Calming Bed"

  const email = uniqueEmail("demo-catalogue");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, `/dashboard/products/${objectID}`);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  const picture = page.getByRole("img", { name: title }).first();
  await expect(picture).toBeVisible();
  const src = await picture.getAttribute("src");
  expect(src).toMatch(new RegExp(`^/product-images/${objectID}-1\\.svg$`));
  const svg = await (await request.get(src!)).text();
  expect(svg).toContain('data-subject="a handbag"');
  expect(svg).toContain("drawing of a handbag");

  // Where a real product names its supplier, the demo one says it is sample data, with no link out.
  await expect(page.getByText("Demo data", { exact: true })).toBeVisible();
  await expect(page.getByText("This product is sample data: it has no real supplier.")).toBeVisible();
  await expect(page.locator('a[href*="suppliers.example"]')).toHaveCount(0);
  await picture.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screenshots/demo-product.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/demo-product-phone.png", fullPage: true });
});
