// Competitor tracking end to end through the JSON routes, the app's own composition (index.server: the real
// storefront reader behind the SSRF-safe fetcher, the durable job system) and a real migrated database. Rival
// stores are the fake Shopify of tests/helpers/fake-shopify-store.ts on 127.0.0.1: TRACKER_ALLOW_HOSTS lets the
// fetcher reach it and TRACKER_RESOLVE maps the stores' made-up names (*.test, *.myshopify.com) to it.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const fake = await vi.hoisted(async () => {
  const { startFakeShopifyStore } = await import("../../helpers/fake-shopify-store");
  const { createServer } = await import("node:net");
  const store = await startFakeShopifyStore();
  // A port nothing listens on (allowed, so the refusal is the connection's, not the SSRF guard's).
  const closedPort = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
  Object.assign(process.env, {
    TRACKER_ALLOW_HOSTS: `127.0.0.1:${store.port},127.0.0.1:${closedPort}`,
    TRACKER_RESOLVE: "*.test=127.0.0.1,*.myshopify.com=127.0.0.1",
    // The stand-ins are paced 20 ms apart instead of a second (the pacing itself: tracker-reads.test.ts).
    TRACKER_STANDIN_GAP_MS: "20",
  });
  return { store, closedPort };
});

import { db } from "~/db.server";
import { action as addRoute, loader as listRoute } from "~/routes/api.competitors";
import { action as storeAction, loader as storeLoader } from "~/routes/api.competitors.$id";
import { action as checkRoute } from "~/routes/api.competitors.$id.check";
import { action as followRoute } from "~/routes/api.competitors.$id.products.$productId.follow";
import { action as importRoute } from "~/routes/api.competitors.$id.products.$productId.import";
import { loader as notificationsRoute } from "~/routes/api.notifications";
import { action as readRoute } from "~/routes/api.notifications.read";
import { CHECK_JOB, checkJobKey, type CompetitorDetail, type CompetitorSummary } from "~/services/competitors.server";
import { competitors, jobs } from "~/services/index.server";
import type { NotificationList } from "~/services/notifications.server";
import { makeProduct, type FakeProduct } from "../../helpers/fake-shopify-store";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const { store: shops, closedPort } = fake;
const port = shops.port;
const at = (host: string) => `${host}:${port}`;

afterAll(async () => {
  await shops.close();
});

beforeEach(() => {
  // Every test reads only what any visitor may read.
  for (const r of shops.requests) expect(r.path).not.toMatch(/cart|checkout/);
  shops.requests.length = 0;
});

const seller = (fields: Parameters<typeof createSignedInUser>[0] = {}) => createSignedInUser({ userSubscribed: "yes", ...fields });

async function add(cookie: string, url: string) {
  return call(addRoute, "/api/competitors", { cookie, json: { url } });
}
async function added(cookie: string, url: string): Promise<CompetitorSummary> {
  const res = await add(cookie, url);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}
async function detail(cookie: string, id: number): Promise<CompetitorDetail> {
  const res = await call(storeLoader, `/api/competitors/${id}`, { cookie, params: { id: String(id) } });
  expect(res.status).toBe(200);
  return res.json();
}
async function notificationsOf(cookie: string): Promise<NotificationList> {
  const res = await call(notificationsRoute, "/api/notifications", { cookie });
  expect(res.status).toBe(200);
  return res.json();
}
const storeIdOf = async (domain: string) => (await db.competitorStore.findUniqueOrThrow({ where: { domain }, select: { id: true } })).id;

/** Queues a read of the store as the scheduler would once it is due, and runs the due jobs. */
async function checkAgain(storeId: number) {
  await jobs.enqueue(CHECK_JOB, { storeId }, { key: checkJobKey(storeId) });
  return jobs.runDue();
}

function openShop(host: string, products: FakeProduct[]) {
  return shops.addShop(host, { products, currency: "USD" });
}

