// Rate limits (docs/decisions/051, 063): rate-limiter-flexible's fixed-window counters kept in the database, so
// every server process and every worker shares one count. A limit is a name, a number of tries and a window;
// `consume` counts one try against each subject given (an e-mail, a client address, a user) and refuses with
// AppError 429, a sentence saying when to try again and `retryAfterSeconds` (the page layer turns it into a
// Retry-After header). Anything that needs throttling (reset requests, confirmation e-mails, the public API)
// declares its limit here and calls `consume`; nothing here knows HTTP.
// On a SQLite file the counters are the library's SQLite store (one `INSERT ... ON CONFLICT DO UPDATE ...
// RETURNING` a try) on a connection of their own, in a file of their own beside the app's database (decision 069:
// a write to the app's file makes every other connection drop its cached pages); on a libSQL server, its Prisma
// store (decision 063).
import { existsSync } from "node:fs";
import LibsqlDatabase from "libsql";
import { RateLimiterPrisma, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from "rate-limiter-flexible";
import type { Db } from "~/db.server";
import { ALLOWANCE_WINDOW_DAYS, API_SENTENCES, CALLS_PER_MINUTE } from "~/domain/api-keys";
import { AppError } from "~/domain/errors";

export interface RateLimitRule {
  /** Unique among the limits: the key prefix of its counters. */
  name: string;
  /** Tries allowed per subject in a window. */
  points: number;
  windowSeconds: number;
  /** The sentence of the 429, given when to try again ("in 12 minutes"). */
  refusal: (retryIn: string) => string;
}

export interface RateLimit {
  readonly rule: RateLimitRule;
  /** Counts one try for every subject (null subjects are skipped); 429 if any of them is over the limit. */
  consume(...subjects: (string | null | undefined)[]): Promise<void>;
  /** Forgets a subject's count (e.g. after it succeeded). */
  reset(subject: string): Promise<void>;
  /**
   * Counts one try for every subject, each against its own limit (at most the rule's points; default them),
   * and returns the tightest count, for RateLimit-* headers. 429 (with `retryAfterSeconds` and `rateLimit`)
   * if any subject is over its limit.
   */
  take(...subjects: { subject: string; limit?: number }[]): Promise<RateLimitStatus>;
  /** A subject's count in the current window, without counting a try. */
  usage(subject: string, limit?: number): Promise<RateLimitStatus & { used: number }>;
}

/** Where a subject stands in its window: what the RateLimit-Limit / -Remaining / -Reset headers say. */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** Seconds until the window restarts. */
  resetSeconds: number;
}

/** One step of a call's counts (`takeSteps`): a limit and the subjects it counts, each against its own limit. */
export interface CountStep {
  limit: RateLimit;
  subjects: { subject: string; limit?: number }[];
}

/** "in 1 minute", "in 12 minutes", "in 2 hours": when the window lets the next try through. */
export function retryInWords(seconds: number): string {
  if (seconds <= 60) return "in 1 minute";
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `in ${minutes} minutes`;
  return `in ${Math.ceil(minutes / 60)} hours`;
}

