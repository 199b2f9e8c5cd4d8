// Crawl throughput (issue 23, docs/decisions/058): how many stores an hour the tracker reads, and how many worker
// processes one SQLite file sustains; with BENCH_CRAWL_ENGINE=postgresql (`npm run bench -- crawl-pg`, issue 38), one
// PostgreSQL database with the jobs on pg-boss. Prints; asserts nothing.
// Stand-in Shopify stores on 127.0.0.1 (tests/helpers/fake-shopify-store.ts) answer every request after a random
// 100-300 ms, as stores far away do; each sells BENCH_CRAWL_PRODUCTS products (default 200: one catalogue page and
// /meta.json). The operator lists BENCH_CRAWL_STORES stores (default 4,000), every one due. Then, for each setting,
// W worker processes (tests/integration/crawl/tracker-worker.ts: the real job system, the real tracker's
// "competitor.check" job, the real storefront reader with its per-host rate limit of 2 requests a second and the
// SSRF-safe fetcher) claim and read stores for BENCH_CRAWL_SECONDS (default 40) on one database file.
// Per setting: stores read (a CompetitorCheck row written before the stop), stores an hour per process, write
// transactions a second (each read is four: the job's claim, the store's backoff mark, the read's transaction, the
// job's completion), rows a second (products, changes, checks), and the writes that met SQLite's lock: retried by
// retryBusy, or given up (the read then fails and is retried by the job system), and the workers' CPU per read: on
// a busy machine a worker waits for a core, not for the stores or the file, and CPU per read says what a free core
// would do.
// Every read here is a store's first (every product is new: the heaviest writes); the stores are reset between
// settings. Picture fetching and matching are not part of a read (see `npm run bench -- catalogue`).
// Politeness (decision 088): every request to a store waits for its second (one request a second per store, the
// limiter's default), robots.txt comes first, and each setting also prints "reads an hour per process at one request
// a second per store": the measured figure beside the ceiling that pacing alone sets (reads at once x 3,600 s over
// the seconds one read's requests need at one a second, the first going at once).
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { makeCatalogue, startFakeShopifyStore } from "../tests/helpers/fake-shopify-store";
import type { TrackerWorkerReport } from "../tests/integration/crawl/tracker-worker";
import { prepareScratchDb } from "./lib/scratch-db";

const STORES = Number(process.env.BENCH_CRAWL_STORES ?? 4_000);
const PRODUCTS = Number(process.env.BENCH_CRAWL_PRODUCTS ?? 200);
const SECONDS = Number(process.env.BENCH_CRAWL_SECONDS ?? 40);
/** [worker processes, store reads at once per process]. The tracker's default is 2 at once. */
const SETTINGS: Array<[number, number]> = (process.env.BENCH_CRAWL_SETTINGS ?? "1x2,1x8,2x8,4x8")
  .split(",")
  .map((s) => s.split("x").map(Number) as [number, number]);
const WORKER = path.resolve("tests/integration/crawl/tracker-worker.ts");

// BENCH_CRAWL_ENGINE=postgresql (`npm run bench -- crawl-pg`): the same on a database of a throw-away PostgreSQL cluster
// (fsync off), the jobs on pg-boss as the app runs them there (decision 102); otherwise one SQLite file.
const ENGINE = process.env.BENCH_CRAWL_ENGINE === "postgresql" ? "postgresql" : "sqlite";
const cluster = ENGINE === "postgresql" ? await (await import("../tests/helpers/postgres-cluster")).startPostgresCluster() : null;
if (cluster) {
  Object.assign(process.env, { DATABASE_URL: await cluster.createDatabase("bench_crawl"), NODE_ENV: "test", LOG_LEVEL: "silent", SESSION_SECRET: "bench-secret-0123456789" });
  const { prepareDb } = (await import("../scripts/prepare-db.mjs")) as { prepareDb: (env: NodeJS.ProcessEnv) => Promise<void> };
  await prepareDb(process.env);
} else prepareScratchDb("crawl");
const { db, dbReady } = await import("~/db.server");
const { createCompetitors } = await import("~/services/competitors.server");
const { createJobSystemFor } = await import("~/services/jobs.server");
const { createNotifications } = await import("~/services/notifications.server");
const { enqueueCheck } = await import("~/services/competitors/shared.server");
await dbReady;

