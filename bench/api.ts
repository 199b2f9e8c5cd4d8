// The public API and the MCP server under load (issue 26, decisions 053, 054 and 063): BENCH_CONNECTIONS (32)
// clients for BENCH_SECONDS (10) a phase (after BENCH_WARM_SECONDS, 3, of the same load unmeasured), on the generated catalogue of BENCH_PRODUCTS (1,000,000) products
// (bench/lib/generated-catalogue.ts: made once, ~3 GB, reused; this bench works on its own copy), for
//   1. GET /api/v1/products searches with a key (the key check, the per-key / per-user minute and the monthly
//      limits, the search, the API's shapes), against the production server (as `npm start` starts it);
//   2. MCP search_products calls (POST /mcp: the same, plus a stateless SDK server per call);
//   3. the same searches through a bare node:http handler calling the same search (bench/lib/bare-search-server.ts,
//      as many processes as the app), the ceiling; the first two as a share of it; and the same search as an MCP
//      call through the official SDK on that bare handler (a pooled server, a stateless transport a call, the raw
//      cards), what the SDK itself costs: the MCP call as a share of it too;
//   4. in this process, one call at a time, what each step costs (BENCH_COST_CALLS, 500): the key check and the
//      limiter's three counts a call, as they are (prepared statement, rate-limiter-flexible's SQLite store) and as
//      they were (Prisma, its Prisma store), beside the search itself: the limiter's overhead per call (a call alone
//      waits for the end of its turn, where its group is written: decision 074; under load a group holds many calls).
// Prints req/s, p50/p95/p99 and the servers' CPU milliseconds a request per phase (all their processes, from /proc:
// the figure that holds on a busy shared machine, where req/s moves with the other sessions), and the first two as a
// share of the ceiling both ways; asserts nothing. The per-minute limit is raised for the run
// (API_CALLS_PER_MINUTE), or every client would meet a 429 within the first second.
//
//   npm run bench -- api
//   BENCH_SECONDS=5 BENCH_PRODUCTS=100000 npm run bench -- api
//   BENCH_PROFILE=1 npm run bench -- api     # also the app server's CPU profile over the /api/v1 phase: top self
//                                            # time by function and by package (bench/.data/api/*.cpuprofile)
//
// The load tool runs on the same machine as the servers: on 2 cores it takes a share of the CPU they would
// otherwise have, the same share in every phase. Build first after changing the app (rm -rf build).
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createClient } from "@libsql/client";
import { ensureBuild, startBenchServer } from "./lib/bench-server";
import { summariseProfile } from "./lib/cpu-profile";
import { createLoadPhases, pct, type BenchRequest, type Figures } from "./lib/load-phase";
import { catalogueCopy } from "./lib/generated-catalogue";
import { signInPaidUser } from "./lib/paid-user";
import { parseProductQuery } from "~/domain/products/product-query";

const PORT = Number(process.env.BENCH_PORT ?? 3393);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COUNT = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const COST_CALLS = Number(process.env.BENCH_COST_CALLS ?? 500);
const PROFILE = process.env.BENCH_PROFILE === "1";
const DIR = path.resolve("bench/.data/api");
const QUERIES = ["niche=kitchen", "sort=trending", "q=dog", "q=portable&sort=orders", "minPrice=10&maxPrice=40", "stage=rising", "sort=revenue", ""];

const { phase } = createLoadPhases({ base: BASE, connections: CONNECTIONS, seconds: SECONDS, warmSeconds: WARM_SECONDS });

/** The MCP search_products calls of the queries, with these headers added. */
const mcpCalls = (headers: Record<string, string>): BenchRequest[] =>
  QUERIES.map((q, i) => ({
    method: "POST",
    path: "/mcp",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search_products", arguments: Object.fromEntries(new URLSearchParams(q)) } }),
  }));

/** Every query a few times, so each server process has built its search index and prepared its statements. */
async function warmUp(headers: Record<string, string>, pathFor: (q: string) => string) {
  for (let i = 0; i < 4; i++) {
    await Promise.all(QUERIES.map((q) => fetch(`${BASE}${pathFor(q)}`, { headers }).then((r) => r.arrayBuffer())));
  }
}

