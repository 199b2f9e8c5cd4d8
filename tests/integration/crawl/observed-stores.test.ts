// The stores the measured catalogue observes (docs/decisions/047), on the real tracker, job system and stand-in
// stores (tests/helpers/competitor-tracker.ts) with a virtual clock: operator-listed stores are read daily, each at
// its own time of the day; a followed store keeps the tracker's interval; paused and parked stores are not read;
// a store is parked after 8 failed reads in a row with its sentence, which its follower sees, and a follower's
// "check now" or the operator's resume un-parks it; old history is thinned and deleted by the retention rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { COMPETITOR_RULES, RETENTION_RULES } from "~/domain/competitors/competitors";
import { HOUR, startCompetitorTracker, type CompetitorTracker } from "../../helpers/competitor-tracker";
import { makeCatalogue } from "../../helpers/fake-shopify-store";
import { createUser } from "../../helpers/site-users";

const DAY = 24 * HOUR;
let tracker: CompetitorTracker;
const readHook: number[] = [];

beforeAll(async () => {
  tracker = await startCompetitorTracker({
    start: "2026-11-02T00:00:00Z",
    ownerId: "observed-stores-test",
    competitors: {
      // A reader of every read that changed something, as the composition root wires the measured catalogue.
      afterStoreRead: [{ name: "test", onFailure: "log", read: async (r) => void (r.unchanged || readHook.push(r.store.id)) }],
      onStoreRemoved: async (storeId) => {
        readHook.push(storeId);
      },
    },
  });
});
afterAll(() => tracker.close());

/** Moves the virtual clock hour by hour, running what is due (the 10-minute schedule queues the due stores). */
async function runHours(hours: number) {
  for (let h = 0; h < hours; h++) {
    tracker.time.ms += HOUR;
    await tracker.jobs.runDue();
  }
}

const checksOf = async (storeId: number) =>
  db.competitorCheck.findMany({ where: { storeId }, orderBy: { takenAt: "asc" }, select: { takenAt: true, ok: true } });
const storeOf = (domain: string) => db.competitorStore.findUniqueOrThrow({ where: { domain } });

