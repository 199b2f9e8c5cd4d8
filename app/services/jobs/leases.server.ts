// Claiming jobs and every write about a claimed attempt (docs/decisions/022).
// - A worker claims a due job with ONE atomic UPDATE ... WHERE id = (SELECT ...) RETURNING: SQLite runs a
//   write statement under the database's single write lock, so two processes never claim the same row.
//   The claim sets a lease (leaseOwner = this process's id plus a per-claim number, leaseExpiresAt) and
//   counts the attempt; a job whose lease ran out (its worker was killed or froze) is claimed again.
// - Every later write (renewal, progress, done, failure, release) is fenced by that leaseOwner: a worker
//   whose job was taken over changes nothing.
// - A failed attempt is retried after an exponential backoff with jitter (~/domain/jobs); after
//   maxAttempts the job is parked with its last error.
import { dialectOf, retryBusy } from "~/db.server";
import { afterFailure, errorText } from "~/domain/jobs";
import type { Registry } from "~/services/jobs/registry.server";
import { kindFilter, toDbTime, type Claimed, type JobsRuntime } from "~/services/jobs/runtime.server";

export type Leases = ReturnType<typeof createLeases>;

const JOB_COLUMNS = `"id", "kind", "payload", "attempts", "maxAttempts", "leaseOwner"`;

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

export function createLeases(rt: JobsRuntime, registry: Pick<Registry, "kinds" | "leaseMsFor">) {
  const { db, now } = rt;
  let claimCounter = 0;

  /** A fenced write about a claimed attempt: true when this lease still held the running job. */
  async function fenced(set: string, job: Pick<Claimed, "id" | "lease">, ...values: unknown[]): Promise<boolean> {
    const changed = await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "Job" SET ${set} WHERE "id" = ? AND "leaseOwner" = ? AND "status" = 'running'`,
        ...values,
        job.id,
        job.lease,
      ),
    );
    return changed === 1;
  }

  // SQLite runs one write at a time, so the inner pick and the update cannot interleave. On PostgreSQL two claims can:
  // the pick skips a row another claim holds (SKIP LOCKED), and the outer lease test is checked again on the row as
  // the other claim left it, so a job just leased elsewhere is never claimed twice (the subquery alone is not re-run).
  const skipLocked = dialectOf(db) === "postgresql" ? " FOR UPDATE SKIP LOCKED" : "";

  /**
   * Claims the next due job (of `kinds`, or any kind) for this process: one atomic statement. A job
   * still running under someone's live lease is never claimed; one whose lease expired is (its worker
   * died), and the lost attempt is noted in lastError.
   */
  async function claim(kinds: string[] | null): Promise<Claimed | null> {
    const at = now();
    const time = toDbTime(at);
    const lease = `${rt.ownerId}#${++claimCounter}`;
    // The lease length depends on the kind, known only once the row is picked: claim with the longest
    // lease of the candidates, then shorten it to the kind's own (fenced, so harmless if lost).
    const longest = Math.max(...(kinds ?? registry.kinds()).map(registry.leaseMsFor), registry.leaseMsFor(""));
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
             ${kindFilter(kinds)}
           ORDER BY "runAt", "id"
           LIMIT 1${skipLocked})
           AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
         RETURNING ${JOB_COLUMNS}`,
        lease,
        toDbTime(new Date(at.getTime() + longest)),
        time,
        time,
        ...(kinds ?? []),
        time,
      ),
    );
    if (rows.length === 0) return null;
    const job = claimedFrom(rows[0]);
    const own = registry.leaseMsFor(job.kind);
    if (own !== longest) await extendLease(job, own);
    return job;
  }

  /** Whether anything is due (a plain read: idle workers poll with this, not with a write). */
  async function anythingDue(kinds: string[] | null): Promise<boolean> {
    const time = toDbTime(now());
    const rows = await db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "Job"
       WHERE "status" IN ('queued', 'running') AND "runAt" <= ?
         AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
         ${kindFilter(kinds)}
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

  function extendLease(job: Claimed, leaseMs: number): Promise<boolean> {
    return fenced(`"leaseExpiresAt" = ?`, job, toDbTime(new Date(now().getTime() + leaseMs)));
  }

  function markDone(job: Claimed): Promise<boolean> {
    return fenced(
      `"status" = 'done', "finishedAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
       "lastError" = NULL, "progress" = CASE WHEN "progress" IS NULL THEN NULL ELSE 100 END`,
      job,
      toDbTime(now()),
    );
  }

  async function markFailed(job: Claimed, error: unknown, permanent: boolean): Promise<"parked" | "retrying" | "lost"> {
    const outcome = afterFailure(
      { attempt: job.attempt, maxAttempts: job.maxAttempts, permanent, random: rt.random() },
      rt.backoff,
    );
    const at = now();
    const message = `attempt ${job.attempt} of ${job.maxAttempts}: ${errorText(error)}`;
    const changed =
      outcome.status === "parked"
        ? await fenced(
            `"status" = 'parked', "finishedAt" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL`,
            job,
            toDbTime(at),
            message,
          )
        : await fenced(
            `"status" = 'queued', "runAt" = ?, "lastError" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL`,
            job,
            toDbTime(new Date(at.getTime() + outcome.retryInMs)),
            message,
          );
    if (!changed) return "lost";
    return outcome.status === "parked" ? "parked" : "retrying";
  }

  /** Gives an attempt back (the worker is stopping): queued again now, the attempt not counted. */
  async function release(job: Claimed): Promise<void> {
    await fenced(
      `"status" = 'queued', "runAt" = ?, "attempts" = "attempts" - 1, "leaseOwner" = NULL, "leaseExpiresAt" = NULL`,
      job,
      toDbTime(now()),
    );
  }

  /** Records 0-100 on the running job's row. */
  async function writeProgress(job: Claimed, percent: number): Promise<void> {
    await fenced(`"progress" = ?`, job, percent);
  }

  return { claim, anythingDue, parkAbandoned, extendLease, markDone, markFailed, release, writeProgress };
}
