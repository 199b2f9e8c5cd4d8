// Export benchmark (issue 24, decision 057): a 100,000-row CSV (and JSON) export of the grid's results, read to
// the end as a client would, in process. Prints rows per second and the process's peak RSS before and after;
// asserts nothing. The catalogue is generated once into the bench's scratch database.
//
//   npm run bench -- export
//   BENCH_EXPORT_ROWS=20000 npm run bench -- export
import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { prepareScratchDb } from "./lib/scratch-db";

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
prepareScratchDb("export");
console.log(`Generating ${ROWS.toLocaleString("en-US")} products …`);
execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/products-generate.ts", "--count", String(ROWS), "--seed", "1"], { env: process.env, stdio: "ignore" });

const { db } = await import("~/db.server");
const { researchAccess } = await import("~/domain/research-access");
const { productExport, productSearch } = await import("~/services/index.server");
const { parseProductQuery } = await import("~/domain/product-query");

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
await db.$disconnect();
