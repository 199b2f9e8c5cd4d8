// Several worker processes crawling one database (docs/decisions/047): three OS processes run the tracker's jobs
// (tests/integration/crawl/tracker-worker.ts) on one database (a SQLite file, or PostgreSQL with the jobs on pg-boss) against 20 stand-in stores the operator listed. All
// three queue the due stores at once, as their schedules would; every store is read exactly once per due time
// (one CompetitorCheck, one catalogue request, one after-read call), and every listing is stored once.
// Nothing here is timed: the test polls for the outcome.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { CHECK_JOB, createCompetitors } from "~/services/competitors.server";
import { getEnv } from "~/env.server";
import { jobs } from "~/services/index.server";
import { createJobSystemFor, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";
import { makeCatalogue, startFakeShopifyStore, type FakeShopifyStore } from "../../helpers/fake-shopify-store";
import { jobsOf } from "../../helpers/jobs";
import { ask, killWorkerProcesses, startWorkerProcesses, until, type WorkerProcess } from "../../helpers/worker-processes";
import type { TrackerWorkerReport } from "./tracker-worker";

const WORKER = path.resolve("tests/integration/crawl/tracker-worker.ts");
const STORES = 20;
const PRODUCTS = 12;
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

let shops: FakeShopifyStore;

beforeAll(async () => {
  await dbReady;
  shops = await startFakeShopifyStore();
});
afterAll(async () => {
  killWorkerProcesses();
  await shops.close();
});

function startWorkers(n: number): Promise<WorkerProcess[]> {
  const owners = Array.from({ length: n }, (_, i) => `crawler${i}`);
  return startWorkerProcesses(WORKER, owners, (owner) => ({ JOBS_OWNER: owner, SHOPS_PORT: String(shops.port), JOBS_POLL_MS: "100" }));
}

const catalogueReads = (host: string) => shops.requests.filter((r) => r.host.startsWith(host) && r.path.startsWith("/products.json") && /[?&]page=1(&|$)/.test(r.path)).length;
const checksDone = async () => (await jobsOf(CHECK_JOB)).every((j) => j.status === "done" || j.status === "parked");

describe("three worker processes crawling one database", () => {
  it("read every due store exactly once per due time and store every listing once", async () => {
    const names = Array.from({ length: STORES }, (_, i) => `crawl-${i}.test`);
    for (const [i, name] of names.entries()) shops.addShop(name, { products: makeCatalogue(PRODUCTS, i * 100 + 1) });
    const operator = createCompetitors({
      db,
      storefront: { probe: async () => ({ ok: false, reason: "not-shopify", message: "unused" }) as never, read: async () => ({}) as never },
      jobs: createJobSystemFor({ db, url: getEnv().DATABASE_URL, ownerId: "operator", log: quiet }),
      notifications: createNotifications({ db }),
    });
    await operator.addStores(names.map((n) => `${n}:${shops.port}`));
    const ids = (await db.competitorStore.findMany({ where: { operatorListed: true }, select: { id: true } })).map((s) => s.id);
    expect(ids).toHaveLength(STORES);

    const three = await startWorkers(3);
    for (let round = 1; round <= 2; round++) {
      // Every store's time has come (its own slot of the day, brought forward).
      await db.competitorStore.updateMany({ where: { id: { in: ids } }, data: { nextCheckAt: new Date(Date.now() - 1_000) } });
      // All three sweep at once, as their schedules would: each store is queued once under its key.
      const queued = await Promise.all(three.map((w) => ask(w, "due")));
      expect(queued.map(Number).every((n) => n === STORES)).toBe(true);
      if (round === 1) for (const w of three) w.child.stdin.write("go\n");
      await until(async () => (await checksDone()) && (await db.competitorCheck.count({ where: { storeId: { in: ids } } })) >= STORES * round, `round ${round}`, { pollMs: 200 });
      // A read schedules the next one at its slot, in the future: sweeping again queues nothing.
      expect((await Promise.all(three.map((w) => ask(w, "due")))).map(Number)).toEqual([0, 0, 0]);
      for (const id of ids) {
        const checks = await db.competitorCheck.findMany({ where: { storeId: id }, select: { ok: true } });
        expect(checks, `store ${id}`).toHaveLength(round);
        expect(checks.every((c) => c.ok)).toBe(true);
      }
      for (const name of names) expect(catalogueReads(name), name).toBe(round);
    }

    const reports: TrackerWorkerReport[] = [];
    for (const w of three) reports.push(JSON.parse(await ask(w, "stop")) as TrackerWorkerReport);
    const reads = reports.flatMap((r) => r.reads).sort((a, b) => a - b);
    expect(reads).toEqual([...ids, ...ids].sort((a, b) => a - b));
    expect(await db.competitorProduct.count({ where: { storeId: { in: ids } } })).toBe(STORES * PRODUCTS);
    const perStore = await db.competitorProduct.groupBy({ by: ["storeId"], where: { storeId: { in: ids } }, _count: { _all: true } });
    expect(perStore.every((g) => g._count._all === PRODUCTS)).toBe(true);
    // Every check job done, none left over: on our queue one row per store key (a key's done row is reused by its
    // next read), on pg-boss one job per read.
    const checkJobs = await jobsOf(CHECK_JOB);
    expect(checkJobs.every((j) => j.status === "done")).toBe(true);
    expect(checkJobs).toHaveLength(jobs.engine === "queue" ? STORES : STORES * 2);
    console.log(`reads per process: ${reports.map((r) => `${r.owner} ${r.reads.length}`).join(", ")}`);
  }, 300_000);
});
