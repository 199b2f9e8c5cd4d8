// Issue 35, item 18 (decision 085) through the AI ads page's form and the JSON route: a product whose supplier
// tagged it "free shipping" gets an ad that promises it only when the seller ticks "My store ships this product
// free"; a malformed setting on the JSON route is a 400 that writes nothing.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as createRoute } from "~/routes/api.ai-ads";
import { action as pageAction } from "~/routes/dashboard.ai-ads";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [PRODUCT] = fixtureCatalogue(1, 35).map((p) => ({ ...p, objectID: "ads-free-shipping", tags: ["free shipping"], priceCents: 2499 }));

async function lastScene(adId: number): Promise<string> {
  const row = await db.aiAd.findUniqueOrThrow({ where: { id: adId }, select: { scenes: true } });
  return (JSON.parse(row.scenes) as { text: string }[]).at(-1)!.text;
}

describe("free shipping in an ad", () => {
  it("is promised only when the seller ticks it, on the page's form and on the JSON route", async () => {
    await insertProducts(db, [PRODUCT]);
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const create = async (form: Record<string, string>) => {
      const res = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "create", objectID: PRODUCT.objectID, ...form } });
      expect(res.status).toBe(201);
      return ((await res.json()) as { adId: number }).adId;
    };
    expect(await lastScene(await create({}))).not.toMatch(/free shipping/i);
    expect(await lastScene(await create({ freeShipping: "on" }))).toMatch(/with free shipping$/);

    const api = await call(createRoute, "/api/ai-ads", { cookie: user.cookie, json: { objectID: PRODUCT.objectID, freeShipping: true } });
    expect(api.status).toBe(201);
    expect(await lastScene(((await api.json()) as { id: number }).id)).toMatch(/with free shipping$/);
    const before = await db.aiAd.count({ where: { userId: user.id } });
    const bad = await call(createRoute, "/api/ai-ads", { cookie: user.cookie, json: { objectID: PRODUCT.objectID, freeShipping: "yes" } });
    expect(bad.status).toBe(400);
    expect(await db.aiAd.count({ where: { userId: user.id } })).toBe(before);
  });
});
