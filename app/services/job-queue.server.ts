// A small in-process job queue: jobs run one at a time (or `concurrency` at a time) in the order they
// were added; the same key is never queued twice. It keeps nothing itself: whatever must survive a
// crash is in the database before a job is added, and the owner re-adds unfinished work at start-up
// (docs/decisions/019). Failures of a job are the job's business; the queue only logs what escapes.
export interface JobQueue<K> {
  /** Queues a job unless one with this key is queued or running. */
  add(key: K): void;
  has(key: K): boolean;
  /** Resolves when nothing is queued or running. */
  idle(): Promise<void>;
  readonly size: number;
}

export function createJobQueue<K>(
  run: (key: K) => Promise<void>,
  options: { concurrency?: number; onError?: (key: K, error: unknown) => void } = {},
): JobQueue<K> {
  const concurrency = options.concurrency ?? 1;
  const waiting: K[] = [];
  const running = new Set<K>();
  let idleWaiters: (() => void)[] = [];

  function settle() {
    if (waiting.length === 0 && running.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  function pump() {
    while (running.size < concurrency && waiting.length > 0) {
      const key = waiting.shift()!;
      running.add(key);
      run(key)
        .catch((error) => options.onError?.(key, error))
        .finally(() => {
          running.delete(key);
          pump();
          settle();
        });
    }
  }

  return {
    add(key) {
      if (running.has(key) || waiting.includes(key)) return;
      waiting.push(key);
      // Started on the next tick, so the caller's own writes land first.
      queueMicrotask(pump);
    },
    has: (key) => running.has(key) || waiting.includes(key),
    idle() {
      if (waiting.length === 0 && running.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    get size() {
      return waiting.length + running.size;
    },
  };
}
