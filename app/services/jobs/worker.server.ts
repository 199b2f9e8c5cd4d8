// The polling worker every server process runs: on each tick it fires due schedules, then claims due
// jobs of the kinds with a free slot and runs them in the background; idle, it sleeps pollMs or until
// woken (an enqueue, a new handler or schedule, a finished job). stop() stops claiming, aborts what
// runs and waits for it.
import type { Attempts } from "~/services/jobs/attempt.server";
import type { Leases } from "~/services/jobs/leases.server";
import type { Registry } from "~/services/jobs/registry.server";
import type { JobsLog } from "~/services/jobs/runtime.server";

/** "Look for work now": a wake during work makes the next sleep return at once. */
export function createWakeSignal() {
  let wakeUp: (() => void) | null = null;
  let woken = false;

  function wake() {
    woken = true;
    wakeUp?.();
  }

  function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  return { wake, sleep };
}

export function createWorker(deps: {
  log: JobsLog;
  pollMs: number;
  signal: ReturnType<typeof createWakeSignal>;
  registry: Registry;
  leases: Leases;
  attempts: Attempts;
  fireSchedules: () => Promise<void>;
}) {
  const { log, signal, registry, leases, attempts } = deps;
  let started = false;
  let stopping = false;
  let loop: Promise<void> | null = null;

  async function tick(): Promise<void> {
    await deps.fireSchedules();
    let claimedAny = false;
    for (;;) {
      if (stopping) return;
      const free = registry.freeKinds();
      if (free.length === 0) return;
      // Idle: look first with a read, so idle processes do not queue up for the write lock.
      if (!claimedAny && !(await leases.anythingDue(free))) {
        await parkAbandonedEvery();
        return;
      }
      const job = await leases.claim(free);
      if (!job) {
        await parkAbandonedEvery();
        return;
      }
      claimedAny = true;
      const registration = registry.get(job.kind)!;
      registration.running++;
      attempts
        .execute(job, registration, () => stopping)
        .catch((error) => log.error({ jobId: job.id, err: error }, "job outcome not recorded"))
        .finally(() => {
          registration.running--;
          signal.wake();
        });
    }
  }

  let lastParkCheck = 0;
  async function parkAbandonedEvery() {
    if (Date.now() - lastParkCheck < 5_000) return;
    lastParkCheck = Date.now();
    const parked = await leases.parkAbandoned();
    if (parked > 0) log.warn({ parked }, "parked jobs whose last attempt stopped answering");
  }

  function start(): void {
    if (started) return;
    started = true;
    stopping = false;
    loop = (async () => {
      while (!stopping) {
        try {
          await tick();
        } catch (error) {
          log.error({ err: error }, "job worker tick failed; trying again");
        }
        if (!stopping) await signal.sleep(deps.pollMs);
      }
    })();
  }

  /**
   * Stops claiming; running handlers see their signal aborted and are awaited. An attempt that ends
   * in an error because of the stop is given back (queued now, not counted); one that finishes is done.
   */
  async function stop(): Promise<void> {
    if (!started) return;
    stopping = true;
    signal.wake();
    await loop;
    await attempts.abortAll();
    started = false;
  }

  return { start, stop };
}
