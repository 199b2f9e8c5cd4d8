// Adding work: enqueue writes a queued Job row, once per key. A key that is queued or running is left
// alone; one that is done or parked is armed again with fresh attempts.
import { retryBusy } from "~/db.server";
import { AppError } from "~/domain/errors";
import { DEFAULT_MAX_ATTEMPTS, EnqueueOptionsSchema, JobKindSchema, type EnqueueOptions } from "~/domain/jobs";
import { toDbTime, type JobsRuntime } from "~/services/jobs/runtime.server";

export function createQueue(rt: JobsRuntime) {
  const { db, now } = rt;

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
      if (runAt.getTime() <= at.getTime()) rt.wake();
      return { id: Number(rows[0].id), created: true };
    }
    const live = await db.job.findUnique({ where: { key: key! }, select: { id: true } });
    if (!live) throw new Error(`job key ${key} neither inserted nor found`);
    return { id: live.id, created: false };
  }

  return { enqueue };
}
