// The job engine candidates on PostgreSQL side by side (issue 38 item 2, decision 102), printed, never asserted:
// pg-boss and graphile-worker on one throw-away cluster (tests/helpers/postgres-cluster.ts), each in its own database.
// Per engine: 10,000 no-op jobs enqueued one by one (jobs/s), then completed by 1 and by 4 worker processes (jobs/s
// from the moment the workers are told to go until none is left); a key's meaning (at most one queued-or-running job
// per key: three sends while queued, one while running, one after it finished); and a send inside a transaction of
// the app's own Prisma client on @prisma/adapter-pg, rolled back and committed. `npm run bench -- jobs-pg`;
// BENCH_PG_JOBS sets the count. Run as `tsx bench/jobs-postgres.ts worker ENGINE URL` it is one worker process.
import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { Logger, makeWorkerUtils, run, runMigrations } from "graphile-worker";
import pg from "pg";
import { PgBoss } from "pg-boss";

type Engine = "pg-boss" | "graphile-worker";
const ENGINES: Engine[] = ["pg-boss", "graphile-worker"];
const JOBS = Number(process.env.BENCH_PG_JOBS ?? 10_000);
const QUEUE = "bench_noop";

if (process.argv[2] === "worker") await workerProcess(process.argv[3] as Engine, process.argv[4]);
else await main();

/** One worker process: starts its engine's worker (4 at a time) on "go" from stdin, runs until killed. */
async function workerProcess(engine: Engine, url: string) {
  const lines = createInterface({ input: process.stdin });
  console.log("ready");
  for await (const line of lines) if (line === "go") break;
  if (engine === "pg-boss") {
    const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false, max: 4 });
    boss.on("error", () => {});
    await boss.start();
    await boss.work(QUEUE, { batchSize: 4, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }, async () => {});
  } else {
    await run({
      connectionString: url,
      concurrency: 4,
      pollInterval: 500,
      noHandleSignals: false,
      logger: graphileQuiet(),
      taskList: { [QUEUE]: async () => {} },
    });
  }
}

function graphileQuiet() {
  // graphile-worker's Logger: a scope factory and a log function; this one drops everything.
  return new Logger(() => () => {});
}

async function main() {
  const { startPostgresCluster } = await import("../tests/helpers/postgres-cluster");
  const cluster = await startPostgresCluster();
  try {
    console.log(`job engines on PostgreSQL: ${JOBS} no-op jobs, enqueued one by one, completed by worker processes`);
    for (const engine of ENGINES) {
      const url = await cluster.createDatabase();
      const api = await engineApi(engine, url);
      const enqueueMs = await timed(async () => {
        for (let i = 0; i < JOBS; i++) await api.send({ i });
      });
      console.log(`${engine.padEnd(16)} enqueue    ${rate(JOBS, enqueueMs)} jobs/s`);
      for (const workers of [1, 4]) {
        if ((await api.remaining()) === 0) for (let i = 0; i < JOBS; i++) await api.send({ i });
        const ms = await completeWith(engine, url, workers, api.remaining);
        console.log(`${engine.padEnd(16)} complete   ${rate(JOBS, ms)} jobs/s with ${workers} worker process(es)`);
      }
      console.log(`${engine.padEnd(16)} keys       ${await api.keys()}`);
      console.log(`${engine.padEnd(16)} in a tx    ${await transactional(url, api)}`);
      await api.close();
    }
  } finally {
    await cluster.stop();
  }
}

interface EngineApi {
  send(payload: object, key?: string): Promise<unknown>;
  /** The SQL that enqueues one job with a key inside any transaction, and its parameters. */
  sendSql(key: string): { sql: string; params: unknown[] };
  remaining(): Promise<number>;
  keys(): Promise<string>;
  close(): Promise<void>;
}

