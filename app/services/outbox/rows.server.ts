// The outbox's rows (docs/decisions/032): what each lifecycle moment the server reports by itself writes
// (outboxRows), the write to put in the caller's own transaction or batch (writeOutbox), rows written on
// their own (record: the seed's calls, page views), and erasing what the outbox holds about a person.
// Klaviyo profiles are built when sent, from the user's current records: a profile row says "sync this
// profile now", so a late retry never writes an old state over a newer one.
import { randomUUID } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { retryBusy, type Db, type DbClient } from "~/db.server";
import { analyticsPersonProperties } from "~/domain/marketing/analytics-properties";
import {
  alertMetricName,
  billingLifecycle,
  LIFECYCLE_EVENTS,
  type BillingFlags,
  type OutboxOperation,
  type OutboxService,
} from "~/domain/marketing/outbox";
import { configured, type OutboxRuntime } from "~/services/outbox/runtime.server";
import { outboxWritten } from "~/services/outbox/waking.server";

export interface OutboxRowInput {
  service: OutboxService;
  operation: OutboxOperation;
  name: string;
  userId?: string | null;
  email?: string | null;
  payload: Record<string, unknown>;
  /** Defaults to a new UUID (PostHog needs one; Klaviyo and AnyTrack accept any string). */
  dedupeKey?: string;
}

export function outboxData(rows: readonly OutboxRowInput[], now: Date = new Date()): Prisma.OutboxEventCreateManyInput[] {
  return rows.map((r) => ({
    service: r.service,
    operation: r.operation,
    name: r.name.slice(0, 200),
    userId: r.userId ?? null,
    email: r.email ?? null,
    payload: JSON.stringify(r.payload),
    dedupeKey: (r.dedupeKey ?? randomUUID()).slice(0, 300),
    status: "pending",
    nextAttemptAt: now,
    createdAt: now,
  }));
}

/** The write of `rows`, to put in the caller's transaction (`tx`) or batch (`db.$transaction([...])`). */
export function writeOutbox(client: DbClient | Db, rows: readonly OutboxRowInput[], now?: Date) {
  return client.outboxEvent.createMany({ data: outboxData(rows, now) });
}

const capture = (userId: string, event: string, properties: Record<string, unknown> = {}, at = new Date()): OutboxRowInput => ({
  service: "analytics",
  operation: "capture",
  name: event,
  userId,
  payload: { event, distinct_id: userId, properties, timestamp: at.toISOString() },
});

const profileSync = (userId: string, reason: string, overrides: Record<string, unknown> = {}): OutboxRowInput => ({
  service: "klaviyo",
  operation: "profile",
  name: reason,
  userId,
  payload: overrides,
});

const klaviyoEvent = (userId: string, metric: string, dedupeKey: string, properties: Record<string, unknown> = {}, at = new Date()): OutboxRowInput => ({
  service: "klaviyo",
  operation: "event",
  name: metric,
  userId,
  payload: { metric, properties, time: at.toISOString() },
  dedupeKey,
});

