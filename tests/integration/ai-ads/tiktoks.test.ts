// The TikTok library through its routes on the real database, with TikTok's oEmbed endpoint played by a
// local server (TIKTOK_OEMBED_URL) reached through the real SSRF-safe fetcher and the real job system:
// saving a link (pending -> fetched with title, author and thumbnail), short links resolved by the answer,
// links that are not TikTok videos refused with a sentence, oEmbed failures and timeouts leaving the link
// saved and "not fetched" (retried by the job system, fetched again on request), owner-only access, the
// product page's "Seen on TikTok" and the references the ad writer gets.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const fake = await vi.hoisted(async () => {
  const { startFakeTikTokOEmbed } = await import("../../helpers/fake-tiktok-oembed");
  const server = await startFakeTikTokOEmbed();
  Object.assign(process.env, { TIKTOK_OEMBED_URL: server.url, TRACKER_ALLOW_HOSTS: `127.0.0.1:${server.port}` });
  return server;
});

import { db, readerFor } from "~/db.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createTikTokOEmbed, TikTokOEmbedError } from "~/integrations/tiktok-oembed.server";
import { action as deleteRoute } from "~/routes/api.tiktoks.$id";
import { action as addRoute, loader as listRoute } from "~/routes/api.tiktoks";
import { loader as productPage } from "~/routes/dashboard.products.$objectID";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.tiktoks";
import { tiktoks } from "~/services/index.server";
import { createTikToks, OEMBED_JOB, type TikTokView } from "~/services/ai-ads/tiktoks.server";
import { jobsOf } from "../../helpers/jobs";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { throughPrisma } from "../../helpers/prisma-reads";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const [PRODUCT, OTHER] = fixtureCatalogue(2, 77).map((p, i) => ({ ...p, objectID: `tt-product-${i}` }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT, OTHER]);
});
afterAll(() => fake.close());

let nextId = 7_300_000_000_000_000_000n;
const videoUrl = (user = "gadgetshop") => `https://www.tiktok.com/@${user}/video/${(nextId++).toString()}`;

async function add(cookie: string, body: Record<string, unknown>) {
  return call(addRoute, "/api/tiktoks", { cookie, json: body });
}

async function list(cookie: string, query = ""): Promise<TikTokView[]> {
  return (await (await call(listRoute, `/api/tiktoks${query}`, { cookie })).json()).tiktoks;
}

const jobOf = async (id: number) => (await jobsOf(OEMBED_JOB, `${OEMBED_JOB}:${id}`))[0] ?? null;

