// The environment `npm start` and `npm run worker` run the app with (scripts/start.mjs step 1): the built-in defaults
// of a fresh machine on top of what the caller set. A web host and a worker host given the same variables get the same
// environment; on one machine they share data/'s secrets, so a worker reads what the web process wrote.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyLocalDemoDefaults } from "./local-demo-defaults.mjs";

/** A secret kept in data/ (git-ignored), made once with `make` when the file does not exist. */
function keptSecret(name, make) {
  mkdirSync("data", { recursive: true });
  const file = path.resolve("data", name);
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

/**
 * @param {Record<string, string | undefined>} base
 * @returns {{ env: Record<string, string | undefined>, lines: string[] }} the environment, and the notes to print
 */
export function startEnv(base) {
  const env = { ...base };
  const lines = [];
  env.PORT ??= "3000";
  env.DATABASE_URL ??= "file:./data/app.db";
  env.NODE_ENV ??= "production";
  // Session cookies' secret, random and never a value from the repository (docs/decisions/020).
  env.SESSION_SECRET ||= keptSecret("session-secret", () => randomBytes(32).toString("hex"));
  // Stored Shopify tokens are encrypted (docs/decisions/014); production requires a key, kept here like the
  // session secret. Losing this file makes stored tokens unreadable: merchants then reopen the app to renew them.
  env.TOKEN_ENCRYPTION_KEYS ||= keptSecret("token-encryption-keys", () => `local1:${randomBytes(32).toString("base64")}`);
  if (!env.SHOPIFY_API_KEY && !env.SHOPIFY_API_SECRET && !env.SHOPIFY_APP) {
    // The embedded app only works with the client id and secret of an app registered with Shopify; a made-up
    // secret would pretend otherwise. Switched off, its webhooks and session tokens are refused.
    env.SHOPIFY_APP = "off";
    lines.push(
      "No SHOPIFY_API_KEY / SHOPIFY_API_SECRET: the embedded Shopify app is off (SHOPIFY_APP=off); the site works fully. Set both to turn it on.",
    );
  }
  // The quick start is a local demo (docs/decisions/042). A deployment sets APP_URL to its public address, and then
  // needs Paddle keys (the server refuses to start without them) and gets no demo login.
  lines.push(...applyLocalDemoDefaults(env));
  return { env, lines };
}
