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
  });

/**
 * @typedef {{ port: number, host: string | undefined, accessLog: boolean, buildFile: string, maxBodyBytes: number }} ServerEnv
 */

/**
 * The server's settings from an environment; every problem as one line naming its variable. A variable
 * set to nothing (`PORT=`, as in .env.example) counts as not set.
 * @param {Record<string, string | undefined>} source
 * @param {string} [cwd] what a relative REMIX_BUILD is resolved against
 * @returns {{ ok: true, env: ServerEnv } | { ok: false, problems: string[] }}
 */
export function parseServerEnv(source, cwd = process.cwd()) {
  const names = ["PORT", "HOST", "ACCESS_LOG", "REMIX_BUILD", "MAX_BODY_BYTES"];
  const present = Object.fromEntries(
    names.filter((name) => source[name]?.trim()).map((name) => [name, source[name]?.trim()]),
  );
  const result = ServerEnvSchema(cwd).safeParse(present);
  if (!result.success) {
    return { ok: false, problems: result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`) };
  }
  const { PORT, HOST, ACCESS_LOG, REMIX_BUILD, MAX_BODY_BYTES } = result.data;
  return {
    ok: true,
    env: { port: PORT, host: HOST, accessLog: ACCESS_LOG, buildFile: REMIX_BUILD, maxBodyBytes: MAX_BODY_BYTES },
  };
}
