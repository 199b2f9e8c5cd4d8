// The operator's commands (`npm run jobs -- list|retry ID|run-due`): reading job rows, queueing a
// parked job again, and running whatever is due in this process (tests and scripts use runDue too).
import { retryBusy } from "~/db.server";
import { AppError } from "~/domain/errors";
import type { JobStatus } from "~/domain/jobs";
import type { Attempts } from "~/services/jobs/attempt.server";
import type { Leases } from "~/services/jobs/leases.server";
import type { Registry } from "~/services/jobs/registry.server";
import {
  toDate,
  toDateOrNull,
  toDbTime,
  type JobId,
  type JobRow,
  type JobsRuntime,
  type RunDueSummary,
} from "~/services/jobs/runtime.server";

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

function rowFrom(r: Omit<JobRow<number>, "status"> & { status: string }): JobRow<number> {
  return {
    ...r,
    status: r.status as JobStatus,
    runAt: toDate(r.runAt),
    leaseExpiresAt: toDateOrNull(r.leaseExpiresAt),
    createdAt: toDate(r.createdAt),
    finishedAt: toDateOrNull(r.finishedAt),
  };
}

/** A job id of this queue (a positive whole number, or its digits), or null for anything else (a pg-boss UUID). */
function wholeId(id: JobId): number | null {
  const n = typeof id === "number" ? id : /^\d{1,15}$/.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function createOperator(
  rt: JobsRuntime,
  parts: { registry: Registry; leases: Leases; attempts: Attempts; fireSchedules: () => Promise<void> },
) {
  const { db, now } = rt;
  const { registry, leases, attempts } = parts;

  /**
   * Runs every job due now (of `kinds`, or all kinds and the schedules), in this process, one at a time,
   * then returns: jobs whose retry falls later are left for later. A kind with no handler is parked
   * ("no handler for kind X").
   */
  async function runDue(options: { kinds?: string[] } = {}): Promise<RunDueSummary> {
    const summary: RunDueSummary = { ran: 0, done: 0, retrying: 0, parked: 0 };
    if (!options.kinds) await parts.fireSchedules();
    await leases.parkAbandoned();
    const seen = new Set<number>();
    for (;;) {
      const job = await leases.claim(options.kinds ?? null);
      if (!job) break;
      // A job that failed is queued again later than now; one claimed twice means the clock stands still.
      if (seen.has(job.id)) {
        await leases.release(job);
        break;
      }
      seen.add(job.id);
      summary.ran++;
      const outcome = await attempts.execute(job, registry.get(job.kind), () => false);
      if (outcome === "done") summary.done++;
      else if (outcome === "retrying") summary.retrying++;
      else if (outcome === "parked") summary.parked++;
    }
    return summary;
  }

  /** The newest jobs first (or only those of one status). */
  async function list(options: { status?: JobStatus; limit?: number } = {}): Promise<JobRow<number>[]> {
    const rows = await db.job.findMany({
      where: options.status ? { status: options.status } : {},
      orderBy: { id: "desc" },
      take: options.limit ?? 50,
      select: jobSelect,
    });
    return rows.map(rowFrom);
  }

  async function get(id: JobId): Promise<JobRow<number> | null> {
    const n = wholeId(id);
    if (n === null) return null;
    const row = await db.job.findUnique({ where: { id: n }, select: jobSelect });
    return row ? rowFrom(row) : null;
  }

  /**
   * Queues a parked job (or one waiting for its retry) to run now with a fresh set of attempts. Its
   * last error stays visible until the next attempt's outcome replaces it.
   */
  async function retry(id: JobId): Promise<JobRow<number>> {
    if (wholeId(id) === null) throw new AppError(404, `There is no job ${id}.`);
    const changed = await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET "status" = 'queued', "runAt" = ?, "attempts" = 0, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = NULL
         WHERE "id" = ? AND "status" IN ('parked', 'queued')`,
        toDbTime(now()),
        wholeId(id),
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
    rt.wake();
    return row;
  }

  /** The status of the job with `key` (one row per key here, whatever its kind). */
  async function statusOfKey(_kind: string, key: string): Promise<JobStatus | null> {
    const row = await db.job.findUnique({ where: { key }, select: { status: true } });
    return (row?.status as JobStatus | undefined) ?? null;
  }

  return { runDue, list, get, retry, statusOfKey };
}
