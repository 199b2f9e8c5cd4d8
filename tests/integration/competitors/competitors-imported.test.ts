// A rival's product added to our product database (decision 026) as the store page shows it afterwards: the
// product keeps its link to the database instead of offering "Add to product database" again after a reload,
// and the store page and the product's own page give it one "First seen" day (the earlier of the store's
// published date and our first read), not the first read on one and the published date on the other.
import { afterAll, describe, expect, it, vi } from "vitest";

const fake = await vi.hoisted(async () => {
  const { startFakeShopifyStore } = await import("../../helpers/fake-shopify-store");
  const store = await startFakeShopifyStore();
  Object.assign(process.env, { TRACKER_ALLOW_HOSTS: `127.0.0.1:${store.port}`, TRACKER_RESOLVE: "*.test=127.0.0.1", TRACKER_STANDIN_GAP_MS: "20" });
  return { store };
});

import { db } from "~/db.server";
import { action as addRoute } from "~/routes/api.competitors";
import { loader as storeLoader } from "~/routes/api.competitors.$id";
import { action as importRoute } from "~/routes/api.competitors.$id.products.$productId.import";
import type { CompetitorDetail, CompetitorSummary } from "~/services/competitors.server";
import { jobs } from "~/services/index.server";
import { makeProduct } from "../../helpers/fake-shopify-store";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const shops = fake.store;
afterAll(() => shops.close());

async function detail(cookie: string, id: number): Promise<CompetitorDetail> {
  const res = await call(storeLoader, `/api/competitors/${id}`, { cookie, params: { id: String(id) } });
  expect(res.status).toBe(200);
  return res.json();
}

describe("a rival's product once it is in the product database", () => {
  it("is listed with its product database id (no second 'Add'), and with the same first-seen day as its product page", async () => {
    const host = `imported-${Date.now().toString(36)}.test`;
    shops.addShop(host, { products: [makeProduct(1), makeProduct(2)], currency: "USD" });
    const alice = await createSignedInUser({ userSubscribed: "yes" });
    const bob = await createSignedInUser({ userSubscribed: "yes" });
    const follow = async (cookie: string) => {
      const res = await call(addRoute, "/api/competitors", { cookie, json: { url: `${host}:${shops.port}` } });
      expect(res.status).toBe(201);
      return ((await res.json()) as CompetitorSummary).id;
    };
    const aliceId = await follow(alice.cookie);
    const bobId = await follow(bob.cookie);
    await jobs.runDue();

    let d = await detail(alice.cookie, aliceId);
    expect(d.products.map((p) => p.objectID)).toEqual([null, null]);
    const p2 = d.products.find((p) => p.title === "Product 2")!;
    // The store published it months before our first read: that earlier day is its first-seen day.
    expect(p2.firstSeenAt).toBe(p2.publishedAt);

    const res = await call(importRoute, "/x", { cookie: alice.cookie, method: "POST", params: { id: String(aliceId), productId: p2.productId } });
    expect(res.status).toBe(201);
    const { objectID } = (await res.json()) as { objectID: string };

    // Reloaded: the imported product links to its page; the other is still offered.
    d = await detail(alice.cookie, aliceId);
    expect(d.products.find((p) => p.title === "Product 2")!.objectID).toBe(objectID);
    expect(d.products.find((p) => p.title === "Product 1")!.objectID).toBeNull();
    // The product database is shared: another follower of the store sees it there too.
    expect((await detail(bob.cookie, bobId)).products.find((p) => p.title === "Product 2")!.objectID).toBe(objectID);

    const row = await db.product.findUniqueOrThrow({ where: { objectID }, select: { firstSeenAt: true } });
    expect(row.firstSeenAt.toISOString()).toBe(d.products.find((p) => p.title === "Product 2")!.firstSeenAt);
  });
});
