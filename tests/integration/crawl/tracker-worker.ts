// A separate OS process running the competitor tracker's jobs on a shared database (a SQLite file with our queue, or
// PostgreSQL with pg-boss, as the app picks), for tracker-multiprocess.test.ts. Not a test file itself.
//
// Run: node --import tsx tests/integration/crawl/tracker-worker.ts, with DATABASE_URL and the app's environment set,
// and JOBS_OWNER, SHOPS_PORT (the stand-in stores on 127.0.0.1), optionally JOBS_POLL_MS (100) and
// CHECK_CONCURRENCY (store reads at once, the tracker's default 2). It prints "ready" once connected; on a "due"
// line it queues the due stores (as the scheduled sweep does) and prints how many; on "go" it starts its worker;
// on "stop" it stops it, prints one JSON line { owner, reads, busy, cpuS } (store ids it read, told by the after-read
// hook; writes retried or given up on SQLite's lock; CPU seconds from "go" to "stop") and exits. `npm run bench -- crawl` runs it too.
import { createInterface } from "node:readline";
import { busyCounts, db, dbReady } from "~/db.server";
import { createSafeFetcher } from "~/integrations/safe-fetch.server";
import { createShopifyStorefront } from "~/integrations/shopify-storefront.server";
import { createCompetitors } from "~/services/competitors.server";
import { createJobSystemFor, type JobsLog } from "~/services/jobs.server";
import { createNotifications } from "~/services/notifications.server";

const owner = process.env.JOBS_OWNER ?? `worker-${process.pid}`;
const pollMs = Number(process.env.JOBS_POLL_MS ?? 100);
const port = Number(process.env.SHOPS_PORT);

export interface TrackerWorkerReport {
  owner: string;
  reads: number[];
  busy: typeof busyCounts;
  cpuS: number;
}

const report: TrackerWorkerReport = { owner, reads: [], busy: busyCounts, cpuS: 0 };
let cpuAtGo = process.cpuUsage();
const quiet: JobsLog = { info() {}, warn() {}, error() {} };
const jobs = createJobSystemFor({ db, url: process.env.DATABASE_URL!, ownerId: owner, pollMs, log: quiet, maxConnections: 4 });
const fetcher = createSafeFetcher({
  contactUrl: "https://winningproducts.test/bot",
  lookup: async () => [{ address: "127.0.0.1", family: 4 }],
  allowHosts: [`127.0.0.1:${port}`],
});
const competitors = createCompetitors({
  db,
  storefront: createShopifyStorefront({ fetcher, protocol: "http:" }),
  jobs,
  notifications: createNotifications({ db }),
  checkConcurrency: process.env.CHECK_CONCURRENCY ? Number(process.env.CHECK_CONCURRENCY) : undefined,
  log: { info() {}, warn() {} },
  afterStoreRead: [{ name: "report", onFailure: "log", read: async (r) => void (r.unchanged || report.reads.push(r.store.id)) }],
});
competitors.registerJobs();

await dbReady;
await db.job.count();
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === "due") process.stdout.write(`${await competitors.enqueueDue()}\n`);
  if (line === "go") {
    cpuAtGo = process.cpuUsage();
    await jobs.start();
  }
  if (line === "stop") break;
}
lines.close();
await jobs.stop();
const cpu = process.cpuUsage(cpuAtGo);
report.cpuS = (cpu.user + cpu.system) / 1e6;
fetcher.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
await db.$disconnect();
process.exit(0);
