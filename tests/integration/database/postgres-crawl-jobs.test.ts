// The crawler's writes, the catalogue's listing readers and picture queue, and our own job queue with its schedules on
// both engines (issue 38, decision 098): the same store reads written on SQLite and on PostgreSQL leave the same
// listings, pictures pending and rows for matching; a schedule fired by two job systems on PostgreSQL makes one job;
// a rate limit counted by two hosts' clients on one PostgreSQL database counts once for both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, db as sqliteDb, dbReady, readerFor, sqlReader, type Db, type SqlReader } from "~/db.server";
import { diffSnapshots } from "~/domain/competitors/insights";
import type { ProductSnapshot, StoreSnapshot } from "~/domain/crawl/store-snapshot";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createPictureFingerprinter } from "~/integrations/picture-fingerprint.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createCataloguePictures } from "~/services/catalogue/pictures.server";
import { readMatchListings } from "~/services/catalogue/listings.server";
import { readUnpicturedListings } from "~/services/catalogue/unpictured.server";
import { recordRead } from "~/services/crawl/listings.server";
import { applyRetention } from "~/services/crawl/retention.server";
import { productSelect } from "~/services/crawl/rows.server";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";
import { AppError } from "~/domain/errors";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

const quiet: JobsLog = { info() {}, warn() {}, error() {} };

function product(id: string, title: string, image: string | null, priceCents: number): ProductSnapshot {
  return {
    id,
    handle: title.toLowerCase().replaceAll(" ", "-"),
    title,
    productType: "Kitchen",
    vendor: "Acme",
    tags: ["new"],
    createdAt: "2026-11-01T00:00:00.000Z",
    publishedAt: "2026-11-01T00:00:00.000Z",
    updatedAt: null,
    images: image ? [image] : [],
    variants: [{ id: `${id}-1`, title: "Default", sku: `SKU-${id}`, priceCents, compareAtCents: null, available: true }],
  };
}

function snapshot(takenAt: string, currency: string | null, products: ProductSnapshot[]): StoreSnapshot {
  return { domain: "crawl-pg.example.com", takenAt, currency, products, truncated: false };
}

const FIRST = snapshot("2026-11-20T10:00:00.000Z", "EUR", [
  product("1", "Garlic Press", "https://cdn.example.com/press.jpg?v=1", 1299),
  product("2", "Salad Spinner", "https://cdn.example.com/spinner.jpg", 2499),
  product("3", "Herb Scissors", null, 999),
]);
const SECOND = snapshot("2026-11-21T10:00:00.000Z", null, [
  // The main picture's URL changed only in Shopify's cache-busting `v`; the spinner went; scissors got a picture.
  product("1", "Garlic Press", "https://cdn.example.com/press.jpg?v=2", 1199),
  product("3", "Herb Scissors", "https://cdn.example.com/scissors.jpg", 999),
  product("4", "Pasta Maker", "https://cdn.example.com/pasta.jpg", 5999),
]);

