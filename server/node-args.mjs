// How the server process is started, shared by `npm start` (scripts/start.mjs) and the benchmark, so
// the figures describe the server as it runs.
//
// The V8 heap limit: JavaScript objects only (the search index's typed arrays live outside it). Without
// a limit V8 grows the heap to ~290 MB under load for ~90 MB of live objects; at 256 MB it holds
// ~135 MB with the same throughput (npm run bench -- search; docs/decisions/017).
//
// The young generation (SERVER_SEMI_SPACE_MB, 16): a request's garbage dies young if the young
// generation is large enough to hold what the requests in flight still use. 1 MB semi-spaces saved ~40 MB
// of resident memory on the JSON API (docs/decisions/017), but a server-rendered page allocates several
// MB: with 32 requests in flight V8 then spent over half the server's CPU collecting garbage; 16 MB cut
// that to about a quarter (npm run bench -- load; docs/decisions/039).
//
// The script is server/workers.mjs: WEB_CONCURRENCY copies of server/index.mjs behind one port.
/** @param {Record<string, string | undefined>} [env] */
export function serverNodeArgs(env = process.env) {
  const heapMb = Number(env.SERVER_HEAP_MB || 256);
  if (!Number.isInteger(heapMb) || heapMb < 128) {
    throw new Error(`SERVER_HEAP_MB must be a whole number of megabytes, at least 128 (got "${env.SERVER_HEAP_MB}")`);
  }
  const semiSpaceMb = Number(env.SERVER_SEMI_SPACE_MB || 16);
  if (!Number.isInteger(semiSpaceMb) || semiSpaceMb < 1 || semiSpaceMb > 64) {
    throw new Error(
      `SERVER_SEMI_SPACE_MB must be a whole number of megabytes from 1 to 64 (got "${env.SERVER_SEMI_SPACE_MB}")`,
    );
  }
  return [`--max-old-space-size=${heapMb}`, `--max-semi-space-size=${semiSpaceMb}`, "server/workers.mjs"];
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

/**
 * What the server sends its parent (`npm start`, over an IPC channel when it has one) once it holds its port: the
 * readiness check waits for it, so a 200 from another program on that port is never taken for this server's.
 */
export const LISTENING_MESSAGE = "winning-products:listening";

/**
 * The sentence for a port the server cannot take. `host` undefined: every interface.
 * @param {string | number} port @param {string | undefined} host
 */
export const portInUseMessage = (port, host) =>
  `Port ${port} is already in use by another program${host ? ` on ${host}` : ""}: stop it, or set PORT to a free port (e.g. PORT=3001 npm start).`;
