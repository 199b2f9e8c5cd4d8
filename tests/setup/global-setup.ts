// Builds one migrated SQLite database from prisma/migrations per test run; each test file copies it
// (tests/setup/vitest.setup.ts), so every file starts from the real schema and nothing is shared.
// Each run has its own folder, so two runs at the same time do not delete each other's files. The run's one
// PostgreSQL cluster, which the first test file that needs it starts (tests/helpers/postgres-cluster.ts), is noted
// in that folder and stopped and removed here.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { stopSharedPostgresCluster } from "../helpers/postgres-cluster";

export default function setup() {
  const dir = path.resolve("tests/.tmp", `run-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${path.join(dir, "template.db")}`, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: "pipe",
  });
  // Test processes are started after this and inherit the variable.
  process.env.TEST_TMP_DIR = dir;
  const teardown = () => {
    stopSharedPostgresCluster(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  // An interrupted run that skips the teardown still leaves no server running.
  process.once("exit", teardown);
  return () => {
    process.removeListener("exit", teardown);
    teardown();
  };
}
