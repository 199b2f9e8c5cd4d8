// The job system in one process, on the test's real SQLite file, with a clock the test moves: claims,
// leases and their renewal, backoff, parking, operator retry, keys, schedules fired once per period by
// two job systems (two database clients) at once, and a worker whose job was taken over changing nothing.
// Several processes: jobs-multiprocess.test.ts.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDb, db, dbReady, tuneSqlite, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { createJobs, registerJobKinds, type JobContext, type QueueJobs, type JobsLog } from "~/services/jobs.server";

const START = Date.parse("2026-11-23T12:00:00.000Z");
let clock = START;
const now = () => new Date(clock);
const advance = (ms: number) => (clock += ms);
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

const others: Db[] = [];
afterAll(async () => {
  await Promise.all(others.map((d) => d.$disconnect()));
});

/** A second database client on the same file: its own connection, as another server process has. */
async function otherClient(): Promise<Db> {
  const client = createDb(process.env.DATABASE_URL!);
  await tuneSqlite(client, process.env.DATABASE_URL!);
  others.push(client);
  return client;
}

function jobsFor(ownerId: string, client: Db = db, extra: Partial<Parameters<typeof createJobs>[0]> = {}): QueueJobs {
  return createJobs({ db: client, ownerId, now, random: () => 0.5, log: quiet, ...extra });
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const row = (id: number) => db.job.findUniqueOrThrow({ where: { id } });

beforeEach(async () => {
  await dbReady;
  await db.job.deleteMany();
  await db.jobScheduleRun.deleteMany();
  clock = START;
});

describe("enqueue and run", () => {
  it("runs a due job once with its payload and first attempt, then marks it done", async () => {
    const jobs = jobsFor("a");
    const seen: Array<{ payload: unknown; attempt: number }> = [];
    jobs.register("test.echo", ({ payload, attempt }) => {
      seen.push({ payload, attempt });
    });
    const { id, created } = await jobs.enqueue("test.echo", { hello: "world" });
    expect(created).toBe(true);

    expect(await jobs.runDue()).toEqual({ ran: 1, done: 1, retrying: 0, parked: 0 });
    expect(seen).toEqual([{ payload: { hello: "world" }, attempt: 1 }]);
    const done = await row(id);
    expect(done).toMatchObject({
      status: "done",
      attempts: 1,
      leaseOwner: null,
      leaseExpiresAt: null,
      lastError: null,
    });
    expect(done.finishedAt?.getTime()).toBe(START);

    // Done is final: nothing runs it again.
    expect(await jobs.runDue()).toEqual({ ran: 0, done: 0, retrying: 0, parked: 0 });
    expect(seen).toHaveLength(1);
  });

  it("does not run a job before its runAt", async () => {
    const jobs = jobsFor("a");
    let runs = 0;
    jobs.register("test.later", () => {
      runs++;
    });
    await jobs.enqueue("test.later", {}, { runAt: new Date(START + 60_000) });
    expect((await jobs.runDue()).ran).toBe(0);
    advance(60_000);
    expect((await jobs.runDue()).done).toBe(1);
    expect(runs).toBe(1);
  });

  it("runs due jobs oldest runAt first", async () => {
    const jobs = jobsFor("a");
    const order: number[] = [];
    jobs.register("test.order", ({ payload }) => {
      order.push((payload as { n: number }).n);
    });
    await jobs.enqueue("test.order", { n: 3 }, { runAt: new Date(START - 1_000) });
    await jobs.enqueue("test.order", { n: 1 }, { runAt: new Date(START - 3_000) });
    await jobs.enqueue("test.order", { n: 2 }, { runAt: new Date(START - 2_000) });
    await jobs.runDue();
    expect(order).toEqual([1, 2, 3]);
  });

  it("refuses a malformed kind or options with a sentence, and stores nothing", async () => {
    const jobs = jobsFor("a");
    await expect(jobs.enqueue("Not A Kind", {})).rejects.toThrow(/not a job kind/);
    await expect(jobs.enqueue("test.ok", {}, { maxAttempts: 0 })).rejects.toBeInstanceOf(AppError);
    expect(await db.job.count()).toBe(0);
  });

  it("two job systems on two connections claim 60 jobs between them, each exactly once", async () => {
    const a = jobsFor("a");
    const b = jobsFor("b", await otherClient());
    const runs = new Map<number | string, string[]>();
    const handler =
      (owner: string) =>
      async ({ jobId }: JobContext) => {
        runs.set(jobId, [...(runs.get(jobId) ?? []), owner]);
        await new Promise((r) => setTimeout(r, 1));
      };
    a.register("test.split", handler("a"));
    b.register("test.split", handler("b"));
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push((await a.enqueue("test.split", { i })).id);

    const [ra, rb] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ra.done + rb.done).toBe(60);
    expect([...runs.keys()].sort((x, y) => Number(x) - Number(y))).toEqual(ids);
    for (const owners of runs.values()) expect(owners).toHaveLength(1);
    expect(await db.job.count({ where: { status: "done", attempts: 1 } })).toBe(60);
  });
});

