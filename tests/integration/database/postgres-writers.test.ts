// The product import (the CLI's, the generator's and the first start's seed), the stale-insights recompute and the
// landed-margins refresh on both engines (decision 098): the same rows written on SQLite and on PostgreSQL give the
// same products, histories, image sources, counts and catalogue version, read back through Prisma.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, db as sqliteDb, dialectOf, type Db } from "~/db.server";
import { createJobSystemFor, type Jobs } from "~/services/jobs.server";
import { importProducts, recomputeStaleInsights, type ImportSummary } from "~/services/products/import.server";
import { refreshLandedMargins } from "~/services/landed-cost/margins.server";
import { generatedRows } from "../../../scripts/lib/product-generator";
import { openProductFile } from "../../../scripts/lib/product-file";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

const NOW = new Date("2026-04-01T06:00:00Z");
const FILE = path.resolve("tests/fixtures/products-mixed.ndjson");
const fixtureRows = readFileSync(FILE, "utf8")
  .split("\n")
  .filter((line) => line.startsWith('{"objectID": "fx-brush"') || line.startsWith('{"objectID": "fx-lamp"'))
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const GENERATED = 240;

/** Values as comparable data: bigints as numbers, Dates as ISO text, bytes as base64. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** Every product with its history and image sources, by objectID (ids are each engine's own). */
async function catalogue(db: Db) {
  const products = await db.product.findMany({ orderBy: { objectID: "asc" }, omit: { id: true }, include: { history: { omit: { productId: true } } } });
  const sources = await db.productImageSource.findMany({ orderBy: [{ objectID: "asc" }, { position: "asc" }] });
  const images = await db.storedImage.findMany({ orderBy: { url: "asc" }, select: { url: true, status: true, createdAt: true } });
  const state = await db.catalogState.findUnique({ where: { id: 1 }, select: { version: true } });
  return plain({ products, sources, images, version: state?.version });
}

const counts = (s: ImportSummary) => ({ imported: s.imported, updated: s.updated, rejected: s.rejected, processed: s.processed, catalogVersion: s.catalogVersion, images: { ...s.images, jobIds: s.images.jobIds.length } });

async function* rowsOf(...rows: unknown[]) {
  let line = 0;
  for (const row of rows) yield { line: ++line, row };
}

/** The same writes on one engine: a file with bad rows, generated products in small statements, a re-import. */
async function writeAll(db: Db, jobs: Jobs) {
  const file = await openProductFile(FILE);
  const first = await importProducts(db, file.rows, { now: NOW });
  const generated = await importProducts(db, generatedRows(GENERATED, { seed: 38, endDay: "2026-03-31" }), { now: NOW, statementRows: 50, transactionRows: 120 });
  // Again: an update by objectID with external pictures to fetch, a new product sharing one, and a generated product
  // now from a tracked store (no sales data: its earlier history goes).
  const [brush, lamp] = ["fx-brush", "fx-lamp"].map((id) => fixtureRows.find((r) => r.objectID === id)!);
  const again = await importProducts(
    db,
    rowsOf(
      { ...brush, title: "Renamed Slicker Brush", images: ["https://cdn.example.com/a.jpg", "https://cdn.example.com/b.jpg"] },
      { ...lamp, objectID: "fx-new", images: ["https://cdn.example.com/a.jpg"] },
      { ...lamp, objectID: "gen38-0000001", history: undefined, source: { kind: "tracked-store", store: "shop.example.com", addedAt: "2026-03-30" } },
    ),
    { now: new Date(NOW.getTime() + 3_600_000), imageJobs: jobs },
  );
  return { first: counts(first), generated: counts(generated), again: counts(again) };
}

describe("the product writers on SQLite and PostgreSQL", () => {
  let pgDb: Db;
  let pgUrl: string;
  // Each engine's job system (our queue on SQLite, pg-boss on PostgreSQL) takes the pictures' fetch job.
  const systems: Jobs[] = [];
  const jobsOn = (db: Db, url: string) => {
    const system = createJobSystemFor({ db, url, log: { info() {}, warn() {}, error() {} } });
    systems.push(system);
    return system;
  };
  beforeAll(async () => {
    pgUrl = await freshPostgresDatabase();
    pgDb = createDb(pgUrl);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(systems.map((s) => s.stop()));
    await pgDb?.$disconnect();
  });

  it("import the same products, histories and image sources on both engines", async () => {
    expect(dialectOf(pgDb)).toBe("postgresql");
    const onSqlite = await writeAll(sqliteDb, jobsOn(sqliteDb, "file:unused.db"));
    const onPostgres = await writeAll(pgDb, jobsOn(pgDb, pgUrl));
    expect(onPostgres).toEqual(onSqlite);
    expect(onSqlite.first.rejected.length).toBeGreaterThan(0);
    expect(onSqlite.generated.imported).toBe(GENERATED);
    expect(onSqlite.again).toMatchObject({ imported: 1, updated: 2, rejected: [], images: { urls: 2, toFetch: 2 } });

    const sqliteCatalogue = await catalogue(sqliteDb);
    const postgresCatalogue = (await catalogue(pgDb)) as typeof sqliteCatalogue & { products: unknown[] };
    expect(postgresCatalogue.products.length).toBe(onSqlite.first.imported + GENERATED + 1);
    expect(postgresCatalogue).toEqual(sqliteCatalogue);
    const tracked = await pgDb.product.findUnique({ where: { objectID: "gen38-0000001" }, select: { sourceStore: true, history: { select: { startDay: true } } } });
    expect(tracked).toEqual({ sourceStore: "shop.example.com", history: null });
    expect(await pgDb.productImageSource.count()).toBe(3);
  }, 120_000);

  it("recompute stale insights and refresh landed margins alike on both engines", async () => {
    const figures = (db: Db) =>
      db.product.findMany({ orderBy: { objectID: "asc" }, select: { objectID: true, landedMarginBps: true, winningScore: true, ordersPrev7d: true, lifecycleStage: true, reasons: true } });
    const expected = await figures(sqliteDb);
    expect(await figures(pgDb)).toEqual(expected);

    for (const db of [sqliteDb, pgDb]) {
      // Rows figured by older rules, and margins figured with other layers: both writers have work to do.
      await db.product.updateMany({ where: { objectID: { startsWith: "gen38-00001" } }, data: { ordersPrev7d: -1, winningScore: 0, reasons: "[]" } });
      await db.product.updateMany({ data: { landedMarginBps: null } });
    }
    const recomputed = [await recomputeStaleInsights(sqliteDb, { chunk: 40 }), await recomputeStaleInsights(pgDb, { chunk: 40 })];
    expect(recomputed[1]).toBe(recomputed[0]);
    expect(recomputed[0]).toBeGreaterThan(50);

    const refresh = async (db: Db) => {
      const r = await refreshLandedMargins(db, { now: NOW, force: true, chunk: 100 });
      return { refigured: r.refigured, products: r.products, changed: r.changed, key: r.key, asOf: r.asOf };
    };
    const sqliteRefresh = await refresh(sqliteDb);
    expect(await refresh(pgDb)).toEqual(sqliteRefresh);
    expect(sqliteRefresh.changed).toBeGreaterThan(100);
    const after = await figures(pgDb);
    expect(after).toEqual(await figures(sqliteDb));
    expect(after).toEqual(expected);
    expect((await catalogue(pgDb) as { version: number }).version).toBe((await catalogue(sqliteDb) as { version: number }).version);
  }, 120_000);
});
