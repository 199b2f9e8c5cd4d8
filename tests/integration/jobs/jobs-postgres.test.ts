// The job system on PostgreSQL (issue 38 item 2, decision 102): pg-boss behind our calls, on an empty database of the run's throw-away cluster.
// Keys, retries with backoff then parking, an operator's retry, enqueue inside a Prisma transaction (rolled back:
// no job; committed: one), and two job systems on separate pools sharing jobs, each run exactly once.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createPostgresClient } from "~/db-postgres.server";
import { createPostgresJobs, type PostgresJobs } from "~/services/jobs/postgres-engine.server";
import { runScript } from "../../helpers/cli";
import { freshPostgresDatabase } from "../../helpers/postgres-cluster";

const quiet = { info() {}, warn() {}, error() {} };
let url: string;
const systems: PostgresJobs[] = [];

function jobs() {
  const system = createPostgresJobs({ url, log: quiet, maxConnections: 3 });
  systems.push(system);
  return system;
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  url = await freshPostgresDatabase({ empty: true });
}, 60_000);

afterAll(async () => {
  for (const system of systems) await system.stop();
});

describe("the job system on PostgreSQL (pg-boss)", () => {
  it("a worker killed mid-job on another host: its job goes back to pg-boss and runs elsewhere, once", { timeout: 90_000 }, async () => {
    const holder = spawn(process.execPath, ["--import", "tsx", "tests/helpers/pg-job-holder.ts", url], { cwd: path.resolve(".") });
    let said = "";
    holder.stdout!.on("data", (d: Buffer) => (said += d.toString()));
    holder.stderr!.on("data", (d: Buffer) => (said += d.toString()));
    try {
      await until(async () => said, (text) => text.includes("ready") || holder.exitCode !== null, 30_000);
      expect(said).toContain("ready");
      const system = createPostgresJobs({ url, log: quiet, maxConnections: 3, superviseSeconds: 1 });
      systems.push(system);
      const { id } = await system.enqueue("pg.held", { order: 7 }, { key: "held:7", maxAttempts: 3 });
      await until(async () => said, (text) => text.includes(`holding ${id}`), 20_000);
      holder.kill("SIGKILL");
      // This process runs the kind too, and finishes what it is given.
      const runs: { attempt: number; payload: unknown }[] = [];
      system.register("pg.held", ({ attempt, payload }) => void runs.push({ attempt, payload }), { leaseMs: 10_000 });
      await system.start();
      const row = await until(() => system.get(id), (r) => r?.status === "done", 60_000);
      expect(row?.status).toBe("done");
      expect(runs).toEqual([{ attempt: 2, payload: { order: 7 } }]);
    } finally {
      if (holder.exitCode === null) holder.kill("SIGKILL");
    }
  });

  it("runDue runs what is due in this process (tests, scripts), and statusOfKey tells a key's job as our statuses", async () => {
    const system = jobs();
    const ran: unknown[] = [];
    system.register<{ n: number; fail?: string }>("pg.due", ({ payload }) => {
      ran.push(payload.n);
      if (payload.fail) throw new Error(payload.fail);
    });
    await system.enqueue("pg.due", { n: 1 }, { key: "due:1" });
    await system.enqueue("pg.due", { n: 2 });
    await system.enqueue("pg.due", { n: 3, fail: "the supplier answered 503" }, { key: "due:3", maxAttempts: 1 });
    await system.enqueue("pg.due", { n: 4 }, { key: "due:4", runAt: new Date(Date.now() + 3_600_000) });
    expect(await system.statusOfKey("pg.due", "due:1")).toBe("queued");
    expect(await system.runDue({ kinds: ["pg.due"] })).toEqual({ ran: 3, done: 2, retrying: 0, parked: 1 });
    expect(ran.sort()).toEqual([1, 2, 3]);
    expect(await system.statusOfKey("pg.due", "due:1")).toBe("done");
    expect(await system.statusOfKey("pg.due", "due:3")).toBe("parked");
    expect(await system.statusOfKey("pg.due", "due:4")).toBe("queued");
    expect(await system.statusOfKey("pg.due", "due:none")).toBeNull();
    const parked = (await system.list({ status: "parked" })).find((r) => r.key === "due:3");
    expect(parked?.lastError).toBe("attempt 1 of 1: the supplier answered 503");
    // A whole number is our SQLite queue's id, never one of pg-boss's: no job, and a retry says so.
    expect(await system.get(7)).toBeNull();
    await expect(system.retry(7)).rejects.toThrow("There is no job 7.");
  });

  it("a key that is queued or running is not queued twice; once done, the same key runs again", async () => {
    const system = jobs();
    const first = await system.enqueue("pg.keyed", { n: 1 }, { key: "store:7" });
    const again = await system.enqueue("pg.keyed", { n: 2 }, { key: "store:7" });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    const ran: unknown[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    system.register("pg.keyed", async ({ payload }) => {
      ran.push(payload);
      await held;
    });
    await system.start();
    await until(() => system.get(first.id), (row) => row?.status === "running");
    expect(await system.enqueue("pg.keyed", { n: 3 }, { key: "store:7" })).toEqual({ id: first.id, created: false });
    release();
    await until(() => system.get(first.id), (row) => row?.status === "done");
    const later = await system.enqueue("pg.keyed", { n: 4 }, { key: "store:7" });
    expect(later.created).toBe(true);
    await until(() => system.get(later.id), (row) => row?.status === "done");
    expect(ran).toEqual([{ n: 1 }, { n: 4 }]);
  }, 60_000);

  it("a failing job is retried after a backoff, parked with its last error after maxAttempts, and retry runs it again", async () => {
    const system = jobs();
    const attempts: { attempt: number; at: number }[] = [];
    let succeed = false;
    system.register("pg.flaky", ({ attempt }) => {
      attempts.push({ attempt, at: Date.now() });
      if (!succeed) throw new Error("supplier down");
    });
    await system.start();
    const { id } = await system.enqueue("pg.flaky", {}, { maxAttempts: 3 });
    const parked = await until(() => system.get(id), (row) => row?.status === "parked", 40_000);
    expect(parked).toMatchObject({ status: "parked", attempts: 3, maxAttempts: 3 });
    expect(parked?.lastError).toBe("attempt 3 of 3: supplier down");
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // 1 s doubling with equal jitter: the second retry waits at least 1 s, the first at least 0.5 s.
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(500);
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(1_000);
    expect((await system.list({ status: "parked" })).map((r) => r.id)).toContain(id);

    succeed = true;
    await system.retry(id);
    await until(() => system.get(id), (row) => row?.status === "done");
    await expect(system.retry(id)).rejects.toThrow(`Job ${id} is done: only a parked job or one waiting for a retry can be retried.`);
  }, 60_000);

  it("retry runs a job waiting for its retry now, not when its backoff ends (a seller's 'fetch again')", async () => {
    const system = jobs();
    let fail = true;
    system.register("pg.waiting", () => {
      if (fail) throw new Error("TikTok answered 503");
    });
    const { id } = await system.enqueue("pg.waiting", {}, { maxAttempts: 5, key: "waiting:1" });
    expect(await system.runDue({ kinds: ["pg.waiting"] })).toEqual({ ran: 1, done: 0, retrying: 1, parked: 0 });
    const waiting = await system.get(id);
    expect(waiting).toMatchObject({ status: "queued", attempts: 1 });
    expect(waiting!.runAt.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing runs.
    expect(await system.runDue({ kinds: ["pg.waiting"] })).toMatchObject({ ran: 0 });
    fail = false;
    await system.retry(id);
    expect((await system.get(id))!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await system.runDue({ kinds: ["pg.waiting"] })).toEqual({ ran: 1, done: 1, retrying: 0, parked: 0 });
    expect(await system.statusOfKey("pg.waiting", "waiting:1")).toBe("done");
  }, 60_000);

  it("enqueueIn a Prisma transaction: rolled back leaves no job, committed leaves one", async () => {
    const system = jobs();
    const prisma = createPostgresClient(url);
    await expect(
      prisma.$transaction(async (tx) => {
        await system.enqueueIn(tx, "pg.outbox", {}, { key: "rolled-back" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await prisma.$transaction(async (tx) => {
      await system.enqueueIn(tx, "pg.outbox", {}, { key: "committed" });
    });
    const keys = (await system.list()).filter((r) => r.kind === "pg.outbox").map((r) => r.key);
    expect(keys).toEqual(["committed"]);
    await prisma.$disconnect();
  }, 60_000);

  it("two job systems on their own pools share 40 jobs, each run exactly once", async () => {
    const producer = jobs();
    const runs = new Map<number, number>();
    for (const system of [jobs(), jobs()]) {
      system.register(
        "pg.shared",
        async ({ payload }) => {
          const n = (payload as { n: number }).n;
          runs.set(n, (runs.get(n) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
        },
        { concurrency: 2 },
      );
    }
    for (let n = 0; n < 40; n++) await producer.enqueue("pg.shared", { n });
    await Promise.all(systems.slice(-2).map((s) => s.start()));
    await until(async () => runs.size, (size) => size === 40, 40_000);
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  }, 60_000);

  it("npm run jobs -- list shows a parked job in capitals and retry ID queues it; a whole-number id is refused", async () => {
    const system = jobs();
    system.register("pg.cli", () => {
      throw new Error("the feed answered 503");
    });
    await system.start();
    const { id } = await system.enqueue("pg.cli", {}, { maxAttempts: 1 });
    await until(() => system.get(id), (row) => row?.status === "parked");
    await system.stop();
    const env = { ...process.env, DATABASE_URL: url };

    const list = await runScript("jobs", ["list", "--status", "parked"], { env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toMatch(/pg\.cli\s+PARKED\s+1\/1/);
    expect(list.stdout).toContain("attempt 1 of 1: the feed answered 503");

    const retried = await runScript("jobs", ["retry", id], { env });
    expect(retried).toMatchObject({ code: 0 });
    expect(retried.stdout).toContain(`Job ${id} (pg.cli) is queued to run now`);
    expect((await jobs().get(id))?.status).toBe("queued");

    const wrong = await runScript("jobs", ["retry", "12"], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"12" is not a job id (a UUID, as jobs list shows it).');
  }, 90_000);

  it("a schedule run by two job systems fires once for its minute", async () => {
    const fired: number[] = [];
    for (let n = 0; n < 2; n++) {
      const system = createPostgresJobs({ url, log: quiet, maxConnections: 3, scheduleCheckSeconds: 1 });
      systems.push(system);
      system.register("pg.every-minute", () => {
        fired.push(Date.now());
      });
      system.schedule("every-minute", "* * * * *", "pg.every-minute");
      await system.start();
    }
    await until(async () => fired.length, (n) => n > 0, 75_000);
    // Both systems look every second; a second fire for the same minute would come within a few.
    await new Promise((r) => setTimeout(r, 5_000));
    // One fire per minute begun since the first (two only when the wait crossed into the next minute).
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(fired[0] / 60_000) + 1;
    expect(fired.length).toBeGreaterThanOrEqual(1);
    expect(fired.length).toBeLessThanOrEqual(minutes);
  }, 100_000);

  it("a payload its kind's schema rejects is parked at once (retrying cannot fix it)", async () => {
    const system = jobs();
    let ran = 0;
    system.register("pg.typed", () => void ran++, { payloadSchema: z.object({ n: z.number() }) });
    await system.start();
    const { id } = await system.enqueue("pg.typed", { n: "seven" }, { maxAttempts: 5 });
    const row = await until(() => system.get(id), (r) => r?.status === "parked");
    expect(row).toMatchObject({ status: "parked", attempts: 1 });
    expect(ran).toBe(0);
  }, 60_000);
});