async function engineApi(engine: Engine, url: string): Promise<EngineApi> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const count = async (sql: string, params: unknown[] = []) => Number((await pool.query(sql, params)).rows[0].n);
  if (engine === "pg-boss") {
    const boss = new PgBoss({ connectionString: url, schedule: false, supervise: false, max: 4 });
    boss.on("error", () => {});
    await boss.start();
    await boss.createQueue(QUEUE);
    await boss.createQueue("bench_keyed", { policy: "exclusive" });
    const live = (key: string) =>
      count(`SELECT count(*) n FROM pgboss.job WHERE name = 'bench_keyed' AND singleton_key = $1 AND state <= 'active'`, [key]);
    return {
      send: (payload, key) => boss.send(key ? "bench_keyed" : QUEUE, payload, key ? { singletonKey: key } : {}),
      sendSql: (key) => ({
        sql: "", // pg-boss builds its own SQL; the transactional send passes the transaction as { db }
        params: [key],
      }),
      remaining: () => count(`SELECT count(*) n FROM pgboss.job WHERE name = $1 AND state < 'completed'`, [QUEUE]),
      async keys() {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push(await boss.send("bench_keyed", {}, { singletonKey: "k1" }));
        const whileQueued = await live("k1");
        const [job] = await boss.fetch("bench_keyed");
        const whileRunning = await boss.send("bench_keyed", {}, { singletonKey: "k1" });
        await boss.complete("bench_keyed", job.id);
        const after = await boss.send("bench_keyed", {}, { singletonKey: "k1" });
        return `3 sends while queued: ${whileQueued} live job(s) (ids ${ids.map((x) => (x ? "new" : "null")).join(", ")}); while running: ${whileRunning ? "a second job" : "refused"}; after done: ${after ? "a new job" : "refused"}`;
      },
      async close() {
        await boss.stop({ graceful: false });
        await pool.end();
      },
      boss,
    } as EngineApi & { boss: PgBoss };
  }
  await runMigrations({ connectionString: url, logger: graphileQuiet() });
  const utils = await makeWorkerUtils({ connectionString: url, logger: graphileQuiet() });
  const live = (key: string) => count(`SELECT count(*) n FROM graphile_worker.jobs WHERE key = $1`, [key]);
  return {
    send: (payload, key) =>
      utils.addJob(QUEUE, payload, key ? { jobKey: key, jobKeyMode: "unsafe_dedupe" } : {}),
    sendSql: (key) => ({
      sql: `SELECT graphile_worker.add_job('bench_keyed', '{}'::json, job_key => $1, job_key_mode => 'unsafe_dedupe')`,
      params: [key],
    }),
    remaining: () => count(`SELECT count(*) n FROM graphile_worker.jobs WHERE task_identifier = $1`, [QUEUE]),
    async keys() {
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) ids.add((await utils.addJob("bench_keyed", {}, { jobKey: "k1", jobKeyMode: "unsafe_dedupe" })).id);
      const whileQueued = await live("k1");
      // Running = locked by a worker: lock it as graphile-worker's get_job does.
      await pool.query(`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'bench' WHERE key = 'k1'`);
      const again = await utils.addJob("bench_keyed", {}, { jobKey: "k1", jobKeyMode: "unsafe_dedupe" });
      const whileRunning = await live("k1");
      // Done = deleted, as graphile-worker's worker does on success.
      await pool.query(`DELETE FROM graphile_worker._private_jobs WHERE key = 'k1'`);
      const after = await utils.addJob("bench_keyed", {}, { jobKey: "k1", jobKeyMode: "unsafe_dedupe" });
      return `3 sends while queued: ${whileQueued} live job(s) (${ids.size} distinct id); while running: ${whileRunning === 1 && ids.has(again.id) ? "refused (same job)" : `${whileRunning} jobs`}; after done: ${ids.has(after.id) ? "refused" : "a new job"}`;
    },
    async close() {
      await utils.release();
      await pool.end();
    },
  };
}

/** Enqueues through the app's Prisma client (adapter-pg) inside $transaction: rolled back, then committed. */
async function transactional(url: string, api: EngineApi): Promise<string> {
  const { createPostgresClient } = await import("~/db-postgres.server");
  const prisma = createPostgresClient(url);
  const boss = (api as EngineApi & { boss?: PgBoss }).boss;
  const enqueueIn = async (tx: typeof prisma, key: string) => {
    if (boss) {
      // pg-boss's SQL has no `?`; Prisma's raw call runs on the transaction's connection.
      const db = { executeSql: async (text: string, values: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<object[]>(text, ...values) }) };
      return boss.send("bench_keyed", {}, { singletonKey: key, db });
    }
    const { sql, params } = api.sendSql(key);
    return tx.$executeRawUnsafe(sql, ...params);
  };
  const countKey = async (key: string) => {
    const pool = new pg.Client({ connectionString: url });
    await pool.connect();
    const table = boss ? "pgboss.job WHERE singleton_key = $1" : "graphile_worker.jobs WHERE key = $1";
    const n = Number((await pool.query(`SELECT count(*) n FROM ${table}`, [key])).rows[0].n);
    await pool.end();
    return n;
  };
  let rolled = "";
  try {
    await prisma.$transaction(async (tx) => {
      await enqueueIn(tx as typeof prisma, "tx-rolled-back");
      throw new Error("roll back");
    });
  } catch (error) {
    rolled = (error as Error).message === "roll back" ? "" : `failed: ${(error as Error).message.split("\n")[0]}`;
  }
  let committed = "";
  try {
    await prisma.$transaction(async (tx) => {
      await enqueueIn(tx as typeof prisma, "tx-committed");
    });
  } catch (error) {
    committed = `failed: ${(error as Error).message.split("\n")[0]}`;
  }
  const result = `rolled back -> ${rolled || `${await countKey("tx-rolled-back")} job(s)`}; committed -> ${committed || `${await countKey("tx-committed")} job(s)`}`;
  await prisma.$disconnect();
  return result;
}

/** Starts `workers` processes, releases them together, and times until no job of the queue is left. */
async function completeWith(engine: Engine, url: string, workers: number, remaining: () => Promise<number>) {
  const children: ChildProcess[] = [];
  for (let w = 0; w < workers; w++) {
    const child = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "worker", engine, url], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise<void>((resolve) => createInterface({ input: child.stdout! }).once("line", () => resolve()));
  }
  const started = performance.now();
  for (const child of children) child.stdin!.write("go\n");
  while ((await remaining()) > 0) await new Promise((r) => setTimeout(r, 50));
  const ms = performance.now() - started;
  for (const child of children) child.kill("SIGKILL");
  return ms;
}

async function timed(work: () => Promise<void>) {
  const t = performance.now();
  await work();
  return performance.now() - t;
}

function rate(n: number, ms: number) {
  return String(Math.round((n / ms) * 1000)).padStart(6);
}
