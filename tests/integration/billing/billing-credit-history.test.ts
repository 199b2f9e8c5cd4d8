// The Billing & credits page's credit history, as its loader hands it to the page: a spend for a
// product names the product by its title (with its objectID for the link), not by its id.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as billingLoader } from "~/routes/dashboard.billing";
import { spend } from "~/services/billing/credits.server";
import { productPages } from "~/services/index.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [product] = fixtureCatalogue(1, 23).map((p) => ({ ...p, objectID: "gen42-ledger-title", title: "Lint Roller Pro Max" }));

beforeAll(async () => {
  await insertProducts(db, [product]);
});

interface HistoryRow {
  reason: string | null;
  product: { objectID: string; title: string; before: string; after: string } | null;
}

async function history(cookie: string): Promise<HistoryRow[]> {
  const res = await call(billingLoader, "/dashboard/billing", { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { history: HistoryRow[] }).history;
}

describe("credit history on /dashboard/billing", () => {
  it("names the product of a spend by its title and keeps its objectID for the link", async () => {
    const user = await createSignedInUser();
    await db.creditBalance.create({ data: { userId: user.id, feature: "product-pages", balance: 10 } });
    await db.creditBalance.create({ data: { userId: user.id, feature: "automatic-mode", balance: 10 } });
    await spend(db, { userId: user.id, feature: "product-pages", reason: `product page for ${product.objectID}` });
    await spend(db, { userId: user.id, feature: "automatic-mode", reason: `automatic mode: ${product.objectID} to shop-1.myshopify.com` });

    const rows = await history(user.cookie);
    expect(rows.map((r) => r.product)).toEqual([
      { objectID: product.objectID, title: "Lint Roller Pro Max", before: "automatic mode: ", after: " to shop-1.myshopify.com" },
      { objectID: product.objectID, title: "Lint Roller Pro Max", before: "product page for ", after: "" },
    ]);
  });

  it("a product page generated through the real service shows up under the product's title", async () => {
    const user = await createSignedInUser();
    await db.creditBalance.create({ data: { userId: user.id, feature: "product-pages", balance: 3 } });
    await productPages.generate({ userId: user.id, objectID: product.objectID });
    const [row] = await history(user.cookie);
    expect(row.product).toMatchObject({ objectID: product.objectID, title: "Lint Roller Pro Max" });
  });

  it("keeps the sentence as it is for a reason about no product, or a product no longer in the catalogue", async () => {
    const user = await createSignedInUser();
    await db.creditBalance.create({ data: { userId: user.id, feature: "product-pages", balance: 10 } });
    await spend(db, { userId: user.id, feature: "product-pages", reason: "product page for gen42-gone" });
    await spend(db, { userId: user.id, feature: "product-pages", reason: "Test use from the billing page" });
    const rows = await history(user.cookie);
    expect(rows.map((r) => [r.reason, r.product])).toEqual([
      ["Test use from the billing page", null],
      ["product page for gen42-gone", null],
    ]);
  });
});
