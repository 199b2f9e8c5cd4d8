// AI video ads end to end on the real database, the real renderer (small frames: VIDEO_SIZE 180x320 at
// 5 fps) and a temporary VIDEO_STORAGE_DIR: product -> script ("preview", free) -> edit (422 naming
// the field) -> render (5 credits, once) -> progress -> completed, streamed with Range support to its
// owner only; a render that fails is refunded and says why; a crash's "rendering" ads are re-queued;
// who may (401/402/403/404) changes nothing. The script writer is also driven against the local
// chat-completions server.
import { beforeAll, describe, expect, it, vi } from "vitest";

const storageDir = await vi.hoisted(async () => {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const dir = mkdtempSync(path.join(tmpdir(), "ai-ads-test-"));
  Object.assign(process.env, { VIDEO_STORAGE_DIR: dir, VIDEO_SIZE: "180x320", VIDEO_FPS: "5" });
  return dir;
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "~/db.server";
import { createAiText, builtInWriter } from "~/integrations/ai-text.server";
import { createBuiltInRenderer } from "~/integrations/video-render.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { action as renderRoute } from "~/routes/api.ai-ads.$id.render";
import { action as adAction, loader as adLoader } from "~/routes/api.ai-ads.$id";
import { action as createRoute, loader as listRoute } from "~/routes/api.ai-ads";
import { loader as videoRoute } from "~/routes/ai-ads.videos.$file";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.ai-ads";
import { createAiAds, type AiAdView } from "~/services/ai-ads.server";
import { createJobs } from "~/services/jobs.server";
import * as credits from "~/services/billing/credits.server";
import { aiAds } from "~/services/index.server";
import { startFakeAi } from "../../helpers/fake-ai";
import { readMp4 } from "../../helpers/mp4";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [PRODUCT] = fixtureCatalogue(1, 31).map((p) => ({ ...p, objectID: "ads-brush", orders: 12840 }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
});

async function grant(userId: string, allowance: number) {
  await credits.applyAllowance(db, {
    userId,
    feature: "ai-ads",
    allowance,
    idempotencyKey: `test-grant:${userId}:${Math.random()}`,
    reason: "test grant",
    mode: "reset",
  });
}

/** A subscribed user with `balance` ai-ads credits, signed in. */
async function seller(balance = 10, fields: Parameters<typeof createSignedInUser>[0] = {}) {
  const user = await createSignedInUser({ userSubscribed: "yes", ...fields });
  if (balance > 0) await grant(user.id, balance);
  return user;
}

async function createAd(cookie: string, objectID = PRODUCT.objectID): Promise<AiAdView> {
  const res = await call(createRoute, "/api/ai-ads", { cookie, json: { objectID } });
  expect(res.status).toBe(201);
  return res.json();
}

const balanceOf = (userId: string) => credits.getBalance(db, userId, "ai-ads");
const adRow = (id: number) =>
  db.aiAd.findUnique({ where: { id }, select: { status: true, title: true, scenes: true, progress: true, storageKey: true } });
const aiAdsLedger = (userId: string) =>
  db.creditLedger.findMany({ where: { userId, feature: "ai-ads", kind: { in: ["spend", "refund"] } }, select: { kind: true, amount: true } });

describe("a product priced in another currency (decision 059)", () => {
  it("is never written as dollars: the script names no price, and the ad's product says its currency", async () => {
    const [euro] = fixtureCatalogue(1, 77).map((p) => ({ ...p, objectID: "ads-euro", priceCents: 2495 }));
    await insertProducts(db, [euro]);
    // As a tracked store that sells in euros publishes it (decision 059).
    await db.product.update({ where: { objectID: "ads-euro" }, data: { priceCurrency: "EUR" }, select: { id: true } });
    const user = await seller(10);
    const dollars = await createAd(user.cookie);
    // The control: a dollar price is in the call to action.
    expect(dollars.scenes.map((s) => s.text).join(" ")).toMatch(/\$\d/);
    const ad = await createAd(user.cookie, "ads-euro");
    const copy = ad.scenes.map((s) => s.text).join(" ");
    expect(copy).not.toMatch(/\$/);
    expect(copy).not.toContain("24.95");
    expect(ad.product).toMatchObject({ objectID: "ads-euro", priceCents: 2495, priceCurrency: "EUR" });
  });
});

describe("an AI ad from product to video", () => {
  it("writes a preview for free, renders it for 5 credits once, with progress, and serves the MP4", async () => {
    const user = await seller(10);
    const ad = await createAd(user.cookie);
    expect(ad).toMatchObject({ status: "preview", objectID: PRODUCT.objectID, writer: "built-in writer", storageUrl: null, progress: 0 });
    // The research database's product is sample data, and the ad says so (issue 25, item 9).
    expect(ad.product).toMatchObject({ objectID: PRODUCT.objectID, sample: true });
    expect(ad.scenes.map((s) => s.kind)).toEqual(["hook", "problem", "product", "proof", "cta"]);
    expect(ad.scenes[3].text).toBe("12,840 orders in the last 30 days");
    expect(ad.scriptMs).toBeGreaterThanOrEqual(12_000);
    expect(await balanceOf(user.id)).toBe(10);

    // Edit a scene, then render.
    const edited = await call(adAction, `/api/ai-ads/${ad.id}`, {
      method: "PATCH",
      cookie: user.cookie,
      params: { id: String(ad.id) },
      json: { scenes: ad.scenes.map((s, i) => (i === 0 ? { text: "Your dog will thank you" } : {})) },
    });
    expect(edited.status).toBe(200);
    expect((await edited.json()).scenes[0].text).toBe("Your dog will thank you");

    const res = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: ad.id, status: "rendering", progress: 0 });
    expect(await balanceOf(user.id)).toBe(5);

    // Asking again while it renders charges nothing.
    const again = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(again.status).toBe(202);

    // Progress is written while the frames are made.
    const seen = new Set<number>();
    const poll = setInterval(async () => {
      const row = await adRow(ad.id);
      if (row?.status === "rendering") seen.add(row.progress);
    }, 5);
    await aiAds.idle();
    clearInterval(poll);
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);

    const done = await (await call(adLoader, `/api/ai-ads/${ad.id}`, { cookie: user.cookie, params: { id: String(ad.id) } })).json();
    expect(done).toMatchObject({
      status: "completed",
      progress: 100,
      errors: [],
      storageUrl: `/ai-ads/videos/${ad.id}.mp4`,
      downloadUrl: `/ai-ads/videos/${ad.id}.mp4?download=1`,
      width: 180,
      height: 320,
    });
    // Each scene lasts a whole number of frames (200 ms at 5 fps).
    const frames = done.scenes.reduce((n: number, s: { durationMs: number }) => n + Math.round(s.durationMs / 200), 0);
    expect(done.durationMs).toBe(frames * 200);

    const video = await call(videoRoute, done.storageUrl, { cookie: user.cookie, params: { file: `${ad.id}.mp4` } });
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    expect(video.headers.get("accept-ranges")).toBe("bytes");
    const bytes = new Uint8Array(await video.arrayBuffer());
    expect(bytes.length).toBe(done.bytes);
    const mp4 = readMp4(bytes);
    expect(mp4.frames).toBe(frames);
    expect(mp4.trackDurationMs).toBe(done.durationMs);

    // Rendering a completed ad again does nothing and charges nothing.
    const third = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(third.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(5);
    expect(await aiAdsLedger(user.id)).toEqual([{ kind: "spend", amount: -5 }]);
    // The first render request ended the AI-ads first use.
    expect((await db.user.findUnique({ where: { id: user.id }, select: { aiAdsFirstUse: true } }))?.aiAdsFirstUse).toBe(false);
  });

  it("charges once when two render requests race", async () => {
    const user = await seller(10);
    const ad = await createAd(user.cookie);
    const [a, b] = await Promise.all(
      [1, 2].map(() => call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } })),
    );
    expect([a.status, b.status]).toEqual([202, 202]);
    await aiAds.idle();
    expect(await balanceOf(user.id)).toBe(5);
    expect(await aiAdsLedger(user.id)).toEqual([{ kind: "spend", amount: -5 }]);
    expect((await adRow(ad.id))?.status).toBe("completed");
  });

  it("streams byte ranges (206) so a player can seek, 416 outside the file, and downloads as an attachment", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    await aiAds.render({ id: user.id, userSubscribed: "yes", aiAdsFirstUse: true }, ad.id);
    await aiAds.idle();
    const opts = (headers: Record<string, string> = {}) => ({ cookie: user.cookie, params: { file: `${ad.id}.mp4` }, headers });
    const whole = new Uint8Array(await (await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4`, opts())).arrayBuffer());

    const part = await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4`, opts({ range: "bytes=100-199" }));
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${whole.length}`);
    expect(part.headers.get("content-length")).toBe("100");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(100, 200));

    const tail = await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4`, opts({ range: "bytes=-50" }));
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(whole.slice(-50));

    const open = await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4`, opts({ range: `bytes=${whole.length - 10}-` }));
    expect(open.headers.get("content-range")).toBe(`bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`);

    const outside = await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4`, opts({ range: `bytes=${whole.length}-` }));
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${whole.length}`);

    const download = await call(videoRoute, `/ai-ads/videos/${ad.id}.mp4?download=1`, opts());
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="ai-ad-${ad.id}.mp4"`);
  });

  it("a signed link plays without a cookie until it expires; a tampered one is 404", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    await aiAds.render({ id: user.id, userSubscribed: "yes", aiAdsFirstUse: false }, ad.id);
    await aiAds.idle();
    const [signed] = aiAds.withSignedUrls(user.id, [await aiAds.get(user.id, ad.id)]);
    const params = { file: `${ad.id}.mp4` };
    const ok = await call(videoRoute, signed.storageUrl!, { params, headers: { range: "bytes=0-7" } });
    expect(ok.status).toBe(206);
    const tampered = signed.storageUrl!.replace(/sig=./, (m) => (m.endsWith("A") ? "sig=B" : "sig=A"));
    expect((await call(videoRoute, tampered, { params })).status).toBe(404);
    // Signed for this ad only: the same signature on another id is 404.
    const other = await createAd(user.cookie);
    expect((await call(videoRoute, signed.storageUrl!.replace(`${ad.id}.mp4`, `${other.id}.mp4`), { params: { file: `${other.id}.mp4` } })).status).toBe(404);
    const sig = new URL(signed.storageUrl!, "https://x.test").searchParams.get("sig")!;
    await expect(aiAds.openSignedVideo(ad.id, Math.floor(Date.now() / 1000) + 7200, sig, "video", Date.now() + 3 * 3600_000)).rejects.toThrow(
      /has expired|No such video/,
    );
  });

  it("deleting an ad deletes its video file", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    await aiAds.render({ id: user.id, userSubscribed: "yes", aiAdsFirstUse: false }, ad.id);
    await aiAds.idle();
    const key = (await adRow(ad.id))!.storageKey!;
    expect(existsSync(path.join(storageDir, key))).toBe(true);
    const res = await call(adAction, `/api/ai-ads/${ad.id}`, { method: "DELETE", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(await res.json()).toEqual({ deleted: true });
    expect(existsSync(path.join(storageDir, key))).toBe(false);
    expect(await adRow(ad.id)).toBeNull();
  });
});

