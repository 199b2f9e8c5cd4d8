// Finished work does not pile up: done jobs and schedule-run rows older than JOB_RETENTION_DAYS are
// deleted in small batches, daily by the "jobs.purge" schedule (`npm run jobs -- purge` for operators).
// Parked jobs stay until an operator retries them: they are the errors someone must read.
import { retryBusy } from "~/db.server";
import { AppError } from "~/domain/errors";
import { toDbTime, type JobsRuntime } from "~/services/jobs/runtime.server";

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

export function createPurge(rt: Pick<JobsRuntime, "db" | "now">) {
  const { db } = rt;

  /** Runs `statement` (which deletes at most `batch` rows) until a run deletes fewer; the total deleted. */
  async function inBatches(statement: string, cutoff: string, batch: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await retryBusy(() => db.$executeRawUnsafe(statement, cutoff, batch));
      total += deleted;
      if (deleted < batch) return total;
    }
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
    const before = new Date(rt.now().getTime() - days * 86_400_000);
    const cutoff = toDbTime(before);
    const jobs = await inBatches(
      `DELETE FROM "Job" WHERE "id" IN (
         SELECT "id" FROM "Job" WHERE "status" = 'done' AND "finishedAt" < ? ORDER BY "id" LIMIT ?)`,
      cutoff,
      batch,
    );
    const scheduleRuns = await inBatches(
      `DELETE FROM "JobScheduleRun" WHERE ("scheduleName", "periodStart") IN (
         SELECT r."scheduleName", r."periodStart" FROM "JobScheduleRun" AS r
         WHERE r."createdAt" < ?
           AND r."periodStart" < (SELECT MAX(m."periodStart") FROM "JobScheduleRun" AS m WHERE m."scheduleName" = r."scheduleName")
         LIMIT ?)`,
      cutoff,
      batch,
    );
    return { jobs, scheduleRuns, before };
  }

  return { purge };
}