describe("operator-listed stores", () => {
  it("are read once a day each, at their own time, spread over the day; a followed store keeps the tracker's interval", async () => {
    const { shops, competitors } = tracker;
    const names = Array.from({ length: 30 }, (_, i) => `daily-${i}.test`);
    for (const [i, name] of names.entries()) shops.addShop(name, { products: makeCatalogue(2, i * 10 + 1) });
    const domains = names.map((n) => `${n}:${shops.port}`);
    const start = tracker.time.ms;

    const added = await competitors.addStores(domains);
    expect(added.added).toEqual(domains);
    // Adding them again changes nothing.
    expect(await competitors.addStores([domains[0]])).toEqual({ added: [], listed: [], already: [domains[0]] });

    const stores = await db.competitorStore.findMany({ where: { domain: { in: domains } }, select: { id: true, nextCheckAt: true } });
    const firstReads = stores.map((s) => s.nextCheckAt!.getTime());
    expect(firstReads.every((t) => t > start && t <= start + DAY)).toBe(true);
    // Spread: 30 stores over at least 12 different hours of the day, never more than 5 in one hour.
    const hours = new Map<number, number>();
    for (const t of firstReads) hours.set(Math.floor((t - start) / HOUR), (hours.get(Math.floor((t - start) / HOUR)) ?? 0) + 1);
    expect(hours.size).toBeGreaterThanOrEqual(12);
    expect(Math.max(...hours.values())).toBeLessThanOrEqual(5);

    // One of them is also followed: it is read every 4 hours (the tracker's interval in this helper).
    const user = await createUser({ userSubscribed: "yes" });
    const follow = await competitors.add({ id: user.id, userSubscribed: "yes" }, domains[0]);

    await runHours(24);
    const byDomain = await db.competitorStore.findMany({ where: { domain: { in: domains } }, select: { id: true, domain: true } });
    for (const s of byDomain) {
      const checks = await checksOf(s.id);
      if (s.domain === domains[0]) expect(checks.length).toBeGreaterThanOrEqual(6);
      else expect(checks.map((c) => c.ok)).toEqual([true]);
    }
    const operatorOnly = byDomain.filter((s) => s.domain !== domains[0]);
    const firstTaken = new Map<number, number>();
    for (const s of operatorOnly) firstTaken.set(s.id, (await checksOf(s.id))[0].takenAt.getTime());
    expect(new Set([...firstTaken.values()].map((t) => Math.floor(t / HOUR))).size).toBeGreaterThanOrEqual(12);
    // Each successful read told the catalogue.
    for (const s of operatorOnly) expect(readHook).toContain(s.id);

    // The next day: read once more each, exactly a day after the first read.
    await runHours(24);
    for (const s of operatorOnly) {
      const checks = await checksOf(s.id);
      expect(checks).toHaveLength(2);
      // (The reader's polite pauses move the virtual clock by seconds.)
      expect(Math.abs(checks[1].takenAt.getTime() - checks[0].takenAt.getTime() - DAY)).toBeLessThan(HOUR);
    }
    // Its follower leaves: still on the operator's list, it is read on, daily.
    await competitors.remove(user.id, follow.id);
    const followedStore = await storeOf(domains[0]);
    const before = (await checksOf(followedStore.id)).length;
    await runHours(30);
    expect((await checksOf(followedStore.id)).length - before).toBeGreaterThanOrEqual(1);
    expect((await checksOf(followedStore.id)).length - before).toBeLessThanOrEqual(2);
  }, 180_000);

  it("are not read while paused; resume reads at once", async () => {
    const { shops, competitors } = tracker;
    shops.addShop("paused.test", { products: makeCatalogue(3) });
    const domain = `paused.test:${shops.port}`;
    await competitors.addStores([domain]);
    await competitors.pauseStore(domain);
    await runHours(50);
    const store = await storeOf(domain);
    expect(await checksOf(store.id)).toEqual([]);

    await competitors.resumeStore(domain);
    await tracker.jobs.runDue();
    expect(await checksOf(store.id)).toHaveLength(1);
    expect((await storeOf(domain)).status).toBe("ok");
  }, 120_000);

  it("a store that keeps failing is parked after 8 reads with its sentence, is no longer read, and resume un-parks it", async () => {
    const { shops, competitors } = tracker;
    const shop = shops.addShop("broken.test", { products: makeCatalogue(2), mode: "blocked" });
    const domain = `broken.test:${shops.port}`;
    await competitors.addStores([domain]);
    const { id } = await storeOf(domain);

    await runHours(12 * 24);
    const checks = await checksOf(id);
    expect(checks).toHaveLength(COMPETITOR_RULES.parkAfterFailures);
    expect(checks.every((c) => !c.ok)).toBe(true);
    const parked = await storeOf(domain);
    expect(parked).toMatchObject({ status: "parked", failures: 8, nextCheckAt: null });
    expect(parked.parkedAt).not.toBeNull();
    expect(parked.lastError).toMatch(/^Parked after 8 failed reads in a row; we stopped reading it\. The last one said: .+/);
    expect(readHook).not.toContain(id);
    // Parked: three more days, no read.
    await runHours(72);
    expect(await checksOf(id)).toHaveLength(8);

    shop.mode = "open";
    await competitors.resumeStore(domain);
    await tracker.jobs.runDue();
    expect(await storeOf(domain)).toMatchObject({ status: "ok", failures: 0, parkedAt: null, lastError: null });
    expect(await checksOf(id)).toHaveLength(9);
  }, 180_000);

  it("a followed store is parked too; its follower sees the sentence, and a check now un-parks it", async () => {
    const { shops, competitors } = tracker;
    const shop = shops.addShop("flaky.test", { products: makeCatalogue(2) });
    const user = await createUser({ userSubscribed: "yes" });
    const me = { id: user.id, userSubscribed: "yes" as const };
    const follow = await competitors.add(me, `flaky.test:${shops.port}`);
    await tracker.jobs.runDue();
    shop.mode = "blocked";
    // Backoff 30 min doubling to 24 h: the 8th failure comes within 5 days.
    await runHours(5 * 24);
    const [seen] = (await competitors.list(user.id)).items;
    expect(seen).toMatchObject({ id: follow.id, status: "parked" });
    expect(seen.lastError).toMatch(/^Parked after 8 failed reads in a row/);
    const storeId = (await storeOf(`flaky.test:${shops.port}`)).id;
    const reads = (await checksOf(storeId)).length;
    await runHours(48);
    expect(await checksOf(storeId)).toHaveLength(reads);

    shop.mode = "open";
    await competitors.checkNow(me, follow.id);
    await tracker.jobs.runDue();
    const [after] = (await competitors.list(user.id)).items;
    expect(after).toMatchObject({ status: "ok", lastError: null });
    expect(await checksOf(storeId)).toHaveLength(reads + 1);

    // A store the operator paused refuses a follower's check now with a sentence.
    await competitors.pauseStore(`flaky.test:${shops.port}`);
    await expect(competitors.checkNow(me, follow.id)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/paused/) });
  }, 180_000);
});