describe("when a render fails or the server crashed", () => {
  it("a video that cannot be saved is tried again by its job; after the last attempt the ad is 'failed' and refunded", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    let clock = Date.now();
    // The storage folder is a file: the video renders but cannot be saved.
    const notAFolder = path.join(storageDir, "not-a-folder");
    writeFileSync(notAFolder, "x");
    const broken = createAiAds({
      db,
      ai: builtInWriter,
      renderer: createBuiltInRenderer(),
      storage: createFileStorage(notAFolder),
      urlSecret: "test",
      // The job system's clock is the test's: it walks through every attempt by moving it on (decision 097).
      jobs: createJobs({ db, ownerId: "ai-ads-test", now: () => new Date(clock) }),
      video: { width: 180, height: 320, fps: 5 },
    });
    broken.registerJobs();
    const { queued } = await broken.render({ id: user.id, userSubscribed: "yes", aiAdsFirstUse: false }, ad.id);
    expect(queued).toBe(true);
    expect(await balanceOf(user.id)).toBe(0);
    await broken.idle();
    // The first attempt could not store the video: the job is queued again, the ad still rendering, credits held.
    const job = () => db.job.findFirst({ where: { kind: "ai-ads.render", payload: { contains: `"adId":${ad.id}` } }, select: { status: true, attempts: true, lastError: true } });
    expect((await adRow(ad.id))?.status).toBe("rendering");
    expect(await job()).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/the video was rendered but not stored \((ENOTDIR|EEXIST)\): tried again/) });
    expect(await balanceOf(user.id)).toBe(0);
    for (let i = 0; i < 10 && (await adRow(ad.id))?.status === "rendering"; i++) {
      clock += 10 * 60_000;
      await broken.idle();
    }
    expect(await job()).toMatchObject({ status: "done", attempts: 5 });
    const failed = await broken.get(user.id, ad.id);
    expect(failed.status).toBe("failed");
    expect(failed.errors).toEqual([
      expect.stringMatching(/^The video was rendered but could not be saved \((ENOTDIR|EEXIST)\)\. Try again in a moment\.$/),
      "Your 5 AI ad credits were refunded.",
    ]);
    expect(failed.storageUrl).toBeNull();
    expect(await balanceOf(user.id)).toBe(5);
    expect(await aiAdsLedger(user.id)).toEqual([
      { kind: "spend", amount: -5 },
      { kind: "refund", amount: 5 },
    ]);

    // A failed ad can be edited and rendered again: a new attempt, charged again.
    const retry = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(retry.status).toBe(202);
    await aiAds.idle();
    expect((await adRow(ad.id))?.status).toBe("completed");
    expect(await balanceOf(user.id)).toBe(0);
  }, 180_000);

  it("ads a crash left 'rendering' get their render job on first use, and are charged once", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    // What a crash leaves: the spend made and the ad marked rendering, no process rendering it.
    const spent = await credits.spend(db, { userId: user.id, feature: "ai-ads", idempotencyKey: `ai-ad-render:${ad.id}:1` });
    await db.aiAd.update({ where: { id: ad.id }, data: { status: "rendering", progress: 40, renderAttempt: 1, ledgerId: spent.ledgerId } });

    const restarted = createAiAds({
      db,
      ai: builtInWriter,
      renderer: createBuiltInRenderer(),
      storage: createFileStorage(storageDir),
      urlSecret: "test",
      jobs: createJobs({ db, ownerId: "ai-ads-test" }),
      video: { width: 180, height: 320, fps: 5 },
    });
    restarted.registerJobs();
    const listed = await restarted.list(user.id);
    expect(listed.find((a) => a.id === ad.id)?.status).toBe("rendering");
    await restarted.idle();
    expect(await restarted.get(user.id, ad.id)).toMatchObject({ status: "completed", progress: 100 });
    expect(await balanceOf(user.id)).toBe(0);
    expect(await aiAdsLedger(user.id)).toEqual([{ kind: "spend", amount: -5 }]);
  });
});

