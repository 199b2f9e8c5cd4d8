// Runs before every test file, before any app module is imported: a private copy of the migrated
// database and a complete test environment. Any console.error fails the test (as in the Epic Stack).
import { copyFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import { TEST_ENV } from "../helpers/test-env";

const tmpDir = process.env.TEST_TMP_DIR;
if (!tmpDir) throw new Error("TEST_TMP_DIR is not set: run the tests through vitest (tests/setup/global-setup.ts)");
const dbFile = path.join(tmpDir, `test-${randomUUID()}.db`);
copyFileSync(path.join(tmpDir, "template.db"), dbFile);

// TEST_DATABASE=postgresql: the file's database is a migrated one of its own on the run's throw-away PostgreSQL cluster
// (tests/helpers/postgres-cluster.ts) instead of the SQLite copy (issue 38 item 5: the suite on both engines).
const databaseUrl =
  process.env.TEST_DATABASE === "postgresql" ? await (await import("../helpers/postgres-cluster")).freshPostgresDatabase() : `file:${dbFile}`;

// Each test file's own mail outbox (the built-in mailer writes .eml files there, decision 051).
Object.assign(process.env, TEST_ENV, { DATABASE_URL: databaseUrl, MAIL_OUTBOX_DIR: path.join(tmpDir, `mail-${randomUUID()}`) });
process.env.TEST_DB_FILE = dbFile;

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});
