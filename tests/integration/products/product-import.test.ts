// Importing product files into a real, migrated SQLite database through the same reader and service
// the CLI uses: bad rows are reported with their line and reason and left out, good rows land in
// Product and ProductHistory with their insights, a re-import updates by objectID (and the full-text
// index follows), and every import that changed something bumps the catalogue version.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { computeInsights } from "~/domain/products/insights";
import { parseProductRow, unpackSeries, type ProductImportInput } from "~/domain/products/product-import";
import { importProducts, type ImportProgress } from "~/services/products/import.server";
import { openProductFile, ProductFileError } from "../../../scripts/lib/product-file";

const NOW = new Date("2026-04-01T06:00:00Z");
const tmp = mkdtempSync(path.resolve("tests/.tmp/product-import-"));

afterAll(async () => {
  await db.$disconnect();
});

beforeEach(async () => {
  await db.$executeRawUnsafe('DELETE FROM "Product"');
  await db.$executeRawUnsafe('UPDATE "CatalogState" SET "version" = 0');
});

async function importFile(file: string, options: Parameters<typeof importProducts>[2] = {}) {
  const source = await openProductFile(file);
  return importProducts(db, source.rows, { now: NOW, ...options });
}

const fixture = (name: string) => path.resolve("tests/fixtures", name);

async function catalogVersion() {
  const rows = await db.$queryRawUnsafe<{ version: number | bigint }[]>('SELECT "version" FROM "CatalogState" WHERE "id" = 1');
  return Number(rows[0].version);
}

async function searchIds(word: string): Promise<number[]> {
  const rows = await db.$queryRawUnsafe<{ rowid: number | bigint }[]>(
    `SELECT rowid FROM "ProductSearch" WHERE "ProductSearch" MATCH ? ORDER BY rowid`,
    word,
  );
  return rows.map((r) => Number(r.rowid));
}

function fixtureRow(objectID: string): ProductImportInput {
  // The NDJSON fixture's good rows, for building variations in tests.
  const lines = readFileSync(fixture("products-mixed.ndjson"), "utf8").split("\n");
  for (const line of lines) {
    if (line.includes(`"objectID": "${objectID}"`)) return JSON.parse(line) as ProductImportInput;
  }
  throw new Error(`no fixture row ${objectID}`);
}

async function* rowsOf(...rows: unknown[]) {
  let line = 0;
  for (const row of rows) yield { line: ++line, row };
}