/** Mean and p99 in microseconds of `calls` sequential runs of fn(i). */
async function cost(label: string, calls: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(i);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await fn(i);
    times.push((performance.now() - started) * 1000);
  }
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const sorted = times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(62)} mean ${mean.toFixed(0).padStart(6)} µs   p99 ${pct(sorted, 99).toFixed(0).padStart(6)} µs`);
  return mean;
}

async function main() {
  const file = catalogueCopy(COUNT, "api");
  const dbUrl = `file:${file}`;
  mkdirSync(DIR, { recursive: true });
  for (const old of readdirSync(DIR).filter((f) => f.endsWith(".cpuprofile"))) rmSync(path.join(DIR, old));
  ensureBuild();
  const env = { API_CALLS_PER_MINUTE: "1000000", NODE_OPTIONS: PROFILE ? `--cpu-prof --cpu-prof-dir=${DIR}` : "" };
  let window = { fromMs: 0, toMs: Infinity };

  let server = await startBenchServer({ port: PORT, dir: DIR, dbUrl, env, startMs: 180_000 });
  let userId: string;
  let key: string;
  const ratios: string[] = [];
  let api: Figures;
  let mcp: Figures;
  try {
    const cookie = await signInPaidUser(BASE, dbUrl, "bench-api");
    const db = createClient({ url: dbUrl });
    try {
      // Inner Circle's allowance (200,000 calls), so the runs of a day do not use up the month's.
      const [row] = (await db.execute(`SELECT "id" FROM "User" WHERE "email" LIKE 'bench-api-%' ORDER BY "createdAt" DESC LIMIT 1`)).rows;
      userId = String(row.id);
      await db.execute({ sql: `UPDATE "User" SET "innerCircle" = 1 WHERE "id" = ?`, args: [userId] });
    } finally {
      db.close();
    }
    const made = await fetch(`${BASE}/api/keys`, { method: "POST", headers: { cookie, Origin: BASE, "Content-Type": "application/json" }, body: JSON.stringify({ name: "bench" }) });
    if (made.status !== 201) throw new Error(`POST /api/keys answered ${made.status}`);
    key = ((await made.json()) as { key: string }).key;
    const bearer = { authorization: `Bearer ${key}` };

    console.log(
      `\n== ${CONNECTIONS} connections, ${SECONDS} s a phase, ${COUNT.toLocaleString("en-US")} products, loopback; load average before ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores ==`,
    );
    const started = performance.now();
    await warmUp(bearer, (q) => `/api/v1/products?${q}`);
    console.log(`  (warm-up, the search index built in each process: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    const fromMs = Date.now() - server.spawnedAt;
    api = await phase("GET /api/v1/products (Bearer key)", server.pid, QUERIES.map((q) => ({ method: "GET", path: `/api/v1/products?${q}`, headers: bearer })));
    window = { fromMs, toMs: Date.now() - server.spawnedAt };
    mcp = await phase(
      "MCP search_products (POST /mcp)",
      server.pid,
      mcpCalls(bearer),
    );
  } finally {
    await server.stop();
  }
  if (PROFILE) summariseProfile(DIR, window.fromMs, window.toMs);

  // The ceiling: the same searches, the same engine, the same processes, nothing else.
  server = await startBenchServer({ port: PORT, dir: DIR, dbUrl, env: { BENCH_USER_ID: userId }, startMs: 180_000, script: ["--import", "tsx", "bench/lib/bare-search-server.ts"] });
  try {
    await warmUp({}, (q) => `/search?${q}`);
    const ceiling = await phase("bare node:http, the same search (ceiling)", server.pid, QUERIES.map((q) => ({ method: "GET", path: `/search?${q}` })));
    // What the SDK itself costs: the same search as an MCP call through it, with nothing of ours around it.
    const sdkCeiling = await phase("bare, the same search as an MCP SDK call", server.pid, mcpCalls({}));
    const share = (f: Figures, of: Figures) => `${((100 * f.rps) / of.rps).toFixed(0)}% by req/s, ${((100 * of.cpuMs) / f.cpuMs).toFixed(0)}% by CPU a request`;
    ratios.push(
      `/api/v1/products ${share(api, ceiling)} of the ceiling`,
      `MCP search_products ${share(mcp, ceiling)}, and ${share(mcp, sdkCeiling)} of the search via the bare SDK`,
    );
  } finally {
    await server.stop();
  }
  console.log(`  ${ratios.join("; ")} (target: >= 1,000 req/s, p99 <= 50 ms, >= 70% of the ceiling)`);

  await stepCosts(dbUrl, key, userId);
}

/** What one call's steps cost in this process, one call at a time, now and as they were. */
async function stepCosts(dbUrl: string, key: string, userId: string) {
  Object.assign(process.env, { DATABASE_URL: dbUrl, API_CALLS_PER_MINUTE: "1000000", NODE_ENV: "test", LOG_LEVEL: "silent", SESSION_SECRET: "bench-secret-0123456789" });
  const { db } = await import("~/db.server");
  const { apiKeys, products } = await import("~/services/index.server");
  const { createApiKeys, hashApiKey } = await import("~/services/api-access/api-keys.server");
  const { createRateLimits } = await import("~/services/api-access/rate-limits.server");
  const { loadUser } = await import("~/services/accounts/auth.server");
  const { researchAccess } = await import("~/domain/products/research-access");
  // The limiter as it was: rate-limiter-flexible's Prisma store (the URL names no file, so createRateLimits picks it).
  const prismaStore = createApiKeys({ db, limits: createRateLimits({ db, databaseUrl: "libsql://prisma-store" }), callsPerMinute: 1_000_000 });
  const caller = await apiKeys.authenticate(key, "read");
  const user = await loadUser(db, userId);

  console.log(`\n== One call at a time in this process, ${COST_CALLS} calls each, the same database file ==`);
  const keyNow = await cost("key check: one prepared statement (key and owner)", COST_CALLS, () => apiKeys.authenticate(key, "read"));
  const keyBefore = await cost("key check as it was: Prisma findUnique + loadUser", COST_CALLS, async () => {
    const row = await db.apiKey.findUnique({ where: { keyHash: hashApiKey(key) }, select: { id: true, userId: true, scopes: true, revokedAt: true, lastUsedAt: true } });
    return loadUser(db, row!.userId);
  });
  const limitNow = await cost("limiter: key + user minute, user month (SQLite store, its turn)", COST_CALLS, () => apiKeys.countCall(caller));
  const limitBefore = await cost("limiter as it was (rate-limiter-flexible's Prisma store)", COST_CALLS, () => prismaStore.countCall(caller));
  const search = await cost("the search itself (products.search, the same queries)", COST_CALLS, (i) =>
    products.search({ userId, access: researchAccess(user), query: parseProductQuery(new URLSearchParams(`${QUERIES[i % QUERIES.length]}&page=1&pageSize=12`)) }),
  );
  console.log(
    `  key check + limiter a call: ${((keyNow + limitNow) / 1000).toFixed(2)} ms now, ${((keyBefore + limitBefore) / 1000).toFixed(2)} ms before; the search ${(search / 1000).toFixed(2)} ms`,
  );
  await db.$disconnect();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
