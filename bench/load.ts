// Mixed load (issue 21, "Load"; docs/decisions/039): 32 connections for 20 s over a mix of signed-in
// dashboard pages (server-rendered) and JSON APIs, against the production server (started as `npm start`
// starts it) on a seeded scratch database (the demo catalogue of 3,000 products, the course). Prints
// req/s, p50/p95/p99 overall and per kind (page, api) and per path, and errors; asserts nothing.
//
//   npm run bench -- load                         # 32 connections, 20 s, BENCH_PORT 3391
//   BENCH_SECONDS=10 BENCH_CONNECTIONS=16 npm run bench -- load
//   BENCH_PROFILE=1 npm run bench -- load         # also a CPU profile of the server: top self time by
//                                                 # function and by package (bench/.data/load/*.cpuprofile)
//   WEB_CONCURRENCY=1 npm run bench -- load       # the server's process count (server/cluster.mjs)
//   BENCH_SECONDS=0 npm run bench -- load         # only what each path costs, one request at a time
//   BENCH_COST_REQUESTS=50 npm run bench -- load  # requests per path for that (default 30)
//
// Before the mixed run it prints what each path costs on its own: the server's CPU milliseconds per
// request (all its processes, read from /proc over BENCH_COST_REQUESTS requests in a row, so other work
// on a busy machine does not count) and the bytes sent, gzipped and not. That is the steady figure on a
// shared machine; req/s and p99 move with whatever else runs.
//
// The load tool runs on the same machine as the server: on 2 cores it takes a share of the CPU the
// server would otherwise have. Figures move with whatever else the machine is doing.
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { prepareSeededDatabase, startBenchServer } from "./lib/bench-server";
import { cpuSeconds, summariseProfile } from "./lib/cpu-profile";
import { loadMix } from "./lib/load-mix";
import { signInPaidUser } from "./lib/paid-user";

const PORT = Number(process.env.BENCH_PORT ?? 3391);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PROFILE = process.env.BENCH_PROFILE === "1";
const COST_REQUESTS = Number(process.env.BENCH_COST_REQUESTS ?? 30);
const DIR = path.resolve("bench/.data/load");
const DB_URL = `file:${path.join(DIR, "bench.db")}`;

type Kind = "page" | "api";
type Target = { kind: Kind; path: string };

async function startServer() {
  return startBenchServer({
    port: PORT,
    dir: DIR,
    dbUrl: DB_URL,
    startMs: 60_000,
    env: { NODE_OPTIONS: PROFILE ? `--cpu-prof --cpu-prof-dir=${DIR}` : "" },
  });
}