/** The rows of each moment the server reports by itself (no browser involved). */
export const outboxRows = {
  signup(user: { id: string; email: string }, method: "password" | "google", at = new Date()): OutboxRowInput[] {
    return [
      profileSync(user.id, "sign-up"),
      klaviyoEvent(user.id, LIFECYCLE_EVENTS.signedUp, `signed-up:${user.id}`, { method }, at),
      { ...capture(user.id, LIFECYCLE_EVENTS.signedUp, { method, $set: { email: user.email } }, at) },
    ];
  },
  login(userId: string): OutboxRowInput[] {
    return [profileSync(userId, "login")];
  },
  /** A billing change moved the user's flags (before -> after); `changeKey` names it uniquely, with its source. */
  billing(userId: string, before: BillingFlags, after: BillingFlags & { innerCircle?: boolean | null; boughtCaseStudy?: boolean | null; subscription_id?: string | null; shopifyStoreName?: string | null }, changeKey: string): OutboxRowInput[] {
    const change = billingLifecycle(before, after);
    const rows: OutboxRowInput[] = [];
    if (change.statusChanged || change.events.length > 0) rows.push(profileSync(userId, "subscription"));
    for (const event of change.events) {
      rows.push(klaviyoEvent(userId, event, `${changeKey}:${event}`, { status: change.status }));
      rows.push(capture(userId, event, { status: change.status, $set: analyticsPersonProperties(after) }));
    }
    return rows;
  },
  /** Course progress changed; `completedNow` when the last lesson made the course complete. */
  course(userId: string, progress: { progressPercentage: number; completedNow: boolean }): OutboxRowInput[] {
    const rows = [profileSync(userId, "course progress")];
    if (progress.completedNow) {
      rows.push(klaviyoEvent(userId, LIFECYCLE_EVENTS.courseCompleted, `course-completed:${userId}`));
      rows.push(capture(userId, LIFECYCLE_EVENTS.courseCompleted));
    }
    return rows;
  },
  discord(userId: string): OutboxRowInput[] {
    return [profileSync(userId, "discord"), capture(userId, "Discord Joined")];
  },
  /** An in-app alert (competitor launch, price drop, drops, saved searches ...), so a Klaviyo flow can e-mail it. */
  alert(n: { userId: string; kind: string; title: string; body: string; url: string | null; dedupeKey: string }, appUrl: string | null): OutboxRowInput[] {
    const url = n.url && appUrl ? new URL(n.url, appUrl).toString() : n.url;
    const properties = { kind: n.kind, title: n.title, body: n.body, url };
    const metric = alertMetricName(n.kind);
    return [klaviyoEvent(n.userId, metric, `alert:${n.userId}:${n.dedupeKey}`, properties), capture(n.userId, metric, { kind: n.kind })];
  },
};

/**
 * Erases what the outbox holds about a person (in the caller's transaction): every row tied to the
 * user, or naming the e-mail. If Klaviyo ever received something about them (we hold its profile id,
 * or a Klaviyo row about them was sent), a data-privacy deletion request is queued in their place; it
 * keeps the address only until it is sent.
 */
export async function eraseOutboxPerson(
  tx: DbClient,
  person: { userId?: string | null; email: string; klaviyoId?: string | null; onlyWithoutUser?: boolean },
): Promise<{ erased: number; deletionRequested: boolean }> {
  const email = person.email.trim().toLowerCase();
  const about: Prisma.OutboxEventWhereInput = person.onlyWithoutUser
    ? { userId: null, OR: [{ email }, { payload: { contains: JSON.stringify(email) } }] }
    : { OR: [...(person.userId ? [{ userId: person.userId }] : []), { email }, { payload: { contains: JSON.stringify(email) } }] };
  const sentToKlaviyo = await tx.outboxEvent.findFirst({
    where: { AND: [about, { service: "klaviyo", status: "sent", operation: { not: "profile-deletion" } }] },
    select: { id: true },
  });
  const { count } = await tx.outboxEvent.deleteMany({ where: { AND: [about, { NOT: { operation: "profile-deletion", status: "pending" } }] } });
  const deletionRequested = Boolean(person.klaviyoId || sentToKlaviyo);
  if (deletionRequested) {
    await writeOutbox(tx, [
      {
        service: "klaviyo",
        operation: "profile-deletion",
        name: "profile deletion",
        email,
        payload: { email, klaviyoId: person.klaviyoId ?? null },
        dedupeKey: `deletion:${randomUUID()}`,
      },
    ]);
  }
  return { erased: count, deletionRequested };
}

/** Writes rows on their own (the seed's calls, page views); never throws: failures are logged. */
export async function record(rt: Pick<OutboxRuntime, "db" | "now" | "log" | "senders">, rows: readonly OutboxRowInput[]): Promise<boolean> {
  if (rows.length === 0) return true;
  try {
    await retryBusy(() => writeOutbox(rt.db, rows, rt.now()));
  } catch (error) {
    // Seed §8: failures of marketing sync and lead tracking are only logged.
    rt.log.warn({ err: error, services: [...new Set(rows.map((r) => r.service))] }, "marketing rows not written");
    return false;
  }
  for (const row of rows) {
    if (!configured(rt, row.service)) {
      rt.log.debug?.({ service: row.service, name: row.name, userId: row.userId ?? null }, `${row.service} row kept, not sent (no key)`);
    }
  }
  outboxWritten();
  return true;
}
