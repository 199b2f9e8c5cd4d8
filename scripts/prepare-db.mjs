#!/usr/bin/env node
// Applies committed migrations to DATABASE_URL (default: the SQLite file data/app.db), creating the
// folder first. Prisma's CLI runs its bundled WebAssembly engine (docs/decisions/002).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

export function prepareDb(env = process.env) {
  const url = env.DATABASE_URL ?? "file:./data/app.db";
  if (url.startsWith("file:")) mkdirSync(path.dirname(path.resolve(url.slice("file:".length))), { recursive: true });
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...env, DATABASE_URL: url, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  prepareDb();
  console.log("Database migrated.");
}
