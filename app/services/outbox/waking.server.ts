// Waking the outbox's deliverers (docs/decisions/032): a write anywhere in this process ends the idle
// deliverers' waits and starts a deliverer for each configured service that has none, fleet-wide by job
// key; the minute sweep (deliverer-jobs.server.ts) is the backstop when a wake is missed.
import { OUTBOX_SERVICES, type OutboxService } from "~/domain/marketing/outbox";
import { configured, DELIVER_JOB, deliverJobKey, type OutboxRuntime } from "~/services/outbox/runtime.server";

const wakeListeners = new Set<() => void>();

/**
 * Tells this process's outbox that rows were committed, so a deliverer picks them up now rather than at
 * its next poll. Callers call it after their transaction resolved; forgetting it only delays delivery.
 */
export function outboxWritten(): void {
  for (const listener of wakeListeners) listener();
}

/** Listens for writes on behalf of one outbox; returns how to stop listening. */
export function listenForWrites(rt: OutboxRuntime): () => boolean {
  const onWritten = () => {
    for (const wake of rt.state.waiters) wake();
    rt.state.waiters.clear();
    setTimeout(() => {
      for (const service of OUTBOX_SERVICES) if (configured(rt, service) && !rt.state.active.has(service)) void kick(rt, service);
    }, 0).unref?.();
  };
  wakeListeners.add(onWritten);
  return () => wakeListeners.delete(onWritten);
}

/** Waits `ms`, less when `signal` aborts or, if `wakeable`, when rows are written. */
export function sleep(rt: Pick<OutboxRuntime, "state">, ms: number, signal?: AbortSignal, wakeable = false): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      rt.state.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
    if (wakeable) rt.state.waiters.add(done);
  });
}

/** Starts a deliverer for the service unless one is queued or running (fleet-wide, by job key). */
export async function kick(rt: OutboxRuntime, service: OutboxService): Promise<void> {
  if (!rt.jobs || !configured(rt, service)) return;
  const at = Date.now();
  if (at - (rt.state.lastKick.get(service) ?? 0) < 1_000) return;
  rt.state.lastKick.set(service, at);
  try {
    await rt.jobs.enqueue(DELIVER_JOB, { service }, { key: deliverJobKey(service) });
  } catch (error) {
    rt.log.warn({ service, err: error }, "could not start the outbox deliverer; the minute sweep will");
  }
}
