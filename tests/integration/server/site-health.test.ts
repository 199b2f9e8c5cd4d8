// /healthz: a real database round trip, so a load balancer or `npm start` sees a dead database.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, tuneSqlite, type Db } from "~/db.server";
import { loader as healthLoader } from "~/routes/healthz";
import { checkHealth } from "~/services/health.server";
import { call } from "../../helpers/routes";
import { holdWriteLock } from "../../helpers/sqlite-lock-holder";

// Beside this file's own database copy, in the run's scratch directory (removed after the run).
const scratch = path.dirname(process.env.TEST_DB_FILE!);
const opened: Db[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.$disconnect()));
});

describe("GET /healthz", () => {
  it("answers 200 {ok:true}, never cached", async () => {
    const res = await call(healthLoader, "/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("checkHealth", () => {
  it("reports a database that cannot be opened", async () => {
    const missingDir = path.join(mkdtempSync(path.join(scratch, "health-")), "no-such-dir");
    const url = `file:${path.join(missingDir, "app.db")}`;
    const db = createDb(url);
    opened.push(db);
    const result = await checkHealth(db, Promise.resolve());
    expect(result.ok).toBe(false);
    expect(result).toHaveProperty("error");
    expect((result as { error: string }).error).not.toBe("");
  });

  it("reports a failure to prepare the connection as unhealthy instead of throwing", async () => {
    const missingDir = path.join(mkdtempSync(path.join(scratch, "health-")), "no-such-dir");
    const url = `file:${path.join(missingDir, "app.db")}`;
    const db = createDb(url);
    opened.push(db);
    const ready = tuneSqlite(db, url);
    ready.catch(() => {}); // awaited by checkHealth; silence the early rejection
    expect((await checkHealth(db, ready)).ok).toBe(false);
  });

  it("is healthy for a database it can open", async () => {
    const dir = mkdtempSync(path.join(scratch, "health-"));
    const url = `file:${path.join(dir, "fresh.db")}`;
    const db = createDb(url);
    opened.push(db);
    expect(await checkHealth(db, tuneSqlite(db, url))).toEqual({ ok: true });
  });
});

describe("tuneSqlite, as a process starts", () => {
  it("waits for another process's write lock on a file not yet in WAL mode instead of failing", async () => {
    // The server's workers start together on a database a command has just made (not yet in WAL mode): the first
    // to switch it holds the lock, and SQLite refused the others' switch at once (busy_timeout was set after it).
    const dir = mkdtempSync(path.join(scratch, "start-"));
    const file = path.join(dir, "app.db");
    const other = await holdWriteLock(file, "CREATE TABLE made_by_a_command (a)");
    const db = createDb(`file:${file}`);
    opened.push(db);
    other.release();
    await tuneSqlite(db, `file:${file}`);
    expect(await other.exited).toBe(0);
    expect(await db.$queryRawUnsafe("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
  });
});
