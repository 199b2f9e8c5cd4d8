#!/usr/bin/env node
// `npm run test:postgres`: the integration tests of tests/postgres/pass.json on PostgreSQL (each file a migrated
// database of its own on a throw-away cluster), as `npm test` runs them after the SQLite pass.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ensurePostgres } from "./ensure-postgres.mjs";
import { postgresPass } from "./lib/postgres-pass.mjs";

ensurePostgres();
const pass = postgresPass();
const result = spawnSync(path.resolve("node_modules/.bin/vitest"), ["run", ...pass.args, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ...pass.env },
});
process.exit(result.status ?? 1);