/** The limits the app has; each one's counters live under its name. */
export const RATE_LIMITS = {
  /** Reset e-mails asked for one address: a handful an hour stops mail-bombing someone. */
  passwordResetPerEmail: {
    name: "password-reset:email",
    points: 3,
    windowSeconds: 3600,
    refusal: (retryIn) => `Too many reset links were asked for this address. Try again ${retryIn}.`,
  },
  /** Reset e-mails asked from one client address, whatever the addresses. */
  passwordResetPerIp: {
    name: "password-reset:ip",
    points: 10,
    windowSeconds: 3600,
    refusal: (retryIn) => `Too many reset links were asked from your network. Try again ${retryIn}.`,
  },
  /** New confirmation links a signed-in user may ask for. */
  emailVerificationResend: {
    name: "email-verification:user",
    points: 3,
    windowSeconds: 3600,
    refusal: (retryIn) => `We have sent several confirmation links already. Check your inbox and spam folder, or try again ${retryIn}.`,
  },
  /** The public API and the MCP server (decision 053): calls a minute, per key and per user. */
  apiPerMinute: {
    name: "api:minute",
    points: CALLS_PER_MINUTE,
    windowSeconds: 60,
    refusal: API_SENTENCES.perMinute,
  },
  /** The monthly allowance by plan (the rule's points are the largest; each user is held to their plan's). */
  apiMonthly: {
    name: "api:month",
    points: 200_000,
    windowSeconds: ALLOWANCE_WINDOW_DAYS * 24 * 3600,
    refusal: API_SENTENCES.monthly,
  },
  // Inbound limits on what anyone may try without an account (decision 064; app/services/inbound-limits.server.ts
  // sets LOGIN_MAX_FAILURES and LOGIN_WINDOW_MINUTES on the log-in rules and scales the per-address ones by
  // INBOUND_LIMITS_SCALE).
  /** Failed log-ins for one account's address; a successful log-in clears them. */
  loginPerEmail: {
    name: "login:email",
    points: 5,
    windowSeconds: 900,
    refusal: (retryIn) => `Too many failed log-ins for this address. Try again ${retryIn}, or reset your password.`,
  },
  /** Failed log-ins from one client address, whatever the accounts (password guessing across accounts). */
  loginPerIp: {
    name: "login:ip",
    points: 20,
    windowSeconds: 900,
    refusal: (retryIn) => `Too many failed log-ins from your network. Try again ${retryIn}.`,
  },
  /** Sign-ups from one client address (both surfaces), taken addresses included: it also slows address probing. */
  signupPerIp: {
    name: "signup:ip",
    points: 10,
    windowSeconds: 3600,
    refusal: (retryIn) => `Too many accounts were made from your network. Try again ${retryIn}.`,
  },
  /** The calls anyone may make without signing in (page events), per client address. */
  publicCallsPerIp: {
    name: "public:ip",
    points: 120,
    windowSeconds: 60,
    refusal: (retryIn) => `Too many requests from your network. Try again ${retryIn}.`,
  },
} as const satisfies Record<string, RateLimitRule>;

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";

/** The SQLite table of the counters (the library's layout): key, points, expire in epoch milliseconds. */
const COUNTER_TABLE = "RateLimitCounter";
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

/**
 * The counters' own connection to their own SQLite file, as the library's better-sqlite3 store wants it (the
 * libsql driver has the same API). Changes from the plain driver: statements are prepared once and reused (the
 * store prepares its one upsert on every try), the store's transaction around that single statement is dropped
 * (one statement is atomic on its own), and `together` runs several tries in one write transaction (one lock
 * and one WAL commit for a call's three counts). `synchronous = NORMAL`: a commit is not fsynced, so a power cut
 * (not a crash of the process) may forget the last tries; a few hundred microseconds saved on each (decision 063).
 */
function sqliteCounterClient(appFile: string) {
  const database = new LibsqlDatabase(counterFileFor(appFile));
  database.pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  prepareCounterFile(database, appFile);
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

export interface RateLimitsDeps {
  db: Db;
  /** The database the app runs on (DATABASE_URL): a `file:` URL gets the SQLite store, anything else the Prisma one. */
  databaseUrl: string;
}

/** A try's count as `take` reports it, and whether it went over its limit. */
type Counted = RateLimitStatus & { refused: boolean };

/** One call's steps waiting for a group, what they counted, and how the call ends (null until counted). */
interface StepPlan {
  steps: CountStep[];
  statuses: RateLimitStatus[];
  outcome: { ok: true } | { ok: false; error: unknown } | null;
}

/** A subject's own limit, at most the rule's points (its counters' store refuses past those). */
const subjectLimit = (rule: RateLimitRule, limit: number | undefined) => Math.min(limit ?? rule.points, rule.points);

/**
 * What one try saw, from a count of `res.consumedPoints` after it and `after` tries counted behind it in the same
 * statement (so several tries of one subject counted at once each see their own count).
 */
function countedTry(limit: number, res: RateLimiterRes, after: number): Counted {
  const consumed = res.consumedPoints - after;
  return {
    limit,
    remaining: Math.max(0, limit - consumed),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    refused: consumed > limit,
  };
}

/** The tightest of a take's counts, or its 429 (with `retryAfterSeconds` and `rateLimit`) when any went over. */
function settle(rule: RateLimitRule, counted: Counted[]): RateLimitStatus {
  const tightest = counted.reduce((a, b) => (b.remaining < a.remaining || (b.refused && !a.refused) ? b : a));
  const refused = counted.filter((c) => c.refused);
  const status = { limit: tightest.limit, remaining: tightest.remaining, resetSeconds: tightest.resetSeconds };
  if (refused.length === 0) return status;
  const seconds = Math.max(...refused.map((r) => r.resetSeconds));
  throw new AppError(429, rule.refusal(retryInWords(seconds)), { retryAfterSeconds: seconds, rateLimit: { ...status, remaining: 0 } });
}

/** Counts `points` tries of a subject in one statement; its count after them (also when over the store's points). */
async function countPoints(limiter: RateLimiterStoreAbstract, subject: string, points: number): Promise<RateLimiterRes> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await limiter.consume(subject, points);
    } catch (error) {
      if (error instanceof RateLimiterRes) return error;
      // Two first tries at the same moment both create the counter (the Prisma store): the loser counts again.
      if (!(isUniqueViolation(error) && attempt < 2)) throw error;
    }
  }
}

