// Finished work does not pile up: the daily "jobs.purge" schedule and `npm run jobs -- purge` delete done jobs
// and schedule-run rows older than the retention, in batches, and never a queued, running or parked job, nor
// the newest run of a schedule (which stops its current period from firing twice). On the test's real SQLite
// file, with a clock the test moves.
import { beforeEach, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { createJobs, JOB_RETENTION_DAYS, PURGE_JOB, registerJobMaintenance, type JobsLog } from "~/services/jobs.server";
import { runScript } from "../../helpers/cli";

const DAY = 86_400_000;
const START = Date.parse("2026-11-23T12:00:00.000Z");
let clock = START;
const now = () => new Date(clock);
const quiet: JobsLog = { info() {}, warn() {}, error() {} };

beforeEach(async () => {
  await dbReady;
  await db.job.deleteMany();
  await db.jobScheduleRun.deleteMany();
  clock = START;
});

/** A job row as the system leaves it, finished (or created) `daysAgo` days before the clock. */
async function jobRow(status: "done" | "parked" | "queued" | "running", daysAgo: number, kind = "jobs.test") {
  const at = new Date(clock - daysAgo * DAY);
  return db.job.create({
    data: {
      kind,
      status,
      runAt: at,
      createdAt: at,
      finishedAt: status === "done" || status === "parked" ? at : null,
      leaseOwner: status === "running" ? "someone" : null,
      leaseExpiresAt: status === "running" ? new Date(clock + 60_000) : null,
      lastError: status === "parked" ? "attempt 5 of 5: the supplier feed answered 503" : null,
    },
    select: { id: true },
  });
}

async function scheduleRun(name: string, daysAgo: number) {
  const at = new Date(clock - daysAgo * DAY);
  await db.jobScheduleRun.create({ data: { scheduleName: name, periodStart: at, jobKey: `schedule:${name}:${at.toISOString()}`, createdAt: at } });
}

describe("jobs.purge", () => {
  it("deletes done jobs past the retention in batches, and keeps recent, queued, running and parked ones", async () => {
    const old = await Promise.all(Array.from({ length: 7 }, (_, i) => jobRow("done", JOB_RETENTION_DAYS + 1 + i)));
    const recent = await jobRow("done", JOB_RETENTION_DAYS - 1);
    const parked = await jobRow("parked", 400);
    const queued = await jobRow("queued", 400);
    const running = await jobRow("running", 400);
    const jobs = createJobs({ db, ownerId: "purger", now, log: quiet });

    const summary = await jobs.purge({ batch: 3 });
    expect(summary).toMatchObject({ jobs: 7, scheduleRuns: 0 });
    expect(summary.before.toISOString()).toBe(new Date(START - JOB_RETENTION_DAYS * DAY).toISOString());
    const left = (await db.job.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((j) => j.id);
    expect(left).toEqual([recent.id, parked.id, queued.id, running.id]);
    expect(left).not.toContain(old[0].id);
    // Nothing more to delete: a second run changes nothing.
    expect(await jobs.purge({ batch: 3 })).toMatchObject({ jobs: 0, scheduleRuns: 0 });
  });

  it("deletes old schedule runs but keeps each schedule's newest, however old", async () => {
    for (const d of [100, 90, 80]) await scheduleRun("monthly", d);
    for (const d of [20, 16, 1]) await scheduleRun("daily", d);
    const jobs = createJobs({ db, ownerId: "purger", now, log: quiet });
    expect(await jobs.purge({ batch: 1 })).toMatchObject({ jobs: 0, scheduleRuns: 4 });
    const runs = await db.jobScheduleRun.findMany({ orderBy: { periodStart: "asc" }, select: { scheduleName: true, periodStart: true } });
    expect(runs).toEqual([
      { scheduleName: "monthly", periodStart: new Date(START - 80 * DAY) },
      { scheduleName: "daily", periodStart: new Date(START - 1 * DAY) },
    ]);
  });

  it("runs once a day from the app's schedule, on however many job systems", async () => {
    await jobRow("done", 30);
    await jobRow("done", 2);
    const a = createJobs({ db, ownerId: "a", now, log: quiet });
    const b = createJobs({ db, ownerId: "b", now, log: quiet });
    registerJobMaintenance(a);
    registerJobMaintenance(b);
    await a.runDue();
    await b.runDue();
    const purges = await db.job.findMany({ where: { kind: PURGE_JOB }, select: { status: true } });
    expect(purges).toEqual([{ status: "done" }]);
    expect(await db.job.count({ where: { kind: "jobs.test" } })).toBe(1);

    // The next day's period fires once more; the day-old job is not yet past the retention.
    clock += DAY;
    await b.runDue();
    await a.runDue();
    expect(await db.job.count({ where: { kind: PURGE_JOB } })).toBe(2);
    expect(await db.job.count({ where: { kind: "jobs.test" } })).toBe(1);
  });

  it("refuses a retention that is not a whole number of days, and deletes nothing", async () => {
    await jobRow("done", 30);
    const jobs = createJobs({ db, ownerId: "purger", now, log: quiet });
    await expect(jobs.purge({ olderThanDays: -1 })).rejects.toThrow(/whole days from 0 to 36500/);
    await expect(jobs.purge({ olderThanDays: 1.5 })).rejects.toThrow(/whole days/);
    expect(await db.job.count()).toBe(1);
  });
});

const cli = (...args: string[]) => runScript("jobs", args);

describe("npm run jobs -- purge", () => {
  it("deletes what the operator asks, says how much, and refuses bad arguments with exit code 2", async () => {
    clock = Date.now();
    await jobRow("done", 20);
    await jobRow("done", 3);
    const parked = await jobRow("parked", 20);

    const byDefault = await cli("purge");
    expect(byDefault).toMatchObject({ code: 0 });
    expect(byDefault.stdout).toMatch(/^Deleted 1 done job and 0 schedule runs finished before \S+Z\. Queued, running and parked jobs are kept\.$/m);

    const bad = await cli("purge", "--older-than-days", "two");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than-days is a whole number of days from 0 to 36500, not "two".');
    expect((await cli("purge", "--days", "2")).code).toBe(2);
    expect(await db.job.count()).toBe(2);

    const all = await cli("purge", "--older-than-days", "0");
    expect(all.stdout).toContain("Deleted 1 done job and");
    expect((await db.job.findMany({ select: { id: true } })).map((j) => j.id)).toEqual([parked.id]);
  }, 120_000);
});
