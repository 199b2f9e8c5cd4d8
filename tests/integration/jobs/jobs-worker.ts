// A separate OS process running the job system's polling worker on a shared SQLite file, for
// jobs-multiprocess.test.ts and `npm run bench -- jobs` (bench/jobs.ts). Not a test file itself.
//
// Run: node --import tsx tests/integration/jobs/jobs-worker.ts, with DATABASE_URL and the app's environment
// set, and JOBS_OWNER, JOBS_LOG_FILE (handlers append a line per run), optionally JOBS_LEASE_MS (1500),
// JOBS_POLL_MS (100), JOBS_CONCURRENCY (4). It prints "ready" once connected, starts the worker on a
// "go" line on stdin, and on a "stop" line stops it, prints one JSON line { owner, done } and exits.
//
// Kinds: test.append appends "done ID ATTEMPT OWNER"; test.block appends "start ID ATTEMPT OWNER" and,
// on its first attempt, never returns (the test kills the process), on later ones appends "done ...";
// bench.noop does nothing.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { db, dbReady } from "~/db.server";
import { createJobs } from "~/services/jobs.server";

const owner = process.env.JOBS_OWNER ?? `worker-${process.pid}`;
const logFile = process.env.JOBS_LOG_FILE ?? "";
const leaseMs = Number(process.env.JOBS_LEASE_MS ?? 1_500);
const pollMs = Number(process.env.JOBS_POLL_MS ?? 100);
const concurrency = Number(process.env.JOBS_CONCURRENCY ?? 4);

export interface JobsWorkerReport {
  owner: string;
  done: number;
}

const report: JobsWorkerReport = { owner, done: 0 };
const append = (line: string) => {
  if (logFile) appendFileSync(logFile, `${line}\n`);
};

const jobs = createJobs({ db, ownerId: owner, pollMs });
jobs.register(
  "test.append",
  ({ jobId, attempt }) => {
    append(`done ${jobId} ${attempt} ${owner}`);
    report.done++;
  },
  { concurrency, leaseMs },
);
jobs.register(
  "test.block",
  async ({ jobId, attempt }) => {
    append(`start ${jobId} ${attempt} ${owner}`);
    // Blocks until the process is killed; the lease is renewed meanwhile.
    if (attempt === 1) await new Promise(() => {});
    append(`done ${jobId} ${attempt} ${owner}`);
    report.done++;
  },
  { leaseMs },
);
jobs.register(
  "bench.noop",
  () => {
    report.done++;
  },
  { concurrency, leaseMs },
);

await dbReady;
await db.job.count();
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === "go") jobs.start();
  if (line === "stop") break;
}
lines.close();
await jobs.stop();
process.stdout.write(`${JSON.stringify(report)}\n`);
await db.$disconnect();
process.exit(0);
