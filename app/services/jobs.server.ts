// The durable job system (docs/decisions/022): every piece of background work is a Job row. This file
// owns those rows and the JobScheduleRun rows of cron schedules.
//
// - A worker claims a due job with ONE atomic UPDATE ... WHERE id = (SELECT ...) RETURNING: SQLite runs a
//   write statement under the database's single write lock, so two processes never claim the same row.
//   The claim sets a lease (leaseOwner = this process's id plus a per-claim number, leaseExpiresAt) and
//   counts the attempt. While the handler runs, the lease is renewed; a job whose lease ran out (its
//   worker was killed or froze) is claimed again by anyone.
// - Every later write about an attempt (renewal, progress, done, failure) is fenced by that leaseOwner:
//   a worker whose job was taken over changes nothing.
// - A failed attempt is retried after an exponential backoff with jitter (~/domain/jobs); after
//   maxAttempts the job is parked with its last error, for an operator (`npm run jobs -- list|retry`).
// - A schedule fires once per period however many processes run: the period's job has a unique key
//   (schedule:NAME:PERIOD) and is inserted only while no (schedule, period) row records the period.
// - Finished work does not pile up: the daily "jobs.purge" schedule deletes done jobs and schedule-run
//   rows older than JOB_RETENTION_DAYS, in small batches (`npm run jobs -- purge` for operators). Parked
//   jobs stay until an operator retries them: they are the errors someone must read.
// Nothing here knows HTTP; handlers register by kind (register), so later work (renders, snapshots)
// adds a kind and calls enqueue.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { Cron } from "croner";
import { z } from "zod";
import { dateFromDb, retryBusy, type Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import {
  DEFAULT_MAX_ATTEMPTS,
  EnqueueOptionsSchema,
  HandlerOptionsSchema,
  JobKindSchema,
  afterFailure,
  errorText,
  type EnqueueOptions,
  type HandlerOptions,
  type JobStatus,
} from "~/domain/jobs";
import { childLogger } from "~/logger.server";

export interface JobContext<P = unknown> {
  jobId: number;
  payload: P;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
  /** Aborted when the attempt times out, the lease is lost, or the worker stops: stop work soon. */
  signal: AbortSignal;
  /** Extends the lease now (it is also renewed on a timer); false when the lease was lost. */
  renewLease(): Promise<boolean>;
  /** Records 0-100 on the job row for whoever shows progress. */
  progress(percent: number): Promise<void>;
}

export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<void> | void;

export interface RegisterOptions<P> extends HandlerOptions {
  /** Validates the payload; a payload it rejects parks the job (retrying cannot fix it). */
  payloadSchema?: z.ZodType<P>;
}

export interface JobRow {
  id: number;
  kind: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  progress: number | null;
  key: string | null;
  payload: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface RunDueSummary {
  ran: number;
  done: number;
  retrying: number;
  parked: number;
}

export interface JobsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface JobsDeps {
  db: Db;
  /** Who this process is in leaseOwner (e.g. defaultOwnerId()); unique per process. */
  ownerId: string;
  now?: () => Date;
  /** In [0, 1): the backoff's jitter. */
  random?: () => number;
  /** How often an idle worker looks for due jobs; default 1 s. Enqueueing in this process wakes it at once. */
  pollMs?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  log?: JobsLog;
}

export type Jobs = ReturnType<typeof createJobs>;

/** Done jobs and schedule-run rows are kept this many days (the operator's recent history), then purged. */
export const JOB_RETENTION_DAYS = 14;
/** Rows deleted per statement: each batch holds SQLite's write lock only briefly, so workers keep claiming. */
export const PURGE_BATCH = 500;
export const PURGE_JOB = "jobs.purge";
/** Daily at 03:17 UTC (off the hour, when little else runs). */
export const PURGE_SCHEDULE = { name: "jobs.purge", pattern: "17 3 * * *" } as const;

export interface PurgeSummary {
  /** Done jobs deleted. */
  jobs: number;
  /** JobScheduleRun rows deleted. */
  scheduleRuns: number;
  /** Everything finished before this instant was eligible. */
  before: Date;
}

/** host:pid:random — readable in `jobs list`, unique per process. */
export function defaultOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
}

/** DateTime as Prisma's SQLite adapter writes it ("2026-01-31T00:00:00.000+00:00"), so text order = time order. */
function toDbTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

const toDate = (value: unknown): Date => (value instanceof Date ? value : dateFromDb(value));
const toDateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : toDate(value));

