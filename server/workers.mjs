// The server's entry point (`npm start` runs it through server/node-args.mjs): WEB_CONCURRENCY copies of
// server/index.mjs behind one port (node:cluster; the primary accepts connections and hands them round to
// the workers), so a machine's cores all serve requests: one Node process runs its JavaScript on one core
// (docs/decisions/039). Default: the number of cores in production, 1 otherwise; with 1 (or in a worker)
// this file simply runs server/index.mjs in its own process, as before.
//
// Each worker is a whole server: its own caches, search index and job worker (jobs are claimed with leases,
// safe with several processes: docs/decisions/022). A worker that stops on its own is replaced, unless it
// stopped before it ever listened (a bad setting: then the primary stops with its exit code, as one
// process would). SIGTERM/SIGINT to the primary stop the workers gracefully, then the primary.
import cluster from "node:cluster";
import os from "node:os";
import { parseServerEnv, parseWebConcurrency } from "./env.mjs";
import { LISTENING_MESSAGE } from "./node-args.mjs";

const concurrency = parseWebConcurrency(process.env, os.availableParallelism());
// Checked once here, so that a bad setting is said once rather than by every worker.
const settings = cluster.isPrimary ? parseServerEnv(process.env) : { ok: true };
const problems = [...(concurrency.ok ? [] : [concurrency.problem]), ...(settings.ok ? [] : settings.problems)];
if (problems.length) {
  console.error(`The server cannot start:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}

if (cluster.isWorker || (concurrency.ok && concurrency.workers === 1)) {
  await import("./index.mjs");
} else {
  let stopping = false;
  /** @type {Set<number>} workers that have listened at least once */
  const listened = new Set();
  const fork = (/** @type {number} */ n) => {
    // Only the first worker says where it listens: `npm start` prints the same line as with one process.
    const worker = cluster.fork({ SERVER_WORKER: String(n) });
    worker.once("listening", () => {
      // The first worker to listen tells `npm start` the port is this server's (server/node-args.mjs).
      if (listened.size === 0) process.send?.(LISTENING_MESSAGE);
      listened.add(worker.id);
    });
    worker.once("exit", (code, signal) => {
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        return;
      }
      if (!listened.has(worker.id)) {
        // It could not start (a bad setting, a port in use): so would the others.
        stopping = true;
        for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
        process.exit(code || 1);
      }
      console.error(`[server] worker ${n} stopped (${signal ?? `exit code ${code}`}); starting another`);
      fork(n);
    });
  };
  for (let n = 1; n <= (concurrency.ok ? concurrency.workers : 1); n++) fork(n);

  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.once(signal, () => {
      stopping = true;
      const running = Object.values(cluster.workers ?? {});
      if (running.length === 0) process.exit(0);
      // A worker that got the signal itself (Ctrl-C reaches the whole process group) already stops;
      // SIGTERM is the one it handles either way. Workers give requests in flight 10 s.
      for (const worker of running) worker?.process.kill("SIGTERM");
    });
  }
}
