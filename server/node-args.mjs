// How the server process is started, shared by `npm start` (scripts/start.mjs) and the benchmark, so
// the figures describe the server as it runs.
//
// The V8 heap limit: JavaScript objects only (the search index's typed arrays live outside it). Without
// a limit V8 grows the heap to ~290 MB under load for ~90 MB of live objects; at 256 MB it holds
// ~135 MB with the same throughput (npm run bench -- search; docs/decisions/017).
//
// The young generation: a request's garbage dies young, and V8's default semi-spaces (up to 16 MB
// each, three of them) hold ~40 MB more resident memory than 1 MB ones for no measurable throughput
// on this workload (docs/decisions/017).
/** @param {Record<string, string | undefined>} [env] */
export function serverNodeArgs(env = process.env) {
  const heapMb = Number(env.SERVER_HEAP_MB || 256);
  if (!Number.isInteger(heapMb) || heapMb < 128) {
    throw new Error(`SERVER_HEAP_MB must be a whole number of megabytes, at least 128 (got "${env.SERVER_HEAP_MB}")`);
  }
  return [`--max-old-space-size=${heapMb}`, "--max-semi-space-size=1", "server/index.mjs"];
}

/**
 * The server's environment. glibc's malloc raises its mmap threshold each time a large block is freed,
 * so the search index's multi-megabyte arrays (and the temporaries that build them) end up in the brk
 * heap, whose holes are never returned: ~40 MB of resident memory for nothing. A fixed 128 KB
 * threshold keeps every large block in its own mapping, returned to the system when freed
 * (docs/decisions/017). Read by glibc when the process starts, so it must be set here, not inside.
 * @template {Record<string, string | undefined>} E
 * @param {E} env
 * @returns {E & { MALLOC_MMAP_THRESHOLD_: string }}
 */
export function serverEnv(env) {
  return { ...env, MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ || "131072" };
}
