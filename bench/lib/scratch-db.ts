// A bench's own scratch database: bench/.data/NAME emptied, the process environment pointed at NAME/bench.db
// (test mode, silent logs) and the file migrated with `prisma migrate deploy`. Call it before the first import
// of ~/db.server, which reads DATABASE_URL once.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/** Returns the scratch directory (remove it when done if the bench wants to). */
export function prepareScratchDb(name: string): string {
  const dir = path.resolve("bench/.data", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  Object.assign(process.env, {
    DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SESSION_SECRET: "bench-secret-0123456789",
  });
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: "ignore",
  });
  return dir;
}
