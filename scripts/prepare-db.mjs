#!/usr/bin/env node
// Applies committed migrations to DATABASE_URL (default: the SQLite file data/app.db, creating its folder first).
// Prisma's CLI runs its bundled WebAssembly engine (docs/decisions/002). A postgresql:// URL is checked first
// (scripts/lib/postgres-ready.mjs) and migrated with prisma/postgresql/migrations (decision 098): a database that does
// not answer, refuses the login, or holds another version's migrations is one sentence naming DATABASE_URL.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { checkPostgres, DatabaseUrlError, redactedUrl } from "./lib/postgres-ready.mjs";

const isPostgres = (url) => /^postgres(ql)?:\/\//i.test(url);

export async function prepareDb(env = process.env) {
  const url = env.DATABASE_URL ?? "file:./data/app.db";
  if (url.startsWith("file:")) mkdirSync(path.dirname(path.resolve(url.slice("file:".length))), { recursive: true });
  if (isPostgres(url)) await checkPostgres(url, path.resolve("prisma/postgresql/migrations"));
  try {
    execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
      env: { ...env, DATABASE_URL: url, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", isPostgres(url) ? "pipe" : "inherit"],
    });
  } catch (error) {
    if (!isPostgres(url)) throw error;
    // The engine's own first line (e.g. "Error querying the database: ..."), without its stack of Rust frames.
    const lines = `${error.stderr ?? ""}`.split("\n").map((l) => l.trim());
    const reason = lines.find((l) => /^Error( querying the database)?:/.test(l) && !/external connector error/i.test(l)) ?? "see the migration engine's log";
    throw new DatabaseUrlError(`Migrating DATABASE_URL (${redactedUrl(url)}) failed: ${reason.replace(/^Error:\s*/, "")}`);
  }
}

/** prepareDb for a command: a refused database is its one sentence on stderr and exit code 1, never a stack. */
export async function prepareDbOrExit(env = process.env) {
  try {
    await prepareDb(env);
  } catch (error) {
    if (!(error instanceof DatabaseUrlError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await prepareDbOrExit();
  console.log("Database migrated.");
}
