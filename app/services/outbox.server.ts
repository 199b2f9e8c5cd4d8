// The marketing outbox (docs/decisions/032): every call to PostHog ("analytics"), Klaviyo, Hyros and
// AnyTrack is an OutboxEvent row, written in the same transaction as the change that caused it, then
// delivered by the job system. This file owns those rows:
// - writing them (outboxRows builds the rows of each lifecycle moment; writeOutbox returns the Prisma
//   write so a caller puts it in its own transaction or batch; record() writes rows on their own);
// - delivering them: one `outbox.deliver` job per service at a time fleet-wide (job key
//   outbox.deliver:SERVICE), which claims due rows under a lease, sends them within the service's rate
//   limit, and records each answer: sent; retried with backoff (Retry-After honoured, the whole service
//   paused); parked after OUTBOX_MAX_ATTEMPTS with the error kept for an operator. A minute schedule
//   (`outbox.sweep`) starts a deliverer when due rows wait and nobody delivers them;
// - the operator's view (list, retry, purge) and erasure of a person's rows.
// Delivery is at least once: a row sent but not yet marked when its deliverer died is sent again, with
// the same dedupe key, which Klaviyo (unique_id), PostHog (uuid) and AnyTrack (transaction_id) use to
// keep one. With no key for a service its rows are kept and logged, never sent.
// Klaviyo profiles are built when sent, from the user's current records (e-mail, status, course
// progress, Discord, last log-in): a row says "sync this profile now", so a late retry never writes an
// old state over a newer one.
import { randomUUID } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { retryBusy, type Db, type DbClient } from "~/db.server";
import { analyticsPersonProperties } from "~/domain/analytics-properties";
import { AppError } from "~/domain/errors";
import { errorText } from "~/domain/jobs";
import { marketingStatus } from "~/domain/marketing-status";
import {
  alertMetricName,
  billingLifecycle,
  classifyAnswer,
  DEFAULT_RATE_LIMITS,
  LIFECYCLE_EVENTS,
  nextAttempt,
  OUTBOX_MAX_ATTEMPTS,
  OUTBOX_SERVICES,
  TokenBucket,
  type BillingFlags,
  type DeliveryOutcome,
  type OutboxOperation,
  type OutboxService,
  type OutboxStatus,
  type RateLimit,
} from "~/domain/outbox";
import type { MarketingSenders, SendResult } from "~/integrations/marketing.server";
import { childLogger } from "~/logger.server";
import type { Jobs } from "~/services/jobs.server";

// ---------- rows ----------

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

const wakeListeners = new Set<() => void>();

/**
 * Tells this process's outbox that rows were committed, so a deliverer picks them up now rather than at
 * its next poll. Callers call it after their transaction resolved; forgetting it only delays delivery.
 */
export function outboxWritten(): void {
  for (const listener of wakeListeners) listener();
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

// ---------- delivery ----------

export interface OutboxLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  debug?(fields: object, message: string): void;
}

export interface OutboxDeps {
  db: Db;
  senders: MarketingSenders;
  /** Runs the deliverers; without it, call deliverDue() yourself (tests, scripts). */
  jobs?: Pick<Jobs, "register" | "schedule" | "enqueue">;
  ownerId?: string;
  now?: () => Date;
  random?: () => number;
  log?: OutboxLog;
  maxAttempts?: number;
  rateLimits?: Record<string, RateLimit>;
  /** Rows claimed per round (PostHog sends them as one batch). */
  batchSize?: number;
  /** Requests in flight at once per service (not PostHog, which sends one batch at a time). */
  concurrency?: number;
  /** How long a claimed row is held before another deliverer may take it (the holder died). */
  leaseMs?: number;
  /** An idle deliverer looks for new rows this often... */
  pollMs?: number;
  /** ...and ends after this long without any (the minute sweep, or the next write, starts another). */
  idleExitMs?: number;
  /** A deliverer ends after this long even when busy (the sweep starts the next one). */
  runForMs?: number;
  /** Lease of the deliverer's job (default 30 s). */
  jobLeaseMs?: number;
  /** The site's public URL: alert links are sent absolute. */
  appUrl?: string | null;
}

