// Pure rules of the job system (app/services/jobs.server.ts, docs/decisions/022): job statuses, the
// retry backoff, what happens after a failed attempt, and the options a caller may pass.
import { z } from "zod";

export const JOB_STATUSES = ["queued", "running", "done", "parked"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const DEFAULT_MAX_ATTEMPTS = 5;
/** First retry waits about this long; each further one about twice as long. */
export const BACKOFF_BASE_MS = 1_000;
/** No retry waits longer than this. */
export const BACKOFF_MAX_MS = 60 * 60_000;

/**
 * How long to wait before retrying after failed attempt number `attempt` (1 = the first run failed):
 * exponential, capped, with "equal jitter" — a random point in the upper half of the window, so retries
 * of many jobs that failed together spread out, yet none comes back at once. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, random: number, options: { baseMs?: number; maxMs?: number } = {}): number {
  const base = options.baseMs ?? BACKOFF_BASE_MS;
  const max = options.maxMs ?? BACKOFF_MAX_MS;
  const exponent = Math.max(0, Math.min(attempt - 1, 40));
  const window = Math.min(max, base * 2 ** exponent);
  const jitter = Math.min(Math.max(random, 0), 1);
  return Math.round(window / 2 + (window / 2) * jitter);
}

export type FailureOutcome = { status: "parked" } | { status: "queued"; retryInMs: number };

/**
 * What a failed attempt leads to: parked once the attempts are used up (or the failure is permanent,
 * e.g. no handler for the kind), otherwise queued again after the backoff.
 */
export function afterFailure(
  input: { attempt: number; maxAttempts: number; permanent?: boolean; random: number },
  backoff: { baseMs?: number; maxMs?: number } = {},
): FailureOutcome {
  if (input.permanent || input.attempt >= input.maxAttempts) return { status: "parked" };
  return { status: "queued", retryInMs: backoffMs(input.attempt, input.random, backoff) };
}

/** The sentence stored as a job's last error: the message, bounded so one job cannot bloat the table. */
export function errorText(error: unknown, limit = 2_000): string {
  const text =
    error instanceof Error ? error.message || error.name : typeof error === "string" ? error : JSON.stringify(error);
  const oneLine = (text ?? String(error)).trim() || "failed without a message";
  return oneLine.length > limit ? `${oneLine.slice(0, limit - 1)}…` : oneLine;
}

/** Options of enqueue(): validated so a bad call fails at once, not when a worker reads the row. */
export const EnqueueOptionsSchema = z.object({
  runAt: z.date().optional(),
  key: z.string().min(1).max(200).optional(),
  maxAttempts: z.number().int().min(1).max(100).optional(),
});
export type EnqueueOptions = z.infer<typeof EnqueueOptionsSchema>;

/** Options of register(): how many at once in this process, the lease, and the per-attempt time limit. */
export const HandlerOptionsSchema = z.object({
  concurrency: z.number().int().min(1).max(100).default(1),
  leaseMs: z
    .number()
    .int()
    .min(200)
    .max(24 * 60 * 60_000)
    .default(30_000),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(24 * 60 * 60_000)
    .default(15 * 60_000),
});
export type HandlerOptions = z.input<typeof HandlerOptionsSchema>;

/** A job kind: lowercase words joined by dots, dashes or underscores ("ai-ads.render"). */
export const JobKindSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/, "A job kind is lowercase words joined by dots, e.g. ai-ads.render.")
  .max(100);

/** An operator's job id from the command line: a positive whole number. */
export const JobIdSchema = z.coerce.number().int().positive();