const JOB_COLUMNS = `"id", "kind", "payload", "attempts", "maxAttempts", "leaseOwner"`;

interface Claimed {
  id: number;
  kind: string;
  payload: string;
  attempt: number;
  maxAttempts: number;
  lease: string;
}

function claimedFrom(row: Record<string, unknown>): Claimed {
  return {
    id: Number(row.id),
    kind: String(row.kind),
    payload: String(row.payload),
    attempt: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
    lease: String(row.leaseOwner),
  };
}

interface Registration {
  kind: string;
  handler: JobHandler<unknown>;
  options: z.output<typeof HandlerOptionsSchema>;
  payloadSchema?: z.ZodType<unknown>;
  running: number;
}

interface Schedule {
  name: string;
  cron: Cron;
  kind: string;
  payloadFn: (periodStart: Date) => unknown;
  maxAttempts?: number;
  /** The newest period this process has already fired (or seen fired). */
  firedUpTo: number;
}

/** The reason a worker aborts its handlers when it stops (their attempt is given back, not counted). */
class StoppingError extends Error {
  constructor() {
    super("the worker is stopping");
  }
}

export function createJobs(deps: JobsDeps) {
  const { db, ownerId } = deps;
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const pollMs = deps.pollMs ?? 1_000;
  const log: JobsLog = deps.log ?? childLogger("jobs");
  const registry = new Map<string, Registration>();
  const schedules = new Map<string, Schedule>();
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let claimCounter = 0;

  // ---------- rows ----------

  async function enqueue(
    kind: string,
    payload: unknown = {},
    options: EnqueueOptions = {},
  ): Promise<{ id: number; created: boolean }> {
    const parsedKind = JobKindSchema.safeParse(kind);
    if (!parsedKind.success)
      throw new AppError(400, `"${kind}" is not a job kind: ${parsedKind.error.issues[0].message}`);
    const parsed = EnqueueOptionsSchema.safeParse(options);
    if (!parsed.success) throw new AppError(400, `Bad job options: ${parsed.error.issues[0].message}`);
    const json = JSON.stringify(payload ?? {});
    if (json === undefined) throw new AppError(400, "A job's payload must be JSON.");
    const at = now();
    const runAt = parsed.data.runAt ?? at;
    const key = parsed.data.key ?? null;
    // A key that is queued or running is left alone; one that is done or parked is armed again.
    const rows = await retryBusy(() =>
      db.$queryRawUnsafe<{ id: number | bigint }[]>(
        `INSERT INTO "Job" ("kind", "payload", "status", "runAt", "attempts", "maxAttempts", "key", "createdAt")
         VALUES (?, ?, 'queued', ?, 0, ?, ?, ?)
         ON CONFLICT ("key") DO UPDATE SET
           "kind" = excluded."kind", "payload" = excluded."payload", "status" = 'queued', "runAt" = excluded."runAt",
           "attempts" = 0, "maxAttempts" = excluded."maxAttempts", "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "lastError" = NULL, "progress" = NULL, "finishedAt" = NULL, "createdAt" = excluded."createdAt"
         WHERE "Job"."status" IN ('done', 'parked')
         RETURNING "id"`,
        kind,
        json,
        toDbTime(runAt),
        parsed.data.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        key,
        toDbTime(at),
      ),
    );
    if (rows.length > 0) {
      if (runAt.getTime() <= at.getTime()) wake();
      return { id: Number(rows[0].id), created: true };
    }
    const live = await db.job.findUnique({ where: { key: key! }, select: { id: true } });
    if (!live) throw new Error(`job key ${key} neither inserted nor found`);
    return { id: live.id, created: false };
  }

  /**
   * Claims the next due job (of `kinds`, or any kind) for this process: one atomic statement. A job
   * still running under someone's live lease is never claimed; one whose lease expired is (its worker
   * died), and the lost attempt is noted in lastError.
   */
  async function claim(kinds: string[] | null, leaseMsFor: (kind: string) => number): Promise<Claimed | null> {
    const at = now();
    const time = toDbTime(at);
    const kindFilter = kinds ? `AND "kind" IN (${kinds.map(() => "?").join(", ")})` : "";
    const lease = `${ownerId}#${++claimCounter}`;
    // The lease length depends on the kind, known only once the row is picked: claim with the longest
    // lease of the candidates, then shorten it to the kind's own (fenced, so harmless if lost).
    const longest = Math.max(...(kinds ?? [...registry.keys()]).map(leaseMsFor), leaseMsFor(""));
    const rows = await retryBusy(() =>
      db.$queryRawUnsafe<Record<string, unknown>[]>(
        `UPDATE "Job" SET
           "status" = 'running',
           "leaseOwner" = ?,
           "leaseExpiresAt" = ?,
           "attempts" = "attempts" + 1,
           "lastError" = CASE WHEN "status" = 'running'
             THEN 'attempt ' || "attempts" || ' stopped answering (its lease expired): the worker died or froze'
             ELSE "lastError" END
         WHERE "id" = (
           SELECT "id" FROM "Job"
           WHERE "status" IN ('queued', 'running') AND "runAt" <= ?
             AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
             AND "attempts" < "maxAttempts"
             ${kindFilter}
           ORDER BY "runAt", "id"
           LIMIT 1)
         RETURNING ${JOB_COLUMNS}`,
        lease,
        toDbTime(new Date(at.getTime() + longest)),
        time,
        time,
        ...(kinds ?? []),
      ),
    );
    if (rows.length === 0) return null;
    const job = claimedFrom(rows[0]);
    if (leaseMsFor(job.kind) !== longest) await extendLease(job.lease, job.id, leaseMsFor(job.kind));
    return job;
  }

  /** Whether anything is due (a plain read: idle workers poll with this, not with a write). */
  async function anythingDue(kinds: string[] | null): Promise<boolean> {
    const time = toDbTime(now());
    const kindFilter = kinds ? `AND "kind" IN (${kinds.map(() => "?").join(", ")})` : "";
    const rows = await db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "Job"
       WHERE "status" IN ('queued', 'running') AND "runAt" <= ?
         AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
         ${kindFilter}
       LIMIT 1`,
      time,
      time,
      ...(kinds ?? []),
    );
    return rows.length > 0;
  }

  /**
   * Parks jobs whose last allowed attempt stopped answering (lease expired with no attempts left): a
   * job that kills its worker every time ends here instead of looping.
   */
  async function parkAbandoned(): Promise<number> {
    const time = toDbTime(now());
    return retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "status" = 'parked', "finishedAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "lastError" = 'attempt ' || "attempts" || ' of ' || "maxAttempts" || ' stopped answering (its lease expired): the worker died or froze'
         WHERE "status" = 'running' AND "leaseExpiresAt" < ? AND "attempts" >= "maxAttempts"`,
        time,
        time,
      ),
    );
  }

  async function extendLease(lease: string, id: number, leaseMs: number): Promise<boolean> {
    const changed = await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "leaseExpiresAt" = ? WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
        toDbTime(new Date(now().getTime() + leaseMs)),
        id,
        lease,
      ),
    );
    return changed === 1;
  }

  async function markDone(job: Claimed): Promise<boolean> {
    const changed = await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "status" = 'done', "finishedAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "lastError" = NULL, "progress" = CASE WHEN "progress" IS NULL THEN NULL ELSE 100 END
         WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
        toDbTime(now()),
        job.id,
        job.lease,
      ),
    );
    return changed === 1;
  }

  async function markFailed(job: Claimed, error: unknown, permanent: boolean): Promise<"parked" | "retrying" | "lost"> {
    const outcome = afterFailure(
      { attempt: job.attempt, maxAttempts: job.maxAttempts, permanent, random: random() },
      deps.backoff,
    );
    const at = now();
    const message = `attempt ${job.attempt} of ${job.maxAttempts}: ${errorText(error)}`;
    const changed = await retryBusy(() =>
      outcome.status === "parked"
        ? db.$executeRawUnsafe(
            `UPDATE "Job" SET "status" = 'parked', "finishedAt" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
             WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
            toDbTime(at),
            message,
            job.id,
            job.lease,
          )
        : db.$executeRawUnsafe(
            `UPDATE "Job" SET "status" = 'queued', "runAt" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
             WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
            toDbTime(new Date(at.getTime() + outcome.retryInMs)),
            message,
            job.id,
            job.lease,
          ),
    );
    if (changed !== 1) return "lost";
    return outcome.status === "parked" ? "parked" : "retrying";
  }

  /** Gives an attempt back (the worker is stopping): queued again now, the attempt not counted. */
  async function release(job: Claimed): Promise<void> {
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "status" = 'queued', "runAt" = ?, "attempts" = "attempts" - 1, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
         WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
        toDbTime(now()),
        job.id,
        job.lease,
      ),
    );
  }

  // ---------- running one attempt ----------

  type Outcome = "done" | "retrying" | "parked" | "lost" | "released";

  async function execute(
    job: Claimed,
    registration: Registration | undefined,
    stopping: () => boolean,
  ): Promise<Outcome> {
    if (!registration) {
      const outcome = await markFailed(job, new Error(`no handler for kind ${job.kind}`), true);
      log.warn({ jobId: job.id, kind: job.kind }, "parked a job no handler is registered for");
      return outcome;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
      if (registration.payloadSchema) {
        const parsed = registration.payloadSchema.safeParse(payload);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new Error(`bad payload: ${issue.path.join(".") || "payload"}: ${issue.message}`);
        }
        payload = parsed.data;
      }
    } catch (error) {
      return markFailed(job, error, true);
    }

    const { leaseMs, timeoutMs } = registration.options;
    const controller = new AbortController();
    // The handler's own calls stop once it has settled (a handler that timed out may live on); the
    // lease itself is kept until the outcome is written, so a slow write cannot hand the job to another.
    let settled = false;
    let recorded = false;
    let leaseLost = false;
    let renewing: Promise<boolean> | null = null;
    const renew = (): Promise<boolean> => {
      if (recorded || leaseLost) return Promise.resolve(false);
      renewing ??= extendLease(job.lease, job.id, leaseMs)
        .then((held) => {
          if (!held && !recorded) {
            leaseLost = true;
            controller.abort(new Error("the job's lease was lost to another worker"));
          }
          return held;
        })
        .finally(() => {
          renewing = null;
        });
      return renewing;
    };
    const renewLease = async () => (settled ? false : renew());
    const renewer = setInterval(
      () => {
        renew().catch((error) => log.warn({ jobId: job.id, err: error }, "lease not renewed"));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`timed out after ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const context: JobContext<unknown> = {
      jobId: job.id,
      payload,
      attempt: job.attempt,
      signal: controller.signal,
      renewLease,
      async progress(percent) {
        if (settled) return;
        const value = Math.max(0, Math.min(100, Math.round(percent)));
        await retryBusy(() =>
          db.$executeRawUnsafe(
            `UPDATE "Job" SET "progress" = ? WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
            value,
            job.id,
            job.lease,
          ),
        );
      },
    };
    inFlight.set(job.lease, { controller, done: timedOut.catch(() => undefined) });
    try {
      await Promise.race([Promise.resolve().then(() => registration.handler(context)), timedOut]);
      settled = true;
      if (await markDone(job)) return "done";
      log.warn(
        { jobId: job.id, kind: job.kind, attempt: job.attempt },
        "finished after another worker took the job over; not recorded",
      );
      return "lost";
    } catch (error) {
      settled = true;
      if (leaseLost) return "lost";
      if (stopping() && controller.signal.reason instanceof StoppingError) {
        await release(job);
        return "released";
      }
      const outcome = await markFailed(job, error, false);
      log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempt, outcome, err: error }, "job attempt failed");
      return outcome;
    } finally {
      settled = true;
      recorded = true;
      clearInterval(renewer);
      clearTimeout(timer);
      inFlight.delete(job.lease);
    }
  }

  // ---------- schedules ----------

  /** Fires each schedule whose newest period has not been fired; one failing schedule does not stop the others. */
  async function fireSchedules(): Promise<void> {
    const at = now();
    for (const s of schedules.values()) {
      // The newest period that has started (previousRuns excludes the reference instant itself).
      const period = s.cron.previousRuns(1, new Date(at.getTime() + 1))[0];
      if (!period || period.getTime() <= s.firedUpTo) continue;
      try {
        await firePeriod(s, period);
      } catch (error) {
        log.error({ schedule: s.name, period, err: error }, "schedule not fired; trying again on the next tick");
      }
    }
  }

  async function firePeriod(s: Schedule, period: Date): Promise<void> {
    const periodText = toDbTime(period);
    const key = `schedule:${s.name}:${period.toISOString()}`;
    const payload = JSON.stringify((await s.payloadFn(period)) ?? {});
    const created = toDbTime(now());
    // Two single statements, no transaction (a transaction would hold the write lock across awaits):
    // 1. the job, keyed by schedule and period, unless the period is already recorded; the unique key
    //    makes this the once-per-period guarantee when processes race, and a crash after it is harmless;
    // 2. the record of the period, so a period is never fired again, even after its job is deleted.
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `INSERT INTO "Job" ("kind", "payload", "status", "runAt", "attempts", "maxAttempts", "key", "createdAt")
         SELECT ?, ?, 'queued', ?, 0, ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM "JobScheduleRun" WHERE "scheduleName" = ? AND "periodStart" = ?)
         ON CONFLICT ("key") DO NOTHING`,
        s.kind,
        payload,
        created,
        s.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        key,
        created,
        s.name,
        periodText,
      ),
    );
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `INSERT OR IGNORE INTO "JobScheduleRun" ("scheduleName", "periodStart", "jobKey", "createdAt") VALUES (?, ?, ?, ?)`,
        s.name,
        periodText,
        key,
        created,
      ),
    );
    s.firedUpTo = period.getTime();
    wake();
  }

  // ---------- the polling worker ----------

  let started = false;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;

  function wake() {
    woken = true;
    wakeUp?.();
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  const leaseMsFor = (kind: string) => registry.get(kind)?.options.leaseMs ?? HandlerOptionsSchema.parse({}).leaseMs;

  async function tick(): Promise<void> {
    await fireSchedules();
    let claimedAny = false;
    for (;;) {
      if (stopping) return;
      const free = [...registry.values()].filter((r) => r.running < r.options.concurrency).map((r) => r.kind);
      if (free.length === 0) return;
      // Idle: look first with a read, so idle processes do not queue up for the write lock.
      if (!claimedAny && !(await anythingDue(free))) {
        await parkAbandonedEvery();
        return;
      }
      const job = await claim(free, leaseMsFor);
      if (!job) {
        await parkAbandonedEvery();
        return;
      }
      claimedAny = true;
      const registration = registry.get(job.kind)!;
      registration.running++;
      execute(job, registration, () => stopping)
        .catch((error) => log.error({ jobId: job.id, err: error }, "job outcome not recorded"))
        .finally(() => {
          registration.running--;
          wake();
        });
    }
  }

  let lastParkCheck = 0;
  async function parkAbandonedEvery() {
    if (Date.now() - lastParkCheck < 5_000) return;
    lastParkCheck = Date.now();
    const parked = await parkAbandoned();
    if (parked > 0) log.warn({ parked }, "parked jobs whose last attempt stopped answering");
  }

  function start(): void {
    if (started) return;
    started = true;
    stopping = false;
    loop = (async () => {
      while (!stopping) {
        try {
          await tick();
        } catch (error) {
          log.error({ err: error }, "job worker tick failed; trying again");
        }
        if (!stopping) await sleep(pollMs);
      }
    })();
  }

  /**
   * Stops claiming; running handlers see their signal aborted and are awaited. An attempt that ends
   * in an error because of the stop is given back (queued now, not counted); one that finishes is done.
   */
  async function stop(): Promise<void> {
    if (!started) return;
    stopping = true;
    wake();
    await loop;
    const running = [...inFlight.values()];
    for (const r of running) r.controller.abort(new StoppingError());
    while (inFlight.size > 0) await new Promise((r) => setTimeout(r, 10));
    started = false;
  }

  // ---------- operators ----------

  /**
   * Runs every job due now (of `kinds`, or all kinds and the schedules), in this process, one at a time,
   * then returns: jobs whose retry falls later are left for later. A kind with no handler is parked
   * ("no handler for kind X").
   */
  async function runDue(options: { kinds?: string[] } = {}): Promise<RunDueSummary> {
    const summary: RunDueSummary = { ran: 0, done: 0, retrying: 0, parked: 0 };
    if (!options.kinds) await fireSchedules();
    await parkAbandoned();
    const seen = new Set<number>();
    for (;;) {
      const job = await claim(options.kinds ?? null, leaseMsFor);
      if (!job) break;
      // A job that failed is queued again later than now; one claimed twice means the clock stands still.
      if (seen.has(job.id)) {
        await release(job);
        break;
      }
      seen.add(job.id);
      summary.ran++;
      const outcome = await execute(job, registry.get(job.kind), () => false);
      if (outcome === "done") summary.done++;
      else if (outcome === "retrying") summary.retrying++;
      else if (outcome === "parked") summary.parked++;
    }
    return summary;
  }

  const jobSelect = {
    id: true,
    kind: true,
    status: true,
    attempts: true,
    maxAttempts: true,
    runAt: true,
    lastError: true,
    leaseOwner: true,
    leaseExpiresAt: true,
    progress: true,
    key: true,
    payload: true,
    createdAt: true,
    finishedAt: true,
  } as const;

  function rowFrom(r: Omit<JobRow, "status"> & { status: string }): JobRow {
    return {
      ...r,
      status: r.status as JobStatus,
      runAt: toDate(r.runAt),
      leaseExpiresAt: toDateOrNull(r.leaseExpiresAt),
      createdAt: toDate(r.createdAt),
      finishedAt: toDateOrNull(r.finishedAt),
    };
  }

  /** The newest jobs first (or only those of one status). */
  async function list(options: { status?: JobStatus; limit?: number } = {}): Promise<JobRow[]> {
    const rows = await db.job.findMany({
      where: options.status ? { status: options.status } : {},
      orderBy: { id: "desc" },
      take: options.limit ?? 50,
      select: jobSelect,
    });
    return rows.map(rowFrom);
  }

  async function get(id: number): Promise<JobRow | null> {
    const row = await db.job.findUnique({ where: { id }, select: jobSelect });
    return row ? rowFrom(row) : null;
  }

  /**
   * Deletes done jobs finished more than `olderThanDays` ago and schedule-run rows created before then,
   * PURGE_BATCH rows per statement until none is left. Queued, running and parked jobs are never touched.
   * Each schedule keeps its newest run row whatever its age: that row is what stops a process that
   * starts later from firing the schedule's current period again (a monthly period outlives 14 days).
   */
  async function purge(options: { olderThanDays?: number; batch?: number } = {}): Promise<PurgeSummary> {
    const days = options.olderThanDays ?? JOB_RETENTION_DAYS;
    if (!Number.isInteger(days) || days < 0 || days > 36_500) {
      throw new AppError(400, `Purge keeps whole days from 0 to 36500, not "${days}".`);
    }
    const batch = options.batch ?? PURGE_BATCH;
    const before = new Date(now().getTime() - days * 86_400_000);
    const cutoff = toDbTime(before);
    const summary: PurgeSummary = { jobs: 0, scheduleRuns: 0, before };
    for (;;) {
      const deleted = await retryBusy(() =>
        db.$executeRawUnsafe(
          `DELETE FROM "Job" WHERE "id" IN (
             SELECT "id" FROM "Job" WHERE "status" = 'done' AND "finishedAt" < ? ORDER BY "id" LIMIT ?)`,
          cutoff,
          batch,
        ),
      );
      summary.jobs += deleted;
      if (deleted < batch) break;
    }
    for (;;) {
      const deleted = await retryBusy(() =>
        db.$executeRawUnsafe(
          `DELETE FROM "JobScheduleRun" WHERE ("scheduleName", "periodStart") IN (
             SELECT r."scheduleName", r."periodStart" FROM "JobScheduleRun" AS r
             WHERE r."createdAt" < ?
               AND r."periodStart" < (SELECT MAX(m."periodStart") FROM "JobScheduleRun" AS m WHERE m."scheduleName" = r."scheduleName")
             LIMIT ?)`,
          cutoff,
          batch,
        ),
      );
      summary.scheduleRuns += deleted;
      if (deleted < batch) break;
    }
    return summary;
  }

  /**
   * Queues a parked job (or one waiting for its retry) to run now with a fresh set of attempts. Its
   * last error stays visible until the next attempt's outcome replaces it.
   */
  async function retry(id: number): Promise<JobRow> {
    const changed = await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "status" = 'queued', "runAt" = ?, "attempts" = 0, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = NULL
         WHERE "id" = ? AND "status" IN ('parked', 'queued')`,
        toDbTime(now()),
        id,
      ),
    );
    const row = await get(id);
    if (!row) throw new AppError(404, `There is no job ${id}.`);
    if (changed !== 1) {
      throw new AppError(
        409,
        `Job ${id} is ${row.status}: only a parked job or one waiting for a retry can be retried.`,
      );
    }
    wake();
    return row;
  }

  return {
    ownerId,
    enqueue,
    register<P>(kind: string, handler: JobHandler<P>, options: RegisterOptions<P> = {}): void {
      const parsedKind = JobKindSchema.safeParse(kind);
      if (!parsedKind.success)
        throw new AppError(400, `"${kind}" is not a job kind: ${parsedKind.error.issues[0].message}`);
      if (registry.has(kind)) throw new AppError(409, `A handler for job kind ${kind} is already registered.`);
      const { payloadSchema, ...rest } = options;
      const parsed = HandlerOptionsSchema.safeParse(rest);
      if (!parsed.success)
        throw new AppError(400, `Bad handler options for ${kind}: ${parsed.error.issues[0].message}`);
      registry.set(kind, {
        kind,
        handler: handler as JobHandler<unknown>,
        options: parsed.data,
        payloadSchema: payloadSchema as z.ZodType<unknown> | undefined,
        running: 0,
      });
      wake();
    },
    /**
     * Enqueues `kind` once per period of the cron pattern (UTC unless options.timezone), however many
     * processes run this schedule. A period that began while no process ran is fired when one starts.
     */
    schedule(
      name: string,
      pattern: string,
      kind: string,
      payloadFn: (periodStart: Date) => unknown = () => ({}),
      options: { timezone?: string; maxAttempts?: number } = {},
    ): void {
      if (schedules.has(name)) throw new AppError(409, `A schedule named ${name} already exists.`);
      if (!JobKindSchema.safeParse(kind).success) throw new AppError(400, `"${kind}" is not a job kind.`);
      let cron: Cron;
      try {
        cron = new Cron(pattern, { timezone: options.timezone ?? "Etc/UTC" });
      } catch (error) {
        throw new AppError(400, `Schedule ${name}: "${pattern}" is not a cron pattern (${errorText(error)}).`);
      }
      schedules.set(name, { name, cron, kind, payloadFn, maxAttempts: options.maxAttempts, firedUpTo: -Infinity });
      wake();
    },
    /** Fires the schedules whose period has begun (the worker does this on every tick). */
    fireSchedules,
    start,
    stop,
    runDue,
    list,
    get,
    retry,
    purge,
    /** Kinds registered in this process. */
    kinds: () => [...registry.keys()],
  };
}

/**
 * The job kinds this app runs, registered in one place so the server's worker and `npm run jobs --
 * run-due` run the same handlers. A later feature adds its kind here (e.g. "ai-ads.render" with key
 * `ai-ad-render:{adId}` so an ad has at most one render queued).
 */
export function registerJobKinds(jobs: Jobs): void {
  // An operator's smoke test: `jobs.test` succeeds, or fails with payload.fail as its error.
  jobs.register(
    "jobs.test",
    ({ payload }) => {
      if (payload.fail !== undefined) throw new Error(payload.fail);
    },
    { payloadSchema: z.object({ fail: z.string().optional() }) },
  );
}

/**
 * The job system's own upkeep, on the app's job system (index.server.ts): done jobs and old schedule
 * runs are deleted daily (JOB_RETENTION_DAYS). Idempotent, so a repeated run is harmless.
 */
export function registerJobMaintenance(jobs: Jobs): void {
  jobs.register(PURGE_JOB, async () => {
    await jobs.purge();
  });
  jobs.schedule(PURGE_SCHEDULE.name, PURGE_SCHEDULE.pattern, PURGE_JOB);
}