const shops = await startFakeShopifyStore({ latencyMs: () => 100 + Math.random() * 200, record: false });
const catalogue = makeCatalogue(PRODUCTS);
const names = Array.from({ length: STORES }, (_, i) => `crawl-${i}.test`);
for (const name of names) shops.addShop(name, { products: catalogue });
const quiet = { info() {}, warn() {}, error() {} };
const jobs = createJobSystemFor({ db, url: process.env.DATABASE_URL!, ownerId: "bench-operator", log: quiet });
const operator = createCompetitors({
  db,
  storefront: { probe: async () => ({ ok: false, reason: "not-shopify", message: "unused" }) as never, read: async () => ({}) as never },
  jobs,
  notifications: createNotifications({ db }),
  log: quiet,
});
// The operator adds at most 5,000 stores at once (as the page and `npm run stores -- add` do).
for (let i = 0; i < names.length; i += 5_000) await operator.addStores(names.slice(i, i + 5_000).map((n) => `${n}:${shops.port}`));
const ids = (await db.competitorStore.findMany({ where: { operatorListed: true }, select: { id: true } })).map((s) => s.id);
console.log(
  `crawl: ${ids.length} stand-in stores of ${PRODUCTS} products answering in 100-300 ms, one request a second per store (robots.txt first), ${SECONDS} s per setting; ` +
    `${cluster ? "one PostgreSQL database (a throw-away cluster, fsync off), jobs on pg-boss" : "one SQLite file (WAL), jobs on our queue"}; machine: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
);

async function reset() {
  await db.job.deleteMany();
  // pg-boss's jobs (its own schema): the next setting starts with none queued.
  if (cluster) await db.$executeRawUnsafe(`DO $$ BEGIN IF to_regclass('pgboss.job') IS NOT NULL THEN DELETE FROM pgboss.job; END IF; END $$`);
  await db.competitorChange.deleteMany();
  await db.competitorProduct.deleteMany();
  await db.competitorCheck.deleteMany();
  await db.competitorStore.updateMany({ data: { lastCheckedAt: null, nextCheckAt: new Date(Date.now() - 1_000), status: "pending", failures: 0, lastError: null } });
  // Every store queued at once under its key, as the due sweep would over a day's slots.
  const now = () => new Date();
  for (const id of ids) await enqueueCheck({ jobs, now }, id);
}

async function run(processes: number, concurrency: number) {
  await reset();
  shops.counted.clear();
  const children = Array.from({ length: processes }, (_, i) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: { ...process.env, JOBS_OWNER: `crawler${i}`, SHOPS_PORT: String(shops.port), JOBS_POLL_MS: "100", CHECK_CONCURRENCY: String(concurrency) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => stderr };
  });
  try {
    for (const c of children) {
      const first = await c.lines.next();
      if (first.value !== "ready") throw new Error(`crawl worker did not start: ${c.stderr()}`);
    }
    const cpuBefore = process.cpuUsage();
    const start = new Date();
    for (const c of children) c.child.stdin.write("go\n");
    await new Promise((r) => setTimeout(r, SECONDS * 1_000));
    const stop = new Date();
    for (const c of children) c.child.stdin.write("stop\n");
    const reports = await Promise.all(children.map(async (c) => JSON.parse((await c.lines.next()).value) as TrackerWorkerReport));
    const serverCpu = process.cpuUsage(cpuBefore);
    const seconds = (stop.getTime() - start.getTime()) / 1000;
    const window = { takenAt: { gte: start, lte: stop } };
    const reads = await db.competitorCheck.count({ where: { ...window, ok: true } });
    const failed = await db.competitorCheck.count({ where: { ...window, ok: false } });
    const products = await db.competitorProduct.count({ where: { firstSeenAt: { lte: stop } } });
    const changes = await db.competitorChange.count({ where: { at: { lte: stop } } });
    const retried = reports.reduce((n, r) => n + r.busy.retried, 0);
    const gaveUp = reports.reduce((n, r) => n + r.busy.gaveUp, 0);
    const perHour = (reads / seconds) * 3600;
    const workerCpuS = reports.reduce((n, r) => n + r.cpuS, 0);
    const readsReported = reports.reduce((n, r) => n + r.reads.length, 0);
    const cpuPerReadMs = (workerCpuS / Math.max(1, readsReported)) * 1000;
    const requests = [...shops.counted.values()].reduce((n, c) => n + c, 0);
    // Counted until every worker stopped, as are the reads they reported (in-flight reads finish after "stop").
    const perRead = requests / Math.max(1, readsReported + failed);
    // Pacing alone: a read of R requests takes at least R - 1 seconds plus the last answer (~0.2 s here).
    const ceiling = (concurrency * 3600) / Math.max(0.2, perRead - 1 + 0.2);
    console.log(
      `${processes} process${processes === 1 ? "" : "es"} x ${concurrency} reads at once: ${reads} stores read in ${seconds.toFixed(0)} s = ` +
        `${Math.round(perHour)} stores/hour (${Math.round(perHour / processes)} per process; per process ${reports.map((r) => r.reads.length).join(" / ")}), ` +
        `${failed} failed reads; ${((reads * 4) / seconds).toFixed(1)} write transactions/s, ${Math.round((products + changes + reads) / seconds)} rows/s; ` +
        `busy: ${retried} writes retried, ${gaveUp} given up; workers' CPU ${cpuPerReadMs.toFixed(0)} ms a read ` +
        `(${(workerCpuS / seconds).toFixed(2)} cores; one free core would do ${Math.round(3_600_000 / cpuPerReadMs)} reads/hour); stand-in stores' CPU ${((serverCpu.user + serverCpu.system) / 1e6 / seconds).toFixed(2)} cores; ` +
        `load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `  reads an hour per process at one request a second per store: ${Math.round(perHour / processes)} measured, ${Math.round(ceiling)} the pacing's ceiling ` +
        `(${concurrency} reads at once, ${perRead.toFixed(1)} requests a read: ${[...shops.counted].map(([k, n]) => `${k} ${n}`).join(", ")})`,
    );
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill();
  }
}

for (const [processes, concurrency] of SETTINGS) await run(processes, concurrency);
await shops.close();
await jobs.stop();
await db.$disconnect();
await cluster?.stop();
