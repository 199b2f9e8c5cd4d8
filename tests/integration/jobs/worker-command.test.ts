// `npm run worker` (scripts/worker.mjs, decision 103): a process that runs only the background jobs, for a host apart
// from the web's. On a SQLite file it migrates, checks the storage, says Ready, runs the jobs the app enqueues (a
// failing one parked with its sentence) and stops on SIGTERM once they end. On PostgreSQL two workers with data
// folders of their own share one database's pg-boss jobs: each job runs once, and the jobs their schedules queue end
// without an error.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "~/db.server";
import { createJobs, type JobsLog } from "~/services/jobs.server";
import { createPostgresJobs } from "~/services/jobs/postgres-engine.server";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

const quiet: JobsLog = { info() {}, warn() {}, error() {} };
const dirs: string[] = [];
const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Worker {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then the exit code once the process has closed its output. */
  stop: () => Promise<number | null>;
}

/** `npm run worker`'s script with its own data folder, resolved once it says Ready. */
async function startWorker(databaseUrl: string): Promise<Worker> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "worker-command-"));
  dirs.push(dir);
  const child = spawn(process.execPath, ["scripts/worker.mjs"], {
    cwd: path.resolve("."),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      VIDEO_STORAGE_DIR: path.join(dir, "videos"),
      LOG_LEVEL: "warn",
      SESSION_SECRET: "worker-command-test-secret-0123456789abcdef",
      TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}`,
    },
  });
  running.push(child);
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes("Worker ready")) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    void closed.then((code) => {
      clearInterval(timer);
      reject(new Error(`the worker ended (${code}) before Ready:\n${output.slice(-3000)}`));
    });
  });
  return {
    child,
    output: () => output,
    stop: () => {
      child.kill("SIGTERM");
      return closed;
    },
  };
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Enqueues jobs as the web process does (its own job system on the same database), and reads them back. */
async function enqueueTests(db: Db, count: number, failing = 0) {
  const jobs = createJobs({ db, ownerId: "web-host", log: quiet });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await jobs.enqueue("jobs.test", {})).id);
  for (let i = 0; i < failing; i++) ids.push((await jobs.enqueue("jobs.test", { fail: "the supplier answered 503" }, { maxAttempts: 1 })).id);
  return ids;
}

describe("npm run worker", () => {
  it("on a SQLite file: migrates, says Ready, runs the jobs the app enqueues, parks a failing one, stops on SIGTERM", { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "worker-sqlite-"));
    dirs.push(dir);
    const url = `file:${path.join(dir, "app.db")}`;
    const worker = await startWorker(url);
    expect(worker.output()).toContain(`Applying migrations to ${url}`);
    expect(worker.output()).toMatch(/Files are kept in the folder .*videos/);

    const db = createDb(url);
    try {
      const ids = await enqueueTests(db, 3, 1);
      await until(async () => (await db.job.count({ where: { id: { in: ids }, status: { in: ["done", "parked"] } } })) === ids.length, "the jobs to end");
      const rows = await db.job.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
      expect(rows.map((r) => [r.status, r.attempts])).toEqual([
        ["done", 1],
        ["done", 1],
        ["done", 1],
        ["parked", 1],
      ]);
      expect(rows[3].lastError).toContain("the supplier answered 503");
    } finally {
      await db.$disconnect();
    }
    expect(await worker.stop()).toBe(0);
    expect(worker.output()).toContain("Worker stopped.");
  });

  it("on PostgreSQL: two workers with their own data folders share one database's pg-boss jobs, each run once", { timeout: 240_000 }, async () => {
    const url = await freshPostgresDatabase();
    const workers = await Promise.all([startWorker(url), startWorker(url)]);
    // The web host's job system on the same database: pg-boss, as the composition root builds it there (decision 102).
    const web = createPostgresJobs({ url, ownerId: "web-host", log: quiet, maxConnections: 2 });
    const db = createDb(url);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await web.enqueue("jobs.test", {})).id);
      const ours = async () => (await web.list({ limit: 10_000 })).filter((r) => ids.includes(r.id));
      await until(async () => (await ours()).filter((r) => r.status === "done").length === ids.length, "the 20 jobs to be done");
      expect((await ours()).every((r) => r.attempts === 1 && r.lastError === null)).toBe(true);
      // What the workers' schedules and start-up queued (retention, drops, margins, rates ...) ran on pg-boss
      // without an error either, and nothing went to our own queue's table, which no worker reads on PostgreSQL.
      const all = await web.list({ limit: 10_000 });
      expect(all.filter((r) => r.lastError !== null).map((r) => [r.kind, r.lastError])).toEqual([]);
      expect(all.filter((r) => r.kind !== "jobs.test").length).toBeGreaterThan(0);
      expect(await db.job.count()).toBe(0);
    } finally {
      await web.stop();
      await db.$disconnect();
    }
    expect(await Promise.all(workers.map((w) => w.stop()))).toEqual([0, 0]);
  });
});