describe("who may", () => {
  it("anonymous callers get 401 from the JSON API and the video, and the sign-in redirect from the page", async () => {
    expect((await call(listRoute, "/api/ai-ads")).status).toBe(401);
    expect((await call(createRoute, "/api/ai-ads", { json: { objectID: PRODUCT.objectID } })).status).toBe(401);
    expect((await call(renderRoute, "/api/ai-ads/1/render", { method: "POST", params: { id: "1" } })).status).toBe(401);
    expect((await call(videoRoute, "/ai-ads/videos/1.mp4", { params: { file: "1.mp4" } })).status).toBe(401);
    const page = await call(pageLoader, "/dashboard/ai-ads");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Fai-ads");
  });

  it("without a paid state the page shows the upgrade prompt, and creating or rendering is 403 with a sentence", async () => {
    const user = await createSignedInUser({ userSubscribed: "no" });
    await grant(user.id, 10);
    const page = await (await call(pageLoader, "/dashboard/ai-ads", { cookie: user.cookie })).json();
    expect(page.access).toEqual({ create: false, lockedReason: expect.stringMatching(/^AI video ads are part of every plan/) });
    const res = await call(createRoute, "/api/ai-ads", { cookie: user.cookie, json: { objectID: PRODUCT.objectID } });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/start your free trial/);
    // An ad made while subscribed cannot be rendered after the plan lapsed.
    const paid = await seller(10);
    const ad = await createAd(paid.cookie);
    await db.user.update({ where: { id: paid.id }, data: { userSubscribed: "no" } });
    const render = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: paid.cookie, params: { id: String(ad.id) } });
    expect(render.status).toBe(403);
    expect(await balanceOf(paid.id)).toBe(10);
    expect((await adRow(ad.id))?.status).toBe("preview");
    expect(await db.aiAd.count({ where: { userId: user.id } })).toBe(0);
  });

  it("0 credits is 402 with the AI-ads upsell on first use, and nothing changes", async () => {
    const user = await seller(0);
    const page = await (await call(pageLoader, "/dashboard/ai-ads", { cookie: user.cookie })).json();
    expect(page).toMatchObject({ balance: 0, upsellOpen: true, cost: 5 });
    const ad = await createAd(user.cookie);
    const res = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ upsell: true, cost: 5, remaining: 0, error: expect.stringMatching(/^Not enough AI ad credits/) });
    expect((await adRow(ad.id))?.status).toBe("preview");
    expect(await aiAdsLedger(user.id)).toEqual([]);
    expect((await db.user.findUnique({ where: { id: user.id }, select: { aiAdsFirstUse: true } }))?.aiAdsFirstUse).toBe(true);
    // After the first use the upsell stays closed; the 402 remains.
    await db.user.update({ where: { id: user.id }, data: { aiAdsFirstUse: false } });
    const later = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "render", id: String(ad.id) } });
    expect(later.status).toBe(402);
    expect(await later.json()).toMatchObject({ ok: false, upsell: false });
  });

  it("an unknown product, an unknown ad and another user's ad are 404, and stay as they were", async () => {
    const owner = await seller(10);
    const ad = await createAd(owner.cookie);
    await aiAds.render({ id: owner.id, userSubscribed: "yes", aiAdsFirstUse: false }, ad.id);
    await aiAds.idle();
    const other = await seller(10);
    const unknown = await call(createRoute, "/api/ai-ads", { cookie: other.cookie, json: { objectID: "no-such-product" } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("No product with objectID no-such-product.");
    const id = String(ad.id);
    const attempts = [
      call(adLoader, `/api/ai-ads/${id}`, { cookie: other.cookie, params: { id } }),
      call(adAction, `/api/ai-ads/${id}`, { method: "PATCH", cookie: other.cookie, params: { id }, json: { title: "Mine now" } }),
      call(adAction, `/api/ai-ads/${id}`, { method: "DELETE", cookie: other.cookie, params: { id } }),
      call(renderRoute, `/api/ai-ads/${id}/render`, { method: "POST", cookie: other.cookie, params: { id } }),
      call(videoRoute, `/ai-ads/videos/${id}.mp4`, { cookie: other.cookie, params: { file: `${id}.mp4` } }),
      call(adLoader, "/api/ai-ads/abc", { cookie: other.cookie, params: { id: "abc" } }),
      call(adLoader, "/api/ai-ads/99999999", { cookie: other.cookie, params: { id: "99999999" } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    expect(await balanceOf(other.id)).toBe(10);
    const row = await adRow(ad.id);
    expect(row).toMatchObject({ status: "completed" });
    expect(existsSync(path.join(storageDir, row!.storageKey!))).toBe(true);
  });

  it("a bad edit is 422 naming the field (API and page), 400 for a body it cannot read, and nothing is saved", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    const before = await adRow(ad.id);
    const patch = (json: unknown) =>
      call(adAction, `/api/ai-ads/${ad.id}`, { method: "PATCH", cookie: user.cookie, params: { id: String(ad.id) }, json });
    const tooLong = await patch({ scenes: ad.scenes.map((_, i) => (i === 1 ? { text: "x".repeat(91) } : {})) });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toMatchObject({ fieldErrors: { "scenes.1.text": expect.stringMatching(/at most 90 characters/) } });
    const wrongCount = await patch({ scenes: [{ text: "one" }] });
    expect(wrongCount.status).toBe(422);
    expect((await patch({ scenes: "many" })).status).toBe(400);
    expect((await patch({ colour: "red" })).status).toBe(400);

    const form: Record<string, string> = { intent: "update", id: String(ad.id), title: ad.title };
    ad.scenes.forEach((s, i) => {
      form[`text${i}`] = s.text;
      form[`seconds${i}`] = String(s.durationMs / 1000);
    });
    const res = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { ...form, text2: "", seconds0: "soon" } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      ok: false,
      message: "Some fields need attention: Scene 1 duration.",
      fieldErrors: { "scenes.0.durationMs": "Enter seconds, like 3 or 2.5." },
    });
    const empty = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { ...form, text2: "" } });
    expect(await empty.json()).toMatchObject({ message: "Some fields need attention: Scene 3 text." });
    const long = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { ...form, seconds0: "6", seconds1: "6", seconds2: "6" } });
    expect(await long.json()).toMatchObject({ message: "Some fields need attention: Scenes." });
    expect(await adRow(ad.id)).toEqual(before);
    const saved = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { ...form, text2: "Meet the brush" } });
    expect(saved.status).toBe(200);
    expect(JSON.parse((await adRow(ad.id))!.scenes)[2].text).toBe("Meet the brush");
  });

  // A voice the speech adapter does not offer is refused in tests/integration/ai-ads/ai-ads-sound.test.ts (this server has none).
  it("the API sets and clears an ad's voice (decision 067); an empty name is 400 and not saved", async () => {
    const user = await seller(5);
    const ad = await createAd(user.cookie);
    const patch = (json: unknown) => call(adAction, `/api/ai-ads/${ad.id}`, { method: "PATCH", cookie: user.cookie, params: { id: String(ad.id) }, json });
    const chosen = await patch({ voice: "nova" });
    expect(chosen.status, await chosen.clone().text()).toBe(200);
    const voiceOf = async () => (await db.aiAd.findUniqueOrThrow({ where: { id: ad.id }, select: { voice: true } })).voice;
    expect(await voiceOf()).toBe("nova");
    expect((await patch({ voice: "" })).status).toBe(400);
    expect(await voiceOf()).toBe("nova");
    expect((await patch({ voice: null })).status).toBe(200);
    expect(await voiceOf()).toBeNull();
  });
});

