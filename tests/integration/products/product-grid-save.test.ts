// A grid card's Save button posts to the grid's own action (intent save | unsave with the objectID), so
// the grid stays on screen: the product is saved or unsaved, the loader then shows it, and a bad or
// unknown product is a 4xx with a sentence that changes nothing. "Save this search" still answers there.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as gridAction, loader as gridLoader } from "~/routes/dashboard.products._index";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const catalogue = fixtureCatalogue(6, 16).map((p, i) => ({ ...p, objectID: `grid-save-${i}`, title: `Gridsave Lamp ${i}` }));

beforeAll(async () => {
  await insertProducts(db, catalogue);
});

async function post(cookie: string, form: Record<string, string>) {
  const res = await call(gridAction, "/dashboard/products?index&q=gridsave", { form, cookie });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function savedOnGrid(cookie: string): Promise<Record<string, boolean>> {
  const res = await call(gridLoader, "/dashboard/products?q=gridsave&pageSize=48", { cookie });
  const page = (await res.json()) as { results: { items: { objectID: string; saved: boolean }[] } };
  return Object.fromEntries(page.results.items.map((i) => [i.objectID, i.saved]));
}

describe("the product grid's action", () => {
  it("saves and unsaves a card's product, and the grid shows it", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    expect(await post(user.cookie, { intent: "save", objectID: "grid-save-2" })).toEqual({
      status: 200,
      body: { ok: true, objectID: "grid-save-2", saved: true },
    });
    // Saving twice is harmless.
    expect((await post(user.cookie, { intent: "save", objectID: "grid-save-2" })).status).toBe(200);
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(1);
    const grid = await savedOnGrid(user.cookie);
    expect(grid["grid-save-2"]).toBe(true);
    expect(Object.values(grid).filter(Boolean)).toHaveLength(1);

    expect(await post(user.cookie, { intent: "unsave", objectID: "grid-save-2" })).toEqual({
      status: 200,
      body: { ok: true, objectID: "grid-save-2", saved: false },
    });
    expect((await savedOnGrid(user.cookie))["grid-save-2"]).toBe(false);
  });

  it("answers an unknown product with a 404 sentence and a missing one with a 400, saving nothing", async () => {
    const user = await createSignedInUser();
    const unknown = await post(user.cookie, { intent: "save", objectID: "no-such-product" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, objectID: "no-such-product", message: expect.stringMatching(/no product/i) });
    const missing = await post(user.cookie, { intent: "save" });
    expect(missing).toEqual({ status: 400, body: { ok: false, objectID: null, message: "objectID is missing." } });
    const tooLong = await post(user.cookie, { intent: "unsave", objectID: "x".repeat(121) });
    expect(tooLong.status).toBe(400);
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(0);
  });

  it("keeps saving searches, and refuses an anonymous visitor", async () => {
    const user = await createSignedInUser();
    const saved = await post(user.cookie, { intent: "save-search", name: "Lamps", query: "q=gridsave" });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, message: "Saved “Lamps”." } });
    const bad = await post(user.cookie, { intent: "save-search", name: " ", query: "q=gridsave" });
    expect(bad).toMatchObject({ status: 400, body: { ok: false, message: "Give the search a name." } });

    const anonymous = await call(gridAction, "/dashboard/products?index", { form: { intent: "save", objectID: "grid-save-1" } });
    expect(anonymous.status).toBe(302);
    const product = await db.product.findUniqueOrThrow({ where: { objectID: "grid-save-1" }, select: { id: true } });
    expect(await db.savedProduct.count({ where: { productId: product.id } })).toBe(0);
  });
});
