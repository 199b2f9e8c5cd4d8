// The free preview render of an AI ad (docs/decisions/036), on the real database, the real renderer and a
// temporary VIDEO_STORAGE_DIR: "Preview video (free)" renders the saved script at 540x960, 15 fps, for no
// credits; asking again for the same script starts nothing; an edit makes it out of date and a new one
// replaces the old file; the day's allowance answers 429 with when the next is possible and creates
// nothing; only the owner (or a signed link for the preview, not the video's) plays it; a failure says
// why; a preview left rendering by a crash is picked up; deleting the ad deletes the file.
import { beforeAll, describe, expect, it, vi } from "vitest";

const storageDir = await vi.hoisted(async () => {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const dir = mkdtempSync(path.join(tmpdir(), "ai-ads-preview-test-"));
  // The paid render small and quick here; the preview keeps its real size.
  Object.assign(process.env, { VIDEO_STORAGE_DIR: dir, VIDEO_SIZE: "180x320", VIDEO_FPS: "5" });
  return dir;
});

import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "~/db.server";
import { sceneFrames, totalDurationMs, FREE_PREVIEWS_PER_DAY } from "~/domain/ai-ads/ai-ads";
import { builtInWriter } from "~/integrations/ai-text.server";
import { createBuiltInRenderer, PREVIEW_VIDEO } from "~/integrations/video-render.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { action as previewRoute, loader as previewGet } from "~/routes/api.ai-ads.$id.preview";
import { action as renderRoute } from "~/routes/api.ai-ads.$id.render";
import { action as adAction, loader as adLoader } from "~/routes/api.ai-ads.$id";
import { action as createRoute } from "~/routes/api.ai-ads";
import { loader as videoRoute } from "~/routes/ai-ads.videos.$file";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.ai-ads";
import { createAiAds, type AiAdView } from "~/services/ai-ads.server";
import { previewJobKey } from "~/services/ai-ads/model.server";
import { createJobs } from "~/services/jobs.server";
import * as credits from "~/services/billing/credits.server";
import { aiAds } from "~/services/index.server";
import { readMp4 } from "../../helpers/mp4";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [PRODUCT] = fixtureCatalogue(1, 47).map((p) => ({ ...p, objectID: "preview-lamp", orders: 5120 }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
});

async function seller(balance = 0, fields: Parameters<typeof createSignedInUser>[0] = {}) {
  const user = await createSignedInUser({ userSubscribed: "yes", ...fields });
  if (balance > 0)
    await credits.applyAllowance(db, {
      userId: user.id,
      feature: "ai-ads",
      allowance: balance,
      idempotencyKey: `preview-test-grant:${user.id}`,
      reason: "test grant",
      mode: "reset",
    });
  return user;
}

async function createAd(cookie: string): Promise<AiAdView> {
  const res = await call(createRoute, "/api/ai-ads", { cookie, json: { objectID: PRODUCT.objectID } });
  expect(res.status).toBe(201);
  return res.json();
}

const askPreview = (cookie: string | null, id: number) =>
  call(previewRoute, `/api/ai-ads/${id}/preview`, { method: "POST", cookie, params: { id: String(id) } });
const getAd = async (cookie: string, id: number): Promise<AiAdView> =>
  (await call(adLoader, `/api/ai-ads/${id}`, { cookie, params: { id: String(id) } })).json();
const previewRows = (userId: string) => db.aiAdPreview.findMany({ where: { userId }, orderBy: { id: "asc" } });
const previewFiles = () => (existsSync(path.join(storageDir, "previews")) ? readdirSync(path.join(storageDir, "previews")) : []);
const ledger = (userId: string) => db.creditLedger.findMany({ where: { userId, feature: "ai-ads", kind: { in: ["spend", "refund"] } } });

function serviceWith(extra: Partial<Parameters<typeof createAiAds>[0]> = {}) {
  const service = createAiAds({
    db,
    ai: builtInWriter,
    renderer: createBuiltInRenderer(),
    storage: createFileStorage(storageDir),
    urlSecret: "preview-test",
    jobs: createJobs({ db, ownerId: "ai-ads-preview-test" }),
    video: { width: 180, height: 320, fps: 5 },
    preview: { width: 90, height: 160, fps: 5 },
    ...extra,
  });
  service.registerJobs();
  return service;
}

