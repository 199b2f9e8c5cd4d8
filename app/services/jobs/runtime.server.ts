// What every part of the job system shares (docs/decisions/022): the types callers see, the resolved
// dependencies each part is built from, and the one time format the raw statements write.
import { z } from "zod";
import { dateFromDb, type Db } from "~/db.server";
import type { EnqueueOptions, HandlerOptions, JobStatus } from "~/domain/jobs";

/** A job's id: a whole number on our own queue (SQLite), a UUID on pg-boss (PostgreSQL, decision 102). */
export type JobId = number | string;

export interface JobContext<P = unknown> {
  jobId: JobId;
  payload: P;
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
  /** The attempts the job has: a handler whose attempt is the last may settle for good instead of throwing. */
  maxAttempts: number;
  /** Aborted when the attempt times out, the lease is lost, or the worker stops: stop work soon. */
  signal: AbortSignal;
  /** Extends the lease now (it is also renewed on a timer); false when the lease was lost. */
  renewLease(): Promise<boolean>;
  /** Records 0-100 on the job row for whoever shows progress. */
  progress(percent: number): Promise<void>;
}

export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<void> | void;

export interface RegisterOptions<P> extends HandlerOptions {
  /** Validates the payload; a payload it rejects parks the job (retrying cannot fix it). */
  payloadSchema?: z.ZodType<P>;
}

export interface JobRow<Id extends JobId = JobId> {
  id: Id;
  kind: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  progress: number | null;
  key: string | null;
  payload: string;
  createdAt: Date;
  finishedAt: Date | null;
}

/**
 * What the app's parts call on a job system, whichever runs it: our own queue on SQLite (createJobs) or pg-boss
 * on PostgreSQL (createPostgresJobs). Both keep decision 022's meanings: a key queued or running is not queued
 * twice, failures back off and park, a schedule fires once per period across processes.
 */
export interface JobSystem {
  /** Who this process is (host:pid:random), as the worker's start line says. */
  ownerId: string;
  /** "queue" (our own, on the Job table) or "pg-boss". */
  engine: "queue" | "pg-boss";
  enqueue(kind: string, payload?: object, options?: EnqueueOptions): Promise<{ id: JobId; created: boolean }>;
  register<P>(kind: string, handler: JobHandler<P>, options?: RegisterOptions<P>): void;
  /** Enqueues `kind` once per period of the cron pattern (UTC), however many processes run it. */
  schedule(name: string, pattern: string, kind: string): void;
  start(): void | Promise<void>;
  stop(): Promise<void>;
  /** Runs the jobs due now (of `kinds`, or every kind) in this process until none is left (tests, scripts). */
  runDue(options?: { kinds?: string[] }): Promise<RunDueSummary>;
  list(options?: { status?: JobStatus; limit?: number }): Promise<JobRow[]>;
  get(id: JobId): Promise<JobRow | null>;
  retry(id: JobId): Promise<JobRow>;
  /** The status of the live or newest job of `kind` with `key`, or null when there is none. */
  statusOfKey(kind: string, key: string): Promise<JobStatus | null>;
  kinds(): string[];
}

export interface RunDueSummary {
  ran: number;
  done: number;
  retrying: number;
  parked: number;
}

export interface JobsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface JobsDeps {
  db: Db;
  /** Who this process is in leaseOwner (e.g. defaultOwnerId()); unique per process. */
  ownerId: string;
  now?: () => Date;
  /** In [0, 1): the backoff's jitter. */
  random?: () => number;
  /** How often an idle worker looks for due jobs; default 1 s. Enqueueing in this process wakes it at once. */
  pollMs?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  log?: JobsLog;
}

/** The dependencies with their defaults filled in, plus `wake` (the worker's "look now"), shared by every part. */
export interface JobsRuntime {
  db: Db;
  ownerId: string;
  now: () => Date;
  random: () => number;
  backoff?: { baseMs?: number; maxMs?: number };
  log: JobsLog;
  wake: () => void;
}

/** A job claimed by this process: every later write about the attempt is fenced by `lease`. */
export interface Claimed {
  id: number;
  kind: string;
  payload: string;
  attempt: number;
  maxAttempts: number;
  lease: string;
}

export { toDbTime } from "~/db.server";

export const toDate = (value: unknown): Date => (value instanceof Date ? value : dateFromDb(value));
export const toDateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : toDate(value);

/** `AND "kind" IN (?, ...)` for a list of kinds, or nothing for any kind. */
export const kindFilter = (kinds: string[] | null) =>
  kinds ? `AND "kind" IN (${kinds.map(() => "?").join(", ")})` : "";
