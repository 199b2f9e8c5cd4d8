// Issue 25, item 11: a server started mid-week on a fresh install shows a drop at once (the one of the
// latest drop day, published once however many processes start), and the weekly pick varies: one or two
// per niche, no two products with the same title, never the product grid's first page.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { DEFAULT_PAGE_SIZE } from "~/domain/products/product-query";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { createProductDrops } from "~/services/products/drops.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { createUser } from "../../helpers/site-users";

const NICHES = ["pets", "kitchen", "beauty", "fitness", "baby", "garden", "office", "travel"];
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

/** 160 products, 20 per niche, scores 99 down; every tenth shares its title with the one before. */
beforeAll(async () => {
  const base = fixtureCatalogue(160, 21);
  await insertProducts(
    db,
    base.map((p, i) => ({
      ...p,
      objectID: `fd-${i}`,
      title: i % 10 === 1 ? `Puzzle ${Math.floor(i / 10)}` : i % 10 === 0 ? `Puzzle ${i / 10}` : `Fresh product ${i}`,
      niches: [NICHES[i % NICHES.length]],
      winningScore: 99 - Math.floor(i / 2),
      lifecycleStage: (["emerging", "rising", "peak"] as const)[i % 3],
    })),
  );
});

/** One "server process": its own job worker and drops service on the shared database and clock. */
function process(clock: { t: number }) {
  const now = () => new Date(clock.t);
  const drops = createProductDrops({ db, notifications: createNotifications({ db, now }), now, log: quiet });
  const jobs = createJobs({ db, ownerId: `fresh-${Math.random()}`, now, log: quiet });
  drops.registerJobs(jobs);
  return { drops, jobs };
}

describe("weekly drops on a fresh install", () => {
  it("a server started on a Thursday publishes the Monday drop once, however many processes start", async () => {
    const clock = { t: Date.parse("2026-11-05T10:00:00Z") }; // Thursday, after that day's 06:00 run
    const a = process(clock);
    const b = process(clock);
    await a.drops.queueCatchUp(a.jobs);
    await b.drops.queueCatchUp(b.jobs);
    await Promise.all([a.jobs.runDue(), b.jobs.runDue()]);
    await a.jobs.runDue();

    const drops = await db.productDrop.findMany({ select: { date: true, announcedAt: true, _count: { select: { items: true } } } });
    expect(drops.map((d) => d.date)).toEqual(["2026-11-02"]);
    expect(drops[0].announcedAt).not.toBeNull();
    const list = await a.drops.list("nobody");
    expect(list.drops.map((d) => d.date)).toEqual(["2026-11-02"]);
    expect(list.nextDropDate).toBe("2026-11-09");
    // Sample products say so wherever they are shown (issue 25, item 9).
    const revealed = await a.drops.reveal({ id: (await createUser({ userSubscribed: "yes" })).id, userSubscribed: "yes" }, "2026-11-02");
    expect(revealed.products.length).toBeGreaterThanOrEqual(8);
    expect(revealed.products.every((p) => p.sampleData)).toBe(true);

    // Friday's daily run publishes nothing more; the next Monday's run publishes that week's drop.
    clock.t = Date.parse("2026-11-06T06:00:00Z");
    await a.jobs.runDue();
    expect(await db.productDrop.count()).toBe(1);
    clock.t = Date.parse("2026-11-09T06:00:00Z");
    await b.jobs.runDue();
    expect((await db.productDrop.findMany({ select: { date: true }, orderBy: { date: "asc" } })).map((d) => d.date)).toEqual(["2026-11-02", "2026-11-09"]);
  });

  it("the pick varies: per niche, no duplicate titles, not the grid's first page, a new mix each week", async () => {
    const rows = await db.productDropItem.findMany({ orderBy: [{ dropId: "asc" }, { position: "asc" }], select: { dropId: true, productId: true } });
    const byId = new Map(
      (await db.product.findMany({ where: { id: { in: rows.map((r) => r.productId) } }, select: { id: true, title: true, primaryNiche: true } })).map((p) => [p.id, p]),
    );
    const items = rows.map((r) => ({ dropId: r.dropId, product: byId.get(r.productId)! }));
    const firstPage = (await db.product.findMany({ orderBy: [{ winningScore: "desc" }, { id: "desc" }], take: DEFAULT_PAGE_SIZE, select: { id: true } })).map((p) => p.id);
    const dropIds = [...new Set(items.map((i) => i.dropId))];
    expect(dropIds).toHaveLength(2);
    for (const dropId of dropIds) {
      const products = items.filter((i) => i.dropId === dropId).map((i) => i.product);
      expect(products.length).toBeGreaterThanOrEqual(8);
      const titles = products.map((p) => p.title.toLowerCase());
      expect(new Set(titles).size).toBe(titles.length);
      expect(products.filter((p) => firstPage.includes(p.id))).toEqual([]);
      const perNiche = new Map<string, number>();
      for (const p of products) perNiche.set(p.primaryNiche, (perNiche.get(p.primaryNiche) ?? 0) + 1);
      expect(Math.max(...perNiche.values())).toBeLessThanOrEqual(2);
      // Not simply the next products down the grid's order.
      const ranks = products.map((p) => p.id).sort((x, y) => x - y);
      const consecutive = ranks.every((id, k) => k === 0 || id === ranks[k - 1] + 1);
      expect(consecutive).toBe(false);
    }
  });
});
