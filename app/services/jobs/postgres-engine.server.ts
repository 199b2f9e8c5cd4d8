// The job system on PostgreSQL (issue 38 item 2, decision 102): the same calls as createJobs (decision 022) on
// pg-boss, which keeps its own tables in the `pgboss` schema of the app's database. SQLite keeps our own queue.
// - a job kind is a pg-boss queue of policy `exclusive` (at most one queued-or-running job per singleton key);
//   our `key` is the singleton key, and a job without a key gets a key of its own, so unkeyed jobs never collide;
// - retries: retryLimit = maxAttempts - 1, retryDelay 1 s doubling with equal jitter up to 1 h (retryBackoff,
//   retryDelayMax): the backoff of app/domain/jobs.ts; a job out of attempts is `failed` (our "parked");
// - the time limit is the handler's AbortSignal plus pg-boss's expireInSeconds, and a heartbeat (our lease) lets
//   another process take over the job of a worker that died;
// - enqueueIn(tx, ...) sends inside a caller's Prisma transaction (pg-boss's `db` option runs its insert on the
//   transaction's connection), so a job exists exactly when the change that caused it commits;
// - schedules are pg-boss's (one fire per period across processes).
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { PgBoss, type JobWithMetadata } from "pg-boss";
import type { z } from "zod";
import { AppError } from "~/domain/errors";
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  DEFAULT_MAX_ATTEMPTS,
  EnqueueOptionsSchema,
  errorText,
  HandlerOptionsSchema,
  JobKindSchema,
  type EnqueueOptions,
  type JobStatus,
} from "~/domain/jobs";
import type { JobHandler, JobId, JobRow, JobsLog, JobSystem, RegisterOptions, RunDueSummary } from "~/services/jobs/runtime.server";

/** What a transaction needs to offer: Prisma's interactive transaction client has it. */
export interface RawTransaction {
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
}

/** A job row as `jobs list` shows it; pg-boss's ids are UUIDs, and it keeps no lease owner or progress (both null). */
export type PostgresJobRow = JobRow<string>;

export interface PostgresJobsDeps {
  /** DATABASE_URL (postgresql://...). */
  url: string;
  log: JobsLog;
  /** Who this process is in the logs (host:pid:random by default). */
  ownerId?: string;
  /** pg-boss's pool for this process. */
  maxConnections?: number;
  /** How often pg-boss looks for a schedule's period to fire (its default is 30 s; tests use 1). */
  scheduleCheckSeconds?: number;
  /**
   * How often pg-boss looks for jobs whose worker stopped beating (a host that died) or ran out of time, to put them
   * back for another process (its default is 60 s; tests use 1).
   */
  superviseSeconds?: number;
}

/** A key we give an unkeyed job, so the queue's `exclusive` policy only ever bites on a caller's key. */
const OWN_KEY = "job:";

const STATUS: Record<string, JobStatus> = {
  created: "queued",
  retry: "queued",
  active: "running",
  completed: "done",
  cancelled: "parked",
  failed: "parked",
};

/** What only this engine has: enqueueing inside a caller's transaction, and rows whose ids are UUIDs. */
interface PostgresOnly {
  enqueue(kind: string, payload?: object, options?: EnqueueOptions): Promise<{ id: string; created: boolean }>;
  enqueueIn(tx: RawTransaction, kind: string, payload?: object, options?: EnqueueOptions): Promise<{ id: string; created: boolean }>;
  list(options?: { status?: JobStatus; limit?: number }): Promise<PostgresJobRow[]>;
  get(id: JobId): Promise<PostgresJobRow | null>;
  retry(id: JobId): Promise<PostgresJobRow>;
  start(): Promise<void>;
}

export type PostgresJobs = ReturnType<typeof createPostgresJobs>;

