// Export benchmark (issue 24, decision 057): a 100,000-row CSV (and JSON) export of the grid's results, read to
// the end as a client would, in process. Prints rows per second and the process's peak RSS before and after.
// Then (issue 35 item 1, decision 083) the production server on the same database, one worker process: /healthz
// asked again and again while 1, 2 and 8 CSV exports of the grid download at once; prints /healthz's latency
// (p50, p95, max) and each export's status and time. Before that, the event loop's delay (p50, p99, max) and the CPU
// time per page while 1, 2 and 8 exports read in this process (decision 093). Asserts nothing. The catalogue is generated once into the
// bench's scratch database.
//
//   npm run bench -- export
//   BENCH_EXPORT_ROWS=20000 BENCH_EXPORT_CONCURRENCY=1,8 npm run bench -- export
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { ensureBuild, startBenchServer } from "./lib/bench-server";
import { signInPaidUser } from "./lib/paid-user";
import { prepareScratchDb } from "./lib/scratch-db";

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const CONCURRENCY = (process.env.BENCH_EXPORT_CONCURRENCY ?? "1,2,8").split(",").map(Number);
const PORT = Number(process.env.BENCH_PORT ?? 3394);
const dir = prepareScratchDb("export");
console.log(`Generating ${ROWS.toLocaleString("en-US")} products …`);
execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/products-generate.ts", "--count", String(ROWS), "--seed", "1"], { env: process.env, stdio: "ignore" });

const { db } = await import("~/db.server");
const { researchAccess } = await import("~/domain/products/research-access");
const { productExport, productSearch } = await import("~/services/index.server");
const { parseProductQuery } = await import("~/domain/products/product-query");
const { EXPORT_PAGE_SIZE } = await import("~/domain/products/product-export");

const user = await db.user.create({
  data: { id: "bench-export", email: "bench-export@example.com", userSubscribed: "yes" },
  select: { id: true, userSubscribed: true, trialing: true, innerCircle: true, extendedTrial: true, claimedDiscount: true },
});
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
// The search engine's in-memory index is built on a server's first search, whatever the export: built here first,
// so the figures below are the export's own.
const warm = process.memoryUsage().rss;
await productSearch.search(parseProductQuery(new URLSearchParams()));
console.log(`RSS ${mb(warm)} before the first search, ${mb(process.memoryUsage().rss)} with the catalogue index built`);

for (const format of ["csv", "json"] as const) {
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const file = await productExport.open({ user, access: researchAccess(user), list: { kind: "search", params: new URLSearchParams() }, format });
  const reader = file.body.getReader();
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rssAfter = process.memoryUsage().rss;
  const rows = format === "csv" ? lines - 1 : lines - 1;
  console.log(
    `${format}: ${rows.toLocaleString("en-US")} rows, ${mb(bytes)} in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString("en-US")} rows/s; ` +
      `RSS ${mb(rssBefore)} before, peak ${mb(peak)} (+${mb(peak - rssBefore)}), ${mb(rssAfter)} after; the file is ${mb(bytes)}`,
  );
}
console.log(`peak RSS of the process (maxRSS): ${mb(process.resourceUsage().maxRSS * 1024)}`);

// The event loop's longest holds while exports read in this process as fast as they can (decision 093): the delay
// a timer sees (monitorEventLoopDelay), and the CPU time per page, which the machine's load changes far less.
console.log(`\nevent-loop delay while ${ROWS.toLocaleString("en-US")}-row CSV exports read in process (machine load ${loadavg()[0].toFixed(1)}):`);
for (const n of CONCURRENCY) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let pages = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      const file = await productExport.open({ user, access: researchAccess(user), list: { kind: "search", params: new URLSearchParams() }, format: "csv" });
      const reader = file.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) pages++;
    }),
  );
  delay.disable();
  const used = process.cpuUsage(cpu);
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `  ${n} at once: event-loop delay p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms; ` +
      `${((used.user + used.system) / 1000 / pages).toFixed(1)} ms of CPU per page (${pages} pages of up to ${EXPORT_PAGE_SIZE} rows), ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
await db.$disconnect();

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** One CSV export of the grid downloaded to the end (fetch asks for compression, as a browser does). */
async function download(base: string, cookie: string) {
  const started = performance.now();
  try {
    const response = await fetch(`${base}/api/products/export?format=csv`, { headers: { cookie } });
    let bytes = 0;
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) bytes += read.value.byteLength;
    return { status: String(response.status), seconds: (performance.now() - started) / 1000, bytes };
  } catch (error) {
    return { status: `failed (${(error as Error).cause ? String((error as Error & { cause: unknown }).cause) : (error as Error).message})`, seconds: (performance.now() - started) / 1000, bytes: 0 };
  }
}

ensureBuild();
const base = `http://127.0.0.1:${PORT}`;
const dbUrl = process.env.DATABASE_URL!;
// One worker: every export shares the event loop that answers /healthz (with one per core, a request may land on
// the other one, which hides the stall).
const server = await startBenchServer({ port: PORT, dir, dbUrl, env: { WEB_CONCURRENCY: "1", LOG_LEVEL: "error" }, startMs: 180_000 });
try {
  const cookie = await signInPaidUser(base, dbUrl, "bench-export");
  // The catalogue index is built on the server's first search: built here, so the figures are the exports' own.
  await fetch(`${base}/api/products?hitsPerPage=1`, { headers: { cookie } }).then((r) => r.arrayBuffer());
  console.log(`\n/healthz while ${ROWS.toLocaleString("en-US")}-row CSV exports download (production server, one worker):`);
  for (const n of CONCURRENCY) {
    const latencies: number[] = [];
    let running = true;
    const exports = Promise.all(Array.from({ length: n }, () => download(base, cookie))).finally(() => (running = false));
    while (running) {
      const started = performance.now();
      const status = await fetch(`${base}/healthz`).then(async (r) => (await r.arrayBuffer(), r.status)).catch(() => 0);
      latencies.push(performance.now() - started);
      if (status !== 200) console.log(`  /healthz answered ${status || "nothing"}`);
    }
    const results = await exports;
    latencies.sort((a, b) => a - b);
    const statuses = [...new Set(results.map((r) => r.status))].map((st) => `${results.filter((r) => r.status === st).length} x ${st}`).join(", ");
    const slowest = Math.max(...results.map((r) => r.seconds));
    console.log(
      `  ${n} at once: /healthz ${latencies.length} answers, p50 ${pct(latencies, 50).toFixed(1)} ms, p95 ${pct(latencies, 95).toFixed(1)} ms, ` +
        `max ${latencies.at(-1)!.toFixed(1)} ms; exports ${statuses}, slowest ${slowest.toFixed(1)} s, ${mb(Math.max(...results.map((r) => r.bytes)))} on the wire each`,
    );
  }
} finally {
  await server.stop();
}