/** The mix: as many page requests as API requests, the pages a signed-in seller moves between. */
async function targets(cookie: string): Promise<Target[]> {
  const { pages, apis } = await loadMix(BASE, cookie);
  return pages.flatMap((page, i) => [
    { kind: "page" as const, path: page },
    { kind: "api" as const, path: apis[i] },
  ]);
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** The body's size as sent (fetch would decompress it), asking for gzip as a browser does. */
function bytesOnTheWire(pathname: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${BASE}${pathname}`,
      { agent: keepAlive, headers: { cookie, "accept-encoding": "gzip" } },
      (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve(bytes));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

function line(label: string, times: number[], seconds: number) {
  const sorted = [...times].sort((a, b) => a - b);
  return `  ${label.padEnd(44)} ${(times.length / seconds).toFixed(1).padStart(7)} req/s   p50 ${ms(pct(sorted, 50)).padStart(5)} ms   p95 ${ms(pct(sorted, 95)).padStart(5)} ms   p99 ${ms(pct(sorted, 99)).padStart(5)} ms`;
}

/** Resident memory in MB of a process and its children (cluster workers). */
function rssMb(pid: number): number {
  let kb = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      if (Number(entry) === pid || ppid === pid) {
        kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
      }
    } catch {
      // gone meanwhile
    }
  }
  return Math.round(kb / 1024);
}

async function main() {
  console.log(`Seeding a scratch database under ${path.relative(process.cwd(), DIR)} and starting the server …`);
  prepareSeededDatabase(DIR, DB_URL);
  const server = await startServer();
  let window = { fromMs: 0, toMs: Infinity };
  try {
    const cookie = await signInPaidUser(BASE, DB_URL, "bench-load");
    const mix = await targets(cookie);
    for (const t of mix) {
      const response = await fetch(BASE + t.path, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) console.log(`  note: ${t.path} answers ${response.status}`);
    }
    // Warm: a few rounds of the whole mix before measuring.
    for (let round = 0; round < 3; round++) {
      await Promise.all(mix.map(async (t) => (await fetch(BASE + t.path, { headers: { cookie } })).arrayBuffer()));
    }

    // One request at a time: what a page costs when it has the server to itself.
    const alone: string[] = [];
    for (const t of mix) {
      const took: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await (await fetch(BASE + t.path, { headers: { cookie, "accept-encoding": "gzip, br" } })).arrayBuffer();
        took.push(performance.now() - started);
      }
      alone.push(`${t.kind} ${t.path} ${ms(took.sort((a, b) => a - b)[2])} ms`);
    }

    // What each path costs the server, one request at a time.
    console.log(
      `\n== server CPU per request and bytes per answer, path by path (${COST_REQUESTS} requests each, one at a time) ==`,
    );
    const costs: { kind: Kind; cpuMs: number }[] = [];
    for (const t of mix) {
      let gzipBytes = 0;
      const before = cpuSeconds(server.pid);
      for (let i = 0; i < COST_REQUESTS; i++) {
        gzipBytes += await bytesOnTheWire(t.path, cookie);
      }
      const cpuMs = ((cpuSeconds(server.pid) - before) * 1000) / COST_REQUESTS;
      const plain = await (
        await fetch(BASE + t.path, { headers: { cookie, "accept-encoding": "identity" } })
      ).arrayBuffer();
      costs.push({ kind: t.kind, cpuMs });
      console.log(
        `  ${`${t.kind} ${t.path}`.slice(0, 52).padEnd(52)} ${cpuMs.toFixed(1).padStart(6)} ms CPU   ${(plain.byteLength / 1024).toFixed(1).padStart(6)} KB   ${(gzipBytes / COST_REQUESTS / 1024).toFixed(1).padStart(5)} KB gzipped`,
      );
    }
    const mean = (kind?: Kind) => {
      const of = costs.filter((c) => !kind || c.kind === kind);
      return (of.reduce((a, c) => a + c.cpuMs, 0) / of.length).toFixed(1);
    };
    console.log(
      `  mean: pages ${mean("page")} ms, APIs ${mean("api")} ms, the mix ${mean()} ms of server CPU per request`,
    );
    if (SECONDS <= 0) return;

    const times = new Map<string, number[]>(mix.map((t) => [t.path, []]));
    const statuses = new Map<string, number>();
    // @ts-expect-error autocannon ships no type declarations
    const { default: autocannon } = await import("autocannon");
    // Every new request, whichever connection sends it, takes the next path of the mix: each path gets its
    // share from the first second (a fixed order per connection would start all 32 on the same page).
    let next = 0;
    const run = autocannon({
      url: BASE,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { cookie, "accept-encoding": "gzip, br" },
      requests: [
        {
          method: "GET",
          setupRequest: (request: object, context: { path?: string }) => {
            context.path = mix[next++ % mix.length].path;
            return { ...request, path: context.path };
          },
        },
      ],
    });
    // With one request in flight per connection, the client's context still names the request just answered.
    run.on(
      "response",
      (client: { requestIterator: { context: { path: string } } }, status: number, _b: number, time: number) => {
        const target = client.requestIterator.context.path;
        times.get(target)?.push(time);
        if (status !== 200) statuses.set(`${status} ${target}`, (statuses.get(`${status} ${target}`) ?? 0) + 1);
      },
    );
    const load = os.loadavg()[0];
    const cpuBefore = cpuSeconds(server.pid);
    const startedMs = Date.now() - server.spawnedAt;
    const result = await run;
    window = { fromMs: startedMs, toMs: Date.now() - server.spawnedAt };
    const cpuUsed = cpuSeconds(server.pid) - cpuBefore;
    const rssAfter = rssMb(server.pid);
    const seconds = SECONDS;
    const all = [...times.values()].flat();
    const ofKind = (kind: Kind) => mix.filter((t) => t.kind === kind).flatMap((t) => times.get(t.path) ?? []);

    console.log(
      `\n== ${CONNECTIONS} connections, ${seconds} s, ${mix.length / 2} pages + ${mix.length / 2} APIs in turn, signed in, loopback ==`,
    );
    console.log(`  machine load average before the run: ${load.toFixed(1)} on ${os.cpus().length} cores`);
    console.log(line("whole mix", all, seconds));
    console.log(line("pages (server-rendered HTML)", ofKind("page"), seconds));
    console.log(line("APIs (JSON)", ofKind("api"), seconds));
    console.log(
      `  server CPU ${cpuUsed.toFixed(1)} s over ${seconds} s (${((100 * cpuUsed) / seconds).toFixed(0)}% of one core): ${((1000 * cpuUsed) / all.length).toFixed(1)} ms per request`,
    );
    console.log(
      `  server processes: ${process.env.WEB_CONCURRENCY || `WEB_CONCURRENCY unset (one per core: ${os.availableParallelism()})`}; resident memory after the run ${rssAfter} MB in all`,
    );
    console.log(`  errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`);
    for (const [what, count] of statuses) console.log(`    ${count} × ${what}`);
    console.log(`  one request at a time (median of 5, before the run): ${alone.join(", ")}`);
    console.log(`  per path:`);
    for (const t of mix) console.log(line(`${t.kind} ${t.path}`.slice(0, 44), times.get(t.path) ?? [], seconds));
  } finally {
    await server.stop();
  }
  if (PROFILE) summariseProfile(DIR, window.fromMs, window.toMs);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
