// AI ads inside Shopify admin (/app/ai-ads), called as the admin calls them (a session token signed for
// real with the test app's secret, as a bearer token): the same loader and action as /dashboard/ai-ads,
// for the user the shop is linked to, with video links signed so the admin iframe's <video> (which
// sends no cookie and no session token) can play them.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());
await vi.hoisted(async () => {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  Object.assign(process.env, {
    VIDEO_STORAGE_DIR: mkdtempSync(path.join(tmpdir(), "embedded-ai-ads-")),
    VIDEO_SIZE: "180x320",
    VIDEO_FPS: "5",
  });
});

import { db } from "~/db.server";
import { action, loader } from "~/routes/app.ai-ads";
import { loader as videoRoute } from "~/routes/ai-ads.videos.$file";
import * as creditFns from "~/services/billing/credits.server";
import { aiAds } from "~/services/index.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { readMp4 } from "../../helpers/mp4";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const PATH = "/app/ai-ads";
const [PRODUCT] = fixtureCatalogue(1, 41).map((p) => ({ ...p, objectID: "eaa-lamp" }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
});
beforeEach(() => oauth.reset());

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return { ...options, headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME } };
}

/** A linked shop whose user is subscribed and has 10 ai-ads credits. */
async function paidShop() {
  const linked = await linkedShop();
  await db.user.update({ where: { id: linked.user.id }, data: { userSubscribed: "yes" } });
  await creditFns.applyAllowance(db, {
    userId: linked.user.id,
    feature: "ai-ads",
    allowance: 10,
    idempotencyKey: `test-grant:${linked.user.id}`,
    reason: "test grant",
    mode: "reset",
  });
  return linked;
}

describe("/app/ai-ads", () => {
  it("creates and renders an ad for the linked user; the page's signed video link plays without cookie or token", async () => {
    const { shop, user } = await paidShop();
    const created = await call(action, PATH, await asShop(shop, { form: { intent: "create", objectID: PRODUCT.objectID } }));
    expect(created.status).toBe(201);
    const { adId } = await created.json();
    const rendering = await call(action, PATH, await asShop(shop, { form: { intent: "render", id: String(adId) } }));
    expect(rendering.status).toBe(202);
    expect(await rendering.json()).toMatchObject({ ok: true, message: "Rendering started: 5 credits spent." });
    expect(await creditFns.getBalance(db, user.id, "ai-ads")).toBe(5);

    const during = await (await call(loader, `${PATH}?ad=${adId}`, await asShop(shop))).json();
    expect(during.ads[0]).toMatchObject({ id: adId, status: "rendering" });
    await aiAds.idle();

    const page = await (await call(loader, `${PATH}?ad=${adId}`, await asShop(shop))).json();
    expect(page).toMatchObject({ balance: 5, access: { create: true }, writer: "built-in writer" });
    const ad = page.ads[0];
    expect(ad).toMatchObject({ id: adId, status: "completed", progress: 100 });
    expect(ad.storageUrl).toMatch(new RegExp(`^/ai-ads/videos/${adId}\\.mp4\\?expires=\\d+&sig=[\\w-]+$`));
    expect(ad.downloadUrl).toMatch(new RegExp(`^/ai-ads/videos/${adId}\\.mp4\\?download=1&expires=\\d+&sig=`));

    // What the <video> in the iframe sends: the URL and a Range header, nothing else.
    const video = await call(videoRoute, ad.storageUrl, { params: { file: `${adId}.mp4` }, headers: { range: "bytes=0-" } });
    expect(video.status).toBe(206);
    expect(readMp4(new Uint8Array(await video.arrayBuffer())).frames).toBeGreaterThan(0);
  });

  it("shows the same ads as the site for the same account, and another shop's account sees none of them", async () => {
    const { shop } = await paidShop();
    await call(action, PATH, await asShop(shop, { form: { intent: "create", objectID: PRODUCT.objectID } }));
    const mine = await (await call(loader, PATH, await asShop(shop))).json();
    expect(mine.ads).toHaveLength(1);
    const other = await paidShop();
    const theirs = await (await call(loader, PATH, await asShop(other.shop))).json();
    expect(theirs.ads).toEqual([]);
    const res = await call(action, PATH, await asShop(other.shop, { form: { intent: "render", id: String(mine.ads[0].id) } }));
    expect(res.status).toBe(404);
    expect(await creditFns.getBalance(db, other.user.id, "ai-ads")).toBe(10);
  });

  it("a shop not linked to an account is sent to the linking screen; no session token is a login redirect", async () => {
    const { shop } = await installShop();
    const unlinked = await call(loader, PATH, await asShop(shop));
    expect(unlinked.status).toBe(302);
    expect(unlinked.headers.get("location")).toBe("/app/link");
    const anonymous = await call(loader, PATH, { headers: { "user-agent": DESKTOP_CHROME } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/auth/login");
  });
});