describe("the free preview render", () => {
  it("renders the saved script at 540x960, 15 fps, for no credits, and serves it to its owner", async () => {
    const user = await seller(0);
    const ad = await createAd(user.cookie);
    expect(ad.previewVideo).toBeNull();

    const asked = await askPreview(user.cookie, ad.id);
    expect(asked.status).toBe(202);
    const queued: AiAdView = await asked.json();
    expect(queued.status).toBe("preview");
    expect(queued.previewVideo).toMatchObject({ status: "rendering", progress: 0, url: null });

    await aiAds.idle();
    const done = await getAd(user.cookie, ad.id);
    expect(done.status).toBe("preview");
    expect(done.storageUrl).toBeNull();
    expect(done.previewVideo).toMatchObject({ status: "completed", progress: 100, current: true, width: 540, height: 960 });
    expect(done.previewVideo!.url).toMatch(new RegExp(`^/ai-ads/videos/${ad.id}-preview\\.mp4\\?v=\\d+$`));

    const file = await call(videoRoute, done.previewVideo!.url!, { cookie: user.cookie, params: { file: `${ad.id}-preview.mp4` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    const mp4 = readMp4(new Uint8Array(await file.arrayBuffer()));
    expect([mp4.width, mp4.height]).toEqual([PREVIEW_VIDEO.width, PREVIEW_VIDEO.height]);
    expect(mp4.frames).toBe(done.scenes.reduce((n, s) => n + sceneFrames(s.durationMs, PREVIEW_VIDEO.fps), 0));
    // Each scene is a whole number of frames: the video is the script's length to within half a frame a scene.
    expect(Math.abs(mp4.movieDurationMs - done.previewVideo!.durationMs!)).toBeLessThanOrEqual(1000 / PREVIEW_VIDEO.fps);
    expect(Math.abs(mp4.movieDurationMs - totalDurationMs(done.scenes))).toBeLessThanOrEqual((done.scenes.length * 1000) / PREVIEW_VIDEO.fps / 2 + 1);

    // Free: no credits asked (the seller has none), none spent.
    expect(await ledger(user.id)).toEqual([]);
    // The full video is still to render, and still costs its credits.
    const paid = await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    expect(paid.status).toBe(402);

    // Asking again for the same script starts nothing.
    const again = await askPreview(user.cookie, ad.id);
    expect(again.status).toBe(200);
    expect(await previewRows(user.id)).toHaveLength(1);
  });

  it("an edit makes the preview out of date; a new one replaces the old file", async () => {
    const user = await seller(0);
    const ad = await createAd(user.cookie);
    await askPreview(user.cookie, ad.id);
    await aiAds.idle();
    const before = previewFiles().filter((f) => f.startsWith(`${ad.id}-`));
    expect(before).toHaveLength(1);

    const edited = await call(adAction, `/api/ai-ads/${ad.id}`, {
      method: "PATCH",
      cookie: user.cookie,
      params: { id: String(ad.id) },
      json: { title: "A brighter desk, tonight" },
    });
    expect(edited.status).toBe(200);
    expect((await getAd(user.cookie, ad.id)).previewVideo).toMatchObject({ status: "completed", current: false });

    expect((await askPreview(user.cookie, ad.id)).status).toBe(202);
    await aiAds.idle();
    const after = await getAd(user.cookie, ad.id);
    expect(after.previewVideo).toMatchObject({ status: "completed", current: true });
    const files = previewFiles().filter((f) => f.startsWith(`${ad.id}-`));
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe(before[0]);
    expect((await previewRows(user.id)).map((r) => r.storageKey === null)).toEqual([true, false]);
  });

  it("who may: anonymous 401, an unpaid user 403, someone else's ad 404; the video's signature does not open the preview", async () => {
    const owner = await seller(0);
    const ad = await createAd(owner.cookie);
    await askPreview(owner.cookie, ad.id);
    await aiAds.idle();

    expect((await askPreview(null, ad.id)).status).toBe(401);
    const stranger = await seller(0);
    const notYours = await askPreview(stranger.cookie, ad.id);
    expect(notYours.status).toBe(404);
    expect((await notYours.json()).error).toBe("No such AI ad.");
    const file = `${ad.id}-preview.mp4`;
    expect((await call(videoRoute, `/ai-ads/videos/${file}`, { cookie: stranger.cookie, params: { file } })).status).toBe(404);
    expect((await call(videoRoute, `/ai-ads/videos/${file}`, { params: { file } })).status).toBe(401);
    expect((await call(previewGet, `/api/ai-ads/${ad.id}/preview`, { cookie: owner.cookie, params: { id: String(ad.id) } })).status).toBe(405);

    const lapsed = await seller(0, { userSubscribed: "no" });
    const own = await db.aiAd.create({
      data: { userId: lapsed.id, productObjectID: PRODUCT.objectID, title: "Old ad", scenes: JSON.stringify(ad.scenes), writer: "built-in writer" },
    });
    const refused = await askPreview(lapsed.cookie, own.id);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/start your free trial/);
    expect(await previewRows(lapsed.id)).toEqual([]);

    // Inside Shopify admin the preview link is signed for the preview: it plays without a cookie; the same
    // signature on the rendered video's path does not.
    const [signed] = aiAds.withSignedUrls(owner.id, [await aiAds.get(owner.id, ad.id)]);
    const url = signed.previewVideo!.url!;
    expect(url).toMatch(/&expires=\d+&sig=/);
    expect((await call(videoRoute, url, { params: { file } })).status).toBe(200);
    expect((await call(videoRoute, url.replace("-preview.mp4", ".mp4"), { params: { file: `${ad.id}.mp4` } })).status).toBe(404);
  });

  it("an ad rendered or rendering in full gets 409; a script that fails the checks 422; nothing is created", async () => {
    const user = await seller(10);
    const ad = await createAd(user.cookie);
    await call(renderRoute, `/api/ai-ads/${ad.id}/render`, { method: "POST", cookie: user.cookie, params: { id: String(ad.id) } });
    const whileRendering = await askPreview(user.cookie, ad.id);
    expect(whileRendering.status).toBe(409);
    expect((await whileRendering.json()).error).toBe("This ad is rendering in full; its video will be here in a moment.");
    await aiAds.idle();
    const rendered = await askPreview(user.cookie, ad.id);
    expect(rendered.status).toBe(409);
    expect((await rendered.json()).error).toBe("This ad is already rendered in full: its video is on this page.");

    const broken = await db.aiAd.create({
      data: { userId: user.id, productObjectID: PRODUCT.objectID, title: "Too short", scenes: JSON.stringify(ad.scenes.slice(0, 2)), writer: "built-in writer" },
    });
    const invalid = await askPreview(user.cookie, broken.id);
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).fieldErrors).toHaveProperty("scenes");
    expect(await previewRows(user.id)).toEqual([]);
  });

  it(`allows ${FREE_PREVIEWS_PER_DAY} a day by default; past the allowance 429 says when, creates nothing, and the rows count after the ad is deleted`, async () => {
    // Rows get the real time when made; the allowance is read against this clock.
    let clock = new Date();
    const service = serviceWith({ previewsPerDay: 2, now: () => clock });
    const user = await seller(0);
    const who = { id: user.id, userSubscribed: "yes" as const, aiAdsFirstUse: false };
    const first = await service.create({ user: who, objectID: PRODUCT.objectID });
    const second = await service.create({ user: who, objectID: PRODUCT.objectID });
    const third = await service.create({ user: who, objectID: PRODUCT.objectID });
    await service.preview(who, first.id);
    await service.idle();
    await service.preview(who, second.id);
    await service.idle();
    expect(await service.previewAllowance(user.id)).toMatchObject({ limit: 2, used: 2, left: 0 });

    // Deleting an ad deletes its preview file, but its row still counts.
    const firstFile = (await previewRows(user.id))[0].storageKey!;
    expect(existsSync(path.join(storageDir, firstFile))).toBe(true);
    await service.remove(user.id, first.id);
    expect(existsSync(path.join(storageDir, firstFile))).toBe(false);
    expect(await previewRows(user.id)).toHaveLength(2);

    const refused = service.preview(who, third.id);
    await expect(refused).rejects.toMatchObject({ status: 429 });
    await expect(refused).rejects.toThrow(/You have made 2 free previews in the last 24 hours\. The next one is possible from \d\d:\d\d UTC\. Rendering the full video still works\./);
    // The answer's Retry-After: when the first of the day's previews is 24 hours old.
    const seconds = ((await refused.catch((error: unknown) => error)) as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(seconds).toBeGreaterThan(23 * 3600);
    expect(seconds).toBeLessThanOrEqual(24 * 3600 + 1);
    expect(await previewRows(user.id)).toHaveLength(2);

    clock = new Date(Date.now() + 24 * 3600_000 + 60_000);
    expect((await service.preview(who, third.id)).queued).toBe(true);
  });

  it("a failure says why and costs nothing; a preview left rendering by a crash is picked up", async () => {
    const user = await seller(0);
    const who = { id: user.id, userSubscribed: "yes" as const, aiAdsFirstUse: false };
    const notAFolder = path.join(storageDir, "a-file");
    writeFileSync(notAFolder, "not a folder");
    // Retries a millisecond apart: a preview that cannot be saved is tried again until its job's last attempt (decision 097).
    const broken = serviceWith({ storage: createFileStorage(notAFolder), jobs: createJobs({ db, ownerId: "ai-ads-preview-test", backoff: { baseMs: 1, maxMs: 1 } }) });
    const ad = await broken.create({ user: who, objectID: PRODUCT.objectID });
    expect((await broken.preview(who, ad.id)).queued).toBe(true);
    await broken.idle();
    const previewStatus = async () => (await broken.get(user.id, ad.id)).previewVideo?.status;
    for (let i = 0; i < 10 && (await previewStatus()) === "rendering"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await broken.idle();
    }
    const previewRow = await db.aiAdPreview.findFirst({ where: { adId: ad.id }, orderBy: { id: "desc" }, select: { id: true } });
    expect(await db.job.findUnique({ where: { key: previewJobKey(previewRow!.id) }, select: { attempts: true } })).toEqual({ attempts: 5 });
    const failed = (await broken.get(user.id, ad.id)).previewVideo;
    expect(failed).toMatchObject({ status: "failed", url: null });
    expect(failed!.error).toMatch(/^The preview was rendered but could not be saved \((ENOTDIR|EEXIST)\)\.$/);
    expect(await ledger(user.id)).toEqual([]);
    // Our failure, not the seller's: it does not count against the day's free previews.
    expect(await broken.previewAllowance(user.id)).toMatchObject({ used: 0, left: FREE_PREVIEWS_PER_DAY });

    // A row left "rendering" with no job (a crash between the two): a new process queues and renders it.
    const orphan = await db.aiAdPreview.create({ data: { userId: user.id, adId: ad.id } });
    const restarted = serviceWith();
    expect((await restarted.get(user.id, ad.id)).previewVideo).toMatchObject({ status: "rendering" });
    await restarted.idle();
    expect(await db.aiAdPreview.findUnique({ where: { id: orphan.id } })).toMatchObject({ status: "completed", width: 90, height: 160 });
  }, 120_000);

  it("the page: the allowance in the loader, the preview intent in the action", async () => {
    const user = await seller(0);
    const ad = await createAd(user.cookie);
    const page = await (await call(pageLoader, `/dashboard/ai-ads?ad=${ad.id}`, { cookie: user.cookie })).json();
    expect(page.previews).toMatchObject({ limit: FREE_PREVIEWS_PER_DAY, left: FREE_PREVIEWS_PER_DAY });
    expect(page.sizes).toEqual({ video: { width: 180, height: 320, fps: 5 }, preview: PREVIEW_VIDEO });
    const res = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "preview", id: String(ad.id) } });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ ok: true, message: "Making the free preview: it takes a few seconds." });
    const after = await (await call(pageLoader, `/dashboard/ai-ads?ad=${ad.id}`, { cookie: user.cookie })).json();
    expect(after.previews.left).toBe(FREE_PREVIEWS_PER_DAY - 1);
    const bad = await call(pageAction, "/dashboard/ai-ads", { cookie: user.cookie, form: { intent: "preview", id: "nope" } });
    expect(bad.status).toBe(404);
    await aiAds.idle();
  });
});
