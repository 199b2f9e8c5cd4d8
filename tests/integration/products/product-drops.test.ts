// Weekly product drops (docs/decisions/030) on the migrated test database: publishing by an operator (the
// service and `npm run drops:publish` as a child process) and by the daily job on a virtual clock, the weekly
// pick (variety across niches, nothing from the last four drops, 8-20 products), the JSON API's list,
// refusals (401/403/404/400) and idempotent reveals, the pages on both surfaces, and the notification.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "~/db.server";
import { dropDay, nextDropDateAfter } from "~/domain/products/product-drops";
import { loader as apiList } from "~/routes/api.drops";
import { loader as apiGet } from "~/routes/api.drops.$date";
import { action as apiReveal } from "~/routes/api.drops.$date.reveal";
import { action as embeddedAction, loader as embeddedLoader } from "~/routes/app.drops";
import { action as siteAction, loader as siteLoader } from "~/routes/dashboard.drops";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { createProductDrops, type ProductDrops } from "~/services/products/drops.server";
import { runScript } from "../../helpers/cli";
import { linkedShop } from "../../helpers/linked-shops";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser, createUser } from "../../helpers/site-users";
import { TEST_ENV } from "../../helpers/test-env";

const NICHES = ["pets", "kitchen", "beauty", "fitness", "baby", "garden"];
const DAY = 86_400_000;
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

/** 60 products, ten per niche, scores 99 down; two declining ones score highest of all. */
beforeAll(async () => {
  const base = fixtureCatalogue(62, 5);
  await insertProducts(
    db,
    base.map((p, i) => {
      const declining = i >= 60;
      return {
        ...p,
        objectID: declining ? `dp-declining-${i}` : `dp-${NICHES[i % 6]}-${Math.floor(i / 6)}`,
        title: declining ? `Fading gadget ${i}` : `Drop product ${NICHES[i % 6]} ${Math.floor(i / 6)}`,
        niches: [declining ? "pets" : NICHES[i % 6]],
        winningScore: declining ? 100 : 99 - i,
        lifecycleStage: declining ? ("declining" as const) : (["emerging", "rising", "peak"] as const)[i % 3],
      };
    }),
  );
  // Added from a followed store: placeholder zeros, not sales data (decision 026), however high it would rank.
  const [tracked] = fixtureCatalogue(1, 9);
  await insertProducts(db, [{ ...tracked, objectID: "dp-tracked-store", title: "Rival's gadget", niches: ["gadgets"], winningScore: 100, lifecycleStage: "rising" }]);
  await db.product.update({ where: { objectID: "dp-tracked-store" }, data: { source: "tracked-store", sourceStore: "rival.test" } });
});
beforeEach(async () => {
  oauth.reset();
  // Each test starts without drops or a next date; products and users stay.
  await db.productDrop.deleteMany({});
  await db.productDropSchedule.deleteMany({});
});

const allIds = (n: number) => Array.from({ length: n }, (_, i) => `dp-${NICHES[i % 6]}-${Math.floor(i / 6)}`);
const today = () => dropDay(new Date());
const daysFromToday = (n: number) => dropDay(new Date(Date.now() + n * DAY));

function dropsOn(clock: { t: number }): ProductDrops {
  return createProductDrops({ db, notifications: createNotifications({ db, now: () => new Date(clock.t) }), now: () => new Date(clock.t) });
}

async function nicheOf(objectIDs: string[]) {
  const rows = await db.product.findMany({ where: { objectID: { in: objectIDs } }, select: { objectID: true, primaryNiche: true } });
  return new Map(rows.map((r) => [r.objectID, r.primaryNiche]));
}

async function dropIds(date: string): Promise<string[]> {
  const drop = await db.productDrop.findUnique({ where: { date }, select: { items: { orderBy: { position: "asc" }, select: { objectID: true } } } });
  return drop?.items.map((i) => i.objectID) ?? [];
}

