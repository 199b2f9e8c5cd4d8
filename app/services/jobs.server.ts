// The durable job system (docs/decisions/022): every piece of background work is a Job row, and cron
// schedules record their periods in JobScheduleRun rows. Composed from its parts in app/services/jobs/:
// - queue.server.ts      enqueue (once per key);
// - registry.server.ts   the handlers this process runs, by kind;
// - leases.server.ts     the atomic claim with a lease, and every write fenced by it (done, retry, park);
// - attempt.server.ts    running one attempt (payload check, renewal, time limit, outcome);
// - schedules.server.ts  cron schedules that fire once per period across processes;
// - worker.server.ts     the polling worker each server process runs (start/stop);
// - operator.server.ts   `npm run jobs -- list|retry|run-due`;
// - purge.server.ts      deleting old done jobs and schedule runs (daily, and `npm run jobs -- purge`).
// Nothing here knows HTTP; handlers register by kind (register), so later work (renders, snapshots)
// adds a kind and calls enqueue.
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { isPostgresUrl } from "~/db.server";
import { childLogger } from "~/logger.server";
import { createAttempts } from "~/services/jobs/attempt.server";
import { createLeases } from "~/services/jobs/leases.server";
import { createOperator } from "~/services/jobs/operator.server";
import { createPurge, PURGE_JOB, PURGE_SCHEDULE } from "~/services/jobs/purge.server";
import { createQueue } from "~/services/jobs/queue.server";
import { createRegistry } from "~/services/jobs/registry.server";
import { createPostgresJobs } from "~/services/jobs/postgres-engine.server";
import type { JobsDeps, JobsLog, JobsRuntime, JobSystem } from "~/services/jobs/runtime.server";
import { createSchedules } from "~/services/jobs/schedules.server";
import { createWakeSignal, createWorker } from "~/services/jobs/worker.server";

export type {
  JobContext,
  JobHandler,
  JobId,
  JobRow,
  JobSystem,
  JobsDeps,
  JobsLog,
  RegisterOptions,
  RunDueSummary,
} from "~/services/jobs/runtime.server";
export {
  JOB_RETENTION_DAYS,
  PURGE_BATCH,
  PURGE_JOB,
  PURGE_SCHEDULE,
  type PurgeSummary,
} from "~/services/jobs/purge.server";

/** The job system the app's parts are handed: our queue on SQLite, pg-boss on PostgreSQL (decision 102). */
export type Jobs = JobSystem;
/** Our own queue, with what only it has (fireSchedules, purge): tests and the SQLite operator commands use these. */
export type QueueJobs = ReturnType<typeof createJobs>;

/** host:pid:random — readable in `jobs list`, unique per process. */
export function defaultOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
}

export function createJobs(deps: JobsDeps) {
  const signal = createWakeSignal();
  const rt: JobsRuntime = {
    db: deps.db,
    ownerId: deps.ownerId,
    now: deps.now ?? (() => new Date()),
    random: deps.random ?? Math.random,
    backoff: deps.backoff,
    log: deps.log ?? childLogger("jobs"),
    wake: signal.wake,
  };
  const registry = createRegistry(rt);
  const schedules = createSchedules(rt);
  const leases = createLeases(rt, registry);
  const attempts = createAttempts(rt, leases);
  const parts = { registry, leases, attempts, fireSchedules: schedules.fireSchedules };
  const worker = createWorker({ ...parts, log: rt.log, pollMs: deps.pollMs ?? 1_000, signal });
  const operator = createOperator(rt, parts);

  return {
    ownerId: deps.ownerId,
    engine: "queue" as const,
    enqueue: createQueue(rt).enqueue,
    register: registry.register,
    schedule: schedules.schedule,
    /** Fires the schedules whose period has begun (the worker does this on every tick). */
    fireSchedules: schedules.fireSchedules,
    start: worker.start,
    stop: worker.stop,
    runDue: operator.runDue,
    list: operator.list,
    get: operator.get,
    retry: operator.retry,
    statusOfKey: operator.statusOfKey,
    purge: createPurge(rt).purge,
    /** Kinds registered in this process. */
    kinds: registry.kinds,
  };
}

/**
 * A job system for scripts that enqueue or wait for jobs outside the app's composition root (imports): pg-boss on a
 * PostgreSQL `url` (decision 102), our queue on the SQLite file `db` opens otherwise. Stop it when done (its pool).
 */
export function createJobSystemFor(deps: { db: JobsDeps["db"]; url: string; ownerId?: string; log?: JobsLog; pollMs?: number; maxConnections?: number }): Jobs {
  const ownerId = deps.ownerId ?? defaultOwnerId();
  const log = deps.log ?? childLogger("jobs");
  return isPostgresUrl(deps.url)
    ? createPostgresJobs({ url: deps.url, ownerId, log, maxConnections: deps.maxConnections ?? 2 })
    : createJobs({ db: deps.db, ownerId, log, pollMs: deps.pollMs });
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
 * Our queue's own upkeep, on the app's job system (index.server.ts): done jobs and old schedule runs are deleted
 * daily (JOB_RETENTION_DAYS). Idempotent, so a repeated run is harmless. pg-boss keeps its own retention.
 */
export function registerJobMaintenance(jobs: QueueJobs): void {
  jobs.register(PURGE_JOB, async () => {
    await jobs.purge();
  });
  jobs.schedule(PURGE_SCHEDULE.name, PURGE_SCHEDULE.pattern, PURGE_JOB);
}
