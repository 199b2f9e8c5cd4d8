// The saved page's lists (saved products, tracked products with their change since tracking, saved searches; the last
// also `GET /api/saved-searches`) are read as prepared statements on the SqlReader (docs/decisions/076); each must
// answer exactly what its Prisma read answers (a client with no reader, e.g. a transaction's, still reads through
// Prisma): empty, then with saved and tracked products and searches, in their order.
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { listSaved, listSavedSearches, listTracked, saveProduct, saveSearch, trackProduct } from "~/services/products.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { throughPrisma } from "../../helpers/prisma-reads";
import { createSignedInUser } from "../../helpers/site-users";

const catalogue = fixtureCatalogue(6, 42).map((p, i) => ({ ...p, objectID: `sr-${i}` }));

beforeAll(async () => {
  await insertProducts(db, catalogue);
});

async function sameBothWays(userId: string, access: ReturnType<typeof researchAccess>) {
  expect(readerFor(db)).not.toBeNull();
  const ours = { saved: await listSaved(db, userId, access), tracked: await listTracked(db, userId, access), searches: await listSavedSearches(db, userId) };
  const prisma = await throughPrisma(async (c) => ({ saved: await listSaved(c, userId, access), tracked: await listTracked(c, userId, access), searches: await listSavedSearches(c, userId) }));
  expect(ours).toEqual(prisma);
  return ours;
}

describe("the saved page's reads", () => {
  it("answer what Prisma answers, empty and then with products and searches in their order", async () => {
    const seller = await createSignedInUser({ userSubscribed: "yes" });
    const user = await db.user.findUniqueOrThrow({ where: { id: seller.id } });
    const access = researchAccess(user);
    expect(await sameBothWays(user.id, access)).toEqual({ saved: [], tracked: [], searches: [] });

    for (const objectID of ["sr-2", "sr-0", "sr-4"]) {
      await saveProduct(db, user.id, objectID);
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const objectID of ["sr-1", "sr-3"]) {
      await trackProduct(db, user.id, objectID);
      await new Promise((r) => setTimeout(r, 5));
    }
    // A change since tracking started: orders and price moved.
    await db.product.update({ where: { objectID: "sr-3" }, data: { orders: { increment: 25 }, priceCents: { increment: 300 } } });
    await saveSearch(db, user.id, { name: "Dogs under $30", params: new URLSearchParams("q=dog&maxPrice=30") });
    await new Promise((r) => setTimeout(r, 5));
    const second = await saveSearch(db, user.id, { name: "Kitchen, trending", params: new URLSearchParams("niche=kitchen&sort=trending") });
    await db.savedSearch.update({ where: { id: second.id }, data: { alertsEnabled: false } });

    const lists = await sameBothWays(user.id, access);
    expect(lists.saved.map((p) => p.objectID)).toEqual(["sr-4", "sr-0", "sr-2"]);
    expect(lists.tracked.map((p) => p.objectID)).toEqual(["sr-3", "sr-1"]);
    expect(lists.tracked[0].sinceTracking).toMatchObject({ orders: 25, priceCents: 300 });
    expect(lists.searches.map((s) => [s.name, s.alertsEnabled])).toEqual([["Kitchen, trending", false], ["Dogs under $30", true]]);
    expect(lists.searches[0].createdAt).toBeInstanceOf(Date);
  });
});