describe("following a store", () => {
  it("adds a store by URL, by bare domain or by its myshopify address, each answering 201 with its schedule", async () => {
    openShop("alpha.test", [makeProduct(1)]);
    openShop("beta-shop.myshopify.com", [makeProduct(2)]);
    openShop("gamma.test", [makeProduct(3)]);
    const user = await seller();
    const byUrl = await added(user.cookie, `https://${at("alpha.test")}/products/product-1?variant=1`);
    expect(byUrl).toMatchObject({ domain: at("alpha.test"), name: at("alpha.test"), status: "pending", lastCheckedAt: null });
    expect(Date.parse(byUrl.nextCheckAt!)).toBeLessThanOrEqual(Date.now());
    expect(typeof byUrl.id).toBe("number");
    expect(await added(user.cookie, at("beta-shop.myshopify.com"))).toMatchObject({ domain: at("beta-shop.myshopify.com") });
    expect(await added(user.cookie, `  GAMMA.test:${port}/collections/all `)).toMatchObject({ domain: at("gamma.test") });

    const list = await call(listRoute, "/api/competitors", { cookie: user.cookie });
    const { items } = (await list.json()) as { items: CompetitorSummary[] };
    expect(items.map((i) => i.domain).sort()).toEqual([at("alpha.test"), at("beta-shop.myshopify.com"), at("gamma.test")]);
    // The first read of each was queued at once.
    for (const i of items) {
      expect(await jobs.statusOfKey(CHECK_JOB, checkJobKey(await storeIdOf(i.domain)))).toBe("queued");
    }
  });

  it("refuses stores it cannot read with a 422 sentence, and input that is not an address with a 400", async () => {
    const user = await seller();
    shops.addShop("locked.test", { products: [makeProduct(1)], mode: "password" });
    shops.addShop("busy.test", { products: [makeProduct(1)] });
    for (let i = 0; i < 5; i++) shops.queue("busy.test", "/products.json", { kind: "status", status: 429, headers: { "retry-after": "0" } });

    const cases: [string, RegExp][] = [
      [at("plain.test"), /does not look like a Shopify store/],
      [at("locked.test"), /password-protected/],
      [at("busy.test"), /asked us to slow down/],
      [`gone.test:${closedPort}`, /could not reach/],
      [`rival.test:${port + 1 === closedPort ? port + 2 : port + 1}`, /private or internal network/],
    ];
    for (const [url, sentence] of cases) {
      const res = await add(user.cookie, url);
      expect(res.status, url).toBe(422);
      expect((await res.json()).error).toMatch(sentence);
    }
    for (const bad of ["not a store", "localhost:3000", "ftp://store.com", "10.0.0.1", ""]) {
      const res = await add(user.cookie, bad);
      expect(res.status, bad).toBe(400);
      expect((await res.json()).error.length).toBeGreaterThan(10);
    }
    expect(await db.competitor.count({ where: { userId: user.id } })).toBe(0);
  });

  it("shares one store row when two users add the same domain at the same moment", async () => {
    openShop("race.test", [makeProduct(1)]);
    const [a, b] = await Promise.all([seller(), seller()]);
    const [ra, rb] = await Promise.all([add(a.cookie, at("race.test")), add(b.cookie, `http://${at("race.test")}/`)]);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    const [sa, sb] = (await Promise.all([ra.json(), rb.json()])) as CompetitorSummary[];
    expect(sa.id).not.toBe(sb.id);
    expect(await db.competitorStore.count({ where: { domain: at("race.test") } })).toBe(1);
    const storeId = await storeIdOf(at("race.test"));
    expect(await db.competitor.count({ where: { storeId } })).toBe(2);
    // One read queued for the store, whichever user's add queued it (our queue keeps one row per key; pg-boss one live job).
    expect((await jobs.list({ status: "queued", limit: 10_000 })).filter((j) => j.key === checkJobKey(storeId))).toHaveLength(1);
  });

  it("follows a store whose custom domain hides its catalogue through its myshopify address", async () => {
    shops.addShop("walled.test", { products: [makeProduct(7)], mode: "blocked" });
    openShop("walled-test.myshopify.com", [makeProduct(7)]);
    const user = await seller();
    const store = await added(user.cookie, at("walled.test"));
    expect(store.domain).toBe(at("walled.test"));
    const row = await db.competitorStore.findUniqueOrThrow({ where: { domain: at("walled.test") }, select: { fetchDomain: true } });
    expect(row.fetchDomain).toBe(at("walled-test.myshopify.com"));
    await jobs.runDue();
    const d = await detail(user.cookie, store.id);
    expect(d).toMatchObject({ status: "ok", productCount: 1 });
    expect(d.products[0].title).toBe("Product 7");
  });

  it("answers 409 to a store already followed, 402 over the plan's cap, 403 without a paid state, 401 anonymous", async () => {
    openShop("dup.test", [makeProduct(1)]);
    const user = await seller();
    await added(user.cookie, at("dup.test"));
    const again = await add(user.cookie, `https://${at("dup.test")}/`);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(/already follow/);

    // Basic allows 10: nine more (written directly), then the eleventh is refused with the upgrade path.
    for (let i = 0; i < 9; i++) {
      const s = await db.competitorStore.create({ data: { domain: `filler-${user.id}-${i}.test`, fetchDomain: "x", name: "x" }, select: { id: true } });
      await db.competitor.create({ data: { userId: user.id, storeId: s.id, name: "x" } });
    }
    openShop("eleventh.test", [makeProduct(1)]);
    const over = await add(user.cookie, at("eleventh.test"));
    expect(over.status).toBe(402);
    const body = await over.json();
    expect(body).toMatchObject({ upsell: true, upgradeUrl: "/choose-plan", limit: 10, following: 10 });
    expect(body.error).toMatch(/the most the Basic plan allows/);
    expect(await db.competitorStore.count({ where: { domain: at("eleventh.test") } })).toBe(0);

    // Inner Circle follows up to 100.
    const member = await seller({ innerCircle: true, userSubscribed: "no" });
    expect((await competitors.access({ id: member.id, innerCircle: true })).limit).toBe(100);
    expect(await added(member.cookie, at("eleventh.test"))).toMatchObject({ domain: at("eleventh.test") });

    const free = await createSignedInUser();
    const locked = await add(free.cookie, at("dup.test"));
    expect(locked.status).toBe(403);
    expect(await locked.json()).toMatchObject({ upgradeUrl: "/choose-plan" });
    expect((await call(listRoute, "/api/competitors", {})).status).toBe(401);
    expect((await add("", at("dup.test"))).status).toBe(401);
  });
});

