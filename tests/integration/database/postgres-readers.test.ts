// The product grid's and product page's prepared-statement readers (app/services/products/rows.server.ts, decisions
// 017, 076), the search's index and free text, and the duty layers, on both engines (decision 098): on SQLite and on
// PostgreSQL, each reader's answer is the one the same read makes through Prisma (a transaction's client, which has no
// SqlReader), and the two engines answer alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, db as sqliteDb, dialectOf, readerFor, type Db } from "~/db.server";
import { CatalogIndex } from "~/services/search/catalog-index.server";
import { TextMatcher } from "~/services/search/text-matcher.server";
import { tariffRowsFor } from "~/services/landed-cost/tariffs.server";
import { cardRows, cardRowsWithSupplier, detailRow, markedCardRows, marksFor, savedProductIds, trackedRows } from "~/services/products/rows.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

/** Values as comparable data: bigints and numbers alike, Dates as ISO text, rows sorted by id where order is free. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Set) return [...value].sort();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
const byId = (rows: { id: number }[]) => [...rows].sort((a, b) => a.id - b.id);

const throughPrisma = <T>(client: Db, read: (c: Db) => Promise<T>) => client.$transaction((tx) => read(tx as unknown as Db));

async function fill(db: Db) {
  await insertProducts(db, fixtureCatalogue(30, 98));
  const user = await db.user.create({ data: { email: `readers-${dialectOf(db)}@example.com` }, select: { id: true } });
  const ids = (await db.product.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((p) => p.id);
  for (const [i, productId] of ids.slice(0, 3).entries()) {
    await db.savedProduct.create({ data: { userId: user.id, productId, savedAt: new Date(Date.UTC(2026, 11, 2, 9, 0, i)) } });
  }
  for (const [i, productId] of ids.slice(2, 5).entries()) {
    await db.trackedProduct.create({
      data: { userId: user.id, productId, trackedAt: new Date(Date.UTC(2026, 11, 1, 9, 0, i, 123)), ordersAtTrack: 5, revenueCentsAtTrack: 12_345_678_901n, priceCentsAtTrack: 1999, storesSellingAtTrack: 2, winningScoreAtTrack: 70 },
    });
  }
  return { userId: user.id, ids };
}

/** Every reader's answer, through the client's SqlReader and through Prisma. */
async function answers(db: Db, userId: string, ids: number[]) {
  const reads = {
    cardRows: async (c: Db) => byId(await cardRows(c, ids)),
    cardRowsWithSupplier: async (c: Db) => byId(await cardRowsWithSupplier(c, ids.slice(0, 7))),
    detailRow: (c: Db) => detailRow(c, "fx-3"),
    detailMissing: (c: Db) => detailRow(c, "no-such-product"),
    marksFor: (c: Db) => marksFor(c, userId, ids),
    markedCardRows: async (c: Db) => byId(await markedCardRows(c, userId, ids)),
    savedProductIds: (c: Db) => savedProductIds(c, userId),
    trackedRows: (c: Db) => trackedRows(c, userId),
  };
  const out: Record<string, { reader: unknown; prisma: unknown }> = {};
  for (const [name, read] of Object.entries(reads)) {
    out[name] = { reader: plain(await read(db)), prisma: plain(await throughPrisma(db, read as (c: Db) => Promise<unknown>)) };
  }
  return out;
}

