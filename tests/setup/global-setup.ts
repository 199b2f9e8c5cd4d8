// Builds one migrated SQLite database from prisma/migrations per test run; each test file copies it
// (tests/setup/vitest.setup.ts), so every file starts from the real schema and nothing is shared.
// Each run has its own folder, so two runs at the same time do not delete each other's files.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

export default function setup() {
  const dir = path.resolve("tests/.tmp", `run-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${path.join(dir, "template.db")}`, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: "pipe",
  });
  // Test processes are started after this and inherit the variable.
  process.env.TEST_TMP_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