/** The two reads written as the tracker writes them, with the picture queue after each, on one engine. */
async function crawl(db: Db, sql: SqlReader) {
  const store = await db.competitorStore.create({ data: { domain: "crawl-pg.example.com", fetchDomain: "crawl-pg.example.com", name: "Crawl PG" } });
  const pictures = createCataloguePictures({
    db,
    images: createImageFetcher({ fetcher: createSafeFetcher({ contactUrl: "https://winningproducts.test/bot" }) }),
    fingerprinter: createPictureFingerprinter(),
    now: () => new Date("2026-11-21T11:00:00.000Z"),
  });
  const pending: number[] = [];
  let previous: StoreSnapshot | null = null;
  let storeCurrency: string | null = null;
  for (const read of [FIRST, SECOND]) {
    const rows = await db.competitorProduct.findMany({ where: { storeId: store.id }, select: productSelect });
    const changes = previous ? diffSnapshots(previous, read) : [];
    await recordRead({ db }, { id: store.id, fetchDomain: store.fetchDomain, currency: storeCurrency }, read, rows, changes, new Date(Date.parse(read.takenAt) + 3_600_000));
    previous = read;
    storeCurrency = read.currency ?? storeCurrency;
    pending.push(await pictures.queue());
  }
  // A fingerprint for the press, as a fetched picture leaves it, then the URL's `v` moves on again.
  const press = await db.competitorProduct.findFirstOrThrow({ where: { storeId: store.id, productId: "1" } });
  await db.listingPicture.update({ where: { listingId: press.id }, data: { status: "ok", hash: "00ff00ff00ff00ff" } });
  await db.competitorProduct.update({ where: { id: press.id }, data: { images: JSON.stringify(["https://cdn.example.com/press.jpg?v=3"]) } });
  pending.push(await pictures.queue());

  const listings = await db.competitorProduct.findMany({
    where: { storeId: store.id },
    orderBy: { productId: "asc" },
    select: { productId: true, title: true, priceMinCents: true, currency: true, lastSeenAt: true, removedAt: true, firstSeenAt: true },
  });
  const pictureRows = await db.listingPicture.findMany({
    orderBy: { listing: { productId: "asc" } },
    select: { imageUrl: true, status: true, hash: true, listing: { select: { productId: true } } },
  });
  const idToProduct = new Map((await db.competitorProduct.findMany({ select: { id: true, productId: true } })).map((l) => [l.id, l.productId]));
  const match = (await readMatchListings(sql)).map(({ id, storeId: _storeId, ...rest }) => ({ ...rest, productId: idToProduct.get(id) }));
  const unpictured = (await readUnpicturedListings(sql)).map(({ id, storeId: _storeId, ...rest }) => ({ ...rest, productId: idToProduct.get(id) }));
  const checks = await db.competitorCheck.count({ where: { storeId: store.id } });
  return { pending, listings, pictureRows, match, unpictured, checks };
}

