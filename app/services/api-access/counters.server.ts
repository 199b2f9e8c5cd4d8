// The rate limiter's counters file (decisions 069, 074): a SQLite file of its own beside the app's database, its
// table made and the app file's running windows carried over once, and the connection rate-limiter-flexible's
// SQLite store counts on, whose writes are grouped per turn of the event loop and whose lock is waited for without
// blocking. The limits themselves (rules, take/consume, a call's steps) are app/services/api-access/rate-limits.server.ts.
import { existsSync } from "node:fs";
import LibsqlDatabase from "libsql";

/** The SQLite table of the counters (the library's layout): key, points, expire in epoch milliseconds. */
export const COUNTER_TABLE = "RateLimitCounter";
/** The counters file's schema version (PRAGMA user_version): 1 = the table, with the app file's windows copied in. */
const COUNTER_FILE_VERSION = 1;
/** How long a try waits for the counters file's write lock before it fails. */
const BUSY_WAIT_MS = 5000;

/** The counters' own SQLite file, beside the app's database file (decision 069): `data/app.db` -> `data/app.db-rate-limits`. */
export function counterFileFor(databaseFile: string): string {
  return `${databaseFile}-rate-limits`;
}

/**
 * Makes the counters file's table once, and copies the windows still running from the app file's
 * `RateLimitCounter` (where decision 063 kept them; the monthly allowances above all), so moving the counters
 * forgets no count. Under the file's write lock: of several processes starting at once, one does it.
 */
function prepareCounterFile(database: InstanceType<typeof LibsqlDatabase>, appFile: string) {
  // (libsql's pragma(..., { simple: true }) does not work: it has no pluck.)
  const version = () => (database.prepare("PRAGMA main.user_version").get() as { user_version: number }).user_version;
  if (version() === COUNTER_FILE_VERSION) return;
  // ATTACH of a missing file would create it: only an app file that exists is read.
  const attached = existsSync(appFile);
  if (attached) database.prepare("ATTACH DATABASE ? AS app").run(appFile);
  try {
    database.exec("BEGIN IMMEDIATE");
    try {
      if (version() !== COUNTER_FILE_VERSION) {
        database.exec(
          `CREATE TABLE IF NOT EXISTS main."${COUNTER_TABLE}" ("key" TEXT NOT NULL PRIMARY KEY, "points" INTEGER NOT NULL DEFAULT 0, "expire" BIGINT)`,
        );
        const appHasCounters =
          attached && database.prepare("SELECT 1 FROM app.sqlite_master WHERE type = 'table' AND name = ?").get(COUNTER_TABLE) !== undefined;
        if (appHasCounters) {
          database
            .prepare(
              `INSERT OR IGNORE INTO main."${COUNTER_TABLE}" ("key", "points", "expire") ` +
                `SELECT "key", "points", "expire" FROM app."${COUNTER_TABLE}" WHERE "expire" IS NULL OR "expire" > ?`,
            )
            .run(Date.now());
        }
        database.exec(`PRAGMA main.user_version = ${COUNTER_FILE_VERSION}`);
      }
      database.exec("COMMIT");
    } catch (error) {
      database.exec("ROLLBACK");
      throw error;
    }
  } finally {
    if (attached) database.exec("DETACH DATABASE app");
  }
}

const startSleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs a step of opening the counters file again, for up to BUSY_WAIT_MS, while another process opening it holds a
 * lock SQLite answers SQLITE_BUSY for without waiting (its busy_timeout does not cover a switch into WAL: the
 * server's workers starting on a new file at once stopped one of them, and the server with it). Only when a process
 * starts, before it serves anything, so sleeping in the thread blocks nobody.
 */
function whileBusyAtStart<T>(step: () => T): T {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      return step();
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      Atomics.wait(startSleeper, 0, 0, 5 + Math.floor(Math.random() * 10));
    }
  }
}

/**
 * The counters' own connection to their own SQLite file, as the library's better-sqlite3 store wants it (the
 * libsql driver has the same API). Changes from the plain driver: statements are prepared once and reused (the
 * store prepares its one upsert on every try), the store's transaction around that single statement is dropped
 * (one statement is atomic on its own), and `together` runs several tries in one write transaction (one lock
 * and one WAL commit for a call's three counts). `synchronous = NORMAL`: a commit is not fsynced, so a power cut
 * (not a crash of the process) may forget the last tries; a few hundred microseconds saved on each (decision 063).
 */