describe("keys", () => {
  it("a key that is queued is not queued twice; once done, the same key runs again", async () => {
    const jobs = jobsFor("a");
    const payloads: unknown[] = [];
    jobs.register("ai-ads.render", ({ payload }) => {
      payloads.push(payload);
    });
    const first = await jobs.enqueue("ai-ads.render", { v: 1 }, { key: "ai-ad-render:7" });
    const again = await jobs.enqueue("ai-ads.render", { v: 2 }, { key: "ai-ad-render:7" });
    expect(again).toEqual({ id: first.id, created: false });
    expect(await db.job.count()).toBe(1);
    await jobs.runDue();
    expect(payloads).toEqual([{ v: 1 }]);

    const rearmed = await jobs.enqueue("ai-ads.render", { v: 3 }, { key: "ai-ad-render:7" });
    expect(rearmed).toEqual({ id: first.id, created: true });
    expect(await row(first.id)).toMatchObject({ status: "queued", attempts: 0, finishedAt: null });
    await jobs.runDue();
    expect(payloads).toEqual([{ v: 1 }, { v: 3 }]);
  });
});

describe("failures: backoff, parking, retry", () => {
  it("retries a failed attempt after an exponential backoff with jitter, then parks after maxAttempts", async () => {
    const jobs = jobsFor("a"); // random() = 0.5: each wait is 3/4 of its window
    let runs = 0;
    jobs.register("test.flaky", () => {
      runs++;
      throw new Error(`supplier answered 503 (run ${runs})`);
    });
    const { id } = await jobs.enqueue("test.flaky", {}, { maxAttempts: 3 });

    expect(await jobs.runDue()).toEqual({ ran: 1, done: 0, retrying: 1, parked: 0 });
    let job = await row(id);
    expect(job).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "attempt 1 of 3: supplier answered 503 (run 1)",
    });
    expect(job.runAt.getTime()).toBe(START + 750); // window 1 s

    // Not due yet: nothing runs.
    advance(749);
    expect((await jobs.runDue()).ran).toBe(0);
    advance(1);
    expect((await jobs.runDue()).retrying).toBe(1);
    job = await row(id);
    expect(job.attempts).toBe(2);
    expect(job.runAt.getTime()).toBe(clock + 1_500); // window 2 s

    advance(1_500);
    expect(await jobs.runDue()).toEqual({ ran: 1, done: 0, retrying: 0, parked: 1 });
    job = await row(id);
    expect(job).toMatchObject({
      status: "parked",
      attempts: 3,
      lastError: "attempt 3 of 3: supplier answered 503 (run 3)",
    });
    expect(job.finishedAt).not.toBeNull();

    // Parked stays parked, and the operator's list shows why.
    advance(24 * 60 * 60_000);
    expect((await jobs.runDue()).ran).toBe(0);
    expect(runs).toBe(3);
    const [listed] = await jobs.list({ status: "parked" });
    expect(listed).toMatchObject({
      id,
      kind: "test.flaky",
      status: "parked",
      attempts: 3,
      lastError: expect.stringContaining("503"),
    });
  });

  it("retry queues a parked job now with fresh attempts; it can then succeed", async () => {
    const jobs = jobsFor("a");
    let broken = true;
    jobs.register("test.fixable", () => {
      if (broken) throw new Error("bad credentials");
    });
    const { id } = await jobs.enqueue("test.fixable", {}, { maxAttempts: 1 });
    await jobs.runDue();
    expect((await row(id)).status).toBe("parked");

    broken = false;
    advance(5_000);
    const retried = await jobs.retry(id);
    expect(retried).toMatchObject({ id, status: "queued", attempts: 0 });
    expect(retried.runAt.getTime()).toBe(clock);
    expect(await jobs.runDue()).toMatchObject({ ran: 1, done: 1 });
    expect(await row(id)).toMatchObject({ status: "done", attempts: 1, lastError: null });
  });

  it("retry explains why a done, running or unknown job cannot be retried, and changes nothing", async () => {
    const jobs = jobsFor("a");
    const gate = deferred();
    jobs.register("test.ok", () => {});
    jobs.register("test.hold", () => gate.promise);
    const done = await jobs.enqueue("test.ok", {});
    await jobs.runDue();
    await expect(jobs.retry(done.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("is done"),
    });
    await expect(jobs.retry(999_999)).rejects.toMatchObject({ status: 404 });

    const held = await jobs.enqueue("test.hold", {});
    const running = jobs.runDue();
    await until(async () => (await row(held.id)).status === "running", "the held job to run");
    await expect(jobs.retry(held.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("is running"),
    });
    gate.resolve();
    await running;
    expect(await row(held.id)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("parks a kind nobody handles with 'no handler for kind X' instead of failing the run", async () => {
    const jobs = jobsFor("cli");
    registerJobKinds(jobs);
    const { id } = await jobs.enqueue("competitors.snapshot", { shop: "x" });
    const test = await jobs.enqueue("jobs.test", {});
    expect(await jobs.runDue()).toEqual({ ran: 2, done: 1, retrying: 0, parked: 1 });
    expect(await row(id)).toMatchObject({
      status: "parked",
      attempts: 1,
      lastError: "attempt 1 of 5: no handler for kind competitors.snapshot",
    });
    expect((await row(test.id)).status).toBe("done");
  });

  it("parks a payload its kind's schema rejects at once (retrying cannot fix it)", async () => {
    const jobs = jobsFor("a");
    let runs = 0;
    jobs.register(
      "test.typed",
      () => {
        runs++;
      },
      { payloadSchema: z.object({ adId: z.number().int() }) },
    );
    const { id } = await jobs.enqueue("test.typed", { adId: "seven" });
    await jobs.runDue();
    expect(runs).toBe(0);
    const job = await row(id);
    expect(job.status).toBe("parked");
    expect(job.lastError).toMatch(/^attempt 1 of 5: bad payload: adId: /);
  });

  it("an attempt that runs past timeoutMs fails with a sentence and its signal is aborted", async () => {
    const jobs = jobsFor("a");
    let signal: AbortSignal | null = null;
    jobs.register(
      "test.slow",
      (ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
      { timeoutMs: 30 },
    );
    const { id } = await jobs.enqueue("test.slow", {});
    expect(await jobs.runDue()).toMatchObject({ ran: 1, retrying: 1 });
    expect(signal!.aborted).toBe(true);
    expect(await row(id)).toMatchObject({ status: "queued", lastError: "attempt 1 of 5: timed out after 30 ms" });
  });
});

describe("leases", () => {
  it("a live lease keeps others off; renewal extends it; once expired another worker takes over", async () => {
    const a = jobsFor("a");
    const b = jobsFor("b", await otherClient());
    const leaseMs = 60_000; // renewed on a real-time timer every 20 s: never during this test
    let aContext: JobContext | null = null;
    const aGate = deferred();
    a.register(
      "test.lease",
      (ctx) => {
        aContext = ctx;
        return aGate.promise;
      },
      { leaseMs },
    );
    let bRuns = 0;
    b.register(
      "test.lease",
      () => {
        bRuns++;
      },
      { leaseMs },
    );
    const { id } = await a.enqueue("test.lease", {});
    const aRun = a.runDue();
    await until(() => aContext !== null, "worker a to start");
    const claimed = await row(id);
    expect(claimed.status).toBe("running");
    expect(claimed.leaseOwner).toMatch(/^a#/);
    expect(claimed.leaseExpiresAt?.getTime()).toBe(START + leaseMs);

    advance(40_000);
    expect((await b.runDue()).ran).toBe(0);
    expect(await aContext!.renewLease()).toBe(true);
    expect((await row(id)).leaseExpiresAt?.getTime()).toBe(START + 40_000 + leaseMs);

    // Past the first lease but inside the renewed one: still a's.
    advance(40_000);
    expect((await b.runDue()).ran).toBe(0);

    // a froze: its renewed lease runs out and b takes the job over as attempt 2.
    advance(leaseMs);
    expect(await b.runDue()).toMatchObject({ ran: 1, done: 1 });
    expect(bRuns).toBe(1);
    expect(await aContext!.renewLease()).toBe(false);
    expect(aContext!.signal.aborted).toBe(true);
    aGate.resolve();
    await aRun;
    expect(await row(id)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("a worker whose expired lease was taken over cannot mark the job done", async () => {
    const a = jobsFor("a");
    const b = jobsFor("b", await otherClient());
    const aGate = deferred();
    let aStarted = false;
    a.register(
      "test.stale",
      () => {
        aStarted = true;
        return aGate.promise;
      },
      { leaseMs: 60_000 },
    );
    b.register(
      "test.stale",
      () => {
        throw new Error("the supplier is down");
      },
      { leaseMs: 60_000 },
    );
    const { id } = await a.enqueue("test.stale", {});
    const aRun = a.runDue();
    await until(() => aStarted, "worker a to start");
    advance(61_000);
    expect(await b.runDue()).toMatchObject({ ran: 1, retrying: 1 });

    // a finishes late, successfully: its result must not overwrite b's outcome.
    aGate.resolve();
    expect(await aRun).toMatchObject({ ran: 1, done: 0 });
    const job = await row(id);
    expect(job).toMatchObject({ status: "queued", attempts: 2, finishedAt: null });
    expect(job.lastError).toBe("attempt 2 of 5: the supplier is down");
  });

  it("a job whose last attempt stopped answering is parked with that reason", async () => {
    const a = jobsFor("a");
    const b = jobsFor("b", await otherClient());
    let aStarted = false;
    a.register(
      "test.poison",
      () => {
        aStarted = true;
        return new Promise(() => {});
      },
      { leaseMs: 60_000, timeoutMs: 24 * 60 * 60_000 },
    );
    const { id } = await a.enqueue("test.poison", {}, { maxAttempts: 1 });
    void a.runDue();
    await until(() => aStarted, "worker a to start");
    advance(61_000);
    expect((await b.runDue()).ran).toBe(0);
    const job = await row(id);
    expect(job.status).toBe("parked");
    expect(job.lastError).toMatch(/attempt 1 of 1 stopped answering \(its lease expired\)/);
  });

  it("progress is written on the row while the job runs", async () => {
    const jobs = jobsFor("a");
    const gate = deferred();
    jobs.register("test.progress", async (ctx) => {
      await ctx.progress(40.4);
      await gate.promise;
    });
    const { id } = await jobs.enqueue("test.progress", {});
    const run = jobs.runDue();
    await until(async () => (await row(id)).progress === 40, "progress 40");
    gate.resolve();
    await run;
    expect(await row(id)).toMatchObject({ status: "done", progress: 100 });
  });
});

describe("the polling worker", () => {
  it("wakes at once when this process enqueues (the poll interval is a minute)", async () => {
    const jobs = createJobs({ db, ownerId: "w", log: quiet, pollMs: 60_000 });
    const ran: (number | string)[] = [];
    jobs.register("test.wake", ({ jobId }) => {
      ran.push(jobId);
    });
    jobs.start();
    try {
      await new Promise((r) => setTimeout(r, 50)); // the first (empty) tick is over: the worker sleeps
      const { id } = await jobs.enqueue("test.wake", {});
      await until(async () => (await row(id)).status === "done", "the job to be done");
      expect(ran).toEqual([id]);
    } finally {
      await jobs.stop();
    }
  });

  it("runs up to `concurrency` jobs of a kind at once", async () => {
    const jobs = createJobs({ db, ownerId: "w", log: quiet, pollMs: 60_000 });
    let active = 0;
    let peak = 0;
    const gate = deferred();
    jobs.register(
      "test.parallel",
      async () => {
        active++;
        peak = Math.max(peak, active);
        await gate.promise;
        active--;
      },
      { concurrency: 3 },
    );
    for (let i = 0; i < 5; i++) await jobs.enqueue("test.parallel", { i });
    jobs.start();
    try {
      await until(() => active === 3, "three jobs running");
      expect(await db.job.count({ where: { status: "running" } })).toBe(3);
      gate.resolve();
      await until(async () => (await db.job.count({ where: { status: "done" } })) === 5, "all five done");
      expect(peak).toBe(3);
    } finally {
      await jobs.stop();
    }
  });

  it("stop() aborts running handlers and gives their attempt back, queued to run again", async () => {
    const jobs = createJobs({ db, ownerId: "w", log: quiet, pollMs: 60_000 });
    let started = false;
    jobs.register("test.cooperative", ({ signal }) => {
      started = true;
      return new Promise<void>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    });
    const { id } = await jobs.enqueue("test.cooperative", {});
    jobs.start();
    await until(() => started, "the handler to start");
    await jobs.stop();
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null, lastError: null });
  });
});

describe("schedules", () => {
  it("fires once per period however many job systems run the schedule", async () => {
    clock = Date.parse("2026-11-23T23:59:30.000Z");
    const a = jobsFor("a");
    const b = jobsFor("b", await otherClient());
    const payloads: string[] = [];
    for (const jobs of [a, b]) {
      jobs.schedule("competitors.nightly", "0 0 * * *", "competitors.snapshot", (period) => ({
        day: period.toISOString().slice(0, 10),
      }));
    }
    // The newest period began at midnight on the 23rd (missed while nothing ran): fired once.
    await Promise.all([a.fireSchedules(), b.fireSchedules(), a.fireSchedules(), b.fireSchedules()]);
    let rows = await db.job.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => r.payload)).toEqual([JSON.stringify({ day: "2026-11-23" })]);

    // The next midnight: each system fires, one job is made.
    advance(30_000);
    await Promise.all([a.fireSchedules(), b.fireSchedules()]);
    await Promise.all([a.fireSchedules(), b.fireSchedules()]);
    rows = await db.job.findMany({ orderBy: { id: "asc" } });
    for (const r of rows) payloads.push(JSON.parse(r.payload).day);
    expect(payloads).toEqual(["2026-11-23", "2026-11-24"]);
    expect(rows.every((r) => r.kind === "competitors.snapshot" && r.status === "queued")).toBe(true);
    expect(await db.jobScheduleRun.count({ where: { scheduleName: "competitors.nightly" } })).toBe(2);

    // A third system started later (a deploy) does not fire a period again.
    const c = jobsFor("c");
    c.schedule("competitors.nightly", "0 0 * * *", "competitors.snapshot");
    await c.fireSchedules();
    expect(await db.job.count()).toBe(2);
  });

  it("a schedule whose payload cannot be made does not stop the others, and is tried again", async () => {
    const errors: string[] = [];
    const jobs = jobsFor("a", db, { log: { ...quiet, error: (_fields, message) => errors.push(message) } });
    let broken = true;
    jobs.schedule("broken", "*/5 * * * *", "jobs.test", () => {
      if (broken) throw new Error("no shops loaded");
      return { fixed: true };
    });
    jobs.schedule("hourly", "0 * * * *", "jobs.test");
    await jobs.fireSchedules();
    expect((await db.job.findMany()).map((j) => j.key)).toEqual(["schedule:hourly:2026-11-23T12:00:00.000Z"]);
    expect(errors).toEqual(["schedule not fired; trying again on the next tick"]);

    broken = false;
    await jobs.fireSchedules();
    expect(await db.job.count({ where: { key: "schedule:broken:2026-11-23T12:00:00.000Z" } })).toBe(1);
  });

  it("refuses a malformed cron pattern with a sentence", () => {
    const jobs = jobsFor("a");
    expect(() => jobs.schedule("bad", "every day", "jobs.test")).toThrow(/not a cron pattern/);
  });
});
