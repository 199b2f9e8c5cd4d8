// The tracker over days, on a virtual clock: the service built with its own dependencies (the real storefront
// reader and safe fetcher against the fake Shopify on 127.0.0.1, the real job system, a clock the test moves).
// Reads every few hours for four days with variants selling out and coming back: the catalogue series grows by
// one measured point a read, and the weekly-orders estimate appears as a range with its evidence once there is
// enough of it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { CHECK_JOB } from "~/services/competitors.server";
import { HOUR, startCompetitorTracker, type CompetitorTracker } from "../../helpers/competitor-tracker";
import { makeCatalogue } from "../../helpers/fake-shopify-store";
import { createUser } from "../../helpers/site-users";

let tracker: CompetitorTracker;
let time: CompetitorTracker["time"];
let now: CompetitorTracker["now"];
let shops: CompetitorTracker["shops"];
let jobs: CompetitorTracker["jobs"];
let competitors: CompetitorTracker["competitors"];

beforeAll(async () => {
  tracker = await startCompetitorTracker({ start: "2026-11-01T00:00:00Z", ownerId: "tracker-test" });
  ({ time, now, shops, jobs, competitors } = tracker);
});
afterAll(() => tracker.close());

describe("the tracker over days", () => {
  it("reads on its own interval through the scheduled job, and estimates weekly orders once there is evidence", async () => {
    const shop = shops.addShop("steady.test", { products: makeCatalogue(6) });
    const user = await createUser({ userSubscribed: "yes" });
    const s = await competitors.add({ id: user.id, userSubscribed: "yes" }, `steady.test:${shops.port}`);
    expect(s.nextCheckAt).toBe(now().toISOString());

    await jobs.runDue();
    let d = await competitors.get(user.id, s.id);
    expect(d.lastCheckedAt).toBe(now().toISOString());
    expect(d.nextCheckAt).toBe(new Date(time.ms + 4 * HOUR).toISOString());

    // Nothing is due before the interval: the scheduled job queues nothing.
    time.ms += 2 * HOUR;
    expect(await competitors.enqueueDue()).toBe(0);

    // Every 4 hours for 4 days, one variant sells out; every third read one comes back.
    let reads = 1;
    for (let step = 1; step <= 24; step++) {
      time.ms = Date.parse(d.nextCheckAt!) + 60_000;
      const product = shop.products[step % shop.products.length];
      if (step % 3 === 0) for (const p of shop.products) for (const v of p.variants) if (!v.available) { v.available = true; break; }
      const inStock = product.variants.find((v) => v.available);
      if (inStock) inStock.available = false;
      // The 10-minute schedule: its job queues the due store, whose check then runs.
      const ran = await jobs.runDue();
      expect(ran.done).toBeGreaterThanOrEqual(2);
      reads++;
      d = await competitors.get(user.id, s.id);
      expect(d.series).toHaveLength(reads);
    }
    expect(await db.job.count({ where: { kind: CHECK_JOB, status: { not: "done" } } })).toBe(0);

    expect(d.series.every((p) => p.kind === "measured" && p.products === 6)).toBe(true);
    const sellOuts = d.changes.filter((c) => c.type === "sold-out").length;
    expect(sellOuts).toBeGreaterThanOrEqual(10);
    expect(d.estimateReason).toBeNull();
    expect(d.estimate).toMatchObject({ kind: "estimated", unit: "orders/week", confidence: "low" });
    expect(d.estimate!.high).toBeGreaterThan(d.estimate!.low);
    expect(d.estimate!.low).toBeGreaterThan(0);
    expect(d.estimate!.evidence[0]).toMatch(/went out of stock and \d+ came back in 4 days/);
    expect(d.estimate!.evidence.join(" ")).toMatch(/Assumed, not measured/);
    // The list page's estimates (no products read) say the same as the store page.
    expect(await competitors.estimates(user.id)).toEqual([{ id: s.id, estimate: d.estimate, estimateReason: null }]);
    const busiest = d.products.reduce((a, b) => (b.signals.sellOuts > a.signals.sellOuts ? b : a));
    expect(busiest.signals.sellOuts).toBeGreaterThanOrEqual(2);
  });
});