export function sqliteCounterClient(appFile: string) {
  const database = new LibsqlDatabase(counterFileFor(appFile));
  database.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
  whileBusyAtStart(() => database.pragma("journal_mode = WAL"));
  database.pragma("synchronous = NORMAL");
  whileBusyAtStart(() => prepareCounterFile(database, appFile));
  const statements = new Map<string, ReturnType<typeof database.prepare>>();

  /**
   * Takes the file's write lock for a transaction without blocking the event loop: SQLite's busy handler sleeps
   * in the calling thread (1 ms and more a time), so while another process holds the lock, every request of this
   * one would wait. Instead, a busy file is tried again after the event loop has turned (other requests go on
   * meanwhile), for up to BUSY_WAIT_MS. False when a transaction of this connection was opened meanwhile (the
   * caller joins it).
   */
  const noWait = database.prepare("PRAGMA busy_timeout = 0");
  const wait = database.prepare(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  async function beginWithoutBlocking(): Promise<boolean> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let attempt = 0; ; attempt++) {
      if (database.inTransaction) return false;
      noWait.get();
      try {
        database.exec("BEGIN IMMEDIATE");
        return true;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      } finally {
        wait.get();
      }
      await new Promise((resolve) => (attempt < 8 ? setImmediate(resolve) : setTimeout(resolve, Math.min(attempt - 7, 5))));
    }
  }

  type Queued = { work: () => Promise<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const queued: Queued[] = [];
  let groupScheduled = false;
  let groupRunning = false;
  function scheduleGroup() {
    if (groupScheduled || groupRunning) return;
    groupScheduled = true;
    setImmediate(() => {
      groupScheduled = false;
      groupRunning = true;
      const group = queued.splice(0);
      // runGroup answers every work; should it fail itself (a ROLLBACK that fails), no caller is left waiting.
      void runGroup(group)
        .catch((error: unknown) => group.forEach((q) => q.reject(error)))
        .finally(() => {
          groupRunning = false;
          if (queued.length > 0) scheduleGroup();
        });
    });
  }

  /**
   * One group: the lock, each work in turn (a refusal is that work's answer, not the group's), COMMIT whatever the
   * works ended with (each try counts as it did in a transaction of its own), then every work's answer. A lock not
   * had in BUSY_WAIT_MS fails every work of the group, as it failed one call before.
   */
  async function runGroup(group: Queued[]) {
    let began: boolean;
    try {
      began = await beginWithoutBlocking();
    } catch (error) {
      for (const q of group) q.reject(error);
      return;
    }
    const settled: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      for (const q of group) {
        try {
          settled.push({ ok: true, value: await q.work() });
        } catch (error) {
          settled.push({ ok: false, error });
        }
      }
    } finally {
      if (began && database.inTransaction) {
        try {
          database.exec("COMMIT");
        } catch (error) {
          // Nothing of the group was counted: every work fails, none is answered as counted.
          if (database.inTransaction) database.exec("ROLLBACK");
          settled.fill({ ok: false, error });
        }
      }
    }
    group.forEach((q, i) => {
      const s = settled[i];
      if (s.ok) q.resolve(s.value);
      else q.reject(s.error);
    });
  }

  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction<T extends (...args: unknown[]) => unknown>(fn: T): T {
      return fn;
    },
    /**
     * Runs `work` (tries through the store) in a write transaction shared with every other `work` this process
     * queues in the same turn of the event loop (a group commit, decision 074): queued works wait for the end of
     * the turn (`setImmediate`), take the lock once, run one after another in the order they came, and are
     * answered after the COMMIT. While a group waits for the lock, new works queue for the next group. The store's
     * tries are synchronous statements behind promises, with no timer between them, so a group holds the lock for
     * the microseconds its statements take; a try made while a group's transaction is open joins it.
     */
    together<T>(work: () => Promise<T>): Promise<T> {
      if (database.inTransaction) return work();
      return new Promise<T>((resolve, reject) => {
        queued.push({ work, resolve: resolve as (value: unknown) => void, reject });
        scheduleGroup();
      });
    },
    /** Deletes the counters of every limit for these subjects (keys end with `:subject`). */
    forget(subjects: string[]) {
      const statement = this.prepare(`DELETE FROM "${COUNTER_TABLE}" WHERE substr("key", -length(?) - 1) = ':' || ?`);
      for (const subject of subjects) statement.run([subject, subject]);
    },
  };
}

export type CounterClient = ReturnType<typeof sqliteCounterClient>;
