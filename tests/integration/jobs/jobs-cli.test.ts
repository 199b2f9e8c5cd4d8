// `npm run jobs -- list|retry|run-due` as an operator runs it (a child process under tsx) on the test's
// database file: exit codes, what it prints, and what it changes.
import { beforeEach, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { createJobs, registerJobKinds, type JobsLog } from "~/services/jobs.server";
import { runScript } from "../../helpers/cli";

const quiet: JobsLog = { info() {}, warn() {}, error() {} };

const cli = (...args: string[]) => runScript("jobs", args);

beforeEach(async () => {
  await dbReady;
  await db.job.deleteMany();
});

describe("npm run jobs", () => {
  it("run-due runs the due jobs with the app's handlers, parks an unknown kind, and list shows why", async () => {
    const producer = createJobs({ db, ownerId: "producer", log: quiet });
    const ok = await producer.enqueue("jobs.test", {});
    const failing = await producer.enqueue("jobs.test", { fail: "the supplier feed answered 503" }, { maxAttempts: 1 });
    const unknown = await producer.enqueue("competitors.snapshot", { shopId: 1 });
    const later = await producer.enqueue("jobs.test", {}, { runAt: new Date(Date.now() + 60 * 60_000) });

    const due = await cli("run-due");
    expect(due).toMatchObject({ code: 0 });
    // Its three due jobs, plus the app's eleven schedules firing once each (competitor checks' sweep, competitor
    // history retention, the catalogue's daily signals, the review counts' sweep (decision 094), outbox sweep, weekly
    // drop, saved-search alerts, job purge, image purge, the stored margins' daily refresh, the reference rates'
    // refresh (decision 089): all done on an empty database; the rates' refresh keeps the table in use when it cannot fetch).
    expect(due.stdout).toContain("Ran 14 due jobs: 12 done, 0 to retry later, 2 parked.");
    expect(await db.job.count({ where: { kind: "competitor.check-due", status: "done" } })).toBe(1);
    const status = async (id: number) => (await db.job.findUniqueOrThrow({ where: { id } })).status;
    expect(await status(ok.id)).toBe("done");
    expect(await status(failing.id)).toBe("parked");
    expect(await status(unknown.id)).toBe("parked");
    expect(await status(later.id)).toBe("queued");

    const list = await cli("list");
    expect(list.code).toBe(0);
    const lines = list.stdout.split("\n");
    expect(lines[0]).toMatch(/^id\s+kind\s+status\s+attempts\s+run at\s+last error$/);
    const lineOf = (id: number) => lines.find((l) => l.startsWith(`${id} `)) ?? "";
    expect(lineOf(unknown.id)).toMatch(
      /competitors\.snapshot\s+PARKED\s+1\/5\s+\S+\s+attempt 1 of 5: no handler for kind competitors\.snapshot$/,
    );
    expect(lineOf(failing.id)).toMatch(/jobs\.test\s+PARKED\s+1\/1\s+.*the supplier feed answered 503$/);
    expect(lineOf(ok.id)).toMatch(/jobs\.test\s+done\s+1\/5/);
    expect(lineOf(later.id)).toMatch(/jobs\.test\s+queued\s+0\/5/);
    expect(list.stdout).toContain("2 parked (gave up; see last error). Re-queue one with: npm run jobs -- retry ID");

    const parkedOnly = await cli("list", "--status", "parked");
    expect(parkedOnly.stdout).not.toContain("done");
    expect(parkedOnly.stdout.split("\n").filter((l) => /PARKED/.test(l))).toHaveLength(2);

    const retried = await cli("retry", String(failing.id));
    expect(retried).toMatchObject({ code: 0 });
    expect(retried.stdout).toContain(`Job ${failing.id} (jobs.test) is queued to run now`);
    expect(await db.job.findUniqueOrThrow({ where: { id: failing.id } })).toMatchObject({
      status: "queued",
      attempts: 0,
    });
  }, 120_000);

  it("explains a job that cannot be retried and bad input, with exit codes 1 and 2, and changes nothing", async () => {
    const worker = createJobs({ db, ownerId: "worker", log: quiet });
    registerJobKinds(worker);
    const ok = await worker.enqueue("jobs.test", {});
    expect((await worker.runDue()).done).toBe(1);

    const done = await cli("retry", String(ok.id));
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(`Job ${ok.id} is done: only a parked job or one waiting for a retry can be retried.`);
    const missing = await cli("retry", "999999");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("There is no job 999999.");

    for (const args of [
      ["retry", "abc"],
      ["retry"],
      ["list", "--status", "lost"],
      ["list", "--limit", "0"],
      ["explode"],
      [],
    ]) {
      const result = await cli(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage:");
    }
    expect(await db.job.findUniqueOrThrow({ where: { id: ok.id } })).toMatchObject({ status: "done" });
  }, 120_000);
});
