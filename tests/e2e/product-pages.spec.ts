// Product pages in the browser: a signed-up user with product-page credits creates a page for a
// product (through the JSON API, as the product page's "Create product page" button does), finds it
// in /dashboard/product-pages labelled as written by the built-in writer, edits its Markdown description
// (bold, a list, the toolbar) with the live preview following, is told when the price is below cost,
// saves, sees the saved page and credits used, and is shown the way to connect a store.
import { expect, test } from "./support/test";
import { e2eDb, grantProductPageCredits, open, reload, submitSignup, uniqueEmail } from "./support/app";

const OBJECT_ID = "e2e-pp-wombatic-brush";

function sqliteDate(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

async function insertProduct() {
  const db = e2eDb();
  const now = sqliteDate(new Date());
  try {
    await db.execute({
      sql: `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","supplierName","supplierUrl",
              "costCents","priceCents","shippingCents","amazonPriceCents","orders","revenueCents","likes","comments","shares","views",
              "storesSelling","firstSeenAt","lastUpdatedAt","randomSortKey","winningScore","lifecycleStage","saturation","marginBps",
              "orders7d","ordersGrowth7d","trendingScore","reasons","insightsAt")
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT("objectID") DO NOTHING`,
      args: [
        OBJECT_ID,
        "Wombatic Self-Cleaning Slicker Brush",
        "A self-cleaning slicker brush that keeps shedding off your sofa. Made for dogs and cats.",
        JSON.stringify(["pets"]),
        "pets",
        JSON.stringify(["grooming"]),
        JSON.stringify([`/product-images/${OBJECT_ID}-1.svg`]),
        "Test Supply Co.",
        "https://supplier.example.com/item/2",
        650,
        2499,
        150,
        900,
        900 * 2499,
        5000,
        700,
        200,
        90000,
        6,
        now,
        now,
        4242,
        81,
        "rising",
        30,
        6800,
        300,
        40,
        80,
        JSON.stringify(["orders +40% in 7 days", "margin 68%", "sold by only 6 stores"]),
        now,
      ],
    });
    await db.execute(`UPDATE "CatalogState" SET "version" = "version" + 1 WHERE "id" = 1`);
  } finally {
    db.close();
  }
}

test.beforeAll(async () => {
  await insertProduct();
});

test("create a product page, edit it with the live preview, and save it", async ({ page }) => {
  const email = uniqueEmail("pages");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await grantProductPageCredits(email, 3);

  // The browser's own session makes the call, as the "Create product page" button does.
  const created = await page.request.post("/api/product-pages", { data: { objectID: OBJECT_ID } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await open(page, "/dashboard/product-pages");
  await expect(page.getByText("the built-in writer (templates filled with the product's own data)")).toBeVisible();
  await expect(page.getByText("2 left")).toBeVisible();
  const list = page.getByRole("list", { name: "Product pages" });
  await expect(list.getByText("Wombatic Self-cleaning Slicker Brush")).toBeVisible();
  await expect(list.getByText("Draft")).toBeVisible();
  await expect(list.getByText(/built-in writer/)).toBeVisible();

  await list.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/product-pages\\?page=${id}$`));
  const preview = page.getByTestId("product-page-preview");
  await expect(preview).toContainText("keeps shedding off your sofa");

  // The preview follows the form as it is typed, sanitised like what Shopify receives.
  await page.getByLabel("Title", { exact: true }).fill("Wombat Brush Deluxe");
  await expect(page.getByRole("heading", { name: "Wombat Brush Deluxe" })).toBeVisible();
  // The description is Markdown (docs/decisions/029): the preview renders it as Shopify will receive it;
  // typed HTML is shown as text, never run.
  const description = page.getByLabel("Description", { exact: true });
  await description.fill("Brush less, **cuddle** more.\n\n- Soft pins\n- Cleans in one click\n\n<script>window.__hacked = 1</script>");
  await expect(preview.locator("strong")).toHaveText("cuddle");
  await expect(preview.locator("ul").first().locator("li")).toHaveText(["Soft pins", "Cleans in one click"]);
  await expect(preview.locator("script")).toHaveCount(0);
  await expect(preview).toContainText("<script>window.__hacked = 1</script>");
  // The toolbar writes Markdown for the seller: select "more" and make it italic.
  await description.evaluate((el: HTMLTextAreaElement) => {
    const at = el.value.indexOf("more");
    el.setSelectionRange(at, at + 4);
  });
  await page.getByRole("button", { name: "Italic" }).click();
  await expect(description).toHaveValue(/cuddle\*\* \*more\*\./);
  await expect(preview.locator("em")).toHaveText("more");
  await description.fill("Brush less, **cuddle** more.\n\n- Soft pins\n- Cleans in one click");

  // Below cost + shipping ($8.00): refused, with the reason by the field.
  await page.getByLabel("Price", { exact: true }).fill("7.99");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The price must be more than the product's cost plus shipping ($8.00).")).toBeVisible();

  await page.getByLabel("Price", { exact: true }).fill("29.99");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  // The form shows what was stored: the Markdown as written.
  await expect(description).toHaveValue("Brush less, **cuddle** more.\n\n- Soft pins\n- Cleans in one click");
  expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();

  // Without a connected store, the push area says what to do, with the way to do it.
  await expect(page.getByText("Connect your store first")).toBeVisible();
  await expect(page.getByRole("link", { name: "Connect a Shopify store" })).toHaveAttribute(
    "href",
    "/dashboard/stores#connect-shopify",
  );
  await expect(page.getByText(/APP_URL|SHOPIFY_/)).toHaveCount(0);

  const saved = await page.request.get(`/api/product-pages/${id}`);
  expect(await saved.json()).toMatchObject({
    title: "Wombat Brush Deluxe",
    descriptionMarkdown: "Brush less, **cuddle** more.\n\n- Soft pins\n- Cleans in one click",
    descriptionHtml: "<p>Brush less, <strong>cuddle</strong> more.</p><ul><li>Soft pins</li><li>Cleans in one click</li></ul>",
    priceCents: 2999,
    status: "draft",
  });

  // The saved page, opened again, shows the same description and preview.
  await reload(page);
  await expect(description).toHaveValue("Brush less, **cuddle** more.\n\n- Soft pins\n- Cleans in one click");
  await expect(preview.locator("strong")).toHaveText("cuddle");
  await expect(preview.locator("ul").first().locator("li")).toHaveCount(2);
  await page.screenshot({ path: "test-results/screenshots/product-page-markdown-1280.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(preview.locator("strong")).toHaveText("cuddle");
  await page.screenshot({ path: "test-results/screenshots/product-page-markdown-390.png", fullPage: true });
});
