// Issue 35, item 18 (decision 085) in the browser at 1280 and 390 px: an ad for a product with a long name and a
// supplier's "free shipping" tag. The storyboard names it whole ("Adjustable No Pull Dog Harness", never "Harness
// for Small"), writes "an Adjustable", and promises no free shipping until the seller ticks "My store ships this
// product free"; the free preview's end card (tagline and name) is photographed for the reviewer.
import { expect, test } from "./support/test";
import { e2eDb, giveSubscription, open, sqliteDate, submitSignup, uniqueEmail } from "./support/app";

const TITLE = "Adjustable No Pull Dog Harness for Small Medium Large Dogs, Reflective Breathable Vest";

async function insertProduct(objectID: string) {
  const db = e2eDb();
  const now = sqliteDate(new Date());
  try {
    await db.execute({
      sql: `INSERT INTO "Product" ("objectID","title","description","niches","primaryNiche","tags","images","supplierName","supplierUrl",
              "costCents","priceCents","shippingCents","orders","revenueCents","likes","comments","shares","views","storesSelling",
              "firstSeenAt","lastUpdatedAt","randomSortKey","winningScore","lifecycleStage","saturation","marginBps","orders7d",
              "ordersGrowth7d","trendingScore","reasons","insightsAt")
            VALUES (?,?,?,?,?,?,?,?,?,500,2499,300,640,1599360,10,5,2,9000,6,?,?,7,70,'rising',30,5000,160,20,50,'[]',?)
            ON CONFLICT("objectID") DO NOTHING`,
      args: [
        objectID,
        TITLE,
        "A padded harness that stops pulling without choking. Free shipping worldwide!",
        JSON.stringify(["pets"]),
        "pets",
        JSON.stringify(["free shipping", "gift"]),
        JSON.stringify([`/product-images/${objectID}-1.svg`]),
        "Test Supply Co.",
        "https://supplier.example.com/item/2",
        now,
        now,
        now,
      ],
    });
  } finally {
    db.close();
  }
}

for (const width of [1280, 390]) {
  test(`at ${width} px: the ad names the product whole, says "an Adjustable" and promises free shipping only when told`, async ({ page }) => {
    test.setTimeout(120_000);
    const objectID = `e2e-words-${width}`;
    await insertProduct(objectID);
    await page.setViewportSize({ width, height: 900 });
    const email = uniqueEmail(`ads-words-${width}`);
    await open(page, "/signup");
    await submitSignup(page, email);
    await expect(page).toHaveURL(/\/choose-plan$/);
    await giveSubscription(email);

    await open(page, `/dashboard/ai-ads?product=${objectID}`);
    const ship = page.getByLabel("My store ships this product free");
    await expect(ship).not.toBeChecked();
    await page.getByRole("button", { name: "Write the ad script" }).click();
    await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();

    const scenes = page.getByLabel(/^Scene \d+ text$/);
    const texts = await scenes.evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement | HTMLInputElement).value));
    const hooks = (await page.getByText("Pick a hook:").locator("xpath=..").getByRole("button").allTextContents()).map((h) => h.replace(/ \(in use\)$/, ""));
    const all = [...texts, ...hooks].join(" | ");
    expect(all).toContain("Adjustable No Pull Dog Harness");
    expect(all).not.toMatch(/Harness for Small(?! Medium Large Dogs)/);
    expect(all).not.toMatch(/\ba (?=[AEIOU])/);
    expect(all).not.toMatch(/free (shipping|delivery)/i);
    expect(texts.at(-1)).toBe("Get yours today for $24.99");
    await page.screenshot({ path: test.info().outputPath(`ads-words-${width}.png`), fullPage: true });

    // The seller's own promise: a new script for the same product with the box ticked says it.
    const firstAd = new URL(page.url()).searchParams.get("ad");
    await open(page, `/dashboard/ai-ads?product=${objectID}`);
    // Ticked once the page's scripts run (a tick before would be undone when React takes the page over).
    await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
    await page.getByLabel("My store ships this product free").check();
    await expect(page.getByLabel("My store ships this product free")).toBeChecked();
    await page.getByRole("button", { name: "Write the ad script" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]ad=(?!${firstAd}\\b)\\d+`));
    await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();
    await expect(page.getByLabel(/^Scene \d+ text$/).last()).toHaveValue("Get yours today for $24.99 with free shipping");
  });
}
