// What the measured catalogue is waiting for, as a seller sees it (issue 37 item 1, decision 091), on a desktop
// and a phone: the grid's "measured" view and a followed store's page say how many pictures are pending, why and
// when they are tried again. Screenshots go to test-results/screenshots/.
import { expect, test } from "./support/test";
import { e2eDb, open, signUpPaid, sqliteDate } from "./support/app";

const DOMAIN = "pending-pictures-e2e.test";

test.beforeAll(async () => {
  const db = e2eDb();
  const now = new Date();
  await db.execute({
    sql: `INSERT INTO "CompetitorStore" ("domain","fetchDomain","name","currency","status") VALUES (?,?,?,'USD','ok') ON CONFLICT("domain") DO NOTHING`,
    args: [DOMAIN, DOMAIN, DOMAIN],
  });
  const storeId = Number((await db.execute({ sql: `SELECT "id" FROM "CompetitorStore" WHERE "domain" = ?`, args: [DOMAIN] })).rows[0][0]);
  for (const [i, title] of ["Quartzling cordless neck fan", "Quartzling sunset lamp"].entries()) {
    await db.execute({
      sql: `INSERT INTO "CompetitorProduct" ("storeId","productId","handle","title","productType","vendor","tags","images","variants","priceMinCents","priceMaxCents","available","firstSeenAt","lastSeenAt","currency")
            VALUES (?,?,?,?,'','','[]',?,'[]',1999,1999,1,?,?,'USD') ON CONFLICT("storeId","productId") DO NOTHING`,
      args: [storeId, `pending-${i}`, `pending-${i}`, title, JSON.stringify([`https://cdn.${DOMAIN}/${i}.jpg`]), sqliteDate(now), sqliteDate(now)],
    });
    const id = Number((await db.execute({ sql: `SELECT "id" FROM "CompetitorProduct" WHERE "storeId" = ? AND "productId" = ?`, args: [storeId, `pending-${i}`] })).rows[0][0]);
    await db.execute({
      sql: `INSERT INTO "ListingPicture" ("listingId","imageUrl","status","failure","retryAt","attempts","updatedAt") VALUES (?,?,'pending','unreachable',?,1,?) ON CONFLICT("listingId") DO NOTHING`,
      args: [id, `https://cdn.${DOMAIN}/${i}.jpg`, sqliteDate(new Date(now.getTime() + 25 * 60_000)), sqliteDate(now)],
    });
  }
});

for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`the measured grid and a store's page say what is pending (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const email = await signUpPaid(page, `pending-${name}`);
    const db = e2eDb();
    const userId = String((await db.execute({ sql: `SELECT "id" FROM "User" WHERE "email" = ?`, args: [email] })).rows[0][0]);
    const storeId = Number((await db.execute({ sql: `SELECT "id" FROM "CompetitorStore" WHERE "domain" = ?`, args: [DOMAIN] })).rows[0][0]);
    await db.execute({ sql: `INSERT INTO "Competitor" ("userId","storeId","name","createdAt") VALUES (?,?,?,?)`, args: [userId, storeId, DOMAIN, sqliteDate(new Date())] });
    const followId = Number((await db.execute({ sql: `SELECT "id" FROM "Competitor" WHERE "userId" = ?`, args: [userId] })).rows[0][0]);

    await open(page, "/dashboard/products?source=measured");
    const main = page.getByRole("main");
    await expect(main.getByText(/pictures pending \(the picture's server could not be reached: next try/).first()).toBeVisible();
    await expect(main.getByText("Try other words, or remove a filter or two.")).toHaveCount(0);
    await page.screenshot({ path: `test-results/screenshots/catalogue-pending-grid-${name}.png`, fullPage: name === "desktop" });

    await open(page, `/dashboard/competitors/${followId}`);
    await expect(main.getByText(/2 pictures are pending \(the picture's server could not be reached: next try/)).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/catalogue-pending-store-${name}.png`, fullPage: name === "desktop" });
  });
}