describe("the weekly pick, published by the daily job", () => {
  it("publishes on the drop day once however often the job runs, with variety and no repeats across four drops", async () => {
    const clock = { t: Date.parse("2026-11-02T07:00:00Z") }; // a Monday, after the 06:00 run time
    const drops = dropsOn(clock);
    const jobs = createJobs({ db, ownerId: `drops-${Math.random()}`, now: () => new Date(clock.t), log: quiet });
    drops.registerJobs(jobs);
    const subscriber = await createUser({ userSubscribed: "yes" });
    const free = await createUser();

    // The grid's first page (its 12 best by winning score) is never in a weekly pick (issue 25): 48 of the
    // 60 products can be picked, so four weeks of 12.
    const firstPage = new Set(
      (await db.product.findMany({ orderBy: [{ winningScore: "desc" }, { id: "desc" }], take: 12, select: { objectID: true } })).map((p) => p.objectID),
    );
    const weeks: string[][] = [];
    for (let week = 0; week < 4; week++) {
      await jobs.runDue();
      await jobs.runDue(); // the same day again: the schedule's period already fired
      const date = dropDay(new Date(clock.t));
      const ids = await dropIds(date);
      weeks.push(ids);
      expect(ids.length).toBeGreaterThanOrEqual(8);
      expect(ids.length).toBeLessThanOrEqual(20);
      // At most two per primary niche; never the declining high scorers.
      const niches = await nicheOf(ids);
      const counts = new Map<string, number>();
      for (const id of ids) counts.set(niches.get(id)!, (counts.get(niches.get(id)!) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
      expect(ids.some((id) => id.startsWith("dp-declining"))).toBe(false);
      expect(await drops.nextDropDate()).toBe(nextDropDateAfter(date));
      // Midweek runs publish nothing.
      clock.t += 3 * DAY;
      await jobs.runDue();
      expect(await db.productDrop.count()).toBe(week + 1);
      clock.t += 4 * DAY;
    }
    // Never the grid's first page, never a tracked store's product (no sales data behind its placeholder score).
    expect(weeks.flat().filter((id) => firstPage.has(id))).toEqual([]);
    expect(weeks.flat()).not.toContain("dp-tracked-store");
    // Nothing shown in the four drops before.
    for (let w = 1; w < weeks.length; w++) {
      const earlier = new Set(weeks.slice(Math.max(0, w - 4), w).flat());
      expect(weeks[w].filter((id) => earlier.has(id))).toEqual([]);
    }
    // Four drops use every product the pick may take; a fifth week has too few left and publishes none.
    expect(new Set(weeks.flat()).size).toBe(48);
    await jobs.runDue();
    expect(await db.productDrop.count()).toBe(4);

    // Each drop is one notification for the subscriber, none for the free user.
    const told = await db.notification.findMany({ where: { userId: subscriber.id, kind: "product-drop" }, select: { url: true, title: true } });
    expect(told).toHaveLength(4);
    expect(told[0]).toMatchObject({ url: "/dashboard/drops", title: "New product drop: 12 products" });
    expect(await db.notification.count({ where: { userId: free.id } })).toBe(0);
  });

  it("each reason is built from the product's own evidence", async () => {
    const clock = { t: Date.parse("2026-11-09T08:00:00Z") };
    const published = await dropsOn(clock).publish("2026-11-09", "auto");
    expect(published).toMatchObject({ date: "2026-11-09", source: "weekly", productCount: 12 });
    const items = await db.productDropItem.findMany({ select: { objectID: true, reason: true, productId: true } });
    const products = await db.product.findMany({ where: { id: { in: items.map((i) => i.productId) } }, select: { id: true, winningScore: true, marginBps: true, reasons: true } });
    for (const item of items) {
      const p = products.find((x) => x.id === item.productId)!;
      expect(item.reason).toContain(`winning score ${p.winningScore}`);
      expect(item.reason).toContain("reason one; reason two");
      // The margin after duty and fees (issue 24), never the gross one the catalogue stores.
      expect(item.reason).toMatch(/; margin after duty and fees -?\d+%$/);
      expect(item.reason).not.toContain(`; margin ${Math.round(p.marginBps! / 100)}%`);
    }
  });

  it("refuses a week the catalogue cannot fill, and publishes nothing", async () => {
    const clock = { t: Date.parse("2026-11-09T08:00:00Z") };
    const drops = dropsOn(clock);
    // Three operator drops of 20 hold all 60 products: the weekly pick finds nothing left to show.
    for (let w = 0; w < 3; w++) {
      await drops.publish(`2026-10-0${w + 1}`, allIds(60).slice(w * 20, w * 20 + 20).map((objectID) => ({ objectID })));
    }
    await expect(drops.publish("2026-11-09", "auto")).rejects.toMatchObject({ status: 422, message: expect.stringContaining("Nothing was published") });
    expect(await db.productDrop.count()).toBe(3);
  });
});

describe("an operator publishes a drop", () => {
  it("from a list of objectIDs with their own reasons; twice for one date is refused", async () => {
    const clock = { t: Date.now() };
    const drops = dropsOn(clock);
    const date = daysFromToday(-1);
    const selection = allIds(8).map((objectID, i) => ({ objectID, reason: i === 0 ? "Our pick for gifting season" : null }));
    const published = await drops.publish(date, selection);
    expect(published).toMatchObject({ date, source: "operator", productCount: 8 });
    const items = await db.productDropItem.findMany({ orderBy: { position: "asc" }, select: { objectID: true, reason: true } });
    expect(items.map((i) => i.objectID)).toEqual(allIds(8));
    expect(items[0].reason).toBe("Our pick for gifting season");
    expect(items[1].reason).toMatch(/^(Emerging|Rising|At its peak), winning score 98: /);
    await expect(drops.publish(date, selection)).rejects.toMatchObject({ status: 409 });
  });

  it("a missing product, a duplicate, too few or too many: a clear refusal and nothing published", async () => {
    const drops = dropsOn({ t: Date.now() });
    const date = daysFromToday(-2);
    await expect(drops.publish(date, [...allIds(8), "no-such-product"].map((objectID) => ({ objectID })))).rejects.toMatchObject({
      status: 404,
      message: "No product with objectID no-such-product. Nothing was published.",
    });
    await expect(drops.publish(date, [...allIds(8), allIds(1)[0]].map((objectID) => ({ objectID })))).rejects.toMatchObject({ status: 422 });
    await expect(drops.publish(date, allIds(7).map((objectID) => ({ objectID })))).rejects.toMatchObject({ status: 422 });
    await expect(drops.publish(date, allIds(21).map((objectID) => ({ objectID })))).rejects.toMatchObject({ status: 422 });
    await expect(drops.publish("2026-02-30", allIds(8).map((objectID) => ({ objectID })))).rejects.toMatchObject({ status: 400 });
    // A tracked store's product has no evidence to quote: only with the operator's own reason.
    const withTracked = [...allIds(7), "dp-tracked-store"].map((objectID) => ({ objectID }));
    await expect(drops.publish(date, withTracked)).rejects.toMatchObject({ status: 422, message: expect.stringContaining("dp-tracked-store came from a tracked store") });
    expect(await db.productDrop.count()).toBe(0);
    withTracked[7] = { objectID: "dp-tracked-store", reason: "Watch this one: a rival just launched it" } as { objectID: string };
    await drops.publish(date, withTracked);
    expect((await db.productDropItem.findFirst({ where: { objectID: "dp-tracked-store" }, select: { reason: true } }))?.reason).toBe(
      "Watch this one: a rival just launched it",
    );
  });

  it("npm run drops:publish -- --date --from FILE: publishes; a missing product exits 1 with the sentence", async () => {
    const tmp = mkdtempSync(path.resolve("tests/.tmp/drops-cli-"));
    const cli = (args: string[]) =>
      runScript("drops-publish", args, {
        env: { ...process.env, ...TEST_ENV, DATABASE_URL: `file:${process.env.TEST_DB_FILE}` },
        timeout: 120_000,
      });
    const good = path.join(tmp, "good.json");
    writeFileSync(good, JSON.stringify([...allIds(9).map((objectID) => objectID), { objectID: allIds(10)[9], reason: "Picked by hand" }]));
    const bad = path.join(tmp, "bad.json");
    writeFileSync(bad, JSON.stringify([...allIds(8), "ghost-product"]));
    const date = daysFromToday(-3);

    const refused = await cli(["--date", date, "--from", bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("No product with objectID ghost-product. Nothing was published.");
    expect(await db.productDrop.count()).toBe(0);

    const ok = await cli(["--date", date, "--from", good]);
    expect(ok.stderr).not.toContain("drops:publish:");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`Published the ${date} drop`);
    expect(ok.stdout).toContain("10 products");
    expect(await dropIds(date)).toEqual(allIds(10));

    const badDate = await cli(["--date", "2026-13-01"]);
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toContain("YYYY-MM-DD");
  }, 120_000);
});

describe("GET /api/drops, GET /api/drops/{date}, POST /api/drops/{date}/reveal", () => {
  async function publishPastAndFuture() {
    const drops = dropsOn({ t: Date.now() });
    await drops.setNextDropDate(daysFromToday(10));
    await drops.publish(daysFromToday(-14), allIds(8).map((objectID) => ({ objectID })));
    await drops.publish(daysFromToday(-7), allIds(16).slice(8).map((objectID) => ({ objectID })));
    // Dated ahead: not listed, not revealable, and it becomes the countdown's date.
    await drops.publish(daysFromToday(3), allIds(24).slice(16).map((objectID) => ({ objectID })));
  }

  it("lists visible drops newest first with the countdown's date; anonymous is 401", async () => {
    await publishPastAndFuture();
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const res = await call(apiList, "/api/drops", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      nextDropDate: daysFromToday(3),
      drops: [
        { date: daysFromToday(-7), productCount: 8, revealed: false },
        { date: daysFromToday(-14), productCount: 8, revealed: false },
      ],
    });
    expect((await call(apiList, "/api/drops")).status).toBe(401);
    expect((await call(apiGet, `/api/drops/${daysFromToday(-7)}`, { params: { date: daysFromToday(-7) } })).status).toBe(401);
    expect((await call(apiReveal, `/api/drops/${daysFromToday(-7)}/reveal`, { method: "POST", params: { date: daysFromToday(-7) } })).status).toBe(401);
  });

  it("a subscriber reveals a drop (twice is harmless) and then reads its products with their reasons", async () => {
    await publishPastAndFuture();
    const user = await createSignedInUser({ userSubscribed: "yes", trialing: true });
    const date = daysFromToday(-7);

    const locked = await call(apiGet, `/api/drops/${date}`, { cookie: user.cookie, params: { date } });
    expect(locked.status).toBe(403);
    expect(await locked.json()).toMatchObject({ reveal: { method: "POST", url: `/api/drops/${date}/reveal` } });

    const first = await call(apiReveal, `/api/drops/${date}/reveal`, { cookie: user.cookie, method: "POST", params: { date } });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({ date, productCount: 8, revealed: true });
    expect(body.products.map((p: { objectID: string }) => p.objectID)).toEqual(allIds(16).slice(8));
    expect(body.products[0]).toMatchObject({ position: 1, title: expect.stringContaining("Drop product"), reason: expect.stringContaining("winning score") });

    const again = await call(apiReveal, `/api/drops/${date}/reveal`, { cookie: user.cookie, method: "POST", params: { date } });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
    expect(await db.userProductDrop.findMany({ where: { userId: user.id }, select: { date: true } })).toEqual([{ date }]);

    const read = await call(apiGet, `/api/drops/${date}`, { cookie: user.cookie, params: { date } });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);
    const list = await (await call(apiList, "/api/drops", { cookie: user.cookie })).json();
    expect(list.drops.map((d: { revealed: boolean }) => d.revealed)).toEqual([true, false]);
  });

  it("refuses: no paid state 403 with the upgrade path, future or unpublished 404, a bad date 400, nothing recorded", async () => {
    await publishPastAndFuture();
    const free = await createSignedInUser({ userSubscribed: "no" });
    const paid = await createSignedInUser({ innerCircle: true });
    const past = daysFromToday(-7);

    const unpaid = await call(apiReveal, `/api/drops/${past}/reveal`, { cookie: free.cookie, method: "POST", params: { date: past } });
    expect(unpaid.status).toBe(403);
    expect(await unpaid.json()).toMatchObject({ error: expect.stringContaining("start your free trial"), upgradeUrl: "/choose-plan" });
    const unpaidGet = await call(apiGet, `/api/drops/${past}`, { cookie: free.cookie, params: { date: past } });
    expect(unpaidGet.status).toBe(403);
    expect(await unpaidGet.json()).toMatchObject({ upgradeUrl: "/choose-plan", reveal: { url: `/api/drops/${past}/reveal` } });

    for (const date of [daysFromToday(3), daysFromToday(-1)]) {
      const res = await call(apiReveal, `/api/drops/${date}/reveal`, { cookie: paid.cookie, method: "POST", params: { date } });
      expect(res.status).toBe(404);
      expect((await call(apiGet, `/api/drops/${date}`, { cookie: paid.cookie, params: { date } })).status).toBe(404);
    }
    for (const date of ["2026-11-31", "next-monday", "20261123", "2026-11-23%00"]) {
      const res = await call(apiReveal, "/api/drops/x/reveal", { cookie: paid.cookie, method: "POST", params: { date } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining("YYYY-MM-DD") });
      expect((await call(apiGet, "/api/drops/x", { cookie: paid.cookie, params: { date } })).status).toBe(400);
    }
    expect(await db.userProductDrop.count({ where: { userId: { in: [free.id, paid.id] } } })).toBe(0);
    // Wrong methods.
    expect((await call(apiReveal, `/api/drops/${past}/reveal`, { cookie: paid.cookie, method: "DELETE", params: { date: past } })).status).toBe(405);
  });
});

describe("the Drops page on both surfaces", () => {
  it("site: reveals from the page's action and shows the revealed products; a free user sees the upgrade path", async () => {
    const drops = dropsOn({ t: Date.now() });
    const date = daysFromToday(-1);
    await drops.publish(date, allIds(8).map((objectID) => ({ objectID })));
    const user = await createSignedInUser({ userSubscribed: "yes" });

    const before = await (await call(siteLoader, "/dashboard/drops", { cookie: user.cookie })).json();
    expect(before).toMatchObject({ drops: [{ date, productCount: 8, revealed: false }], shown: null, access: { reveal: true } });

    const revealed = await call(siteAction, "/dashboard/drops", { cookie: user.cookie, form: { intent: "reveal", date } });
    expect(revealed.status).toBe(200);
    expect(await revealed.json()).toMatchObject({ ok: true, drop: { date, productCount: 8 } });
    const after = await (await call(siteLoader, `/dashboard/drops?date=${date}`, { cookie: user.cookie })).json();
    expect(after.shown.products).toHaveLength(8);

    const free = await createSignedInUser();
    const refused = await call(siteAction, "/dashboard/drops", { cookie: free.cookie, form: { intent: "reveal", date } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, upgradeUrl: "/choose-plan" });
    const bad = await call(siteAction, "/dashboard/drops", { cookie: user.cookie, form: { intent: "explode", date } });
    expect(bad.status).toBe(400);
    const badDate = await (await call(siteLoader, "/dashboard/drops?date=soon", { cookie: user.cookie })).json();
    expect(badDate.notice).toContain("is not a date");
  });

  it("embedded: the linked user reveals with a Shopify session token, and the API answers the bearer too", async () => {
    const drops = dropsOn({ t: Date.now() });
    const date = daysFromToday(-1);
    await drops.publish(date, allIds(8).map((objectID) => ({ objectID })));
    const { shop, user } = await linkedShop();
    await db.user.update({ where: { id: user.id }, data: { userSubscribed: "yes" } });
    const headers = { authorization: `Bearer ${await signSessionToken({ shop })}` };

    const revealed = await call(embeddedAction, "/app/drops", { headers, form: { intent: "reveal", date } });
    expect(revealed.status).toBe(200);
    const page = await (await call(embeddedLoader, "/app/drops", { headers })).json();
    expect(page.shown).toMatchObject({ date, productCount: 8 });
    const api = await (await call(apiList, "/api/drops", { headers })).json();
    expect(api.drops).toEqual([{ date, productCount: 8, revealed: true }]);
  });
});

it("the list's next date is the next Monday when none is stored", async () => {
  const user = await createSignedInUser();
  const body = await (await call(apiList, "/api/drops", { cookie: user.cookie })).json();
  const t = today();
  const dow = new Date(`${t}T00:00:00Z`).getUTCDay();
  expect(body.nextDropDate).toBe(dow === 1 ? t : nextDropDateAfter(t));
});
