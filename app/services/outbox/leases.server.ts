// Claiming the outbox's due rows and recording each answer (docs/decisions/032): a deliverer claims up to
// a batch of one service's due rows under a lease (one statement, so two deliverers never hold one row),
// and every write after it is fenced by that lease: sent, given back unattempted, retried with backoff,
// parked after the last attempt. A 429's Retry-After pauses the whole service, here and in the table.
import { retryBusy, toDbTime } from "~/db.server";
import { nextAttempt, type DeliveryOutcome, type OutboxService } from "~/domain/marketing/outbox";
import type { ClaimedRow, OutboxRuntime } from "~/services/outbox/runtime.server";

export async function claim(rt: OutboxRuntime, service: OutboxService, limit: number): Promise<{ lease: string; rows: ClaimedRow[] }> {
  const lease = `${rt.ownerId}#${++rt.state.claimCount}`;
  const at = rt.now();
  const time = toDbTime(at);
  const raw = await retryBusy(() =>
    rt.db.$queryRawUnsafe<Record<string, unknown>[]>(
      `UPDATE "OutboxEvent" SET "leaseOwner" = ?, "leaseExpiresAt" = ?
       WHERE "id" IN (
         SELECT "id" FROM "OutboxEvent"
         WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ?
           AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
         ORDER BY "nextAttemptAt", "id"
         LIMIT ?)
       RETURNING "id", "operation", "name", "userId", "email", "payload", "dedupeKey", "attempts"`,
      lease,
      toDbTime(new Date(at.getTime() + rt.leaseMs)),
      service,
      time,
      time,
      limit,
    ),
  );
  const rows = raw
    .map((r) => {
      let payload: Record<string, unknown> = {};
      try {
        payload = JSON.parse(String(r.payload)) as Record<string, unknown>;
      } catch {
        payload = {};
      }
      return {
        id: Number(r.id),
        operation: String(r.operation),
        name: String(r.name),
        userId: r.userId === null ? null : String(r.userId),
        email: r.email === null ? null : String(r.email),
        payload,
        dedupeKey: r.dedupeKey === null ? `outbox:${String(r.id)}` : String(r.dedupeKey),
        attempts: Number(r.attempts),
      };
    })
    .sort((a, b) => a.id - b.id);
  return { lease, rows };
}

const inList = (ids: number[]) => ids.map(() => "?").join(", ");

/** Marks rows sent; `scrub` empties what they said about the person (a deletion request). */
export async function markSent(rt: Pick<OutboxRuntime, "db" | "now">, lease: string, ids: number[], scrub: boolean) {
  if (ids.length === 0) return;
  await retryBusy(() =>
    rt.db.$executeRawUnsafe(
      `UPDATE "OutboxEvent" SET "status" = 'sent', "sentAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "error" = NULL
         ${scrub ? `, "payload" = '{}', "email" = NULL` : ""}
       WHERE "id" IN (${inList(ids)}) AND "leaseOwner" = ?`,
      toDbTime(rt.now()),
      ...ids,
      lease,
    ),
  );
}

/** Gives rows back unattempted (the service is paused): due again at `at`. */
export async function release(rt: Pick<OutboxRuntime, "db">, lease: string, ids: number[], at: Date, reason?: string) {
  if (ids.length === 0) return;
  await retryBusy(() =>
    rt.db.$executeRawUnsafe(
      `UPDATE "OutboxEvent" SET "nextAttemptAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
         ${reason ? `, "error" = ?` : ""}
       WHERE "id" IN (${inList(ids)}) AND "leaseOwner" = ?`,
      toDbTime(at),
      ...(reason ? [reason] : []),
      ...ids,
      lease,
    ),
  );
}

export async function markFailed(rt: OutboxRuntime, lease: string, rows: ClaimedRow[], outcome: Exclude<DeliveryOutcome, { kind: "sent" }>) {
  const { maxAttempts } = rt;
  for (const row of rows) {
    const attempts = row.attempts + (outcome.kind === "park" || outcome.countsAsAttempt ? 1 : 0);
    const next =
      outcome.kind === "park"
        ? ({ park: true } as const)
        : outcome.countsAsAttempt
          ? nextAttempt({ attempts, maxAttempts, afterMs: outcome.afterMs, random: rt.random() })
          : ({ park: false, inMs: outcome.afterMs ?? 1_000 } as const);
    const message = `attempt ${attempts} of ${maxAttempts}: ${outcome.reason}`;
    await retryBusy(() =>
      next.park
        ? rt.db.$executeRawUnsafe(
            `UPDATE "OutboxEvent" SET "status" = 'parked', "attempts" = ?, "error" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
             WHERE "id" = ? AND "leaseOwner" = ?`,
            attempts,
            message,
            row.id,
            lease,
          )
        : rt.db.$executeRawUnsafe(
            `UPDATE "OutboxEvent" SET "attempts" = ?, "error" = ?, "nextAttemptAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
             WHERE "id" = ? AND "leaseOwner" = ?`,
            attempts,
            message,
            toDbTime(new Date(rt.now().getTime() + next.inMs)),
            row.id,
            lease,
          ),
    );
    if (next.park) rt.log.warn({ outboxId: row.id, name: row.name, error: message }, "outbox row parked");
  }
}

/** A 429's Retry-After holds every pending row of the service, so another deliverer honours it too. */
export async function pauseService(rt: Pick<OutboxRuntime, "db" | "state">, service: OutboxService, untilMs: number) {
  rt.state.pausedUntil.set(service, Math.max(rt.state.pausedUntil.get(service) ?? 0, untilMs));
  const until = toDbTime(new Date(untilMs));
  await retryBusy(() =>
    rt.db.$executeRawUnsafe(
      `UPDATE "OutboxEvent" SET "nextAttemptAt" = ?
       WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" < ? AND "leaseOwner" IS NULL`,
      until,
      service,
      until,
    ),
  );
}
