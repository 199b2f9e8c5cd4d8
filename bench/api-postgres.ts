// SQLite against PostgreSQL side by side (issue 38's figure, decision 098): the same generated catalogue of
// BENCH_PRODUCTS (100,000) products imported into a SQLite file and into a database of a throw-away PostgreSQL cluster
// (tests/helpers/postgres-cluster.ts: Debian's server, fsync off), then the production server (as `npm start` starts
// it, one process per core, JOBS_WORKER=off) on each in turn, under the same load from BENCH_CONNECTIONS (16) clients for
// BENCH_SECONDS (10) a phase after BENCH_WARM_SECONDS (3) unmeasured:
//   1. GET /api/v1/products searches with a key (the key check, the minute and month limits written each call, the
//      search from the process's in-memory index, loaded from whichever database);
//   2. the pages+API mix: the product grid's HTML (/dashboard/products with a query) and the site's own JSON
//      (/api/products) with a session cookie (the session read from the database each request).
// Prints each engine's import rate, req/s, p50/p95/p99 and the server's CPU ms a request, then PostgreSQL as a share of
// SQLite (target >= 80% by req/s). Asserts nothing. `npm run bench -- api-pg`; build first after changing the app.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createClient } from "@libsql/client";
import pg from "pg";
import { ensureBuild, startBenchServer } from "./lib/bench-server";
import { createLoadPhases, type Figures } from "./lib/load-phase";

const PORT = Number(process.env.BENCH_PORT ?? 3394);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const DIR = path.resolve("bench/.data/api-pg");
const QUERIES = ["niche=kitchen", "sort=trending", "q=dog", "q=portable&sort=orders", "minPrice=10&maxPrice=40", "stage=rising", "sort=revenue", ""];

const { phase } = createLoadPhases({ base: BASE, connections: CONNECTIONS, seconds: SECONDS, warmSeconds: WARM_SECONDS, labelWidth: 48 });

/** One statement on either engine (`?` placeholders; PostgreSQL's are numbered here). */
async function execute(url: string, sql: string, args: (string | number)[]): Promise<Record<string, unknown>[]> {
  if (url.startsWith("file:")) {
    const db = createClient({ url });
    try {
      return (await db.execute({ sql, args })).rows as unknown as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), args)).rows;
  } finally {
    await client.end();
  }
}

/** `npm run products:generate` into the URL (it migrates first): the same seed and end day on both engines. */
function generate(url: string): number {
  const started = performance.now();
  const run = spawnSync(
    path.resolve("node_modules/.bin/tsx"),
    ["scripts/products-generate.ts", "--count", String(COUNT), "--seed", "38", "--end-day", "2026-11-30"],
    { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "warn" }, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (run.status !== 0) throw new Error(`products:generate on ${url.split(":")[0]} exited ${run.status}`);
  return (performance.now() - started) / 1000;
}

/** The server on `url`: a paid Inner Circle user with a session and an API key, every query warmed, two phases. */
async function measure(engine: string, url: string): Promise<{ api: Figures; mix: Figures }> {
  const server = await startBenchServer({ port: PORT, dir: DIR, dbUrl: url, env: { API_CALLS_PER_MINUTE: "1000000" }, startMs: 180_000 });
  try {
    const email = `bench-api-pg-${Date.now().toString(36)}@example.com`;
    const signup = await fetch(`${BASE}/signup`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      body: new URLSearchParams({ email, password: "correct-horse-battery" }),
    });
    const cookie = signup.headers.get("set-cookie")?.split(";")[0];
    if (signup.status !== 302 || !cookie) throw new Error(`sign-up answered ${signup.status}`);
    await execute(url, `UPDATE "User" SET "subscription_id" = ?, "userSubscribed" = 'yes', "innerCircle" = ? WHERE "email" = ?`, [
      `sub_bench_${Date.now()}`,
      // A boolean column: 1 on SQLite, true on PostgreSQL (pg sends the text "true").
      url.startsWith("file:") ? 1 : "true",
      email,
    ]);
    const made = await fetch(`${BASE}/api/keys`, { method: "POST", headers: { cookie, Origin: BASE, "Content-Type": "application/json" }, body: JSON.stringify({ name: "bench" }) });
    if (made.status !== 201) throw new Error(`POST /api/keys answered ${made.status}`);
    const bearer = { authorization: `Bearer ${((await made.json()) as { key: string }).key}` };
    const apiRequests = QUERIES.map((q) => ({ method: "GET", path: `/api/v1/products?${q}`, headers: bearer }));
    const mixRequests = QUERIES.flatMap((q) => [
      { method: "GET", path: `/dashboard/products?${q}`, headers: { cookie } },
      { method: "GET", path: `/api/products?${q}`, headers: { cookie } },
    ]);
    const started = performance.now();
    for (let i = 0; i < 4; i++) {
      await Promise.all([...apiRequests, ...mixRequests].map((r) => fetch(`${BASE}${r.path}`, { headers: r.headers }).then((res) => res.arrayBuffer())));
    }
    console.log(`  ${engine}: warm-up (each process loads its search index from the database) ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // On PostgreSQL, its count of the database's transactions (each statement outside one is one): the round trips a request makes.
    const transactions = url.startsWith("file:")
      ? undefined
      : async () => {
          // PostgreSQL publishes a backend's counts at most once a second: wait for them.
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const [row] = await execute(url, `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`, []);
          return Number(row.n);
        };
    const api = await phase(`${engine}: GET /api/v1/products (Bearer key)`, server.pid, apiRequests, transactions);
    const mix = await phase(`${engine}: grid HTML + /api/products (cookie)`, server.pid, mixRequests, transactions);
    return { api, mix };
  } finally {
    await server.stop();
  }
}

async function main() {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  ensureBuild();
  const { startPostgresCluster } = await import("../tests/helpers/postgres-cluster");
  const cluster = await startPostgresCluster();
  try {
    const sqliteUrl = `file:${path.join(DIR, "app.db")}`;
    const postgresUrl = await cluster.createDatabase("bench_api");
    console.log(
      `\n== ${COUNT.toLocaleString("en-US")} generated products on each engine; ${CONNECTIONS} connections, ${SECONDS} s a phase; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores ==`,
    );
    for (const [engine, url] of [["SQLite", sqliteUrl], ["PostgreSQL", postgresUrl]] as const) {
      const seconds = generate(url);
      console.log(`  ${engine}: migrated and imported in ${seconds.toFixed(1)} s (${Math.round(COUNT / seconds).toLocaleString("en-US")} products/s, whole process)`);
    }
    const sqlite = await measure("SQLite", sqliteUrl);
    const postgres = await measure("PostgreSQL", postgresUrl);
    const share = (p: Figures, s: Figures) => `${((100 * p.rps) / s.rps).toFixed(0)}% by req/s, ${((100 * s.cpuMs) / p.cpuMs).toFixed(0)}% by CPU a request`;
    console.log(
      `  PostgreSQL as a share of SQLite: API ${share(postgres.api, sqlite.api)}; pages+API ${share(postgres.mix, sqlite.mix)} (target >= 80% by req/s; the throw-away cluster runs with fsync off: its commits are not flushed)`,
    );
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
