// Job system figures (part of `npm run bench`, printed, never asserted): job claims per second on one
// SQLite file from 1 and from 3 worker processes (tests/integration/jobs/jobs-worker.ts, a handler that does
// nothing), each claim being one atomic UPDATE ... RETURNING and each completion one more UPDATE.
// Runs on its own scratch database: `npx tsx bench/jobs.ts`.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { prepareScratchDb } from "./lib/scratch-db";

const WORKER = path.resolve("tests/integration/jobs/jobs-worker.ts");
const JOBS = Number(process.env.BENCH_JOBS ?? 3_000);

const dir = prepareScratchDb("jobs");

const { db, dbReady } = await import("~/db.server");
const { createJobs } = await import("~/services/jobs.server");
await dbReady;

async function enqueue(n: number) {
  const producer = createJobs({ db, ownerId: "bench-producer", log: { info() {}, warn() {}, error() {} } });
  const t = performance.now();
  for (let i = 0; i < n; i++) await producer.enqueue("bench.noop", { i });
  return performance.now() - t;
}

/** Starts `workers` processes, releases them together, and times until every job is done. */
async function claimFrom(workers: number, n: number) {
  await db.job.deleteMany();
  const enqueueMs = await enqueue(n);
  const children = Array.from({ length: workers }, (_, w) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: {
        ...process.env,
        JOBS_OWNER: `bench-w${w}`,
        JOBS_LEASE_MS: "30000",
        JOBS_POLL_MS: "100",
        JOBS_CONCURRENCY: "4",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => stderr };
  });
  try {
    for (const c of children) {
      const first = await c.lines.next();
      if (first.value !== "ready") throw new Error(`jobs worker did not start: ${c.stderr()}`);
    }
    const start = performance.now();
    for (const c of children) c.child.stdin.write("go\n");
    while ((await db.job.count({ where: { status: "done" } })) < n) await new Promise((r) => setTimeout(r, 20));
    const ms = performance.now() - start;
    for (const c of children) c.child.stdin.write("stop\n");
    const reports = await Promise.all(
      children.map(async (c) => JSON.parse((await c.lines.next()).value) as { owner: string; done: number }),
    );
    return { ms, enqueueMs, perWorker: reports.map((r) => r.done) };
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill();
  }
}

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
console.log(`jobs: ${JOBS} no-op jobs per run, 4 at a time per process, 30 s leases`);
for (const workers of [1, 3]) {
  const r = await claimFrom(workers, JOBS);
  console.log(
    `  enqueue (one INSERT each, one process): ${rate(JOBS, r.enqueueMs)} jobs/s\n` +
      `  ${workers} process${workers === 1 ? "" : "es"}: ${rate(JOBS, r.ms)} claims/s ` +
      `(${(r.ms / 1000).toFixed(1)} s for ${JOBS}; per process ${r.perWorker.join(" / ")})`,
  );
}
await db.$disconnect();
rmSync(dir, { recursive: true, force: true });