describe("the tracker", () => {
  it("reads, diffs and alerts: launches, price drops, sell-outs, restocks and removals; two followers share one store", async () => {
    const p3 = makeProduct(3);
    p3.variants[1].available = false;
    const shop = openShop("rival.test", [makeProduct(1), makeProduct(2), p3, makeProduct(5)]);
    const alice = await seller();
    const bob = await seller();
    const aliceStore = await added(alice.cookie, at("rival.test"));
    const storeId = await storeIdOf(at("rival.test"));

    const first = await jobs.runDue();
    expect(first.done).toBeGreaterThanOrEqual(1);
    let d = await detail(alice.cookie, aliceStore.id);
    expect(d).toMatchObject({ status: "ok", lastError: null, productCount: 4, changes: [], launches: [], estimate: null });
    expect(d.estimateReason).toMatch(/^not enough evidence/);
    expect(d.series).toHaveLength(1);
    expect(d.series[0]).toMatchObject({ kind: "measured", products: 4, variants: 8, inStockVariants: 7, outOfStockVariants: 1 });
    expect(Date.parse(d.nextCheckAt!) - Date.parse(d.lastCheckedAt!)).toBe(360 * 60_000);

    // Bob follows the same domain: the same store row and its data, no second read queued.
    const bobStore = await added(bob.cookie, `https://${at("rival.test")}`);
    expect(bobStore.lastCheckedAt).toBe(d.lastCheckedAt);
    expect(await db.competitorStore.count({ where: { domain: at("rival.test") } })).toBe(1);
    expect(await db.competitorCheck.count({ where: { storeId } })).toBe(1);
    // One key per store: queuing it again while it is queued changes nothing.
    const k1 = await jobs.enqueue(CHECK_JOB, { storeId }, { key: checkJobKey(storeId) });
    const k2 = await jobs.enqueue(CHECK_JOB, { storeId }, { key: checkJobKey(storeId) });
    expect(k2).toEqual({ id: k1.id, created: false });

    // Alice follows product 2 (price drops); Bob follows nothing.
    const product2 = String(makeProduct(2).id);
    const follow = await call(followRoute, "/x", { cookie: alice.cookie, method: "POST", params: { id: String(aliceStore.id), productId: product2 } });
    expect(follow.status).toBe(200);
    expect(await follow.json()).toEqual({ productId: product2, followed: true });

    // The store changes: product 1 sells out, product 2's price drops, product 3 restocks, product 5 leaves, product 4 launches.
    shop.products[0].variants[0].available = false;
    shop.products[1].variants[0].price = "9.99";
    shop.products[2].variants[1].available = true;
    shop.products.splice(3, 1);
    shop.products.push(makeProduct(4, { published_at: new Date().toISOString(), title: "Posture Pro" }));
    await checkAgain(storeId);
    expect(await db.competitorCheck.count({ where: { storeId } })).toBe(2);

    d = await detail(alice.cookie, aliceStore.id);
    const kinds = d.changes.map((c) => c.type).sort();
    expect(kinds).toEqual(["launch", "price-change", "removal", "restock", "sold-out"]);
    expect(d.changes.every((c) => c.kind === "measured" && c.sentence.length > 10)).toBe(true);
    const drop = d.changes.find((c) => c.type === "price-change")!;
    expect(drop.detail).toMatchObject({ direction: "down", oldCents: 1299, newCents: 999, currency: "USD" });
    expect(drop.sentence).toMatch(/went down from 12.99 USD to 9.99 USD/);
    expect(d.launches.map((l) => l.title)).toEqual(["Posture Pro"]);
    expect(d.launches[0].detail).toMatchObject({ kind: "launch", dateSource: "published_at" });
    expect(d.productCount).toBe(4);
    expect(d.products.map((p) => p.title)).not.toContain("Product 5");
    const p2 = d.products.find((p) => p.productId === product2)!;
    expect(p2).toMatchObject({ followed: true, priceMinCents: 999, signals: { kind: "measured", priceDrops: 1 } });
    expect(d.products.find((p) => p.title === "Posture Pro")!.signals.launched).toBe(true);
    expect(d.series.map((p) => p.products)).toEqual([4, 4]);
    expect(d.estimate).toBeNull();
    expect((await db.competitorProduct.findFirstOrThrow({ where: { storeId, productId: String(makeProduct(5).id) }, select: { removedAt: true } })).removedAt).not.toBeNull();

    // Alerts: the launch to both followers (one each), the price drop to its follower only.
    const aliceN = await notificationsOf(alice.cookie);
    const bobN = await notificationsOf(bob.cookie);
    expect(aliceN.items.map((n) => n.kind).sort()).toEqual(["competitor.launch", "competitor.price-drop"]);
    expect(bobN.items.map((n) => n.kind)).toEqual(["competitor.launch"]);
    expect(aliceN.unread).toBe(2);
    const launch = bobN.items[0];
    expect(launch).toMatchObject({ title: `${at("rival.test")} launched 1 new product`, readAt: null, url: `/dashboard/competitors/${bobStore.id}#launches` });
    expect(launch.body).toContain('"Posture Pro"');
    const priceDrop = aliceN.items.find((n) => n.kind === "competitor.price-drop")!;
    expect(priceDrop.title).toContain('"Product 2"');
    expect(priceDrop.body).toMatch(/from 12.99 USD to 9.99 USD/);

    // Reading them: one by id, then the rest; another user's ids change nothing.
    const other = await call(readRoute, "/api/notifications/read", { cookie: bob.cookie, json: { ids: [priceDrop.id] } });
    expect(await other.json()).toMatchObject({ marked: 0, unread: 1 });
    const one = await call(readRoute, "/api/notifications/read", { cookie: alice.cookie, json: { ids: [priceDrop.id] } });
    expect(await one.json()).toEqual({ marked: 1, unread: 1 });
    expect((await notificationsOf(alice.cookie)).items.find((n) => n.id === priceDrop.id)!.readAt).not.toBeNull();
    const all = await call(readRoute, "/api/notifications/read", { cookie: alice.cookie, json: {} });
    expect(await all.json()).toEqual({ marked: 1, unread: 0 });
    expect((await call(readRoute, "/api/notifications/read", { cookie: alice.cookie, json: { ids: ["x"] } })).status).toBe(400);

    // A read with nothing new writes no change and no alert.
    await checkAgain(storeId);
    expect((await detail(alice.cookie, aliceStore.id)).changes).toHaveLength(5);
    expect((await notificationsOf(alice.cookie)).unread).toBe(0);

    // Import the launch into our product database.
    const launched = d.products.find((p) => p.title === "Posture Pro")!;
    const imported = await call(importRoute, "/x", { cookie: alice.cookie, method: "POST", params: { id: String(aliceStore.id), productId: launched.productId } });
    expect(imported.status).toBe(201);
    const { objectID } = await imported.json();
    const product = await db.product.findUniqueOrThrow({ where: { objectID }, select: { title: true, priceCents: true, images: true } });
    expect(product).toMatchObject({ title: "Posture Pro", priceCents: 1499 });
    expect(JSON.parse(product.images)).toEqual(["https://cdn.shopify.com/s/files/1/0000/0001/products/product-4.jpg?v=1"]);
    const missing = await call(importRoute, "/x", { cookie: alice.cookie, method: "POST", params: { id: String(aliceStore.id), productId: "123" } });
    expect(missing.status).toBe(404);
  });

  it("records a failed read with its sentence and backs off, then recovers", async () => {
    const shop = openShop("flaky.test", [makeProduct(1)]);
    const user = await seller();
    const s = await added(user.cookie, at("flaky.test"));
    const storeId = await storeIdOf(at("flaky.test"));
    await jobs.runDue();
    shop.mode = "password";
    const before = Date.now();
    await checkAgain(storeId);
    let d = await detail(user.cookie, s.id);
    // A store closed behind its password is "blocked" (decision 088): its products stay, and the sentence says when next.
    expect(d.status).toBe("blocked");
    expect(d.lastError).toMatch(/password-protected.*Its products stay as they were.*We will try again on /);
    const wait = Date.parse(d.nextCheckAt!) - before;
    expect(wait).toBeGreaterThanOrEqual(30 * 60_000 - 5_000);
    expect(wait).toBeLessThanOrEqual(30 * 60_000 + 60_000);
    await checkAgain(storeId);
    d = await detail(user.cookie, s.id);
    expect(Date.parse(d.nextCheckAt!) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(d.series).toHaveLength(1);

    shop.mode = "open";
    await checkAgain(storeId);
    d = await detail(user.cookie, s.id);
    expect(d).toMatchObject({ status: "ok", lastError: null });
    expect(d.series).toHaveLength(2);
  });

  it("GET /api/competitors/{id} says blocked and robots with a sentence and the next try; the products stay (decision 088)", async () => {
    const shop = openShop("guarded.test", [makeProduct(1), makeProduct(2)]);
    const user = await seller();
    const s = await added(user.cookie, at("guarded.test"));
    const storeId = await storeIdOf(at("guarded.test"));
    await jobs.runDue();
    expect((await detail(user.cookie, s.id)).products).toHaveLength(2);

    shops.queue("guarded.test", "/products.json", { kind: "status", status: 403, body: "<h1>Access denied</h1>" });
    shops.queue("guarded.test", "/", { kind: "status", status: 403, body: "<h1>Access denied</h1>" });
    await checkAgain(storeId);
    let d = await detail(user.cookie, s.id);
    expect(d).toMatchObject({ status: "blocked", productCount: 2 });
    expect(d.lastError).toMatch(/^guarded\.test:\d+ refused it \(403 Forbidden\).*Its products stay as they were at the last read, and none is counted as removed\. We will try again on /);
    expect(Date.parse(d.nextCheckAt!)).toBeGreaterThan(Date.now());
    expect(d.products).toHaveLength(2);

    // robots.txt now forbids the catalogue (the kept copy is dropped, as a day passing would).
    shop.robotsTxt = "User-agent: *\nDisallow: /products.json\n";
    await db.competitorStore.update({ where: { id: storeId }, data: { robots: null } });
    await checkAgain(storeId);
    d = await detail(user.cookie, s.id);
    expect(d).toMatchObject({ status: "robots", productCount: 2 });
    expect(d.lastError).toMatch(/robots\.txt asks crawlers like ours not to read \/products\.json.*We will look at its robots\.txt again on /);
    expect(d.products).toHaveLength(2);

    // A new store whose robots.txt forbids its catalogue is refused with the sentence, and nothing is stored.
    shops.addShop("closed.test", { products: [makeProduct(3)], robotsTxt: "User-agent: *\nDisallow: /\n" });
    const refused = await add(user.cookie, at("closed.test"));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ reason: "robots", error: expect.stringMatching(/robots\.txt asks crawlers like ours not to read its product catalogue/) });
    expect(await db.competitorStore.count({ where: { domain: at("closed.test") } })).toBe(0);
  });

  it("queues only due stores that someone follows; a store nobody follows stops being read", async () => {
    openShop("left.test", [makeProduct(1)]);
    const a = await seller();
    const b = await seller();
    const sa = await added(a.cookie, at("left.test"));
    const sb = await added(b.cookie, at("left.test"));
    const storeId = await storeIdOf(at("left.test"));
    await jobs.runDue();
    await db.competitorStore.update({ where: { id: storeId }, data: { nextCheckAt: new Date(Date.now() - 1000) } });
    expect(await competitors.enqueueDue()).toBeGreaterThanOrEqual(1);
    await jobs.runDue();
    expect(await db.competitorCheck.count({ where: { storeId } })).toBe(2);

    const del = (cookie: string, id: number) => call(storeAction, `/api/competitors/${id}`, { cookie, method: "DELETE", params: { id: String(id) } });
    expect(await (await del(a.cookie, sa.id)).json()).toEqual({ deleted: true });
    expect((await db.competitorStore.findUniqueOrThrow({ where: { id: storeId }, select: { nextCheckAt: true } })).nextCheckAt).not.toBeNull();
    expect((await del(b.cookie, sb.id)).status).toBe(200);
    expect((await db.competitorStore.findUniqueOrThrow({ where: { id: storeId }, select: { nextCheckAt: true } })).nextCheckAt).toBeNull();
    const due = await db.competitorStore.count({ where: { id: storeId, nextCheckAt: { lte: new Date() } } });
    expect(due).toBe(0);
    expect(await competitors.runCheck(storeId)).toMatchObject({ result: "skipped" });
    expect(await db.competitorCheck.count({ where: { storeId } })).toBe(2);
    expect((await del(b.cookie, sb.id)).status).toBe(404);

    // Following it again reads it again at once.
    const again = await added(a.cookie, at("left.test"));
    expect(again.nextCheckAt).not.toBeNull();
    await jobs.runDue();
    expect(await db.competitorCheck.count({ where: { storeId } })).toBe(3);
  });
});