export function createRateLimits(deps: RateLimitsDeps) {
  const made = new Map<string, RateLimit>();
  const limiters = new WeakMap<RateLimit, RateLimiterStoreAbstract>();
  const batchDone = new WeakMap<StepPlan[], Promise<void>>();
  const file = deps.databaseUrl.startsWith("file:") ? deps.databaseUrl.slice("file:".length).split("?")[0] : null;
  let client: ReturnType<typeof sqliteCounterClient> | null = null;

  function store(rule: RateLimitRule): RateLimiterStoreAbstract {
    const options = { keyPrefix: rule.name, points: rule.points, duration: rule.windowSeconds };
    if (!file) return new RateLimiterPrisma({ ...options, storeClient: deps.db, tableName: "rateLimit" });
    client ??= sqliteCounterClient(file);
    return new RateLimiterSQLite({
      ...options,
      storeClient: client,
      storeType: "better-sqlite3",
      tableName: COUNTER_TABLE,
      tableCreated: true,
      clearExpiredByTimeout: true,
    });
  }

  /** Tries in one write to the counters file, its lock taken without blocking (decision 069). */
  function together<T>(work: () => Promise<T>): Promise<T> {
    if (!file) return work();
    client ??= sqliteCounterClient(file);
    return client.together(work);
  }

  function limit(rule: RateLimitRule): RateLimit {
    const existing = made.get(rule.name);
    if (existing) return existing;
    const limiter = store(rule);

    /** The try's count when it went over the rule's points (a refusal), else null. */
    async function consumeOne(subject: string): Promise<RateLimiterRes | null> {
      const res = await countPoints(limiter, subject, 1);
      return res.consumedPoints > rule.points ? res : null;
    }

    async function countOne(subject: string, limit: number): Promise<Counted> {
      return countedTry(limit, await countPoints(limiter, subject, 1), 0);
    }

    const built: RateLimit = {
      rule,
      async consume(...subjects) {
        const tried = await together(() => Promise.all(subjects.filter((s): s is string => Boolean(s)).map(consumeOne)));
        const refused = tried.filter((r): r is RateLimiterRes => r !== null);
        if (refused.length === 0) return;
        const seconds = Math.max(1, Math.ceil(Math.max(...refused.map((r) => r.msBeforeNext)) / 1000));
        throw new AppError(429, rule.refusal(retryInWords(seconds)), { retryAfterSeconds: seconds });
      },
      async reset(subject) {
        await limiter.delete(subject);
      },
      async take(...subjects) {
        const counted = await together(() => Promise.all(subjects.map((s) => countOne(s.subject, subjectLimit(rule, s.limit)))));
        return settle(rule, counted);
      },
      async usage(subject, limit = rule.points) {
        const res = await limiter.get(subject);
        const used = res?.consumedPoints ?? 0;
        return {
          used,
          limit,
          remaining: Math.max(0, limit - used),
          resetSeconds: res ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : rule.windowSeconds,
        };
      },
    };
    made.set(rule.name, built);
    limiters.set(built, limiter);
    return built;
  }

  /** The calls' steps not yet counted: the next group of the counters file counts them all (decision 074). */
  let openBatch: StepPlan[] | null = null;

  /**
   * Counts every plan's steps in order, each plan's step k only if none of its earlier steps was refused, with one
   * try per limit and subject for all the plans (each plan's tries numbered in the order the plans came, so each
   * sees the count it would have seen alone), inside the counters file's current group.
   */
  async function countPlans(plans: StepPlan[]) {
    const longest = Math.max(...plans.map((p) => p.steps.length));
    for (let k = 0; k < longest; k++) {
      const entries = new Map<string, { limiter: RateLimiterStoreAbstract; subject: string; points: number; res?: RateLimiterRes; error?: unknown }>();
      const tries = new Map<StepPlan, { entry: { points: number; res?: RateLimiterRes; error?: unknown }; nth: number; limit: number }[]>();
      for (const plan of plans) {
        const step = plan.steps[k];
        if (!step || plan.outcome) continue;
        const limiter = limiters.get(step.limit)!;
        tries.set(
          plan,
          step.subjects.map((s) => {
            const key = `${step.limit.rule.name}\u0000${s.subject}`;
            let entry = entries.get(key);
            if (!entry) entries.set(key, (entry = { limiter, subject: s.subject, points: 0 }));
            entry.points++;
            return { entry, nth: entry.points, limit: subjectLimit(step.limit.rule, s.limit) };
          }),
        );
      }
      for (const entry of entries.values()) {
        try {
          entry.res = await countPoints(entry.limiter, entry.subject, entry.points);
        } catch (error) {
          entry.error = error;
        }
      }
      for (const [plan, planTries] of tries) {
        const failed = planTries.find((t) => t.entry.error !== undefined);
        if (failed) {
          plan.outcome = { ok: false, error: failed.entry.error };
          continue;
        }
        try {
          plan.statuses.push(settle(plan.steps[k].limit.rule, planTries.map((t) => countedTry(t.limit, t.entry.res!, t.entry.points - t.nth))));
        } catch (error) {
          plan.outcome = { ok: false, error };
        }
      }
    }
    for (const plan of plans) plan.outcome ??= { ok: true };
  }

  return {
    limit,
    /**
     * Counts a call's steps in order, each only if no earlier one was refused (an API call: its key's and user's
     * minute, then the user's month), and returns what each step's `take` would (its tightest count); 429 as `take`
     * throws it for the first step refused. On a SQLite file the steps of all the calls this process makes in one
     * turn of the event loop are counted in one write with one statement per limit and subject (decision 074).
     */
    async takeSteps(steps: CountStep[]): Promise<RateLimitStatus[]> {
      if (!file) {
        const statuses: RateLimitStatus[] = [];
        for (const step of steps) statuses.push(await step.limit.take(...step.subjects));
        return statuses;
      }
      const plan: StepPlan = { steps, statuses: [], outcome: null };
      let batch = openBatch;
      if (batch) batch.push(plan);
      else {
        const opened = [plan];
        batch = openBatch = opened;
        // The batch closes when its group starts counting (at once inside an open group): later plans wait for the next.
        batchDone.set(
          opened,
          together(() => {
            if (openBatch === opened) openBatch = null;
            return countPlans(opened);
          }),
        );
      }
      await batchDone.get(batch);
      const outcome = plan.outcome!;
      if (!outcome.ok) throw outcome.error;
      return plan.statuses;
    },
    /**
     * Runs several tries (e.g. an API call's minute and month counts) as one write to the counters: one lock and
     * one commit instead of one each (decision 069). Only `take`/`consume` calls belong in `work`.
     */
    together,
    /** Forgets every limit's counters for these subjects (an e-mail address, a user's id), e.g. when an account is deleted. */
    async forget(subjects: string[]): Promise<void> {
      if (!file) {
        await deps.db.rateLimit.deleteMany({ where: { OR: subjects.map((subject) => ({ key: { endsWith: `:${subject}` } })) } });
        return;
      }
      client ??= sqliteCounterClient(file);
      client.forget(subjects);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
