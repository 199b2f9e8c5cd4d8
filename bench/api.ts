// The public API and the MCP server under load (issue 26, decisions 053 and 054): BENCH_CONNECTIONS (32) clients
// for BENCH_SECONDS (10) each against the production server (started as `npm start` starts it, on a seeded scratch
// database: the demo catalogue of 3,000 products) with one API key, for
//   1. GET /api/v1/products searches (Bearer key: the key lookup, the per-key and per-user limiter, the search),
//   2. MCP search_products calls (POST /mcp: the same, plus a fresh stateless SDK server per call),
//   3. the site's GET /api/products with a session cookie (no limiter), the same searches: the limiter's and the
//      API's shaping overhead is the difference per call.
// Prints req/s and p50/p95/p99 per phase; asserts nothing. The per-minute limit is raised for the run
// (API_CALLS_PER_MINUTE), or every client would meet a 429 within the first second.
//
//   npm run bench -- api
//   BENCH_SECONDS=20 BENCH_CONNECTIONS=32 npm run bench -- api
//
// Not yet: the 1,000,000-product catalogue of bench/search.ts, and the bare node:http ceiling over the same engine.
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { prepareSeededDatabase, startBenchServer } from "./lib/bench-server";

const PORT = Number(process.env.BENCH_PORT ?? 3393);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DIR = path.resolve("bench/.data/api");
const DB_URL = `file:${path.join(DIR, "bench.db")}`;
const QUERIES = ["niche=kitchen", "sort=trending", "q=dog", "source=sample&sort=newest", "minPrice=10&maxPrice=40", "stage=rising", "sort=storesSelling", ""];

function startServer() {
  return startBenchServer({ port: PORT, dir: DIR, dbUrl: DB_URL, env: { API_CALLS_PER_MINUTE: "1000000" } });
}

/** A paid account signed up through the form, and a key made through POST /api/keys. */
async function paidUserWithKey(): Promise<{ cookie: string; key: string }> {
  const email = `bench-api-${Date.now().toString(36)}@example.com`;
  const signup = await fetch(`${BASE}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ email, password: "correct-horse-battery" }),
  });
  const cookie = signup.headers.get("set-cookie")?.split(";")[0];
  if (signup.status !== 302 || !cookie) throw new Error(`sign-up answered ${signup.status}`);
  const db = createClient({ url: DB_URL });
  try {
    await db.execute({ sql: `UPDATE "User" SET "subscription_id" = ?, "userSubscribed" = 'yes' WHERE "email" = ?`, args: [`sub_bench_${Date.now()}`, email] });
  } finally {
    db.close();
  }
  const made = await fetch(`${BASE}/api/keys`, { method: "POST", headers: { cookie, Origin: BASE, "Content-Type": "application/json" }, body: JSON.stringify({ name: "bench" }) });
  if (made.status !== 201) throw new Error(`POST /api/keys answered ${made.status}`);
  return { cookie, key: ((await made.json()) as { key: string }).key };
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

async function phase(label: string, requests: { method: string; path: string; headers: Record<string, string>; body?: string }[]) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  // @ts-expect-error autocannon ships no type declarations
  const { default: autocannon } = await import("autocannon");
  const run = autocannon({
    url: BASE,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (request: object) => ({ ...request, ...requests[next++ % requests.length] }) }],
  });
  run.on("response", (_client: unknown, status: number, _bytes: number, time: number) => {
    times.push(time);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  const result = await run;
  const sorted = times.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(40)} ${(times.length / SECONDS).toFixed(0).padStart(6)} req/s   p50 ${pct(sorted, 50).toFixed(1).padStart(6)} ms   p95 ${pct(sorted, 95).toFixed(1).padStart(6)} ms   p99 ${pct(sorted, 99).toFixed(1).padStart(6)} ms   statuses ${JSON.stringify(Object.fromEntries(statuses))}, errors ${result.errors}`,
  );
}

async function main() {
  prepareSeededDatabase(DIR, DB_URL);
  const server = await startServer();
  try {
    const { cookie, key } = await paidUserWithKey();
    console.log(`\n== ${CONNECTIONS} connections, ${SECONDS} s a phase, the demo catalogue (3,000 products), loopback; load average before ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores ==`);
    const bearer = { authorization: `Bearer ${key}` };
    // Warm-up: the first search builds the in-memory catalogue index and each worker's prepared statements.
    for (let i = 0; i < 4; i++) {
      await Promise.all(QUERIES.map((q) => fetch(`${BASE}/api/v1/products?${q}`, { headers: bearer }).then((r) => r.arrayBuffer())));
      await Promise.all(QUERIES.map((q) => fetch(`${BASE}/api/products?${q}`, { headers: { cookie } }).then((r) => r.arrayBuffer())));
    }
    await phase("GET /api/v1/products (Bearer key)", QUERIES.map((q) => ({ method: "GET", path: `/api/v1/products?${q}`, headers: bearer })));
    await phase(
      "MCP search_products (POST /mcp)",
      QUERIES.map((q, i) => ({
        method: "POST",
        path: "/mcp",
        headers: { ...bearer, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search_products", arguments: Object.fromEntries(new URLSearchParams(q)) } }),
      })),
    );
    await phase("GET /api/products (site cookie, no limiter)", QUERIES.map((q) => ({ method: "GET", path: `/api/products?${q}`, headers: { cookie } })));
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
