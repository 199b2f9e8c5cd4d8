// The rate limiter's counters live in a SQLite file of their own beside the app's database (decision 069): a try
// never writes the app's file (a write there makes every other connection drop its cached pages, which cost the
// API more than the count itself); the windows decision 063 kept in the app's file carry over, once; an API call's
// three counts are one write; deleting an account forgets its counters there too; a process opening a new counters
// file while another holds its lock (the server's workers starting at once) waits for it instead of stopping.
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import LibsqlDatabase from "libsql";
import { beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { AppError } from "~/domain/errors";
import { counterFileFor, sqliteCounterClient } from "~/services/api-access/counters.server";
import { createRateLimits, RATE_LIMITS, type RateLimitRule } from "~/services/api-access/rate-limits.server";
import { holdWriteLock } from "../../helpers/sqlite-lock-holder";

const appFile = process.env.TEST_DB_FILE!;
let ruleCount = 0;
const rule = (points: number): RateLimitRule => ({
  name: `test-file-${++ruleCount}`,
  points,
  windowSeconds: 60,
  refusal: (retryIn) => `Too many tries. Try again ${retryIn}.`,
});

/** SQLite's data_version seen from a connection of our own: it changes when another connection commits to the file. */
function dataVersionWatcher(file: string) {
  const watcher = new LibsqlDatabase(file);
  return {
    read: () => (watcher.prepare("PRAGMA data_version").get() as { data_version: number }).data_version,
    close: () => watcher.close(),
  };
}

beforeAll(async () => {
  await dbReady;
});

describe("the counters' own file", () => {
  it("counts tries without writing to the app's database file", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const limit = limits.limit(rule(100));
    await limit.take({ subject: "warm-up" });
    const app = dataVersionWatcher(appFile);
    const counters = dataVersionWatcher(counterFileFor(appFile));
    try {
      const [appBefore, countersBefore] = [app.read(), counters.read()];
      for (let i = 0; i < 5; i++) await limit.take({ subject: "someone" });
      await limits.together(async () => {
        await limit.take({ subject: "someone" });
        await limit.consume("someone-else");
      });
      expect(app.read()).toBe(appBefore);
      expect(counters.read()).not.toBe(countersBefore);
      expect((await limit.usage("someone")).used).toBe(6);
    } finally {
      app.close();
      counters.close();
    }
    expect(existsSync(counterFileFor(appFile))).toBe(true);
  });

  it("carries the windows still running in the app's file over once, and leaves the ended ones", async () => {
    // A database as decision 063 left it: counters in the app's file, no counters file yet.
    const oldFile = path.join(path.dirname(appFile), `carry-${process.pid}-${Date.now()}.db`);
    copyFileSync(appFile, oldFile);
    const old = new LibsqlDatabase(oldFile);
    old.exec('DELETE FROM "RateLimitCounter"');
    const insert = old.prepare('INSERT INTO "RateLimitCounter" ("key", "points", "expire") VALUES (?, ?, ?)');
    insert.run("api:month:user:u-1", 1234, Date.now() + 20 * 24 * 3600 * 1000);
    insert.run("api:month:user:u-2", 77, Date.now() - 1000);
    old.close();
    expect(existsSync(counterFileFor(oldFile))).toBe(false);

    const monthly = () => createRateLimits({ db, databaseUrl: `file:${oldFile}` }).limit(RATE_LIMITS.apiMonthly);
    expect((await monthly().usage("user:u-1")).used).toBe(1234);
    expect((await monthly().usage("user:u-2")).used).toBe(0);
    // A second process starting on the same files does not copy again (the old row would undo its count).
    await monthly().take({ subject: "user:u-1" });
    expect((await monthly().usage("user:u-1")).used).toBe(1235);
  });

  it("counts a call refused by one of its counts in the others as before, inside one write", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const minute = limits.limit(rule(2));
    const month = limits.limit(rule(1000));
    const call = () =>
      limits.together(async () => {
        await minute.take({ subject: "caller" });
        await month.take({ subject: "caller" });
      });
    await call();
    await call();
    const refusal = await call().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).status).toBe(429);
    // The refused try counted in the minute (as rate-limiter-flexible counts one) and stopped before the month.
    expect((await minute.usage("caller")).used).toBe(3);
    expect((await month.usage("caller")).used).toBe(2);
  });

  it("counts the calls of one turn together (decision 074) and answers each as if it had been counted alone", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const minute = limits.limit(rule(20));
    const month = limits.limit(rule(1000));
    const call = () =>
      limits.takeSteps([
        { limit: minute, subjects: [{ subject: "key:k" }, { subject: "user:u", limit: 25 }] },
        { limit: month, subjects: [{ subject: "user:u" }] },
      ]);
    const counters = dataVersionWatcher(counterFileFor(appFile));
    try {
      const before = counters.read();
      const results = await Promise.allSettled(Array.from({ length: 50 }, call));
      expect(counters.read()).not.toBe(before);
      const answered = results.filter((r) => r.status === "fulfilled").map((r) => r.value);
      const refused = results.filter((r) => r.status === "rejected").map((r) => r.reason as AppError);
      expect([answered.length, refused.length]).toEqual([20, 30]);
      // Each call saw its own count, in the order the calls were made: the key's 20 (tighter than the user's 25)
      // counts down from 19 to 0, the month from 999 to 980.
      expect(answered.map(([m]) => m.remaining)).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
      expect(answered.map(([, mo]) => [mo.limit, mo.remaining])).toEqual(Array.from({ length: 20 }, (_, i) => [1000, 999 - i]));
      expect(refused.every((e) => e.status === 429 && e.details.rateLimit !== undefined)).toBe(true);
      // A refused call counted in the minute (both subjects) and stopped before the month.
      expect((await minute.usage("key:k")).used).toBe(50);
      expect((await minute.usage("user:u")).used).toBe(50);
      expect((await month.usage("user:u")).used).toBe(20);
    } finally {
      counters.close();
    }
  });

  it("counts steps asked for inside an open write at once, in it", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const minute = limits.limit(rule(5));
    const inside = await limits.together(() => limits.takeSteps([{ limit: minute, subjects: [{ subject: "nested" }] }]));
    expect(inside).toEqual([expect.objectContaining({ limit: 5, remaining: 4 })]);
    const [[first], [second]] = await Promise.all([
      limits.takeSteps([{ limit: minute, subjects: [{ subject: "nested" }] }]),
      limits.together(() => limits.takeSteps([{ limit: minute, subjects: [{ subject: "nested" }] }])),
    ]);
    expect([first.remaining, second.remaining].sort()).toEqual([2, 3]);
  });

  it("waits for the file's write lock held by another process without stopping this one's event loop", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const limit = limits.limit(rule(10));
    await limit.take({ subject: "waiter" });
    // Another connection (as another process would) holds the write lock for 300 ms.
    const other = new LibsqlDatabase(counterFileFor(appFile));
    other.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const released = new Promise<number>((resolve) =>
      setTimeout(() => {
        other.exec("COMMIT");
        resolve(ticks);
      }, 300),
    );
    try {
      const status = await limit.take({ subject: "waiter" });
      // SQLite's own busy wait would hold this thread: no tick, and the lock never released (the release is a timer here).
      expect(await released).toBeGreaterThan(5);
      expect(status.remaining).toBe(8);
    } finally {
      clearInterval(ticker);
      other.close();
    }
  });

  it("opens a new counters file while another process holds its write lock, waiting for it instead of failing", async () => {
    // What the server's workers do when they start on a new file at once: one holds the lock while switching the file
    // to WAL, and the other's switch, which SQLite refuses at once (SQLITE_BUSY, no busy wait: it could deadlock),
    // stopped that worker and the server with it.
    const newApp = path.join(path.dirname(appFile), `opening-${process.pid}-${Date.now()}.db`);
    const other = await holdWriteLock(counterFileFor(newApp));
    other.release();
    // Refused at once with SQLITE_BUSY before the fix; now it waits for the lock, then makes its table.
    sqliteCounterClient(newApp);
    expect(await other.exited).toBe(0);
    const opened = new LibsqlDatabase(counterFileFor(newApp));
    try {
      expect(opened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: "RateLimitCounter" }]);
      expect(opened.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    } finally {
      opened.close();
    }
  });

  it("forgets a subject's counters in every limit, and no one else's", async () => {
    const limits = createRateLimits({ db, databaseUrl: `file:${appFile}` });
    const reset = limits.limit(RATE_LIMITS.passwordResetPerEmail);
    const api = limits.limit(RATE_LIMITS.apiMonthly);
    await reset.consume("gone@example.com");
    await reset.consume("stays@example.com");
    await reset.consume("also-gone@example.com");
    await api.take({ subject: "user:gone-id" });
    await api.take({ subject: "user:gone-id-2" });
    await limits.forget(["gone@example.com", "user:gone-id"]);
    expect((await reset.usage("gone@example.com")).used).toBe(0);
    expect((await api.usage("user:gone-id")).used).toBe(0);
    // A suffix of another subject is not that subject.
    expect((await reset.usage("also-gone@example.com")).used).toBe(1);
    expect((await reset.usage("stays@example.com")).used).toBe(1);
    expect((await api.usage("user:gone-id-2")).used).toBe(1);
  });
});
