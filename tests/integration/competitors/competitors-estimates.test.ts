// The list page's estimates for every followed store at once (competitors.estimates: three queries whatever the
// number of stores) say exactly what each store's own page says, for stores in different states: read for days
// with sell-outs (a range), read once (not enough evidence), never read, and read long ago then again (only the
// last estimateWindowDays count). Same set-up as competitors-tracker.test.ts (helpers/competitor-tracker).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { COMPETITOR_RULES } from "~/domain/competitors/competitors";
import { HOUR, startCompetitorTracker, type CompetitorTracker } from "../../helpers/competitor-tracker";
import { makeCatalogue, type FakeShopifyStore } from "../../helpers/fake-shopify-store";
import { createUser } from "../../helpers/site-users";

let tracker: CompetitorTracker;
let time: CompetitorTracker["time"];
let now: CompetitorTracker["now"];
let shops: CompetitorTracker["shops"];
let jobs: CompetitorTracker["jobs"];
let competitors: CompetitorTracker["competitors"];

beforeAll(async () => {
  tracker = await startCompetitorTracker({ start: "2026-10-01T00:00:00Z", ownerId: "estimates-test" });
  ({ time, now, shops, jobs, competitors } = tracker);
});
afterAll(() => tracker.close());

/** Every 4 hours for `reads` reads, one variant of the shop sells out; every third read one comes back. */
async function readFor(shop: ReturnType<FakeShopifyStore["addShop"]>, reads: number) {
  for (let step = 1; step <= reads; step++) {
    time.ms += 4 * HOUR + 60_000;
    const product = shop.products[step % shop.products.length];
    if (step % 3 === 0) for (const p of shop.products) for (const v of p.variants) if (!v.available) { v.available = true; break; }
    const inStock = product.variants.find((v) => v.available);
    if (inStock) inStock.available = false;
    await jobs.runDue();
  }
}

describe("competitors.estimates", () => {
  it("gives every followed store the estimate its own page gives", async () => {
    const user = await createUser({ userSubscribed: "yes" });
    const paid = { id: user.id, userSubscribed: "yes" };
    const old = shops.addShop("old.test", { products: makeCatalogue(6) });
    const oldFollow = await competitors.add(paid, `old.test:${shops.port}`);
    await jobs.runDue();
    await readFor(old, 12);
    // Nobody reads it for longer than the window; then it is read again for a day.
    await db.competitorStore.updateMany({ where: { domain: `old.test:${shops.port}` }, data: { nextCheckAt: null } });
    time.ms += (COMPETITOR_RULES.estimateWindowDays + 3) * 24 * HOUR;

    const busy = shops.addShop("busy.test", { products: makeCatalogue(6) });
    const busyFollow = await competitors.add(paid, `busy.test:${shops.port}`);
    await db.competitorStore.updateMany({ where: { domain: `old.test:${shops.port}` }, data: { nextCheckAt: now() } });
    await jobs.runDue();
    await readFor(busy, 24);

    shops.addShop("once.test", { products: makeCatalogue(3) });
    const onceFollow = await competitors.add(paid, `once.test:${shops.port}`);
    await jobs.runDue();
    shops.addShop("never.test", { products: makeCatalogue(2) });
    const neverFollow = await competitors.add(paid, `never.test:${shops.port}`);

    const listed = await competitors.estimates(user.id);
    expect(listed).toHaveLength(4);
    for (const follow of [oldFollow, busyFollow, onceFollow, neverFollow]) {
      const page = await competitors.get(user.id, follow.id);
      expect(listed.find((e) => e.id === follow.id), follow.domain).toEqual({ id: follow.id, estimate: page.estimate, estimateReason: page.estimateReason });
    }
    const byId = new Map(listed.map((e) => [e.id, e]));
    expect(byId.get(busyFollow.id)!.estimate).toMatchObject({ kind: "estimated", unit: "orders/week" });
    expect(byId.get(neverFollow.id)!.estimateReason).toBe("not enough evidence: the store has not been read yet.");
    expect(byId.get(onceFollow.id)!.estimate).toBeNull();
    // The old store's window starts after its gap: its early sell-outs are not counted again.
    const oldPage = await competitors.get(user.id, oldFollow.id);
    expect(oldPage.estimate?.evidence.join(" ") ?? oldPage.estimateReason).not.toMatch(/in (1[0-9]|[2-9][0-9]) days/);
  }, 120_000);
});
