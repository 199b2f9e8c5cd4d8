#!/usr/bin/env node
// `npm run worker`: a process that runs only the background jobs (renders, store reads, pictures, matching, the
// outbox, schedules), for a host apart from the web's (issue 38 item 3, decision 103). Web hosts then run
// `JOBS_WORKER=off npm start`; any number of workers share the jobs through the database (decision 022's leases:
// a job runs in one process at a time, and a worker that dies mid-job has its job taken over when its lease ends).
// It prepares what `npm start` prepares before running anything: the same environment (scripts/lib/start-env.mjs),
// the migrations applied to DATABASE_URL, and the file storage checked; it builds nothing and serves nothing.
// SIGTERM or SIGINT stops taking jobs, lets the running ones end (their signal aborts them) and exits.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { ensureDeps, reexecUnderNode22 } from "./ensure-deps.mjs";

ensureDeps();
reexecUnderNode22(import.meta.url);
const { prepareDbOrExit } = await import("./prepare-db.mjs");
const { redactedUrl } = await import("./lib/postgres-ready.mjs");
const { startEnv } = await import("./lib/start-env.mjs");

const { env, lines } = startEnv(process.env);
for (const line of lines) console.log(line);
const tsx = path.resolve("node_modules/.bin/tsx");

console.log(`\n▸ Applying migrations to ${redactedUrl(env.DATABASE_URL)}`);
await prepareDbOrExit(env);

console.log("\n▸ Checking file storage");
const storage = spawnSync(tsx, ["scripts/storage.ts", "check"], { env, stdio: "inherit" });
if (storage.status !== 0) process.exit(storage.status ?? 1);

console.log("\n▸ Starting the job worker");
// One process (tsx as a loader, not its CLI, which stands between a signal and the worker's handler).
const worker = spawn(process.execPath, ["--import", "tsx", "scripts/jobs-worker.ts"], { env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => worker.kill(signal));
worker.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
