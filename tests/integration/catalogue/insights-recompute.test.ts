// Rows stored by older insight rules (migration 013 marks them with ordersPrev7d = -1) are recomputed
// from their packed history by recomputeStaleInsights, which `npm start` runs through prisma/seed.ts:
// afterwards the stage, growth and reasons on the grid are those of the current rules, as of the day
// each row was computed (docs/decisions/025).
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { computeInsights, SERIES_KEYS, type DailySeries } from "~/domain/products/insights";
import { unpackSeries } from "~/domain/products/product-import";
import { importProducts, recomputeStaleInsights } from "~/services/products/import.server";
import { generatedRows } from "../../../scripts/lib/product-generator";

const NOW = new Date("2026-06-01T09:00:00Z");

afterAll(async () => {
  await db.$disconnect();
});

beforeEach(async () => {
  await db.$executeRawUnsafe('DELETE FROM "Product"');
});

async function catalogVersion() {
  const rows = await db.$queryRawUnsafe<{ version: number | bigint }[]>('SELECT "version" FROM "CatalogState" WHERE "id" = 1');
  return Number(rows[0]?.version ?? 0);
}

describe("recomputeStaleInsights", () => {
  it("gives rows stored by the old rules the current stage, growth and reasons, once", async () => {
    await importProducts(db, generatedRows(300, { seed: 5, endDay: "2026-05-31" }), { now: NOW });
    expect(await db.product.count({ where: { ordersPrev7d: { lt: 0 } } })).toBe(0); // an import computes it
    const fresh = await db.product.findMany({
      orderBy: { id: "asc" },
      select: { id: true, lifecycleStage: true, ordersGrowth7d: true, ordersPrev7d: true, orders7d: true, reasons: true, winningScore: true },
    });

    // What the old rules left behind: a contradicting stage and a percentage on a small base.
    await db.$executeRawUnsafe(
      `UPDATE "Product" SET "ordersPrev7d" = -1, "lifecycleStage" = 'declining', "ordersGrowth7d" = 600,
         "reasons" = '["orders +600% in 7 days (1 → 7)","margin 62%","declining: orders -40% from peak"]'`,
    );
    const before = await catalogVersion();
    expect(await recomputeStaleInsights(db, { chunk: 64 })).toBe(300);
    expect(await catalogVersion()).toBe(before + 1);

    const after = await db.product.findMany({
      orderBy: { id: "asc" },
      select: { id: true, lifecycleStage: true, ordersGrowth7d: true, ordersPrev7d: true, orders7d: true, reasons: true, winningScore: true },
    });
    expect(after).toEqual(fresh);

    // The same as computing from the history as of the row's insightsAt.
    const one = await db.product.findFirstOrThrow({
      where: { ordersPrev7d: { lt: 10 } },
      select: { priceCents: true, costCents: true, shippingCents: true, amazonPriceCents: true, firstSeenAt: true, insightsAt: true, ordersPrev7d: true, ordersGrowth7d: true, lifecycleStage: true, history: true },
    });
    const history = { startDay: one.history!.startDay } as DailySeries;
    for (const key of SERIES_KEYS) history[key] = unpackSeries(one.history![key]);
    const expected = computeInsights({ ...one, history, now: one.insightsAt });
    expect([one.ordersPrev7d, one.ordersGrowth7d, one.lifecycleStage]).toEqual([expected.ordersPrev7d, null, expected.lifecycleStage]);

    // Nothing stale is left: a second start changes nothing and does not bump the catalogue.
    expect(await recomputeStaleInsights(db)).toBe(0);
    expect(await catalogVersion()).toBe(before + 1);
  });
});
