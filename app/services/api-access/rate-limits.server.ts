// Rate limits (docs/decisions/051, 063): rate-limiter-flexible's fixed-window counters kept in the database, so
// every server process and every worker shares one count. A limit is a name, a number of tries and a window;
// `consume` counts one try against each subject given (an e-mail, a client address, a user) and refuses with
// AppError 429, a sentence saying when to try again and `retryAfterSeconds` (the page layer turns it into a
// Retry-After header). Anything that needs throttling (reset requests, confirmation e-mails, the public API)
// declares its limit here and calls `consume`; nothing here knows HTTP.
// On a SQLite file the counters are the library's SQLite store (one `INSERT ... ON CONFLICT DO UPDATE ...
// RETURNING` a try) on a connection of their own, in a file of their own beside the app's database
// (app/services/api-access/counters.server.ts, decisions 069 and 074: a write to the app's file makes every other
// connection drop its cached pages); on PostgreSQL, the library's PostgreSQL store on a small `pg` pool of its own
// (one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` a try, in the migrated "RateLimitCounter" table: the same
// layout; decision 098); on a libSQL server, its Prisma store (decision 063).
import {
  RateLimiterPostgres,
  RateLimiterPrisma,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterStoreAbstract,
} from "rate-limiter-flexible";
import { createPostgresPool, isPostgresUrl, type Db } from "~/db.server";
import { ALLOWANCE_WINDOW_DAYS, API_SENTENCES, CALLS_PER_MINUTE } from "~/domain/accounts/api-keys";
import { AppError } from "~/domain/errors";
import { COUNTER_TABLE, sqliteCounterClient, type CounterClient } from "~/services/api-access/counters.server";

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
  /** E-mail changes one account may ask for (decision 079): each mails the new address and the current one. */
  emailChangePerUser: {
    name: "email-change:user",
    points: 3,
    windowSeconds: 3600,
    refusal: (retryIn) => `You have asked to change your e-mail address several times already. Try again ${retryIn}.`,
  },
  /** Confirmation links for a new address sent to one address, whichever accounts asked: a stranger's inbox is not a target. */
  emailChangePerAddress: {
    name: "email-change:address",
    points: 3,
    windowSeconds: 24 * 3600,
    refusal: (retryIn) => `We have sent several confirmation links to this address already. Try again ${retryIn}.`,
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
  // Inbound limits on what anyone may try without an account (decision 064; app/services/api-access/inbound-limits.server.ts
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

export interface RateLimitsDeps {
  db: Db;
  /**
   * The database the app runs on (DATABASE_URL): a `file:` URL gets the SQLite store, a PostgreSQL URL the
   * PostgreSQL store, anything else (a libSQL server) the Prisma one.
   */
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

/** A subject's tries of one step for all the plans of a group, counted in one statement, and what it answered. */
interface SubjectCount {
  limiter: RateLimiterStoreAbstract;
  subject: string;
  points: number;
  res?: RateLimiterRes;
  error?: unknown;
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

/**
 * The tries of several limits and subjects counted in one statement on PostgreSQL: the library's upsert
 * (RateLimiterPostgres `_upsert`: a window that ended starts again at these points, else they are added) for many
 * rows at once, in key order so that two processes counting the same keys lock them in the same order.
 */
async function countPostgres(pool: ReturnType<typeof createPostgresPool>, entries: SubjectCount[]): Promise<void> {
  const now = Date.now();
  const rows = entries
    .map((entry) => ({ entry, key: entry.limiter.getKey(entry.subject), expire: entry.limiter.duration > 0 ? now + entry.limiter.duration * 1000 : null }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = rows.flatMap((r) => [r.key, r.entry.points, r.expire]);
  const tuples = rows.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(", ");
  const at = `$${values.length + 1}`;
  const table = `"${COUNTER_TABLE}"`;
  const result = await pool.query<{ key: string; points: number; expire: string | number | null }>(
    `INSERT INTO ${table} ("key", "points", "expire") VALUES ${tuples}
     ON CONFLICT ("key") DO UPDATE SET
       "points" = CASE WHEN ${table}."expire" <= ${at} THEN EXCLUDED."points" ELSE ${table}."points" + EXCLUDED."points" END,
       "expire" = CASE WHEN ${table}."expire" <= ${at} THEN EXCLUDED."expire" ELSE ${table}."expire" END
     RETURNING "key", "points", "expire"`,
    [...values, now],
  );
  const byKey = new Map(result.rows.map((row) => [row.key, row]));
  for (const { entry, key } of rows) {
    const row = byKey.get(key)!;
    const consumed = Number(row.points);
    const msBeforeNext = row.expire === null ? -1 : Math.max(Number(row.expire) - Date.now(), 0);
    entry.res = new RateLimiterRes(Math.max(entry.limiter.points - consumed, 0), msBeforeNext, consumed, consumed === entry.points);
  }
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
  const file = deps.databaseUrl.startsWith("file:") ? deps.databaseUrl.slice("file:".length).split("?")[0] : null;
  const postgres = isPostgresUrl(deps.databaseUrl);
  let client: CounterClient | null = null;
  let pool: ReturnType<typeof createPostgresPool> | null = null;

  function store(rule: RateLimitRule): RateLimiterStoreAbstract {
    const options = { keyPrefix: rule.name, points: rule.points, duration: rule.windowSeconds };
    if (postgres) {
      pool ??= createPostgresPool(deps.databaseUrl);
      return new RateLimiterPostgres({ ...options, storeClient: pool, storeType: "pool", tableName: COUNTER_TABLE, tableCreated: true, clearExpiredByTimeout: true });
    }
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
  let openBatch: { plans: StepPlan[]; counted: Promise<void> } | null = null;
  /** On PostgreSQL, the group counting now: calls that come meanwhile wait for it and are counted together after. */
  let counting: Promise<void> = Promise.resolve();

  /**
   * Starts counting a group: inside the counters file's next write (SQLite), or once the group counting now is
   * done (PostgreSQL: one group in flight per process, so the calls that arrive while it counts share statements).
   */
  function countGroup(work: () => Promise<void>): Promise<void> {
    if (file) return together(work);
    const started = counting.then(work);
    counting = started.catch(() => undefined);
    return started;
  }

  /**
   * Counts every plan's steps in order, each plan's step k only if none of its earlier steps was refused, with one
   * try per limit and subject for all the plans (each plan's tries numbered in the order the plans came, so each
   * sees the count it would have seen alone), inside the counters file's current group.
   */
  async function countPlans(plans: StepPlan[]) {
    const longest = Math.max(...plans.map((p) => p.steps.length));
    for (let k = 0; k < longest; k++) {
      // One statement per limit and subject; each plan's tries point at theirs, numbered in the order they came.
      const entries = new Map<string, SubjectCount>();
      const tries = new Map<StepPlan, { entry: SubjectCount; nth: number; limit: number }[]>();
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
      const count = async (entry: SubjectCount) => {
        try {
          entry.res = await countPoints(entry.limiter, entry.subject, entry.points);
        } catch (error) {
          entry.error = error;
        }
      };
      // Only a counters file or PostgreSQL groups (takeSteps). On PostgreSQL the step's tries are one statement; the
      // counters file's connection counts one statement at a time anyway.
      if (file) for (const entry of entries.values()) await count(entry);
      else {
        pool ??= createPostgresPool(deps.databaseUrl);
        try {
          await countPostgres(pool, [...entries.values()]);
        } catch (error) {
          for (const entry of entries.values()) entry.error = error;
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
     * turn of the event loop are counted in one write with one statement per limit and subject (decision 074); on
     * PostgreSQL the steps of the calls that came while the previous group counted, with one statement a step
     * for all its limits and subjects (decision 098).
     */
    async takeSteps(steps: CountStep[]): Promise<RateLimitStatus[]> {
      if (!file && !postgres) {
        const statuses: RateLimitStatus[] = [];
        for (const step of steps) statuses.push(await step.limit.take(...step.subjects));
        return statuses;
      }
      const plan: StepPlan = { steps, statuses: [], outcome: null };
      let batch = openBatch;
      if (batch) batch.plans.push(plan);
      else {
        const opened = { plans: [plan], counted: Promise.resolve() };
        batch = openBatch = opened;
        // The batch closes when its group starts counting (at once inside an open group): later plans wait for the next.
        opened.counted = countGroup(() => {
          if (openBatch === opened) openBatch = null;
          return countPlans(opened.plans);
        });
      }
      await batch.counted;
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