describe("one user's stores", () => {
  it("renames for its follower only, limits check-now, and answers 404 to everyone else", async () => {
    openShop("named.test", [makeProduct(1)]);
    const owner = await seller();
    const other = await seller();
    const mine = await added(owner.cookie, at("named.test"));
    const theirs = await added(other.cookie, at("named.test"));
    const id = String(mine.id);

    const renamed = await call(storeAction, `/api/competitors/${id}`, { cookie: owner.cookie, method: "PATCH", json: { name: "  Rival   Co " }, params: { id } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: mine.id, name: "Rival Co" });
    expect((await detail(other.cookie, theirs.id)).name).toBe(at("named.test"));
    const blank = await call(storeAction, `/api/competitors/${id}`, { cookie: owner.cookie, method: "PATCH", json: { name: "  " }, params: { id } });
    expect(blank.status).toBe(400);
    expect((await call(storeAction, `/api/competitors/${id}`, { cookie: owner.cookie, method: "PATCH", json: {}, params: { id } })).status).toBe(400);

    const check = () => call(checkRoute, `/api/competitors/${id}/check`, { cookie: owner.cookie, method: "POST", params: { id } });
    const first = await check();
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ queued: true });
    const second = await check();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("Retry-After"))).toBeGreaterThan(500);
    expect((await second.json()).error).toMatch(/Rival Co was checked at your request/);

    // Another user's id: 404 for every verb, and nothing changes.
    const stranger = await seller();
    expect((await call(storeLoader, "/x", { cookie: stranger.cookie, params: { id } })).status).toBe(404);
    expect((await call(storeAction, "/x", { cookie: stranger.cookie, method: "PATCH", json: { name: "Mine" }, params: { id } })).status).toBe(404);
    expect((await call(storeAction, "/x", { cookie: stranger.cookie, method: "DELETE", params: { id } })).status).toBe(404);
    expect((await call(checkRoute, "/x", { cookie: stranger.cookie, method: "POST", params: { id } })).status).toBe(404);
    expect((await call(storeLoader, "/x", { cookie: stranger.cookie, params: { id: "abc" } })).status).toBe(404);
    expect((await call(storeLoader, "/x", { params: { id } })).status).toBe(401);
    expect((await call(storeLoader, `/x?uid=${stranger.id}`, { cookie: owner.cookie, params: { id } })).status).toBe(403);
    expect((await detail(owner.cookie, mine.id)).name).toBe("Rival Co");
  });

  it("limits check-now to a few an hour per user", async () => {
    const user = await seller();
    const ids: number[] = [];
    for (let i = 0; i < 13; i++) {
      const s = await db.competitorStore.create({ data: { domain: `hourly-${user.id}-${i}.test`, fetchDomain: "hourly.invalid", name: "x" }, select: { id: true } });
      ids.push((await db.competitor.create({ data: { userId: user.id, storeId: s.id, name: `s${i}` }, select: { id: true } })).id);
    }
    const statuses: number[] = [];
    for (const id of ids) statuses.push((await call(checkRoute, "/x", { cookie: user.cookie, method: "POST", params: { id: String(id) } })).status);
    expect(statuses).toEqual([...Array(12).fill(202), 429]);
  });
});