describe("saving TikTok videos", () => {
  it("saves a link as pending, then the job fills in title, author and thumbnail from oEmbed", async () => {
    const user = await createSignedInUser();
    const url = videoUrl();
    const res = await add(user.cookie, { url: `${url}?is_from_webapp=1&sender_device=pc#x`, objectID: PRODUCT.objectID, note: "Hook in the first second" });
    expect(res.status).toBe(201);
    const saved = (await res.json()) as TikTokView;
    expect(saved).toMatchObject({ url, metaStatus: "pending", title: null, note: "Hook in the first second", product: { objectID: PRODUCT.objectID } });
    await tiktoks.idle();
    // What TikTok was asked: the canonical link, with our User-Agent.
    const asked = fake.requests.find((r) => r.url === url);
    expect(asked?.userAgent).toMatch(/WinningProducts/);
    const [after] = await list(user.cookie, `?objectID=${PRODUCT.objectID}`);
    expect(after).toMatchObject({
      id: saved.id,
      metaStatus: "fetched",
      title: expect.stringContaining("This gadget changed my mornings"),
      authorName: "gadgetshop shop",
      authorUrl: "https://www.tiktok.com/@gadgetshop",
      thumbnailUrl: expect.stringMatching(/^https:\/\/p16-sign\.tiktokcdn-us\.com\//),
      fetchError: null,
    });
  });

  it("resolves a short link to the video the oEmbed answer names", async () => {
    const user = await createSignedInUser();
    const id = (nextId++).toString();
    fake.shortLinks.set("https://vm.tiktok.com/ZMabc123/", { user: "shortie", id });
    const res = await add(user.cookie, { url: "vm.tiktok.com/ZMabc123", objectID: PRODUCT.objectID });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ url: "https://vm.tiktok.com/ZMabc123/", videoId: null, metaStatus: "pending" });
    await tiktoks.idle();
    const [after] = await list(user.cookie);
    expect(after).toMatchObject({ url: `https://www.tiktok.com/@shortie/video/${id}`, videoId: id, metaStatus: "fetched", authorName: "shortie shop" });
    // Saving the same video again (by its full link) is refused: it is already there.
    const again = await add(user.cookie, { url: `https://www.tiktok.com/@shortie/video/${id}`, objectID: PRODUCT.objectID });
    expect(again.status).toBe(409);
  });

  it.each([
    ["https://www.youtube.com/watch?v=abc", /www\.youtube\.com is not TikTok/],
    ["https://tiktok.com.evil.example/@a/video/7300000000000000000", /tiktok\.com\.evil\.example is not TikTok/],
    ["https://www.tiktok.com/@someone", /profile of @someone/],
    ["https://www.tiktok.com/@someone/photo/7300000000000000000", /photo post, not a video/],
    ["https://vm.tiktok.com/", /no video code/],
    ["javascript:alert(1)", /not a web address|Only https links/],
    ["ftp://www.tiktok.com/@a/video/7300000000000000000", /Only https links/],
    ["not a link at all", /not a web address|is not TikTok/],
  ])("refuses %s with a sentence and saves nothing", async (url, message) => {
    const user = await createSignedInUser();
    const res = await add(user.cookie, { url, objectID: PRODUCT.objectID });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error).toMatch(message);
    expect(body.fieldErrors.url).toBe(body.error);
    expect(await db.tikTok.count({ where: { userId: user.id } })).toBe(0);
  });

  it("answers 404 for an unknown product and 400 for a malformed body", async () => {
    const user = await createSignedInUser();
    expect((await add(user.cookie, { url: videoUrl(), objectID: "no-such-product" })).status).toBe(404);
    expect((await add(user.cookie, { url: 42, objectID: PRODUCT.objectID })).status).toBe(400);
    expect(await db.tikTok.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("when oEmbed fails", () => {
  it("keeps the link marked not fetched with the reason, retries later, and fetches it when TikTok answers again", async () => {
    const user = await createSignedInUser();
    const url = videoUrl();
    fake.mode.set(url, "server-error");
    const saved = (await (await add(user.cookie, { url, objectID: PRODUCT.objectID })).json()) as TikTokView;
    await tiktoks.idle();
    const [failed] = await list(user.cookie);
    expect(failed).toMatchObject({ url, metaStatus: "not-fetched", title: null, fetchError: expect.stringMatching(/TikTok answered with an error \(503\); we will try again later/) });
    // The job system has it queued again, for later.
    const job = await jobOf(saved.id);
    expect(job).toMatchObject({ status: "queued", attempts: 1 });
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now());
    // TikTok is back; the seller asks again from the page.
    fake.mode.delete(url);
    const again = await call(pageAction, "/dashboard/tiktoks", { cookie: user.cookie, form: { intent: "refetch", id: String(saved.id) } });
    expect(again.status).toBe(202);
    await tiktoks.idle();
    expect((await list(user.cookie))[0]).toMatchObject({ metaStatus: "fetched", fetchError: null });
  });

  it("does not retry a video TikTok says is gone", async () => {
    const user = await createSignedInUser();
    const url = videoUrl();
    fake.mode.set(url, "not-found");
    const saved = (await (await add(user.cookie, { url, objectID: PRODUCT.objectID })).json()) as TikTokView;
    await tiktoks.idle();
    expect((await list(user.cookie))[0]).toMatchObject({ metaStatus: "not-fetched", fetchError: expect.stringMatching(/no public video at this link/) });
    expect((await jobOf(saved.id))?.status).toBe("done");
  });

  it("says so when TikTok's answer is not JSON", async () => {
    const user = await createSignedInUser();
    const url = videoUrl();
    fake.mode.set(url, "not-json");
    await add(user.cookie, { url, objectID: PRODUCT.objectID });
    await tiktoks.idle();
    expect((await list(user.cookie))[0]).toMatchObject({ metaStatus: "not-fetched", fetchError: expect.stringMatching(/not JSON/) });
  });

  it("gives up on a request TikTok does not answer in time (timeout), and on no network at all", async () => {
    const url = videoUrl();
    fake.mode.set(url, "hang");
    const fetcher = createSafeFetcher({ contactUrl: "https://winning-products.test/", allowHosts: [`127.0.0.1:${fake.port}`] });
    const slow = createTikTokOEmbed({ baseUrl: fake.url, fetcher, timeoutMs: 300 });
    const started = Date.now();
    const error = await slow.lookup(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TikTokOEmbedError);
    expect(error).toMatchObject({ kind: "unavailable", message: expect.stringMatching(/did not answer within/) });
    expect(Date.now() - started).toBeLessThan(3000);
    // Nothing listening: unreachable, also "try later".
    const offline = createTikTokOEmbed({ baseUrl: "http://127.0.0.1:9/oembed", fetcher: createSafeFetcher({ contactUrl: "https://x.test/", allowHosts: ["127.0.0.1:9"] }) });
    expect(await offline.lookup(url).catch((e: unknown) => e)).toMatchObject({ kind: "unavailable", message: expect.stringMatching(/could not be reached/) });
    // And without the allow-list the safe fetcher refuses a private address outright.
    const guarded = createTikTokOEmbed({ baseUrl: fake.url, fetcher: createSafeFetcher({ contactUrl: "https://x.test/" }) });
    expect(await guarded.lookup(url).catch((e: unknown) => e)).toMatchObject({ kind: "unavailable" });
    fetcher.close();
  });
});

describe("whose videos", () => {
  it("lists only the user's own, and another user's video is 404 to delete (and stays)", async () => {
    const owner = await createSignedInUser();
    const other = await createSignedInUser();
    const saved = (await (await add(owner.cookie, { url: videoUrl(), objectID: OTHER.objectID })).json()) as TikTokView;
    expect(await list(other.cookie)).toEqual([]);
    const res = await call(deleteRoute, `/api/tiktoks/${saved.id}`, { method: "DELETE", cookie: other.cookie, params: { id: String(saved.id) } });
    expect(res.status).toBe(404);
    expect((await call(deleteRoute, "/api/tiktoks/x", { method: "DELETE", cookie: owner.cookie, params: { id: "x" } })).status).toBe(404);
    const gone = await call(deleteRoute, `/api/tiktoks/${saved.id}`, { method: "DELETE", cookie: owner.cookie, params: { id: String(saved.id) } });
    expect(await gone.json()).toEqual({ deleted: true });
    expect(await list(owner.cookie)).toEqual([]);
    expect((await call(listRoute, "/api/tiktoks")).status).toBe(401);
  });
});

describe("where saved videos show", () => {
  it("on the product's page (Seen on TikTok), on the TikToks page, and as references for the ad writer", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const url = videoUrl("hookmaster");
    const added = await call(pageAction, "/dashboard/tiktoks", { cookie: user.cookie, form: { intent: "add", url, objectID: PRODUCT.objectID, note: "Before/after split" } });
    expect(added.status).toBe(201);
    await tiktoks.idle();
    const detail = await (await call(productPage, `/dashboard/products/${PRODUCT.objectID}`, { cookie: user.cookie, params: { objectID: PRODUCT.objectID } })).json();
    expect(detail.seenOnTikTok.map((v: TikTokView) => v.url)).toEqual([url]);
    const page = await (await call(pageLoader, "/dashboard/tiktoks", { cookie: user.cookie })).json();
    expect(page.tiktoks[0]).toMatchObject({ url, note: "Before/after split", authorName: "hookmaster shop" });
    const refs = await tiktoks.references(user.id, PRODUCT.objectID);
    // The hook is the caption without its hashtags.
    expect(refs).toEqual([{ hook: expect.stringMatching(/^This gadget changed my mornings \(\d+\)$/), author: "hookmaster shop", url, note: "Before/after split" }]);
    expect(await tiktoks.references(user.id, OTHER.objectID)).toEqual([]);
    // The saved link's oEmbed job ran once and is done.
    expect((await jobsOf(OEMBED_JOB, `${OEMBED_JOB}:${page.tiktoks[0].id}`)).map((j) => j.status)).toEqual(["done"]);
    // A bad link from the page's form comes back as a sentence on the field, and queues no fetch.
    const jobsBefore = (await jobsOf(OEMBED_JOB)).length;
    const bad = await call(pageAction, "/dashboard/tiktoks", { cookie: user.cookie, form: { intent: "add", url: "https://example.com/v", objectID: PRODUCT.objectID } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).fieldErrors.url).toMatch(/example\.com is not TikTok/);
    expect(await jobsOf(OEMBED_JOB)).toHaveLength(jobsBefore);
  });
});

describe("the list read outside Prisma (decision 076)", () => {
  it("answers what the Prisma read answers: newest first, one product's or all, fetched and pending alike", async () => {
    const user = await createSignedInUser();
    for (const [objectID, note] of [[PRODUCT.objectID, "first"], [OTHER.objectID, "other"], [PRODUCT.objectID, "second"]]) {
      expect((await add(user.cookie, { url: videoUrl("orderly"), objectID, note })).status).toBe(201);
    }
    await tiktoks.idle();
    // One not fetched yet: no title, no fetchedAt.
    expect((await add(user.cookie, { url: videoUrl("orderly"), objectID: PRODUCT.objectID, note: "pending" })).status).toBe(201);
    expect(readerFor(db)).not.toBeNull();
    const listThroughPrisma = (filter: { objectID?: string }, take?: number) =>
      throughPrisma((client) => createTikToks({ db: client, jobs: {} as never, oembed: {} as never }).list(user.id, filter, take));
    for (const [filter, take] of [[{}, undefined], [{ objectID: PRODUCT.objectID }, undefined], [{ objectID: PRODUCT.objectID }, 2], [{ objectID: "tt-none" }, undefined]] as const) {
      const ours = await tiktoks.list(user.id, filter, take);
      expect(ours).toEqual(await listThroughPrisma(filter, take));
    }
    const all = await tiktoks.list(user.id);
    expect(all.map((v) => v.note)).toEqual(["pending", "second", "other", "first"]);
    expect(all[0]).toMatchObject({ metaStatus: "pending", fetchedAt: null });
    expect(all[1].fetchedAt).toEqual(expect.any(String));
  });
});
