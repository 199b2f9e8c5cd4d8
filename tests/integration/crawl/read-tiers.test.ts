// Read tiers through the real tracker (decision 101): an operator-only store whose catalogue changed this week is
// read next within a quarter of the operator's interval, one dormant for a month at three intervals, a followed store
// at the followers' interval whatever its activity; a read with changes records lastChangedAt.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront, type Clock } from "~/integrations/shopify-storefront.server";
import { createCompetitors } from "~/services/competitors.server";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { makeCatalogue, makeProduct, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";
import { createUser } from "../../helpers/site-users";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const time = { ms: Date.parse("2026-12-07T08:00:00Z") };
const now = () => new Date(time.ms);
const clock: Clock = { now: () => time.ms, sleep: async (ms) => void (time.ms += ms) };
const quiet: JobsLog = { info() {}, warn() {}, error() {} };
let shops: FakeShopifyStore;
let fetcher: SafeFetcher;
let tracker: ReturnType<typeof createCompetitors>;

beforeAll(async () => {
  shops = await startFakeShopifyStore();
  fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/bot", lookup: async () => [{ address: "127.0.0.1", family: 4 }], allowHosts: [`127.0.0.1:${shops.port}`] });
  tracker = createCompetitors({
    db,
    storefront: createShopifyStorefront({ fetcher, protocol: "http:", clock }),
    jobs: createJobs({ db, ownerId: "tiers", now, log: quiet }),
    notifications: createNotifications({ db, now }),
    now,
    checkIntervalMs: 6 * HOUR,
    operatorIntervalMs: DAY,
    log: { info() {}, warn() {} },
  });
});
afterAll(async () => {
  fetcher.close();
  await shops.close();
});

async function listed(host: string) {
  const domain = `${host}:${shops.port}`;
  await tracker.addStores([domain]);
  return (await db.competitorStore.findFirstOrThrow({ where: { domain }, select: { id: true } })).id;
}
const row = (id: number) => db.competitorStore.findUniqueOrThrow({ where: { id }, select: { nextCheckAt: true, lastChangedAt: true } });
const wait = async (id: number) => (await row(id)).nextCheckAt!.getTime() - time.ms;

describe("read tiers", () => {
  it("reads a store that changed this week sooner than one dormant for a month", async () => {
    const active = shops.addShop("tier-active.test", { products: makeCatalogue(3) });
    shops.addShop("tier-dormant.test", { products: makeCatalogue(3) });
    const activeId = await listed("tier-active.test");
    const dormantId = await listed("tier-dormant.test");
    await tracker.runCheck(activeId);
    await tracker.runCheck(dormantId);
    // First reads: nothing to compare, no change recorded; both at the operator's interval.
    expect((await row(activeId)).lastChangedAt).toBeNull();
    expect(await wait(activeId)).toBeLessThanOrEqual(DAY);

    // 40 days on: one store launched a product, the other never changed.
    time.ms += 40 * DAY;
    active.products.push(makeProduct(900));
    await tracker.runCheck(activeId);
    await tracker.runCheck(dormantId);
    expect((await row(activeId)).lastChangedAt?.getTime()).toBeGreaterThan(time.ms - HOUR);
    expect((await row(dormantId)).lastChangedAt).toBeNull();
    expect(await wait(activeId)).toBeLessThanOrEqual(6 * HOUR);
    expect(await wait(dormantId)).toBeGreaterThan(DAY);
    expect(await wait(dormantId)).toBeLessThanOrEqual(3 * DAY);

    // A follower reads it at their interval, dormant or not.
    const user = await createUser({ userSubscribed: "yes" });
    await db.competitor.create({ data: { userId: user.id, storeId: dormantId, name: "followed" } });
    time.ms += 3 * DAY;
    await tracker.runCheck(dormantId);
    expect(await wait(dormantId)).toBe(6 * HOUR);
  }, 60_000);
});
