// The variables server/index.mjs reads, checked before anything is loaded: one line per bad value and a
// non-zero exit, instead of a server on a random port (PORT=abc) or a stack trace (a missing build).
// The app's own variables are checked by app/env.server.ts when the build is loaded.
import { existsSync, statSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** MAX_BODY_BYTES bounds: below 1 KB a sign-up form does not fit; above 64 MB a cap no longer protects memory. */
export const MIN_MAX_BODY_BYTES = 1024;
export const MAX_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How long receiving a request (headers and body) and its headers alone may take (docs/decisions/039). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 15_000;
/** Below half a second a slow but honest client fails; above 10 minutes the limit no longer protects sockets. */
const MIN_TIMEOUT_MS = 500;
const MAX_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 64;

// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, 253 characters at most.
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const WHOLE_NUMBER = /^\d+$/;
const SWITCH = { on: true, true: true, 1: true, off: false, false: false, 0: false };

/** @param {string} value */
const got = (value) => `(got ${JSON.stringify(value)})`;

/** @param {string} cwd */
const ServerEnvSchema = (cwd) =>
  z.object({
    PORT: z
      .string()
      .default("3000")
      .transform((value, ctx) => {
        const port = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
        if (port >= 1 && port <= 65535) return port;
        ctx.addIssue({ code: "custom", message: `must be a whole number from 1 to 65535 ${got(value)}` });
        return z.NEVER;
      }),
    HOST: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined || isIP(value) !== 0 || HOSTNAME.test(value)) return value;
        ctx.addIssue({
          code: "custom",
          message: `must be a host name or an IP address, e.g. 127.0.0.1, :: or localhost ${got(value)}`,
        });
        return z.NEVER;
      }),
    ACCESS_LOG: z
      .string()
      .default("on")
      .transform((value, ctx) => {
        const on = SWITCH[/** @type {keyof typeof SWITCH} */ (value.toLowerCase())];
        if (on !== undefined) return on;
        ctx.addIssue({ code: "custom", message: `must be one of on, off, true, false, 1, 0 ${got(value)}` });
        return z.NEVER;
      }),
    REMIX_BUILD: z
      .string()
      .default("build/server/index.js")
      .transform((value, ctx) => {
        const file = path.resolve(cwd, value);
        if (existsSync(file) && statSync(file).isFile()) return file;
        const hint = existsSync(file) ? "is not a file" : "does not exist (run `npm run build` first)";
        ctx.addIssue({ code: "custom", message: `must be the server build's file: ${file} ${hint}` });
        return z.NEVER;
      }),
    MAX_BODY_BYTES: z
      .string()
      .default(String(DEFAULT_MAX_BODY_BYTES))
      .transform((value, ctx) => {
        const bytes = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
        if (bytes >= MIN_MAX_BODY_BYTES && bytes <= MAX_MAX_BODY_BYTES) return bytes;
        ctx.addIssue({
          code: "custom",
          message: `must be a whole number of bytes from ${MIN_MAX_BODY_BYTES} to ${MAX_MAX_BODY_BYTES} ${got(value)}`,
        });
        return z.NEVER;
      }),
    REQUEST_TIMEOUT_MS: milliseconds("REQUEST_TIMEOUT_MS", DEFAULT_REQUEST_TIMEOUT_MS),
    HEADERS_TIMEOUT_MS: milliseconds("HEADERS_TIMEOUT_MS").optional(),
    MAX_CONNECTIONS_PER_CLIENT: z
      .string()
      .default(String(DEFAULT_MAX_CONNECTIONS_PER_CLIENT))
      .transform((value, ctx) => {
        const count = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
        if (count >= 0 && count <= 100_000) return count;
        ctx.addIssue({ code: "custom", message: `must be a whole number from 0 (no cap) to 100000 ${got(value)}` });
        return z.NEVER;
      }),
  });

/**
 * @param {string} name
 * @param {number} [fallback]
 */
function milliseconds(name, fallback) {
  const text = z.string();
  return (fallback === undefined ? text : text.default(String(fallback))).transform((value, ctx) => {
    const ms = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
    if (ms >= MIN_TIMEOUT_MS && ms <= MAX_TIMEOUT_MS) return ms;
    ctx.addIssue({
      code: "custom",
      message: `must be a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS} ${got(value)}`,
    });
    return z.NEVER;
  });
}

/**
 * @typedef {{
 *   port: number, host: string | undefined, accessLog: boolean, buildFile: string, maxBodyBytes: number,
 *   requestTimeoutMs: number, headersTimeoutMs: number, maxConnectionsPerClient: number,
 * }} ServerEnv
 */

/**
 * The server's settings from an environment; every problem as one line naming its variable. A variable
 * set to nothing (`PORT=`, as in .env.example) counts as not set.
 * @param {Record<string, string | undefined>} source
 * @param {string} [cwd] what a relative REMIX_BUILD is resolved against
 * @returns {{ ok: true, env: ServerEnv } | { ok: false, problems: string[] }}
 */
export function parseServerEnv(source, cwd = process.cwd()) {
  const names = [
    "PORT",
    "HOST",
    "ACCESS_LOG",
    "REMIX_BUILD",
    "MAX_BODY_BYTES",
    "REQUEST_TIMEOUT_MS",
    "HEADERS_TIMEOUT_MS",
    "MAX_CONNECTIONS_PER_CLIENT",
  ];
  const present = Object.fromEntries(
    names.filter((name) => source[name]?.trim()).map((name) => [name, source[name]?.trim()]),
  );
  const result = ServerEnvSchema(cwd).safeParse(present);
  if (!result.success) {
    return { ok: false, problems: result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`) };
  }
  const { PORT, HOST, ACCESS_LOG, REMIX_BUILD, MAX_BODY_BYTES, REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS } = result.data;
  // The request timeout covers the headers too: Node refuses a longer headers timeout.
  if (HEADERS_TIMEOUT_MS !== undefined && HEADERS_TIMEOUT_MS > REQUEST_TIMEOUT_MS) {
    return {
      ok: false,
      problems: [
        `HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (${REQUEST_TIMEOUT_MS}) (got "${HEADERS_TIMEOUT_MS}")`,
      ],
    };
  }
  return {
    ok: true,
    env: {
      port: PORT,
      host: HOST,
      accessLog: ACCESS_LOG,
      buildFile: REMIX_BUILD,
      maxBodyBytes: MAX_BODY_BYTES,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      headersTimeoutMs: HEADERS_TIMEOUT_MS ?? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS),
      maxConnectionsPerClient: result.data.MAX_CONNECTIONS_PER_CLIENT,
    },
  };
}

/**
 * WEB_CONCURRENCY: how many server processes share the port (server/workers.mjs). Default: `cores` in
 * production (each process runs its JavaScript on one core), 1 otherwise.
 * @param {Record<string, string | undefined>} source
 * @param {number} cores
 * @returns {{ ok: true, workers: number } | { ok: false, problem: string }}
 */
export function parseWebConcurrency(source, cores) {
  const value = source.WEB_CONCURRENCY?.trim();
  if (!value) return { ok: true, workers: source.NODE_ENV === "production" ? Math.max(1, cores) : 1 };
  const workers = WHOLE_NUMBER.test(value) ? Number(value) : NaN;
  if (workers >= 1 && workers <= 64) return { ok: true, workers };
  return { ok: false, problem: `WEB_CONCURRENCY must be a whole number of processes from 1 to 64 ${got(value)}` };
}