export function createPostgresJobs(deps: PostgresJobsDeps): Omit<JobSystem, keyof PostgresOnly> & PostgresOnly {
  const boss = new PgBoss({
    connectionString: deps.url,
    max: deps.maxConnections ?? 4,
    ...(deps.scheduleCheckSeconds
      ? { cronWorkerIntervalSeconds: deps.scheduleCheckSeconds, cronMonitorIntervalSeconds: deps.scheduleCheckSeconds }
      : {}),
    ...(deps.superviseSeconds ? { superviseIntervalSeconds: deps.superviseSeconds, monitorIntervalSeconds: deps.superviseSeconds } : {}),
  });
  const ownerId = deps.ownerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
  boss.on("error", (error) => deps.log.error({ err: error }, "pg-boss reported an error"));
  const registered = new Map<string, { handler: JobHandler<unknown>; options: z.output<typeof HandlerOptionsSchema>; payloadSchema?: z.ZodType<unknown> }>();
  const schedules: { name: string; cron: string; kind: string; payload: object }[] = [];
  const queues = new Set<string>();
  let started: Promise<unknown> | null = null;

  const ready = () => (started ??= boss.start());

  async function queue(kind: string) {
    await ready();
    if (queues.has(kind)) return;
    if (!(await boss.getQueue(kind))) {
      await boss.createQueue(kind, {
        policy: "exclusive",
        retryLimit: DEFAULT_MAX_ATTEMPTS - 1,
        retryDelay: BACKOFF_BASE_MS / 1000,
        retryBackoff: true,
        retryDelayMax: BACKOFF_MAX_MS / 1000,
      });
    }
    queues.add(kind);
  }

  function checked(kind: string, options: EnqueueOptions) {
    const parsedKind = JobKindSchema.safeParse(kind);
    if (!parsedKind.success) throw new AppError(400, `"${kind}" is not a job kind: ${parsedKind.error.issues[0].message}`);
    const parsed = EnqueueOptionsSchema.safeParse(options);
    if (!parsed.success) throw new AppError(400, `Bad job options: ${parsed.error.issues[0].message}`);
    return parsed.data;
  }

  /** Adds a job (once per key: while one with the key is queued or running, nothing changes). */
  async function enqueue(kind: string, payload: object = {}, options: EnqueueOptions = {}) {
    return send(kind, payload, options);
  }

  /** enqueue inside the caller's transaction: the job exists only if that transaction commits. */
  async function enqueueIn(tx: RawTransaction, kind: string, payload: object = {}, options: EnqueueOptions = {}) {
    const db = {
      executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<object[]>(text, ...values) }),
    };
    return send(kind, payload, options, db);
  }

  async function send(kind: string, payload: object, options: EnqueueOptions, db?: { executeSql: (text: string, values?: unknown[]) => Promise<{ rows: object[] }> }) {
    const opts = checked(kind, options);
    await queue(kind);
    const key = opts.key ?? `${OWN_KEY}${randomUUID()}`;
    const own = registered.get(kind)?.options;
    const handler = own ?? HandlerOptionsSchema.parse({});
    const timeoutMs = own?.timeoutMs;
    const id = await boss.send(kind, payload ?? {}, {
      singletonKey: key,
      retryLimit: (opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS) - 1,
      // Our lease: the worker running it beats every half of this; a job whose beat stops (its host died) goes back
      // to the queue for another process at pg-boss's next look (superviseSeconds). pg-boss takes 10 s at least.
      heartbeatSeconds: Math.max(10, Math.ceil(handler.leaseMs / 1000)),
      ...(opts.runAt ? { startAfter: opts.runAt } : {}),
      ...(timeoutMs ? { expireInSeconds: Math.ceil(timeoutMs / 1000) + 5 } : {}),
      ...(db ? { db } : {}),
    });
    if (id) return { id, created: true };
    const [live] = await boss.findJobs(kind, { key, queued: true });
    const active = live ?? (await boss.findJobs(kind, { key })).find((j) => j.state === "active" || j.state === "created" || j.state === "retry");
    if (!active) throw new Error(`job key ${key} neither inserted nor found`);
    return { id: active.id, created: false };
  }

  function register<P>(kind: string, handler: JobHandler<P>, options: RegisterOptions<P> = {}): void {
    const parsedKind = JobKindSchema.safeParse(kind);
    if (!parsedKind.success) throw new AppError(400, `"${kind}" is not a job kind: ${parsedKind.error.issues[0].message}`);
    if (registered.has(kind)) throw new AppError(409, `A handler for job kind ${kind} is already registered.`);
    const { payloadSchema, ...rest } = options;
    const parsed = HandlerOptionsSchema.safeParse(rest);
    if (!parsed.success) throw new AppError(400, `Bad handler options for ${kind}: ${parsed.error.issues[0].message}`);
    registered.set(kind, { handler: handler as JobHandler<unknown>, options: parsed.data, payloadSchema: payloadSchema as z.ZodType<unknown> | undefined });
  }

  function schedule(name: string, cron: string, kind: string, payload: object = {}): void {
    schedules.push({ name, cron, kind, payload });
  }

  let stopping = new AbortController();

  /** One attempt of one job: the payload checked, the handler under its time limit, a sentence when it fails. */
  async function attempt(kind: string, job: JobWithMetadata<unknown>) {
    const reg = registered.get(kind)!;
    const payload = reg.payloadSchema ? reg.payloadSchema.safeParse(job.data) : { success: true as const, data: job.data };
    if (!payload.success) {
      // Retrying cannot fix a payload: park it at once.
      await boss.cancel(kind, job.id);
      throw new Error(`bad payload: ${payload.error.issues[0].message}`);
    }
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new Error(`timed out after ${reg.options.timeoutMs} ms`)), reg.options.timeoutMs);
    const signal = AbortSignal.any([timer.signal, stopping.signal]);
    try {
      const run = Promise.resolve(
        reg.handler({
          jobId: job.id,
          payload: payload.data,
          attempt: job.retryCount + 1,
          maxAttempts: job.retryLimit + 1,
          signal,
          renewLease: async () => (await boss.touch(kind, job.id), true),
          progress: async () => {},
        }),
      );
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted")), { once: true }),
      );
      await Promise.race([run, aborted]);
    } catch (error) {
      const message = `attempt ${job.retryCount + 1} of ${job.retryLimit + 1}: ${errorText(error)}`;
      throw new Error(message);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Starts working every registered kind and the schedules in this process. */
  async function start(): Promise<void> {
    if (stopping.signal.aborted) stopping = new AbortController();
    for (const [kind, reg] of registered) {
      await queue(kind);
      await boss.work(
        kind,
        {
          batchSize: 1,
          localConcurrency: reg.options.concurrency,
          pollingIntervalSeconds: 1,
          includeMetadata: true,
        },
        async ([job]) => attempt(kind, job),
      );
    }
    for (const s of schedules) {
      await queue(s.kind);
      await boss.schedule(s.kind, s.cron, s.payload, { key: s.name, tz: "UTC" });
    }
  }

  async function stop(): Promise<void> {
    stopping.abort(new Error("the worker is stopping"));
    if (started) await boss.stop({ graceful: true, timeout: 10_000 });
    started = null;
  }

  const rowOf = (j: JobWithMetadata<unknown>): PostgresJobRow => ({
    id: j.id,
    kind: j.name,
    status: STATUS[j.state] ?? "queued",
    attempts: j.retryCount + (j.state === "created" ? 0 : 1),
    maxAttempts: j.retryLimit + 1,
    runAt: new Date(j.startAfter),
    lastError: j.output && typeof j.output === "object" && "message" in j.output ? String((j.output as { message: unknown }).message) : null,
    key: j.singletonKey && !j.singletonKey.startsWith(OWN_KEY) ? j.singletonKey : null,
    payload: JSON.stringify(j.data ?? {}),
    createdAt: new Date(j.createdOn),
    finishedAt: j.completedOn ? new Date(j.completedOn) : null,
    leaseOwner: null,
    leaseExpiresAt: null,
    progress: null,
  });

  /** The newest jobs first (or only those of one status), across every kind. */
  async function list(options: { status?: JobStatus; limit?: number } = {}): Promise<PostgresJobRow[]> {
    await ready();
    const names = (await boss.getQueues()).map((q) => q.name);
    const rows: PostgresJobRow[] = [];
    for (const name of names) for (const j of await boss.findJobs(name)) rows.push(rowOf(j));
    return rows
      .filter((r) => !options.status || r.status === options.status)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, options.limit ?? 50);
  }

  /** One job by id: a lookup by primary key in each queue until found (not every job read, as list does). */
  async function get(id: JobId): Promise<PostgresJobRow | null> {
    if (typeof id !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    await ready();
    for (const { name } of await boss.getQueues()) {
      const job = await boss.getJobById<unknown>(name, id);
      if (job) return rowOf(job);
    }
    return null;
  }

  /** A parked job (or one waiting for its retry) runs now; done or running ones are refused with a sentence. */
  async function retry(id: JobId): Promise<PostgresJobRow> {
    const row = await get(id);
    if (!row) throw new AppError(404, `There is no job ${id}.`);
    if (row.status !== "parked" && !(row.status === "queued" && row.attempts > 0)) {
      throw new AppError(409, `Job ${id} is ${row.status}: only a parked job or one waiting for a retry can be retried.`);
    }
    // pg-boss's retry only takes a failed (parked) job; one waiting for its retry is brought forward to now.
    if (row.status === "parked") await boss.retry(row.kind, row.id);
    else await boss.update(row.kind, undefined, { id: row.id, startAfter: new Date() });
    return (await get(id)) ?? row;
  }

  /**
   * Runs the jobs of `kinds` (or of every registered kind) that are due now, in this process, one at a time, until
   * none is left (tests and scripts, as on SQLite): a failed one goes back to pg-boss to wait for its retry or park.
   */
  async function runDue(options: { kinds?: string[] } = {}): Promise<RunDueSummary> {
    const summary: RunDueSummary = { ran: 0, done: 0, retrying: 0, parked: 0 };
    for (const kind of options.kinds ?? [...registered.keys()]) {
      if (!registered.has(kind)) continue;
      await queue(kind);
      for (;;) {
        const [job] = await boss.fetch<unknown>(kind, { batchSize: 1, includeMetadata: true });
        if (!job) break;
        summary.ran++;
        try {
          await attempt(kind, job);
          await boss.complete(kind, job.id);
          summary.done++;
        } catch (error) {
          await boss.fail(kind, job.id, { message: errorText(error) });
          const after = await boss.getJobById(kind, job.id);
          if (after && (after.state === "retry" || after.state === "created")) summary.retrying++;
          else summary.parked++;
        }
      }
    }
    return summary;
  }

  /** The live job of `kind` with `key` (queued or running) or else its newest, as our status; null when none. */
  async function statusOfKey(kind: string, key: string) {
    await queue(kind);
    const found = await boss.findJobs(kind, { key });
    const live = found.find((j) => j.state === "active") ?? found.find((j) => j.state === "created" || j.state === "retry");
    const newest = live ?? found.sort((a, b) => new Date(b.createdOn).getTime() - new Date(a.createdOn).getTime())[0];
    return newest ? (STATUS[newest.state] ?? "queued") : null;
  }

  return {
    ownerId,
    engine: "pg-boss" as const,
    enqueue,
    enqueueIn,
    register,
    schedule,
    start,
    stop,
    runDue,
    list,
    get,
    retry,
    statusOfKey,
    kinds: () => [...registered.keys()],
  };
}