export const DELIVER_JOB = "outbox.deliver";
export const SWEEP_JOB = "outbox.sweep";
export const SWEEP_SCHEDULE = { name: "outbox-sweep", pattern: "* * * * *" } as const;
export const deliverJobKey = (service: string) => `outbox.deliver:${service}`;
const zServicePayload = z.object({ service: z.enum(OUTBOX_SERVICES) });

const toDbTime = (date: Date) => date.toISOString().replace("Z", "+00:00");

interface ClaimedRow {
  id: number;
  operation: string;
  name: string;
  userId: string | null;
  email: string | null;
  payload: Record<string, unknown>;
  dedupeKey: string;
  attempts: number;
}

interface Unit {
  rows: ClaimedRow[];
  send: () => Promise<SendResult & { profileId?: string }>;
  rateKey: string;
  /** After a successful send (e.g. store the Klaviyo profile id). */
  after?: (result: SendResult & { profileId?: string }) => Promise<void>;
}

export type Outbox = ReturnType<typeof createOutbox>;

export function createOutbox(deps: OutboxDeps) {
  const { db, senders } = deps;
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const log: OutboxLog = deps.log ?? childLogger("outbox");
  const ownerId = deps.ownerId ?? `outbox:${process.pid}:${randomUUID().slice(0, 6)}`;
  const maxAttempts = deps.maxAttempts ?? OUTBOX_MAX_ATTEMPTS;
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...deps.rateLimits };
  const batchSize = deps.batchSize ?? 100;
  const concurrency = deps.concurrency ?? 8;
  const leaseMs = deps.leaseMs ?? 60_000;
  const pollMs = deps.pollMs ?? 500;
  const idleExitMs = deps.idleExitMs ?? 60_000;
  const runForMs = deps.runForMs ?? 10 * 60_000;
  const buckets = new Map<string, TokenBucket>();
  const pausedUntil = new Map<string, number>();
  let claimCounter = 0;

  const configured = (service: OutboxService) => Boolean(senders[service]);

  // ---------- waking ----------

  const waiters = new Set<() => void>();
  const lastKick = new Map<string, number>();
  const active = new Set<string>();
  const onWritten = () => {
    for (const wake of waiters) wake();
    waiters.clear();
    setTimeout(() => {
      for (const service of OUTBOX_SERVICES) if (configured(service) && !active.has(service)) void kick(service);
    }, 0).unref?.();
  };
  wakeListeners.add(onWritten);

  function sleep(ms: number, signal?: AbortSignal, wakeable = false): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener("abort", done, { once: true });
      if (wakeable) waiters.add(done);
    });
  }

  /** Starts a deliverer for the service unless one is queued or running (fleet-wide, by job key). */
  async function kick(service: OutboxService): Promise<void> {
    if (!deps.jobs || !configured(service)) return;
    const at = Date.now();
    if (at - (lastKick.get(service) ?? 0) < 1_000) return;
    lastKick.set(service, at);
    try {
      await deps.jobs.enqueue(DELIVER_JOB, { service }, { key: deliverJobKey(service) });
    } catch (error) {
      log.warn({ service, err: error }, "could not start the outbox deliverer; the minute sweep will");
    }
  }

  // ---------- writing ----------

  /** Writes rows on their own (the seed's calls, page views); never throws: failures are logged. */
  async function record(rows: readonly OutboxRowInput[]): Promise<boolean> {
    if (rows.length === 0) return true;
    try {
      await retryBusy(() => writeOutbox(db, rows, now()));
    } catch (error) {
      // Seed §8: failures of marketing sync and lead tracking are only logged.
      log.warn({ err: error, services: [...new Set(rows.map((r) => r.service))] }, "marketing rows not written");
      return false;
    }
    for (const row of rows) {
      if (!configured(row.service)) {
        log.debug?.({ service: row.service, name: row.name, userId: row.userId ?? null }, `${row.service} row kept, not sent (no key)`);
      }
    }
    outboxWritten();
    return true;
  }

  // ---------- claiming and recording ----------

  async function claim(service: OutboxService, limit: number): Promise<{ lease: string; rows: ClaimedRow[] }> {
    const lease = `${ownerId}#${++claimCounter}`;
    const at = now();
    const time = toDbTime(at);
    const raw = await retryBusy(() =>
      db.$queryRawUnsafe<Record<string, unknown>[]>(
        `UPDATE "OutboxEvent" SET "leaseOwner" = ?, "leaseExpiresAt" = ?
         WHERE "id" IN (
           SELECT "id" FROM "OutboxEvent"
           WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ?
             AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?)
           ORDER BY "nextAttemptAt", "id"
           LIMIT ?)
         RETURNING "id", "operation", "name", "userId", "email", "payload", "dedupeKey", "attempts"`,
        lease,
        toDbTime(new Date(at.getTime() + leaseMs)),
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

  async function markSent(lease: string, ids: number[], scrub: boolean) {
    if (ids.length === 0) return;
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "OutboxEvent" SET "status" = 'sent', "sentAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "error" = NULL
           ${scrub ? `, "payload" = '{}', "email" = NULL` : ""}
         WHERE "id" IN (${inList(ids)}) AND "leaseOwner" = ?`,
        toDbTime(now()),
        ...ids,
        lease,
      ),
    );
  }

  /** Gives rows back unattempted (the service is paused): due again at `at`. */
  async function release(lease: string, ids: number[], at: Date, reason?: string) {
    if (ids.length === 0) return;
    await retryBusy(() =>
      db.$executeRawUnsafe(
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

  async function markFailed(lease: string, rows: ClaimedRow[], outcome: Exclude<DeliveryOutcome, { kind: "sent" }>) {
    for (const row of rows) {
      const attempts = row.attempts + (outcome.kind === "park" || outcome.countsAsAttempt ? 1 : 0);
      const next =
        outcome.kind === "park"
          ? ({ park: true } as const)
          : outcome.countsAsAttempt
            ? nextAttempt({ attempts, maxAttempts, afterMs: outcome.afterMs, random: random() })
            : ({ park: false, inMs: outcome.afterMs ?? 1_000 } as const);
      const message = `attempt ${attempts} of ${maxAttempts}: ${outcome.reason}`;
      await retryBusy(() =>
        next.park
          ? db.$executeRawUnsafe(
              `UPDATE "OutboxEvent" SET "status" = 'parked', "attempts" = ?, "error" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
               WHERE "id" = ? AND "leaseOwner" = ?`,
              attempts,
              message,
              row.id,
              lease,
            )
          : db.$executeRawUnsafe(
              `UPDATE "OutboxEvent" SET "attempts" = ?, "error" = ?, "nextAttemptAt" = ?, "leaseOwner" = NULL, "leaseExpiresAt" = NULL
               WHERE "id" = ? AND "leaseOwner" = ?`,
              attempts,
              message,
              toDbTime(new Date(now().getTime() + next.inMs)),
              row.id,
              lease,
            ),
      );
      if (next.park) log.warn({ outboxId: row.id, name: row.name, error: message }, "outbox row parked");
    }
  }

  /** A 429's Retry-After holds every pending row of the service, so another deliverer honours it too. */
  async function pauseService(service: OutboxService, untilMs: number) {
    pausedUntil.set(service, Math.max(pausedUntil.get(service) ?? 0, untilMs));
    const until = toDbTime(new Date(untilMs));
    await retryBusy(() =>
      db.$executeRawUnsafe(
        `UPDATE "OutboxEvent" SET "nextAttemptAt" = ?
         WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" < ? AND "leaseOwner" IS NULL`,
        until,
        service,
        until,
      ),
    );
  }

  // ---------- building the calls ----------

  async function usersOf(rows: ClaimedRow[]) {
    const ids = [...new Set(rows.map((r) => r.userId).filter((id): id is string => id !== null))];
    if (ids.length === 0) return new Map();
    const [users, courses, discords] = await Promise.all([
      db.user.findMany({
        where: { id: { in: ids } },
        select: {
          id: true,
          email: true,
          klaviyoId: true,
          lastLoginAt: true,
          chargeDeclined: true,
          userSubscribed: true,
          subscriptionCancelled: true,
        },
      }),
      db.userCourse.findMany({ where: { userId: { in: ids } }, select: { userId: true, progressPercentage: true } }),
      db.discordProfile.findMany({ where: { userId: { in: ids } }, select: { userId: true, joined: true, discordId: true } }),
    ]);
    return new Map(
      users.map((u) => {
        const course = courses.find((c) => c.userId === u.id);
        const discord = discords.find((d) => d.userId === u.id);
        return [
          u.id,
          {
            ...u,
            properties: {
              status: marketingStatus(u),
              courseProgress: Math.round(course?.progressPercentage ?? 0),
              discordMember: Boolean(discord?.joined || discord?.discordId),
              userId: u.id,
              lastLogin: u.lastLoginAt?.toISOString() ?? null,
            },
          },
        ] as const;
      }),
    );
  }

  async function klaviyoUnits(rows: ClaimedRow[]): Promise<{ units: Unit[]; orphans: ClaimedRow[]; broken: ClaimedRow[] }> {
    const klaviyo = senders.klaviyo!;
    const users = await usersOf(rows);
    const units: Unit[] = [];
    const orphans: ClaimedRow[] = [];
    const broken: ClaimedRow[] = [];
    const profileGroups = new Map<string, ClaimedRow[]>();
    for (const row of rows) {
      if (row.operation === "profile-deletion") {
        const email = typeof row.payload.email === "string" ? row.payload.email : row.email;
        if (!email) {
          broken.push(row);
          continue;
        }
        const id = typeof row.payload.klaviyoId === "string" ? row.payload.klaviyoId : null;
        units.push({ rows: [row], rateKey: "klaviyo:profile-deletion", send: () => klaviyo.requestDeletion({ email, id }) });
        continue;
      }
      const user = row.userId ? users.get(row.userId) : undefined;
      if (!user) {
        orphans.push(row);
        continue;
      }
      if (row.operation === "profile") {
        // Several syncs of one profile in a batch are one request: it is built from current records anyway.
        const group = profileGroups.get(user.id) ?? [];
        group.push(row);
        profileGroups.set(user.id, group);
      } else if (row.operation === "event") {
        const p = row.payload as { metric?: string; properties?: Record<string, unknown>; time?: string };
        if (!p.metric) {
          broken.push(row);
          continue;
        }
        units.push({
          rows: [row],
          rateKey: "klaviyo:event",
          send: () =>
            klaviyo.createEvent({
              metric: p.metric!,
              profile: { email: user.email, externalId: user.id },
              properties: p.properties ?? {},
              time: new Date(p.time ?? now().toISOString()),
              uniqueId: row.dedupeKey,
            }),
        });
      } else {
        broken.push(row);
      }
    }
    for (const [userId, group] of profileGroups) {
      const user = users.get(userId)!;
      const merged = Object.assign({}, ...group.map((r) => r.payload)) as {
        phoneNumber?: string;
        country?: string;
        properties?: Record<string, unknown>;
      };
      const customProperties = Object.assign({}, ...group.map((r) => (r.payload as { properties?: object }).properties ?? {}));
      units.push({
        rows: group,
        rateKey: "klaviyo:profile",
        send: () =>
          klaviyo.upsertProfile({
            id: user.klaviyoId,
            email: user.email,
            externalId: user.id,
            phoneNumber: merged.phoneNumber ?? null,
            country: merged.country ?? null,
            properties: { ...customProperties, ...user.properties },
          }),
        after: async (result) => {
          if (result.profileId && result.profileId !== user.klaviyoId) {
            await retryBusy(() => db.user.updateMany({ where: { id: userId }, data: { klaviyoId: result.profileId } }));
          }
        },
      });
    }
    return { units, orphans, broken };
  }

  function simpleUnits(service: "hyros" | "anytrack", rows: ClaimedRow[]): { units: Unit[]; broken: ClaimedRow[] } {
    const units: Unit[] = [];
    const broken: ClaimedRow[] = [];
    for (const row of rows) {
      const p = row.payload;
      if (service === "hyros" && typeof p.email === "string") {
        const tags = Array.isArray(p.tags) ? p.tags.map(String) : undefined;
        units.push({ rows: [row], rateKey: "hyros:lead", send: () => senders.hyros!.createLead({ email: p.email as string, ...(tags ? { tags } : {}) }) });
      } else if (service === "anytrack" && typeof p.click_id === "string" && typeof p.event_name === "string") {
        units.push({
          rows: [row],
          rateKey: "anytrack:conversion",
          send: () => senders.anytrack!.sendConversion({ click_id: p.click_id as string, event_name: p.event_name as string, transaction_id: row.dedupeKey }),
        });
      } else {
        broken.push(row);
      }
    }
    return { units, broken };
  }

  function analyticsUnit(rows: ClaimedRow[]): Unit {
    return {
      rows,
      rateKey: "analytics:capture",
      send: () =>
        senders.analytics!.send(
          rows.map((r) => {
            const p = r.payload as { event?: string; distinct_id?: string; properties?: Record<string, unknown>; timestamp?: string };
            return {
              event: p.event ?? r.name,
              distinct_id: p.distinct_id ?? r.userId ?? "anonymous",
              properties: p.properties ?? {},
              timestamp: p.timestamp ?? now().toISOString(),
              uuid: /^[0-9a-f-]{36}$/i.test(r.dedupeKey) ? r.dedupeKey : randomUUID(),
            };
          }),
        ),
    };
  }

  // ---------- sending ----------

  async function waitForToken(rateKey: string, signal?: AbortSignal) {
    const limit = rateLimits[rateKey] ?? { perSecond: 10, burst: 10 };
    let bucket = buckets.get(rateKey);
    if (!bucket) buckets.set(rateKey, (bucket = new TokenBucket(limit, Date.now())));
    for (;;) {
      const wait = bucket.take(Date.now());
      if (wait === 0 || signal?.aborted) return;
      await sleep(wait, signal);
    }
  }

  async function runUnit(service: OutboxService, lease: string, unit: Unit, sent: number[], signal?: AbortSignal): Promise<void> {
    const ids = unit.rows.map((r) => r.id);
    const paused = pausedUntil.get(service) ?? 0;
    if (paused > Date.now() || signal?.aborted) {
      await release(lease, ids, new Date(Math.max(paused, now().getTime())));
      return;
    }
    await waitForToken(unit.rateKey, signal);
    const result = await unit.send();
    const outcome = classifyAnswer(result.status, result.retryAfter, now().getTime(), result.detail);
    if (outcome.kind === "sent") {
      // Marked together at the end of the round (one write for the batch); a crash before that sends
      // them again with the same dedupe key.
      if (unit.rows.some((r) => r.operation === "profile-deletion")) await markSent(lease, ids, true);
      else sent.push(...ids);
      if (unit.after) await unit.after(result).catch((error) => log.warn({ err: error, service }, "after-send step failed"));
      return;
    }
    log.warn({ service, ids, reason: outcome.reason }, "outbox delivery failed");
    if (outcome.kind === "retry" && outcome.pauseServiceMs) {
      const until = Date.now() + outcome.pauseServiceMs;
      if (!outcome.countsAsAttempt) await pauseService(service, until);
      else pausedUntil.set(service, Math.max(pausedUntil.get(service) ?? 0, until));
    }
    await markFailed(lease, unit.rows, outcome);
  }

  /** One round: claims up to a batch of due rows of the service and delivers them. Returns the rows handled. */
  async function deliverOnce(service: OutboxService, signal?: AbortSignal): Promise<number> {
    if (!configured(service)) return 0;
    const paused = pausedUntil.get(service) ?? 0;
    if (paused > Date.now()) return 0;
    const { lease, rows } = await claim(service, batchSize);
    if (rows.length === 0) return 0;
    let units: Unit[] = [];
    let broken: ClaimedRow[] = [];
    let orphans: ClaimedRow[] = [];
    if (service === "analytics") units = [analyticsUnit(rows)];
    else if (service === "klaviyo") ({ units, broken, orphans } = await klaviyoUnits(rows));
    else ({ units, broken } = simpleUnits(service, rows));
    if (broken.length > 0) await markFailed(lease, broken, { kind: "park", reason: "the row's payload is not one this service can send" });
    if (orphans.length > 0) {
      // The user was deleted after the row was written: nothing to send, and nothing of theirs to keep.
      await retryBusy(() => db.outboxEvent.deleteMany({ where: { id: { in: orphans.map((r) => r.id) } } }));
    }
    const queue = [...units];
    const sent: number[] = [];
    const workers = Array.from({ length: service === "analytics" ? 1 : concurrency }, async () => {
      for (let unit = queue.shift(); unit; unit = queue.shift()) {
        try {
          await runUnit(service, lease, unit, sent, signal);
        } catch (error) {
          log.warn({ service, err: error }, "outbox unit failed");
          await markFailed(lease, unit.rows, { kind: "retry", reason: errorText(error), countsAsAttempt: true }).catch(() => undefined);
        }
      }
    });
    await Promise.all(workers);
    await markSent(lease, sent, false);
    return rows.length;
  }

  /** Delivers everything due now (tests and scripts); stops when nothing due is left or the service pauses. */
  async function deliverDue(service: OutboxService): Promise<number> {
    let total = 0;
    for (let n = await deliverOnce(service); n > 0; n = await deliverOnce(service)) total += n;
    return total;
  }

  /** The job handler: delivers while there is work, waits for more a while, then ends. */
  async function runDeliverer(service: OutboxService, signal: AbortSignal): Promise<number> {
    if (!configured(service)) return 0;
    active.add(service);
    const started = Date.now();
    let idleSince = Date.now();
    let total = 0;
    try {
      while (!signal.aborted && Date.now() - started < runForMs) {
        const paused = (pausedUntil.get(service) ?? 0) - Date.now();
        if (paused > 0) {
          await sleep(Math.min(paused, pollMs * 4), signal);
          idleSince = Date.now();
          continue;
        }
        const n = await deliverOnce(service, signal);
        total += n;
        if (n > 0) {
          idleSince = Date.now();
          continue;
        }
        if (Date.now() - idleSince > idleExitMs) break;
        await sleep(pollMs, signal, true);
      }
    } finally {
      active.delete(service);
    }
    return total;
  }

  /** The minute sweep: starts a deliverer for each configured service with due rows. */
  async function sweep(): Promise<void> {
    const time = toDbTime(now());
    for (const service of OUTBOX_SERVICES) {
      if (!configured(service)) continue;
      const due = await db.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM "OutboxEvent" WHERE "service" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ?
           AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ?) LIMIT 1`,
        service,
        time,
        time,
      );
      if (due.length > 0) {
        lastKick.delete(service);
        await kick(service);
      }
    }
    // The sweep's own finished jobs are history nobody reads: kept a day.
    const dayAgo = toDbTime(new Date(now().getTime() - 24 * 3600_000));
    await retryBusy(() =>
      db.$executeRawUnsafe(`DELETE FROM "Job" WHERE "kind" IN (?, ?) AND "status" = 'done' AND "finishedAt" < ?`, SWEEP_JOB, DELIVER_JOB, dayAgo),
    );
    await retryBusy(() => db.$executeRawUnsafe(`DELETE FROM "JobScheduleRun" WHERE "scheduleName" = ? AND "periodStart" < ?`, SWEEP_SCHEDULE.name, dayAgo));
  }

  function registerJobs(on: Pick<Jobs, "register" | "schedule"> | undefined = deps.jobs): void {
    if (!on) return;
    on.register<{ service: OutboxService }>(
      DELIVER_JOB,
      async ({ payload, signal }) => {
        await runDeliverer(payload.service, signal);
      },
      {
        payloadSchema: zServicePayload,
        concurrency: OUTBOX_SERVICES.length,
        leaseMs: deps.jobLeaseMs ?? 30_000,
        timeoutMs: runForMs + 5 * 60_000,
      },
    );
    on.register(SWEEP_JOB, async () => {
      await sweep();
    });
    on.schedule(SWEEP_SCHEDULE.name, SWEEP_SCHEDULE.pattern, SWEEP_JOB);
  }

  // ---------- operators ----------

  async function list(options: { status?: OutboxStatus; service?: OutboxService; limit?: number } = {}) {
    const where: Prisma.OutboxEventWhereInput = {
      ...(options.status ? { status: options.status } : {}),
      ...(options.service ? { service: options.service } : {}),
    };
    const [rows, counts] = await Promise.all([
      db.outboxEvent.findMany({
        where,
        orderBy: { id: "desc" },
        take: Math.min(Math.max(options.limit ?? 50, 1), 1000),
        select: { id: true, service: true, operation: true, name: true, userId: true, status: true, attempts: true, nextAttemptAt: true, createdAt: true, sentAt: true, error: true },
      }),
      db.outboxEvent.groupBy({ by: ["service", "status"], _count: { _all: true } }),
    ]);
    return {
      rows,
      counts: counts.map((c) => ({ service: c.service, status: c.status, count: c._count._all })),
      configured: Object.fromEntries(OUTBOX_SERVICES.map((s) => [s, configured(s)])) as Record<OutboxService, boolean>,
    };
  }

  /** A parked row (or every parked row) goes back to pending with fresh attempts; sent rows are refused. */
  async function retry(target: number | "parked"): Promise<number> {
    if (target === "parked") {
      const { count } = await db.outboxEvent.updateMany({
        where: { status: "parked" },
        data: { status: "pending", attempts: 0, nextAttemptAt: now(), leaseOwner: null, leaseExpiresAt: null },
      });
      if (count > 0) outboxWritten();
      return count;
    }
    const row = await db.outboxEvent.findUnique({ where: { id: target }, select: { status: true } });
    if (!row) throw new AppError(404, `There is no outbox row ${target}.`);
    if (row.status === "sent") throw new AppError(409, `Row ${target} was already sent; it is not sent again.`);
    await db.outboxEvent.update({
      where: { id: target },
      data: { status: "pending", attempts: 0, nextAttemptAt: now(), leaseOwner: null, leaseExpiresAt: null },
      select: { id: true },
    });
    outboxWritten();
    return 1;
  }

  /** Deletes rows of a status (sent by default) older than `olderThanDays` (default 30; 0 = all). */
  async function purge(options: { status?: OutboxStatus; olderThanDays?: number } = {}): Promise<number> {
    const days = options.olderThanDays ?? 30;
    const { count } = await db.outboxEvent.deleteMany({
      where: { status: options.status ?? "sent", createdAt: { lt: new Date(now().getTime() - days * 24 * 3600_000 + (days === 0 ? 1000 : 0)) } },
    });
    return count;
  }

  return {
    record,
    kick,
    deliverOnce,
    deliverDue,
    runDeliverer,
    sweep,
    registerJobs,
    list,
    retry,
    purge,
    configured,
    /** Stops listening for writes (tests that build many outboxes). */
    close: () => wakeListeners.delete(onWritten),
  };
}

