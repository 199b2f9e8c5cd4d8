// Builds one migrated SQLite database from prisma/migrations per test run; each test file copies it
// (tests/setup/vitest.setup.ts), so every file starts from the real schema and nothing is shared.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

export const TMP_DIR = path.resolve("tests/.tmp");
export const TEMPLATE_DB = path.join(TMP_DIR, "template.db");

export default function setup() {
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${TEMPLATE_DB}`, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: "pipe",
  });
  return () => rmSync(TMP_DIR, { recursive: true, force: true });
}