describe("the product readers on SQLite and PostgreSQL", () => {
  let pgDb: Db;
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    pgDb = createDb(url);
  }, 120_000);
  afterAll(async () => {
    await pgDb?.$disconnect();
  });

  it("answer as Prisma does on each engine, and alike on both", async () => {
    expect(dialectOf(sqliteDb)).toBe("sqlite");
    expect(dialectOf(pgDb)).toBe("postgresql");
    expect(readerFor(pgDb)).not.toBeNull();
    const sqlite = await fill(sqliteDb);
    const postgres = await fill(pgDb);
    expect(postgres.ids).toEqual(sqlite.ids);
    const onSqlite = await answers(sqliteDb, sqlite.userId, sqlite.ids);
    const onPostgres = await answers(pgDb, postgres.userId, postgres.ids);
    for (const name of Object.keys(onSqlite)) {
      expect(onSqlite[name].reader, `${name} on SQLite`).toEqual(onSqlite[name].prisma);
      expect(onPostgres[name].reader, `${name} on PostgreSQL`).toEqual(onPostgres[name].prisma);
      expect(onPostgres[name].prisma, `${name}: PostgreSQL against SQLite`).toEqual(onSqlite[name].prisma);
    }
    expect((onPostgres.cardRows.reader as unknown[]).length).toBe(30);
    expect((onPostgres.trackedRows.reader as unknown[]).length).toBe(3);
    const marked = onPostgres.markedCardRows.reader as { saved: boolean; tracked: boolean }[];
    const markCounts = [marked.filter((r) => r.saved), marked.filter((r) => r.tracked), marked.filter((r) => r.saved && r.tracked)];
    expect(markCounts.map((rows) => rows.length)).toEqual([3, 3, 1]);

    // The search's in-process index (the grid's every filter and sort) loads the same columns from either engine.
    const fromSqlite = await CatalogIndex.load(readerFor(sqliteDb)!);
    const fromPostgres = await CatalogIndex.load(readerFor(pgDb)!);
    expect(fromPostgres.size).toBe(30);
    expect(fromPostgres.version).toBe(fromSqlite.version);
    expect(fromPostgres.nicheNames).toEqual(fromSqlite.nicheNames);
    const columns = (index: CatalogIndex) =>
      Object.fromEntries(Object.entries((index as unknown as { cols: Record<string, unknown> }).cols).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Int32Array)] : v]));
    expect(columns(fromPostgres)).toEqual(columns(fromSqlite));
    expect(new Set(columns(fromPostgres).firstSeenDay as number[]).size).toBeGreaterThan(1);

    // Free text: FTS5 on SQLite, English text search on PostgreSQL; the same products for the queries the search builds
    // (words, a last word as a prefix, a title-only word beside others, a word nowhere), and the best match first.
    const ids = async (db: Db, index: CatalogIndex, fts: string) =>
      [...(await new TextMatcher(readerFor(db)!).all(index, fts)).rows].map((row) => index.cols.ids[row]);
    for (const fts of ['"smart"', '"wirel"*', '"wireless" "zanzibar"', '"blenders"', '(title : "zanzibar") AND ("fitness" OR "kitchen")', '"zzzz"']) {
      const expected = await ids(sqliteDb, fromSqlite, fts);
      expect(await ids(pgDb, fromPostgres, fts), fts).toEqual(expected);
      if (fts !== '"zzzz"') expect(expected.length, fts).toBeGreaterThan(0);
    }
    // The duty table: its starter load (one statement that inserts only while the edition is missing) and the layers
    // that can apply to a code, read by every grid and product page.
    const layers = async (db: Db) => ({
      reader: plain(await tariffRowsFor(db, "8517130000")),
      prisma: plain(await throughPrisma(db, (c) => tariffRowsFor(c, "8517130000"))),
    });
    const sqliteLayers = await layers(sqliteDb);
    const postgresLayers = await layers(pgDb);
    expect((sqliteLayers.reader as unknown[]).length).toBeGreaterThan(0);
    expect(sqliteLayers.reader).toEqual(sqliteLayers.prisma);
    expect(postgresLayers.reader).toEqual(postgresLayers.prisma);
    expect(postgresLayers.reader).toEqual(sqliteLayers.reader);
    expect(await pgDb.tariffLayer.count()).toBe(await sqliteDb.tariffLayer.count());

    const best = async (db: Db) => (await new TextMatcher(readerFor(db)!).ranked('"zanzibar"', 5)).map((id) => id);
    expect(await best(pgDb)).toEqual(await best(sqliteDb));
  });
});
