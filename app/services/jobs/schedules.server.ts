// Cron schedules: a schedule fires once per period however many processes run it. The period's job has
// a unique key (schedule:NAME:PERIOD) and is inserted only while no JobScheduleRun row records the
// period; then the period is recorded, so it never fires again, even after its job is deleted.
import { Cron } from "croner";
import { retryBusy } from "~/db.server";
import { AppError } from "~/domain/errors";
import { DEFAULT_MAX_ATTEMPTS, errorText, JobKindSchema } from "~/domain/jobs";
import { toDbTime, type JobsRuntime } from "~/services/jobs/runtime.server";

interface Schedule {
  name: string;
  cron: Cron;
  kind: string;
  payloadFn: (periodStart: Date) => unknown;
  maxAttempts?: number;
  /** The newest period this process has already fired (or seen fired). */
  firedUpTo: number;
}

export function createSchedules(rt: JobsRuntime) {
  const { db, now, log } = rt;
  const schedules = new Map<string, Schedule>();

  /**
   * Enqueues `kind` once per period of the cron pattern (UTC unless options.timezone), however many
   * processes run this schedule. A period that began while no process ran is fired when one starts.
   */
  function schedule(
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
    rt.wake();
  }

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
        `INSERT INTO "JobScheduleRun" ("scheduleName", "periodStart", "jobKey", "createdAt") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        s.name,
        periodText,
        key,
        created,
      ),
    );
    s.firedUpTo = period.getTime();
    rt.wake();
  }

  return { schedule, fireSchedules };
}