describe("the crawler, the catalogue's listing readers and the job queue on SQLite and PostgreSQL", () => {
  let url: string;
  let pgDb: Db;
  beforeAll(async () => {
    url = await freshPostgresDatabase();
    pgDb = createDb(url);
  }, 120_000);
  afterAll(async () => {
    await pgDb?.$disconnect();
  });

  it("two reads of a store leave the same listings, pictures and rows to match on both engines", async () => {
    await dbReady;
    await sqliteDb.competitorStore.deleteMany({ where: { domain: "crawl-pg.example.com" } });
    const onSqlite = await crawl(sqliteDb, sqlReader);
    const onPostgres = await crawl(pgDb, readerFor(pgDb)!);
    expect(onPostgres).toEqual(onSqlite);

    // What the two reads say, on either: the spinner removed, the euro price kept with the first read's currency, the
    // press's picture followed to its new `v` without a new fetch, the scissors pending now that they have a picture.
    expect(onSqlite.listings.map((l) => [l.productId, l.currency, l.removedAt !== null])).toEqual([
      ["1", "EUR", false],
      ["2", "EUR", true],
      ["3", "EUR", false],
      ["4", "EUR", false],
    ]);
    expect(onSqlite.pictureRows).toEqual([
      { imageUrl: "https://cdn.example.com/press.jpg?v=3", status: "ok", hash: "00ff00ff00ff00ff", listing: { productId: "1" } },
      { imageUrl: "https://cdn.example.com/spinner.jpg", status: "pending", hash: null, listing: { productId: "2" } },
      { imageUrl: "https://cdn.example.com/scissors.jpg", status: "pending", hash: null, listing: { productId: "3" } },
      { imageUrl: "https://cdn.example.com/pasta.jpg", status: "pending", hash: null, listing: { productId: "4" } },
    ]);
    expect(onSqlite.match.map((m) => m.productId)).toEqual(["1"]);
    expect(onSqlite.match[0]).toMatchObject({ hash: "00ff00ff00ff00ff", firstSeenAt: Date.parse(FIRST.takenAt) / 1000 });
    expect(onSqlite.unpictured.map((m) => m.productId)).toEqual(["3", "4"]);
    expect(onSqlite.checks).toBe(2);
  });

  it("the daily retention thins and deletes a store's old checks alike on both engines", async () => {
    const now = new Date("2026-12-07T12:00:00.000Z");
    const day = 86_400_000;
    async function retain(db: Db) {
      const store = await db.competitorStore.create({ data: { domain: "retention-pg.example.com", fetchDomain: "retention-pg.example.com", name: "Retention" } });
      // Four reads a day for 410 days: an old day keeps its last successful read; checks past keepDays (400) go.
      const checks = [];
      for (let d = 1; d <= 410; d++) {
        for (const [h, ok] of [[1, true], [7, true], [13, false], [19, false]] as const) {
          checks.push({ storeId: store.id, takenAt: new Date(now.getTime() - d * day + h * 3_600_000), ok, products: d * 10 + h });
        }
      }
      await db.competitorCheck.createMany({ data: checks });
      const outcome = await applyRetention({ db, now: () => now });
      const kept = await db.competitorCheck.findMany({ where: { storeId: store.id }, orderBy: { takenAt: "asc" }, select: { takenAt: true, ok: true, products: true } });
      await db.competitorStore.delete({ where: { id: store.id } });
      return { outcome, kept: kept.map((k) => [k.takenAt.toISOString(), k.ok, k.products]) };
    }
    await dbReady;
    await sqliteDb.competitorStore.deleteMany({ where: { domain: "retention-pg.example.com" } });
    const onSqlite = await retain(sqliteDb);
    expect(await retain(pgDb)).toEqual(onSqlite);
    expect(onSqlite.outcome.thinned).toBeGreaterThan(0);
    expect(onSqlite.outcome.checksDeleted).toBeGreaterThan(0);
  });

  it("a schedule fired by two job systems on PostgreSQL makes one job per period, run and marked done once", async () => {
    let clock = Date.parse("2026-11-23T23:59:30.000Z");
    const now = () => new Date(clock);
    const second = createDb(url);
    try {
      const systems = [pgDb, second].map((db, i) => createJobs({ db, ownerId: `pg-${i}`, now, random: () => 0.5, log: quiet }));
      const ran: unknown[] = [];
      for (const jobs of systems) {
        jobs.register("jobs.test", ({ payload }) => void ran.push(payload));
        jobs.schedule("nightly", "0 0 * * *", "jobs.test", (period) => ({ day: period.toISOString().slice(0, 10) }));
      }
      await Promise.all(systems.flatMap((jobs) => [jobs.fireSchedules(), jobs.fireSchedules()]));
      clock += 30_000;
      await Promise.all(systems.flatMap((jobs) => [jobs.fireSchedules(), jobs.fireSchedules()]));
      const rows = await pgDb.job.findMany({ where: { kind: "jobs.test" }, orderBy: { id: "asc" } });
      expect(rows.map((r) => JSON.parse(r.payload))).toEqual([{ day: "2026-11-23" }, { day: "2026-11-24" }]);
      expect(await pgDb.jobScheduleRun.count({ where: { scheduleName: "nightly" } })).toBe(2);

      const results = await Promise.all(systems.map((jobs) => jobs.runDue()));
      expect(results.reduce((sum, r) => sum + r.done, 0)).toBe(2);
      expect(ran).toHaveLength(2);
      expect((await pgDb.job.findMany({ where: { kind: "jobs.test" } })).map((r) => r.status)).toEqual(["done", "done"]);
    } finally {
      await second.$disconnect();
    }
  });

  it("a rate limit counts the tries of two hosts together on PostgreSQL, refuses the one over with its sentence, and forgets", async () => {
    const second = createDb(url);
    try {
      const rule = { name: "pg-login", points: 3, windowSeconds: 600, refusal: (retryIn: string) => `Too many tries; try again ${retryIn}.` };
      const [a, b] = [pgDb, second].map((db) => createRateLimits({ db, databaseUrl: url }).limit(rule));
      await a.consume("seller@example.com");
      await b.consume("seller@example.com");
      await a.consume("seller@example.com");
      const refused = await b.consume("seller@example.com").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many tries; try again in \d+ minutes?\.$/) });
      // Another subject is not counted with it; a forgotten subject starts again.
      await a.consume("other@example.com");
      await b.reset("seller@example.com");
      await a.consume("seller@example.com");
      expect(await pgDb.rateLimitCounter.count({ where: { key: { startsWith: "pg-login" } } })).toBe(2);
    } finally {
      await second.$disconnect();
    }
  });
});
