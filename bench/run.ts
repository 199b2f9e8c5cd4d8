// `npm run bench [-- NAME ...]`: prints speed and memory figures; asserts nothing. Each benchmark runs
// in its own process (each points the app at its own database). Names: foundation, billing, search, ai-ads,
// http-limits, tracker (competitor snapshots per minute, then job claims per second from 3 processes), pages
// (Lighthouse, mobile and desktop presets), assistant (plain-words questions), outbox (marketing delivery),
// catalogue (the time to place 1,000 and 10,000 listings without pictures, then the measured catalogue's matching
// against a simulated market and the labelled real-catalogue set: quality, full and incremental time),
// crawl (the tracker reading stand-in stores that answer in 100-300 ms: stores an hour per process, and what 1, 2
// and 4 worker processes do to one SQLite file),
// load (pages and APIs together over 32 connections, with BENCH_PROFILE=1 a CPU profile of the server),
// load-compare (not run by default: an old build and build/ side by side, server CPU per request path by path),
// logo (checking and drawing an uploaded logo, and the event loop meanwhile), export (a 100,000-row CSV and JSON
// export of the grid: rows per second and peak RSS), api (the public API and the MCP server with a key, against the
// site's own search), landed-margins (every product's margin after duty and fees figured again: products per second).
// Not run by default (each starts a throw-away PostgreSQL cluster): jobs-pg (pg-boss against graphile-worker) and
// api-pg (the API and the pages+API mix on SQLite and on PostgreSQL side by side), crawl-pg (crawl on PostgreSQL).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const ALL = ["foundation", "billing", "search", "ai-ads", "http-limits", "tracker", "pages", "assistant", "outbox", "catalogue", "crawl", "load", "logo", "export", "api", "landed-margins"];
/**
 * Benchmarks that run as part of another's name: `tracker` also prints the job system's figures, `catalogue` first
 * the time to place listings without pictures (bench/catalogue-unpictured.ts).
 */
const PARTS: Record<string, string[]> = { "jobs-pg": ["jobs-postgres"], "api-pg": ["api-postgres"], "crawl-pg": ["crawl-postgres"], tracker: ["tracker", "jobs"], catalogue: ["catalogue-unpictured", "catalogue"] };
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const names = wanted.length ? wanted : ALL;
let failed = 0;
for (const name of names.flatMap((n) => PARTS[n] ?? [n])) {
  const file = path.resolve("bench", `${name}.ts`);
  if (!existsSync(file)) {
    console.error(`No benchmark named ${name} (have: ${ALL.join(", ")}).`);
    failed++;
    continue;
  }
  console.log(`\n######## ${name} ########`);
  const r = spawnSync(path.resolve("node_modules/.bin/tsx"), [file], { stdio: "inherit", env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
