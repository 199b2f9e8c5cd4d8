// `npm run jobs -- list [--status S] [--limit N] | retry ID | run-due`: the operator's view of the job
// system (docs/decisions/022), against DATABASE_URL like the app.
//   list     newest jobs first: id, kind, status, attempts, run at, last error (parked ones stand out)
//   retry    queues a parked job (or one waiting for its retry) to run now, with fresh attempts
//   run-due  runs every job due now in this process, with the app's handlers, then exits
//   purge    deletes done jobs and schedule-run rows older than N days (default 14; the daily
//            "jobs.purge" schedule does the same); queued, running and parked jobs are kept
import { z } from "zod";
import { isPostgresUrl } from "~/db-postgres.server";
import { db, dbReady } from "~/db.server";
import { JOB_STATUSES, JobIdSchema, type JobStatus } from "~/domain/jobs";
import { getEnv } from "~/env.server";
import {
  createJobs,
  createJobSystemFor,
  defaultOwnerId,
  JOB_RETENTION_DAYS,
  registerJobKinds,
  type JobRow,
  type Jobs,
  type JobsLog,
} from "~/services/jobs.server";
import { oneLine, option, runCli, table, UsageError } from "./lib/cli-args";

const USAGE = `Usage:
  npm run jobs -- list [--status ${JOB_STATUSES.join("|")}] [--limit N]
  npm run jobs -- retry ID
  npm run jobs -- run-due
  npm run jobs -- purge [--older-than-days N]   (default ${JOB_RETENTION_DAYS})`;

/** Plain lines on stderr: an operator reads these, not a log collector. */
const stderrLog: JobsLog = {
  info() {},
  warn: (fields, message) => console.warn(`warning: ${message} ${JSON.stringify(fields, errorFields)}`),
  error: (fields, message) => console.error(`error: ${message} ${JSON.stringify(fields, errorFields)}`),
};
function errorFields(_key: string, value: unknown) {
  return value instanceof Error ? value.message : value;
}

/** Our queue on a SQLite file; pg-boss's jobs on PostgreSQL (decision 102): list and retry read and change them there. */
let jobs: Jobs | null = null;

function formatJobs(rows: JobRow[]): string {
  if (rows.length === 0) return "No jobs.";
  const cells = rows.map((r) => [
    String(r.id),
    r.kind,
    r.status === "parked" ? "PARKED" : r.status,
    `${r.attempts}/${r.maxAttempts}`,
    r.runAt.toISOString(),
    oneLine(r.lastError, 100),
  ]);
  const out = [table(["id", "kind", "status", "attempts", "run at", "last error"], cells)];
  const parked = rows.filter((r) => r.status === "parked");
  if (parked.length > 0) {
    out.push("", `${parked.length} parked (gave up; see last error). Re-queue one with: npm run jobs -- retry ID`);
  }
  return out.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const url = getEnv().DATABASE_URL;
  const postgres = isPostgresUrl(url);
  if (postgres && command === "purge") {
    throw new UsageError("purge is for the SQLite queue; on PostgreSQL pg-boss's retention deletes old jobs (decision 102).");
  }
  if (!postgres) await dbReady;
  jobs = createJobSystemFor({ db, url, ownerId: `${defaultOwnerId()}:cli`, log: stderrLog });
  registerJobKinds(jobs);

  if (command === "list") {
    const known = new Set(["--status", "--limit"]);
    const unknown = args.filter((a, i) => (a.startsWith("--") ? !known.has(a) : !known.has(args[i - 1] ?? "")));
    if (unknown.length > 0) throw new UsageError(`Unknown argument ${unknown.join(" ")}.`);
    const status = option(args, "--status");
    if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status)) {
      throw new UsageError(`--status is one of ${JOB_STATUSES.join(", ")}, not "${status}".`);
    }
    const limitText = option(args, "--limit");
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new UsageError(`--limit is a whole number from 1 to 10000, not "${limitText}".`);
    }
    const options = { status: status as JobStatus | undefined, limit };
    console.log(formatJobs(await jobs.list(options)));
    return 0;
  }

  if (command === "retry") {
    if (args.length !== 1) throw new UsageError("retry takes one job id.");
    const id = postgres ? z.string().uuid().safeParse(args[0]) : JobIdSchema.safeParse(args[0]);
    if (!id.success) {
      throw new UsageError(`"${args[0]}" is not a job id (${postgres ? "a UUID, as jobs list shows it" : "a positive whole number"}).`);
    }
    const job = await jobs.retry(id.data);
    const attempts = `${job.maxAttempts} fresh attempt${job.maxAttempts === 1 ? "" : "s"}`;
    console.log(`Job ${job.id} (${job.kind}) is queued to run now, with ${attempts}.`);
    return 0;
  }

  if (command === "run-due") {
    if (args.length > 0) throw new UsageError("run-due takes no arguments.");
    // Every kind the app registers (AI-ad renders, competitor checks, ...), as a server's worker would.
    const app = await import("~/services/index.server");
    const s = await app.jobs.runDue().finally(() => app.jobs.stop());
    console.log(
      s.ran === 0
        ? "No jobs were due."
        : `Ran ${s.ran} due job${s.ran === 1 ? "" : "s"}: ${s.done} done, ${s.retrying} to retry later, ${s.parked} parked.`,
    );
    return 0;
  }

  if (command === "purge") {
    const known = new Set(["--older-than-days"]);
    const unknown = args.filter((a, i) => (a.startsWith("--") ? !known.has(a) : !known.has(args[i - 1] ?? "")));
    if (unknown.length > 0) throw new UsageError(`Unknown argument ${unknown.join(" ")}.`);
    const daysText = option(args, "--older-than-days");
    const days = daysText === undefined ? JOB_RETENTION_DAYS : Number(daysText);
    if (!/^\d{1,5}$/.test(daysText ?? "0") || !Number.isInteger(days) || days > 36_500) {
      throw new UsageError(`--older-than-days is a whole number of days from 0 to 36500, not "${daysText}".`);
    }
    const s = await createJobs({ db, ownerId: `${defaultOwnerId()}:cli`, log: stderrLog }).purge({ olderThanDays: days });
    console.log(
      `Deleted ${s.jobs} done job${s.jobs === 1 ? "" : "s"} and ${s.scheduleRuns} schedule run${s.scheduleRuns === 1 ? "" : "s"} ` +
        `finished before ${s.before.toISOString()}. Queued, running and parked jobs are kept.`,
    );
    return 0;
  }

  throw new UsageError(command ? `Unknown command "${command}".` : "Which command?");
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, close: () => Promise.all([db.$disconnect(), jobs?.stop()]) });
