// GET /api/products as a caller sees it: who may ask, what a bad parameter gets, and the cards with the
// user's saved/tracked marks. Cards are read outside Prisma on the hot path (docs/decisions/017), so
// they are checked field for field against the Prisma path (a transaction client has no SqlReader).
import { beforeAll, describe, expect, it } from "vitest";
import { db, readerFor, sqlReader, type Db } from "~/db.server";
import { researchAccess } from "~/domain/products/research-access";
import { loader as productsApi } from "~/routes/api.products";
import { searchProducts } from "~/services/products.server";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";
import { parseProductQuery } from "~/domain/products/product-query";

const catalogue = fixtureCatalogue(40, 11).map((p, i) => ({ ...p, objectID: `cards-${i}` }));
const engine = new CatalogSearch(sqlReader);

beforeAll(async () => {
  await insertProducts(db, catalogue);
});

async function markSome(userId: string) {
  const [a, b] = await db.product.findMany({ where: { objectID: { in: ["cards-0", "cards-1"] } }, select: { id: true } });
  await db.savedProduct.create({ data: { userId, productId: a.id }, select: { userId: true } });
  await db.trackedProduct.create({
    data: { userId, productId: b.id, ordersAtTrack: 1, revenueCentsAtTrack: 100, priceCentsAtTrack: 100, storesSellingAtTrack: 1, winningScoreAtTrack: 1 },
    select: { userId: true },
  });
}

describe("GET /api/products", () => {
  it("401 for an anonymous caller, 400 naming a bad parameter", async () => {
    expect((await call(productsApi, "/api/products")).status).toBe(401);
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const bad = await call(productsApi, "/api/products?sort=cheapest", { cookie: user.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ param: "sort" });
  });

  it("marks the signed-in user's saved and tracked products, and nobody else's", async () => {
    const owner = await createSignedInUser({ userSubscribed: "yes" });
    const other = await createSignedInUser({ userSubscribed: "yes" });
    await markSome(owner.id);
    const path = "/api/products?q=&pageSize=48&sort=price-asc";
    type Item = { objectID: string; saved: boolean; tracked: boolean };
    const mine = ((await (await call(productsApi, path, { cookie: owner.cookie })).json()) as { items: Item[] }).items;
    const theirs = ((await (await call(productsApi, path, { cookie: other.cookie })).json()) as { items: Item[] }).items;
    expect(mine.find((i) => i.objectID === "cards-0")).toMatchObject({ saved: true, tracked: false });
    expect(mine.find((i) => i.objectID === "cards-1")).toMatchObject({ saved: false, tracked: true });
    expect(mine.filter((i) => i.saved || i.tracked)).toHaveLength(2);
    expect(theirs.filter((i) => i.saved || i.tracked)).toHaveLength(0);
  });

  it("cards read outside Prisma equal the cards Prisma reads, paid and unpaid", async () => {
    const user = await createSignedInUser();
    await markSome(user.id);
    for (const paid of [true, false]) {
      const access = researchAccess({ ...(await db.user.findUniqueOrThrow({ where: { id: user.id } })), userSubscribed: paid ? "yes" : "no" });
      const input = { userId: user.id, access, query: parseProductQuery(new URLSearchParams("pageSize=48&sort=newest")) };
      expect(readerFor(db)).not.toBeNull();
      const fast = await searchProducts(db, engine, input);
      const viaPrisma = await db.$transaction(async (tx) => {
        expect(readerFor(tx)).toBeNull();
        return searchProducts(tx as unknown as Db, engine, input);
      });
      expect(fast.items.length).toBeGreaterThan(0);
      expect(fast.items).toEqual(viaPrisma.items);
    }
  });
});