describe("text that would not fit on the video (decision 062)", () => {
  it("a render or preview is refused before any credit is spent, naming the scene; nothing is cut or queued", async () => {
    const user = await seller(10);
    const ad = await createAd(user.cookie);
    // Saves (it is under 90 characters), but one word is wider than a whole line of the frame.
    const word = "Supercalifragilisticexpialidociousbrushes";
    const patched = await call(adAction, `/api/ai-ads/${ad.id}`, {
      method: "PATCH",
      cookie: user.cookie,
      params: { id: String(ad.id) },
      json: { scenes: ad.scenes.map((_, i) => (i === 2 ? { text: `Meet the ${word}` } : {})) },
    });
    expect(patched.status).toBe(200);
    const res = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      fieldErrors: { "scenes.2.text": `"${word}" is too wide for one line of the video: shorten it or break it into two words.` },
    });
    expect(await balanceOf(user.id)).toBe(10);
    expect(await aiAdsLedger(user.id)).toEqual([]);
    expect(await adRow(ad.id)).toMatchObject({ status: "preview", storageKey: null });
    // The page names the scene; the free preview is refused the same way, and counts nothing.
    const page = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "render", id: String(ad.id) } });
    expect(page.status).toBe(422);
    expect(await page.json()).toMatchObject({ ok: false, message: "Some fields need attention: Scene 3 text." });
    const preview = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "preview", id: String(ad.id) } });
    expect(preview.status).toBe(422);
    expect(await db.aiAdPreview.count({ where: { userId: user.id } })).toBe(0);
  });

  it("offers three hooks, keeps a chosen shape, and renders a 4:5 video at the shape's size", async () => {
    const user = await seller(10);
    const ad = await createAd(user.cookie);
    expect(ad.hookOptions).toHaveLength(3);
    expect(ad.hookOptions[0]).toBe(ad.scenes[0].text);
    expect(ad.format).toBe("9:16");
    const patch = (json: unknown) => call(adAction, `/api/ai-ads/${ad.id}`, { method: "PATCH", cookie: user.cookie, params: { id: String(ad.id) }, json });
    expect((await patch({ format: "16:9" })).status).toBe(400);
    const shaped = await patch({ format: "4:5", scenes: ad.scenes.map((_, i) => (i === 0 ? { text: ad.hookOptions[2] } : {})) });
    expect(shaped.status).toBe(200);
    expect(await shaped.json()).toMatchObject({ format: "4:5", scenes: [{ text: ad.hookOptions[2] }, {}, {}, {}, {}] });
    const res = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(res.status).toBe(202);
    await aiAds.idle();
    const done = await (await call(adLoader, `/api/ai-ads/${ad.id}`, { cookie: user.cookie, params: { id: String(ad.id) } })).json();
    // VIDEO_SIZE is 180x320 here: 4:5 at 180 wide is 180x226 (225, rounded up to even).
    expect(done).toMatchObject({ status: "completed", width: 180, height: 226 });
  });
});

