// Running one claimed attempt: the payload checked against the kind's schema, the handler given a
// context (abort signal, lease renewal, progress), the lease renewed on a timer while it runs, the
// attempt timed out, and its outcome written (done, retrying, parked, lost to another worker, or given
// back because this worker is stopping). The attempts running in this process are tracked for stop().
import type { Leases } from "~/services/jobs/leases.server";
import type { Registration } from "~/services/jobs/registry.server";
import type { Claimed, JobContext, JobsRuntime } from "~/services/jobs/runtime.server";

export type Outcome = "done" | "retrying" | "parked" | "lost" | "released";

/** The reason a worker aborts its handlers when it stops (their attempt is given back, not counted). */
export class StoppingError extends Error {
  constructor() {
    super("the worker is stopping");
  }
}

export type Attempts = ReturnType<typeof createAttempts>;

export function createAttempts(rt: Pick<JobsRuntime, "log">, leases: Leases) {
  const { log } = rt;
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();

  /** The payload as the handler gets it; throws (a permanent failure) when it is not JSON or fails the schema. */
  function payloadOf(job: Claimed, registration: Registration): unknown {
    const payload: unknown = JSON.parse(job.payload);
    if (!registration.payloadSchema) return payload;
    const parsed = registration.payloadSchema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`bad payload: ${issue.path.join(".") || "payload"}: ${issue.message}`);
    }
    return parsed.data;
  }

  async function execute(
    job: Claimed,
    registration: Registration | undefined,
    stopping: () => boolean,
  ): Promise<Outcome> {
    if (!registration) {
      const outcome = await leases.markFailed(job, new Error(`no handler for kind ${job.kind}`), true);
      log.warn({ jobId: job.id, kind: job.kind }, "parked a job no handler is registered for");
      return outcome;
    }
    let payload: unknown;
    try {
      payload = payloadOf(job, registration);
    } catch (error) {
      return leases.markFailed(job, error, true);
    }

    const { leaseMs, timeoutMs } = registration.options;
    const controller = new AbortController();
    // The handler's own calls stop once it has settled (a handler that timed out may live on); the
    // lease itself is kept until the outcome is written, so a slow write cannot hand the job to another.
    let settled = false;
    let recorded = false;
    let leaseLost = false;
    let renewing: Promise<boolean> | null = null;
    const renew = (): Promise<boolean> => {
      if (recorded || leaseLost) return Promise.resolve(false);
      renewing ??= leases
        .extendLease(job, leaseMs)
        .then((held) => {
          if (!held && !recorded) {
            leaseLost = true;
            controller.abort(new Error("the job's lease was lost to another worker"));
          }
          return held;
        })
        .finally(() => {
          renewing = null;
        });
      return renewing;
    };
    const renewLease = async () => (settled ? false : renew());
    const renewer = setInterval(
      () => {
        renew().catch((error) => log.warn({ jobId: job.id, err: error }, "lease not renewed"));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`timed out after ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const context: JobContext<unknown> = {
      jobId: job.id,
      payload,
      attempt: job.attempt,
      maxAttempts: job.maxAttempts,
      signal: controller.signal,
      renewLease,
      async progress(percent) {
        if (settled) return;
        await leases.writeProgress(job, Math.max(0, Math.min(100, Math.round(percent))));
      },
    };
    inFlight.set(job.lease, { controller, done: timedOut.catch(() => undefined) });
    try {
      await Promise.race([Promise.resolve().then(() => registration.handler(context)), timedOut]);
      settled = true;
      if (await leases.markDone(job)) return "done";
      log.warn(
        { jobId: job.id, kind: job.kind, attempt: job.attempt },
        "finished after another worker took the job over; not recorded",
      );
      return "lost";
    } catch (error) {
      settled = true;
      if (leaseLost) return "lost";
      if (stopping() && controller.signal.reason instanceof StoppingError) {
        await leases.release(job);
        return "released";
      }
      const outcome = await leases.markFailed(job, error, false);
      log.warn({ jobId: job.id, kind: job.kind, attempt: job.attempt, outcome, err: error }, "job attempt failed");
      return outcome;
    } finally {
      settled = true;
      recorded = true;
      clearInterval(renewer);
      clearTimeout(timer);
      inFlight.delete(job.lease);
    }
  }

  /** Aborts every attempt running in this process (the worker is stopping) and waits until they are all recorded. */
  async function abortAll(): Promise<void> {
    for (const r of [...inFlight.values()]) r.controller.abort(new StoppingError());
    while (inFlight.size > 0) await new Promise((r) => setTimeout(r, 10));
  }

  return { execute, abortAll };
}
