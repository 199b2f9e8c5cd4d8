#!/usr/bin/env node
// `npm start`: everything a fresh machine needs to serve the product on the built-in defaults.
// 0. packages installed (npm ci) when node_modules is missing or stale, and Node 22 from node_modules;
// 1. a local secret for session cookies (data/session-secret) unless SESSION_SECRET is set, and likewise a
//    key for stored Shopify tokens (data/token-encryption-keys) unless TOKEN_ENCRYPTION_KEYS is set: random,
//    made once, git-ignored, never a value from the repository (docs/decisions/020); without Shopify keys
//    the embedded Shopify app is switched off (SHOPIFY_APP=off) with a note, and the site works fully;
//    without APP_URL it serves a local demo on http://localhost:PORT, listening on 127.0.0.1 unless HOST is set
//    (docs/decisions/042): there, and only there, the local test checkout runs without Paddle keys and the demo
//    login exists; a public APP_URL needs Paddle keys;
// 2. migrations applied to DATABASE_URL (SQLite file data/app.db by default; a postgresql:// URL is checked first and
//    gets prisma/postgresql/migrations, decision 098: one sentence naming DATABASE_URL when it cannot be used);
// 3. data seeded (idempotent; the server's environment is checked here first) and, on a local demo, the demo
//    login printed; then the file storage (a bucket or VIDEO_STORAGE_DIR) written to, read and cleaned once;
// 4. a production build (skipped with SKIP_BUILD=1 when build/ is current);
// 5. the server on PORT (3000), with a readiness check before saying so: it must hold the port (a port another
//    program holds stops this script at once, naming it; decision 080) and answer /healthz.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ensureDeps, reexecUnderNode22 } from "./ensure-deps.mjs";

ensureDeps();
reexecUnderNode22(import.meta.url);
const { prepareDbOrExit } = await import("./prepare-db.mjs");
const { redactedUrl } = await import("./lib/postgres-ready.mjs");
const { startEnv } = await import("./lib/start-env.mjs");

const { env, lines } = startEnv(process.env);
for (const line of lines) console.log(line);

const { LISTENING_MESSAGE, portInUseMessage, serverEnv, serverNodeArgs } = await import("../server/node-args.mjs");
// A port another program holds is said before anything is migrated or built (decision 080).
if (await portTaken(Number(env.PORT), env.HOST)) {
  console.error(`${portInUseMessage(env.PORT, env.HOST)} Nothing was started.`);
  process.exit(1);
}

const bin = (name) => path.resolve("node_modules/.bin", name);
const step = (label) => console.log(`\n▸ ${label}`);

step(`Applying migrations to ${redactedUrl(env.DATABASE_URL)}`);
await prepareDbOrExit(env);

step("Seeding data");
// The seed reads the environment as the server will: a refused one stops here, with its own lines and no trace.
const seed = spawnSync(bin("tsx"), ["prisma/seed.ts"], { env, stdio: "inherit" });
if (seed.status !== 0) process.exit(seed.status ?? 1);

step("Checking file storage");
// A bucket (STORAGE_BUCKET) or folder (VIDEO_STORAGE_DIR) that refuses a write stops here with a sentence naming the
// variable to fix, before anything is served (decision 097).
const storage = spawnSync(bin("tsx"), ["scripts/storage.ts", "check"], { env, stdio: "inherit" });
if (storage.status !== 0) process.exit(storage.status ?? 1);

if (env.SKIP_BUILD !== "1" || !existsSync("build/server/index.js")) {
  step("Building the app");
  execFileSync(bin("remix"), ["vite:build"], { env, stdio: ["ignore", "ignore", "inherit"] });
}

step(`Starting the server on http://localhost:${env.PORT}`);
// With an IPC channel: the server says when it holds the port (LISTENING_MESSAGE). Until then a 200 on the port is
// another program's, which is how this script once said Ready while its own server had failed with EADDRINUSE.
const server = spawn(process.execPath, serverNodeArgs(env), { env: serverEnv(env), stdio: ["inherit", "inherit", "inherit", "ipc"] });
let listening = false;
server.on("message", (message) => (listening ||= message === LISTENING_MESSAGE));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

const deadline = Date.now() + 60_000;
(async function waitUntilHealthy() {
  while (Date.now() < deadline) {
    if (!listening) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/healthz`);
      if (res.ok) {
        console.log(`\n✔ Ready: http://localhost:${env.PORT}`);
        const demo = path.resolve("data/demo-login.txt");
        if (existsSync(demo)) console.log(readFileSync(demo, "utf8"));
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  console.error("The server did not answer /healthz within 60 s.");
})();

/** Whether another program listens on this port (on `host`, or on any interface when none is set). */
function portTaken(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    // Only a port in use says so here; anything else (a port below 1024 without the right) is the server's to say.
    probe.once("error", (error) => resolve(error.code === "EADDRINUSE"));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}