describe("the page", () => {
  it("preselects the product a product page sent, finds products by name, and creates an ad through the form", async () => {
    const user = await seller(5);
    const page = await (await call(pageLoader, `/dashboard/ai-ads?product=${PRODUCT.objectID}`, { cookie: user.cookie })).json();
    expect(page.picker.selected).toMatchObject({ objectID: PRODUCT.objectID, title: PRODUCT.title, orders: 12840 });
    const word = PRODUCT.title.split(" ")[0];
    const found = await (await call(pageLoader, `/dashboard/ai-ads?q=${encodeURIComponent(word)}`, { cookie: user.cookie })).json();
    expect(found.picker.results.map((p: { objectID: string }) => p.objectID)).toContain(PRODUCT.objectID);
    const missing = await (await call(pageLoader, "/dashboard/ai-ads?product=nope", { cookie: user.cookie })).json();
    expect(missing.picker.missing).toBe("nope");
    const created = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "create", objectID: PRODUCT.objectID } });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ ok: true, adId: expect.any(Number) });
    expect((await adRow(body.adId))?.status).toBe("preview");
    expect(readdirSync(storageDir).every((f) => !f.endsWith(".tmp"))).toBe(true);
  });
});

describe("the script writer on a chat-completions endpoint", () => {
  it("sends the product's facts and real figures, and keeps the model's name as the writer", async () => {
    const ai = await startFakeAi();
    try {
      const script = {
        title: "Brush ad",
        scenes: [
          { kind: "hook", text: "Fur on everything?", seconds: 3 },
          { kind: "problem", text: "Brushes clog after one stroke", seconds: 3 },
          { kind: "product", text: "This brush cleans itself", seconds: 4 },
          { kind: "proof", text: "12,840 orders last month", seconds: 3 },
          { kind: "cta", text: "Get yours today", seconds: 3 },
        ],
      };
      ai.script({ kind: "content", content: JSON.stringify(script) }, { kind: "error", status: 401 });
      const service = createAiAds({
        db,
        ai: createAiText({ baseUrl: ai.url, apiKey: ai.apiKey, model: "gpt-test", retryDelayMs: 1 }),
        renderer: createBuiltInRenderer(),
        storage: createFileStorage(storageDir),
        urlSecret: "test",
      jobs: createJobs({ db, ownerId: "ai-ads-test" }),
      });
      const user = await seller(0);
      const ad = await service.create({ user: { id: user.id, userSubscribed: "yes", aiAdsFirstUse: true }, objectID: PRODUCT.objectID });
      expect(ad).toMatchObject({ writer: "gpt-test", title: "Brush ad", scriptMs: 16_000, status: "preview" });
      expect(ad.scenes.map((s) => s.text)).toEqual(script.scenes.map((s) => s.text));
      const sent = ai.requests[0];
      expect(sent.headers.authorization).toBe(`Bearer ${ai.apiKey}`);
      const prompt = JSON.parse((sent.body.messages as { content: string }[])[1].content);
      expect(prompt).toMatchObject({ product: { title: PRODUCT.title }, figures: { ordersLast30Days: 12840 } });

      // A writer that fails is a 502 with a sentence, and no ad is kept.
      const count = await db.aiAd.count({ where: { userId: user.id } });
      await expect(
        service.create({ user: { id: user.id, userSubscribed: "yes", aiAdsFirstUse: true }, objectID: PRODUCT.objectID }),
      ).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/^The gpt-test could not write this ad: The AI endpoint refused the API key/) });
      expect(await db.aiAd.count({ where: { userId: user.id } })).toBe(count);
    } finally {
      await ai.close();
    }
  });
});

it("the temporary storage holds only finished videos", () => {
  for (const f of readdirSync(storageDir).filter((f) => f.endsWith(".mp4"))) {
    expect(readFileSync(path.join(storageDir, f)).subarray(4, 8).toString("latin1")).toBe("ftyp");
  }
});
