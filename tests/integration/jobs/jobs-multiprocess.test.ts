// The job system across OS processes on one SQLite file (tests/integration/jobs/jobs-worker.ts): three
// workers share 1,000 jobs and each job runs exactly once; a worker killed with SIGKILL in the middle
// of a job loses it to another worker once its lease expires, and the job completes exactly once.
// Nothing here is timed: leases are short and the test polls for the outcome.
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { ask, killWorkerProcesses, startWorkerProcesses, until, type WorkerProcess } from "../../helpers/worker-processes";
import type { JobsWorkerReport } from "./jobs-worker";

const WORKER = path.resolve("tests/integration/jobs/jobs-worker.ts");
// The kill test's lease: short, so the takeover comes soon after the kill. The 1,000-job run keeps the
// default 30 s lease: on a loaded machine a write can wait seconds for SQLite's lock, and a lease shorter
// than that hands a finished job to a second worker (at-least-once, as docs/decisions/022 says).
const KILL_LEASE_MS = 2_000;
const BULK_LEASE_MS = 30_000;
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

let logFile = "";

beforeEach(async () => {
  await dbReady;
  await db.job.deleteMany();
  logFile = path.join(mkdtempSync(path.resolve(process.env.TEST_TMP_DIR!, "jobs-")), "runs.log");
});

afterEach(killWorkerProcesses);

function startWorkers(n: number, leaseMs: number): Promise<WorkerProcess[]> {
  const owners = Array.from({ length: n }, (_, i) => `w${i}`);
  return startWorkerProcesses(WORKER, owners, (owner) => ({ JOBS_OWNER: owner, JOBS_LOG_FILE: logFile, JOBS_LEASE_MS: String(leaseMs), JOBS_POLL_MS: "100" }));
}

async function stopWorker(w: WorkerProcess): Promise<JobsWorkerReport> {
  return JSON.parse(await ask(w, "stop")) as JobsWorkerReport;
}

/** The handlers' log: one { event, id, attempt, owner } per line. */
function runs() {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [event, id, attempt, owner] = line.split(" ");
      return { event, id: Number(id), attempt: Number(attempt), owner };
    });
}

describe("three worker processes on one database file", () => {
  it("run 1,000 jobs, each exactly once", async () => {
    const producer = createJobs({ db, ownerId: "producer", log: quiet });
    const ids: number[] = [];
    for (let i = 0; i < 1_000; i++) ids.push((await producer.enqueue("test.append", { i })).id);

    const three = await startWorkers(3, BULK_LEASE_MS);
    for (const w of three) w.child.stdin.write("go\n");
    await until(async () => (await db.job.count({ where: { status: "done" } })) === 1_000, "1,000 jobs done", { timeoutMs: 90_000 });
    const reports = await Promise.all(three.map(stopWorker));

    const done = runs().filter((r) => r.event === "done");
    expect(done).toHaveLength(1_000);
    expect([...new Set(done.map((r) => r.id))].sort((a, b) => a - b)).toEqual(ids);
    expect(done.every((r) => r.attempt === 1)).toBe(true);
    expect(reports.reduce((sum, r) => sum + r.done, 0)).toBe(1_000);
    // The work really was shared between processes.
    expect(reports.filter((r) => r.done > 0).length).toBeGreaterThanOrEqual(2);
    expect(await db.job.count({ where: { status: "done", attempts: 1, leaseOwner: null } })).toBe(1_000);
  }, 180_000);

  it("a worker killed mid-job (SIGKILL): the job is taken over after its lease expires and completes once", async () => {
    const three = await startWorkers(3, KILL_LEASE_MS);
    const producer = createJobs({ db, ownerId: "producer", log: quiet });
    const { id } = await producer.enqueue("test.block", {});
    for (const w of three) w.child.stdin.write("go\n");

    await until(async () => runs().some((r) => r.event === "start" && r.id === id), "the job to start", { timeoutMs: 90_000 });
    const [first] = runs();
    expect(first).toMatchObject({ event: "start", id, attempt: 1 });
    // While its worker lives, the lease is renewed: the job stays with it past several lease lengths.
    await new Promise((r) => setTimeout(r, KILL_LEASE_MS * 3));
    expect(runs()).toHaveLength(1);
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "running",
      leaseOwner: expect.stringMatching(`^${first.owner}#`),
    });

    const victim = three.find((w) => w.owner === first.owner)!;
    victim.child.kill("SIGKILL");
    await until(
      async () => (await db.job.findUniqueOrThrow({ where: { id } })).status === "done",
      "the job to complete",
      { timeoutMs: 90_000 },
    );
    const survivors = three.filter((w) => w !== victim);
    await Promise.all(survivors.map(stopWorker));

    const log = runs();
    expect(log.filter((r) => r.event === "done")).toEqual([
      { event: "done", id, attempt: 2, owner: expect.not.stringMatching(`^${first.owner}$`) },
    ]);
    expect(log.filter((r) => r.event === "start").map((r) => r.attempt)).toEqual([1, 2]);
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "done",
      attempts: 2,
      leaseOwner: null,
    });
  }, 180_000);
});
