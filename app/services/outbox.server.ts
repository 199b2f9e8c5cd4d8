// The marketing outbox (docs/decisions/032): every call to PostHog ("analytics"), Klaviyo, Hyros and
// AnyTrack is an OutboxEvent row, written in the same transaction as the change that caused it, then
// delivered by the job system. With no key for a service its rows are kept and logged, never sent.
// Composed from its jobs in app/services/outbox/, each a module of plain functions taking its
// dependencies first:
// - rows.server.ts: writing rows (outboxRows for each lifecycle moment, writeOutbox inside the caller's
//   transaction, record on their own) and erasing a person's rows;
// - delivery.server.ts: a deliverer's rounds, building the calls in units.server.ts and recording each
//   answer through leases.server.ts (claimed under a lease; sent, retried with backoff and Retry-After
//   honoured, or parked after OUTBOX_MAX_ATTEMPTS with the error kept for an operator);
// - deliverer-jobs.server.ts: one `outbox.deliver` job per service fleet-wide, and the minute sweep;
// - waking.server.ts: a write wakes this process's deliverers (outboxWritten);
// - operator.server.ts: list, retry, purge;
// - runtime.server.ts: the resolved dependencies and this outbox's in-process state.
// Delivery is at least once, with the same dedupe key on a repeat, which Klaviyo (unique_id), PostHog
// (uuid) and AnyTrack (transaction_id) use to keep one.
import { randomUUID } from "node:crypto";
import type { Db } from "~/db.server";
import { DEFAULT_RATE_LIMITS, OUTBOX_MAX_ATTEMPTS, type OutboxService, type RateLimit } from "~/domain/marketing/outbox";
import type { MarketingSenders } from "~/integrations/marketing.server";
import { childLogger } from "~/logger.server";
import { bindDeps } from "~/services/bind";
import type { Jobs } from "~/services/jobs.server";
import { registerJobs, sweep } from "~/services/outbox/deliverer-jobs.server";
import { deliverDue, deliverOnce, runDeliverer } from "~/services/outbox/delivery.server";
import { list, purge, retry } from "~/services/outbox/operator.server";
import { record } from "~/services/outbox/rows.server";
import { configured, type OutboxRuntime } from "~/services/outbox/runtime.server";
import { kick, listenForWrites } from "~/services/outbox/waking.server";

export { eraseOutboxPerson, outboxData, outboxRows, writeOutbox, type OutboxRowInput } from "~/services/outbox/rows.server";
export { DELIVER_JOB, SWEEP_JOB, SWEEP_SCHEDULE, deliverJobKey, type OutboxLog } from "~/services/outbox/runtime.server";
export { outboxWritten } from "~/services/outbox/waking.server";

export interface OutboxDeps {
  db: Db;
  senders: MarketingSenders;
  /** Runs the deliverers; without it, call deliverDue() yourself (tests, scripts). */
  jobs?: Pick<Jobs, "register" | "schedule" | "enqueue">;
  ownerId?: string;
  now?: () => Date;
  random?: () => number;
  log?: OutboxRuntime["log"];
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

export type Outbox = ReturnType<typeof createOutbox>;

export function createOutbox(deps: OutboxDeps) {
  // Every module's dependencies, defaults filled in once, and this outbox's own state.
  const rt: OutboxRuntime = {
    db: deps.db,
    senders: deps.senders,
    jobs: deps.jobs,
    ownerId: deps.ownerId ?? `outbox:${process.pid}:${randomUUID().slice(0, 6)}`,
    now: deps.now ?? (() => new Date()),
    random: deps.random ?? Math.random,
    log: deps.log ?? childLogger("outbox"),
    maxAttempts: deps.maxAttempts ?? OUTBOX_MAX_ATTEMPTS,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...deps.rateLimits },
    batchSize: deps.batchSize ?? 100,
    concurrency: deps.concurrency ?? 8,
    leaseMs: deps.leaseMs ?? 60_000,
    pollMs: deps.pollMs ?? 500,
    idleExitMs: deps.idleExitMs ?? 60_000,
    runForMs: deps.runForMs ?? 10 * 60_000,
    jobLeaseMs: deps.jobLeaseMs ?? 30_000,
    state: { buckets: new Map(), pausedUntil: new Map(), claimCount: 0, waiters: new Set(), lastKick: new Map(), active: new Set() },
  };
  const stopListening = listenForWrites(rt);
  return {
    ...bindDeps(rt, { record, kick, deliverOnce, deliverDue, runDeliverer, sweep, registerJobs, list, retry, purge }),
    configured: (service: OutboxService) => configured(rt, service),
    /** Stops listening for writes (tests that build many outboxes). */
    close: stopListening,
  };
}