describe("history retention", () => {
  it("keeps every check of the last 30 days, one a day up to 400 days, nothing older; changes older than 400 days go", async () => {
    const store = await db.competitorStore.create({ data: { domain: "history.test", fetchDomain: "history.test", name: "history.test" } });
    // Noon UTC: each day's reads (01:00, 05:00, 09:00) fall on one side of every cut-off.
    tracker.time.ms = Math.ceil(tracker.time.ms / DAY) * DAY + 12 * HOUR;
    const now = tracker.time.ms;
    const midnight = now - 12 * HOUR;
    const at = (daysAgo: number, hour: number) => new Date(midnight - daysAgo * DAY + hour * HOUR);
    const checks = [];
    for (let d = 1; d <= 450; d++) {
      // Three reads a day; the day's last read failed, the one before worked.
      checks.push({ storeId: store.id, takenAt: at(d, 1), ok: true, products: 1 });
      checks.push({ storeId: store.id, takenAt: at(d, 5), ok: true, products: 2 });
      checks.push({ storeId: store.id, takenAt: at(d, 9), ok: false, error: "It failed." });
    }
    await db.competitorCheck.createMany({ data: checks });
    const change = (daysAgo: number) => ({ storeId: store.id, at: at(daysAgo, 2), kind: "launch", productId: "1", handle: "h", title: "t", detail: "{}" });
    await db.competitorChange.createMany({ data: [change(10), change(399), change(401), change(449)] });

    const outcome = await tracker.competitors.applyRetention();
    const left = await db.competitorCheck.findMany({ where: { storeId: store.id }, select: { takenAt: true, ok: true, products: true } });
    const thinBefore = now - RETENTION_RULES.thinAfterDays * DAY;
    const deleteBefore = now - RETENTION_RULES.keepDays * DAY;
    expect(left.every((c) => c.takenAt.getTime() >= deleteBefore)).toBe(true);
    const recent = left.filter((c) => c.takenAt.getTime() >= thinBefore);
    expect(recent).toHaveLength(29 * 3);
    const old = left.filter((c) => c.takenAt.getTime() < thinBefore);
    const days = new Map<string, typeof old>();
    for (const c of old) days.set(c.takenAt.toISOString().slice(0, 10), [...(days.get(c.takenAt.toISOString().slice(0, 10)) ?? []), c]);
    expect([...days.values()].every((kept) => kept.length === 1 && kept[0].ok && kept[0].products === 2)).toBe(true);
    expect(days.size).toBe(370);
    expect((await db.competitorChange.findMany({ where: { storeId: store.id }, orderBy: { at: "desc" }, select: { at: true } })).map((c) => c.at)).toEqual([at(10, 2), at(399, 2)]);
    expect(outcome.changesDeleted).toBe(2);
    expect(outcome.checksDeleted).toBeGreaterThanOrEqual(49 * 3);

    // Twice in a row: nothing more goes.
    expect(await tracker.competitors.applyRetention()).toEqual({ thinned: 0, checksDeleted: 0, changesDeleted: 0 });
  }, 60_000);
});