describe("importing an NDJSON file with good and bad rows", () => {
  it("imports the good rows and reports each bad one with its line and reason", async () => {
    const summary = await importFile(fixture("products-mixed.ndjson"));
    expect(summary.imported).toBe(3);
    expect(summary.updated).toBe(0);
    expect(summary.processed).toBe(7); // the blank line is not a row
    expect(summary.rejected.map((r) => r.line)).toEqual([3, 5, 6, 8]);
    expect(summary.rejected[0].reason).toMatch(/^not valid JSON/);
    expect(summary.rejected[1].reason).toBe("priceCents must be a whole number of cents");
    expect(summary.rejected[2].reason).toBe("niches must name at least one niche");
    expect(summary.rejected[3].reason).toBe("history.views has 10 days but history.orders has 14; every series needs one value a day");

    const ids = await db.product.findMany({ select: { objectID: true }, orderBy: { objectID: "asc" } });
    expect(ids.map((p) => p.objectID)).toEqual(["fx-brush", "fx-lamp", "fx-mug"]);
    expect(summary.catalogVersion).toBe(1);
    expect(await catalogVersion()).toBe(1);
  });

  it("stores every column, the derived insights and the packed history", async () => {
    await importFile(fixture("products-mixed.ndjson"));
    const input = fixtureRow("fx-brush");
    const parsed = parseProductRow(input);
    if (!parsed.ok) throw new Error(parsed.reason);
    const expected = computeInsights({ ...parsed.row, now: NOW, firstSeenAt: parsed.row.firstSeenAt });

    const product = await db.product.findUniqueOrThrow({ where: { objectID: "fx-brush" }, include: { history: true } });
    expect(product).toMatchObject({
      title: "Self-Cleaning Slicker Brush for Dogs",
      primaryNiche: "pets",
      supplierName: "Yiwu Fixture Trading Co., Ltd.",
      supplierUrl: "https://suppliers.example/yiwu/fx-brush",
      costCents: 450,
      priceCents: 1999,
      shippingCents: 299,
      amazonPriceCents: 2999,
      orders: expected.orders,
      revenueCents: BigInt(expected.revenueCents),
      likes: expected.likes,
      comments: expected.comments,
      shares: expected.shares,
      views: expected.views,
      storesSelling: expected.storesSelling,
      winningScore: expected.winningScore,
      lifecycleStage: expected.lifecycleStage,
      saturation: expected.saturation,
      marginBps: expected.marginBps,
      orders7d: expected.orders7d,
      ordersGrowth7d: expected.ordersGrowth7d,
      trendingScore: expected.trendingScore,
    });
    expect(JSON.parse(product.niches)).toEqual(["pets"]);
    expect(JSON.parse(product.tags)).toEqual(["fixture"]);
    expect(JSON.parse(product.images)).toEqual(["/product-images/fx-brush-1.svg"]);
    expect(JSON.parse(product.reasons)).toEqual(expected.reasons);
    expect(product.firstSeenAt.toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(product.lastUpdatedAt.toISOString()).toBe(NOW.toISOString()); // not given: the import time
    expect(product.insightsAt.toISOString()).toBe(NOW.toISOString());
    expect(product.randomSortKey).toBeGreaterThanOrEqual(0);

    const h = product.history!;
    expect(h.startDay).toBe("2026-03-18");
    expect(h.days).toBe(14);
    for (const key of ["orders", "revenueCents", "views", "likes", "comments", "shares", "storesSelling"] as const) {
      expect(unpackSeries(h[key])).toEqual(input.history[key]);
    }
  });

  it("can be filtered and sorted by Prisma on the derived columns", async () => {
    await importFile(fixture("products-mixed.ndjson"));
    const recent = await db.product.findMany({
      where: { firstSeenAt: { gte: new Date("2026-01-01T00:00:00Z") }, marginBps: { gt: 0 } },
      orderBy: { winningScore: "desc" },
      select: { objectID: true, winningScore: true },
    });
    expect(recent).toHaveLength(3);
    expect(recent[0].winningScore).toBeGreaterThanOrEqual(recent[2].winningScore);
  });
});

describe("other formats", () => {
  it("CSV: quoted multi-line descriptions, a short record and a bad number, by line", async () => {
    const summary = await importFile(fixture("products-mixed.csv"));
    expect(summary.imported).toBe(2);
    expect(summary.rejected).toEqual([
      { line: 5, reason: "has 3 fields but the header has 23" },
      { line: 6, reason: "costCents must be a whole number of cents" },
    ]);
    const brush = await db.product.findUniqueOrThrow({ where: { objectID: "fx-csv-brush" }, select: { description: true, niches: true } });
    expect(brush.description).toBe('Brush, comb and "deshedder" in one.\nWorks on short and long coats.');
    const lamp = await db.product.findUniqueOrThrow({ where: { objectID: "fx-csv-lamp" }, select: { niches: true, tags: true } });
    expect(JSON.parse(lamp.niches)).toEqual(["lighting", "home-decor"]);
    expect(JSON.parse(lamp.tags)).toEqual(["lighting", "room decor"]);
  });

  it("a JSON array reports rejections on the line where the element starts", async () => {
    const summary = await importFile(fixture("products-array.json"));
    expect(summary.imported).toBe(2);
    expect(summary.rejected).toEqual([{ line: 138, reason: "priceCents must be a whole number of cents" }]);
  });

  it("a CSV header without the required columns stops before anything is imported", async () => {
    const file = path.join(tmp, "no-price.csv");
    writeFileSync(file, "objectID,title\nx,Mug\n");
    await expect(openProductFile(file)).rejects.toThrow(ProductFileError);
    await expect(openProductFile(file)).rejects.toThrow(/lacks required columns .*priceCents/);
  });

  it("files that cannot be read are refused as a whole", async () => {
    await expect(openProductFile(path.join(tmp, "missing.ndjson"))).rejects.toThrow(/cannot read .*ENOENT/);
    const empty = path.join(tmp, "empty.json");
    writeFileSync(empty, "");
    await expect(openProductFile(empty)).rejects.toThrow(/is empty/);
    const object = path.join(tmp, "object.json");
    writeFileSync(object, '{"objectID": 1,\n "title": "x"}');
    // A .json holding an object is read as NDJSON: the broken line is one rejected row.
    const source = await openProductFile(object);
    expect(source.format).toBe("ndjson");
    const notJson = path.join(tmp, "broken.json");
    writeFileSync(notJson, "[1, 2");
    await expect(openProductFile(notJson)).rejects.toThrow(/not valid JSON/);
  });
});

describe("re-importing", () => {
  it("updates by objectID, keeps the id, and the full-text index finds the new title", async () => {
    await importFile(fixture("products-mixed.ndjson"));
    const before = await db.product.findUniqueOrThrow({ where: { objectID: "fx-brush" }, select: { id: true } });
    expect(await searchIds("slicker")).toEqual([before.id]);

    const changed = { ...fixtureRow("fx-brush"), title: "Grooming Rake for Double Coats", description: "Thins undercoat.", priceCents: 2499 };
    changed.history = { ...changed.history, orders: changed.history.orders.map((o) => o * 2) };
    const summary = await importProducts(db, rowsOf(changed), { now: NOW });
    expect(summary).toMatchObject({ imported: 0, updated: 1, rejected: [], catalogVersion: 2 });

    const after = await db.product.findUniqueOrThrow({ where: { objectID: "fx-brush" }, include: { history: true } });
    expect(after.id).toBe(before.id);
    expect(after.title).toBe("Grooming Rake for Double Coats");
    expect(after.priceCents).toBe(2499);
    expect(unpackSeries(after.history!.orders)).toEqual(changed.history.orders);
    expect(await searchIds("rake")).toEqual([before.id]);
    expect(await searchIds("slicker")).toEqual([]);
    expect(await db.product.count()).toBe(3);
    expect(await db.productHistory.count()).toBe(3);
  });

  it("the same objectID twice in one file: the later row wins and counts as an update", async () => {
    const first = fixtureRow("fx-lamp");
    const second = { ...first, title: "Sunset Lamp With Remote" };
    const summary = await importProducts(db, rowsOf(first, second), { now: NOW });
    expect(summary).toMatchObject({ imported: 1, updated: 1 });
    expect((await db.product.findUniqueOrThrow({ where: { objectID: "fx-lamp" } })).title).toBe("Sunset Lamp With Remote");
  });

  it("spans many statements and transactions without losing or duplicating a row", async () => {
    const base = fixtureRow("fx-mug");
    const rows: unknown[] = [];
    for (let i = 0; i < 23; i++) rows.push({ ...base, objectID: `mug-${i}`, title: `Mug number ${i}` });
    rows.push({ ...base, objectID: "mug-3", title: "Mug three again" }); // a repeat in a later batch
    rows.push({ ...base, objectID: "mug-bad", priceCents: -1 });
    const progress: ImportProgress[] = [];
    const summary = await importProducts(db, rowsOf(...rows), {
      now: NOW,
      statementRows: 2,
      transactionRows: 5,
      onProgress: (p) => progress.push(p),
    });
    expect(summary).toMatchObject({ imported: 23, updated: 1, processed: 25 });
    expect(summary.rejected).toEqual([{ line: 25, reason: "priceCents must be at least 1 cent" }]);
    expect(await db.product.count()).toBe(23);
    expect(await db.productHistory.count()).toBe(23);
    expect((await db.product.findUniqueOrThrow({ where: { objectID: "mug-3" } })).title).toBe("Mug three again");
    expect(progress.length).toBeGreaterThanOrEqual(5);
    expect(progress.at(-1)).toMatchObject({ processed: 25, imported: 23, updated: 1, rejected: 1 });
  });

  it("an import that changes nothing leaves the catalogue version alone", async () => {
    const summary = await importProducts(db, rowsOf({ objectID: "nope" }), { now: NOW });
    expect(summary.catalogVersion).toBeNull();
    expect(summary.rejected).toHaveLength(1);
    expect(await catalogVersion()).toBe(0);
  });

  it("a copy of the database file keeps what was committed", async () => {
    await importFile(fixture("products-mixed.ndjson"));
    const copy = path.join(tmp, "copy.db");
    await db.$executeRawUnsafe("PRAGMA wal_checkpoint(FULL)");
    copyFileSync(process.env.TEST_DB_FILE!, copy);
    const { createDb } = await import("~/db.server");
    const other = createDb(`file:${copy}`);
    try {
      expect(await other.product.count()).toBe(3);
      expect(await other.productHistory.count()).toBe(3);
    } finally {
      await other.$disconnect();
    }
  });
});
