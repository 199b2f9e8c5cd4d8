// What every part of the outbox's delivery shares (docs/decisions/032): the resolved dependencies and
// settings, this outbox's in-process state (rate buckets, paused services, waiting deliverers), the job
// names, and the shapes of a claimed row and of one send.
import { z } from "zod";
import type { Db } from "~/db.server";
import { OUTBOX_SERVICES, type OutboxService, type RateLimit, type TokenBucket } from "~/domain/marketing/outbox";
import type { MarketingSenders, SendResult } from "~/integrations/marketing.server";
import type { Jobs } from "~/services/jobs.server";

export interface OutboxLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  debug?(fields: object, message: string): void;
}

export const DELIVER_JOB = "outbox.deliver";
export const SWEEP_JOB = "outbox.sweep";
export const SWEEP_SCHEDULE = { name: "outbox-sweep", pattern: "* * * * *" } as const;
export const deliverJobKey = (service: string) => `outbox.deliver:${service}`;
export const zServicePayload = z.object({ service: z.enum(OUTBOX_SERVICES) });

/** What this process's outbox holds between calls; only its own deliverers read it. */
export interface OutboxState {
  buckets: Map<string, TokenBucket>;
  /** A service paused (429 with Retry-After) until this time (ms). */
  pausedUntil: Map<string, number>;
  claimCount: number;
  /** Idle deliverers' sleeps, ended early when rows are written. */
  waiters: Set<() => void>;
  lastKick: Map<string, number>;
  /** Services with a deliverer running in this process. */
  active: Set<string>;
}

/** The dependencies every module takes first, defaults filled in by createOutbox. */
export interface OutboxRuntime {
  db: Db;
  senders: MarketingSenders;
  jobs?: Pick<Jobs, "register" | "schedule" | "enqueue">;
  ownerId: string;
  now: () => Date;
  random: () => number;
  log: OutboxLog;
  maxAttempts: number;
  rateLimits: Record<string, RateLimit>;
  batchSize: number;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  idleExitMs: number;
  runForMs: number;
  jobLeaseMs: number;
  state: OutboxState;
}

/** Whether the service has a key, so its rows are sent (the others' are kept, never sent). */
export function configured(rt: Pick<OutboxRuntime, "senders">, service: OutboxService): boolean {
  return Boolean(rt.senders[service]);
}

export interface ClaimedRow {
  id: number;
  operation: string;
  name: string;
  userId: string | null;
  email: string | null;
  payload: Record<string, unknown>;
  dedupeKey: string;
  attempts: number;
}

/** One request to a service, carrying one or more rows. */
export interface Unit {
  rows: ClaimedRow[];
  send: () => Promise<SendResult & { profileId?: string }>;
  rateKey: string;
  /** After a successful send (e.g. store the Klaviyo profile id). */
  after?: (result: SendResult & { profileId?: string }) => Promise<void>;
}
