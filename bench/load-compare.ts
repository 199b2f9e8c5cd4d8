// Two builds side by side (docs/decisions/039): on a shared machine a path's server CPU per request moves by
// ±10 ms from one minute to the next, so an old and a new build are measured together. Each runs as one process
// (WEB_CONCURRENCY=1) on the same seeded database with one shared session; for each path of the load mix, rounds
// of BENCH_ROUND requests alternate between the two servers (the order flips every round) and the median CPU per
// request of each is printed, with the HTML size, the gzipped size and the element count.
//
//   cp -r build bench/.data/base-build            # the old build, kept inside the repository so that its
//   git checkout …; npm run build                  # imports resolve to node_modules
//   npm run bench -- load-compare                  # bench/.data/base-build against build/
//   BENCH_ONLY=/dashboard BENCH_ROUNDS=12 BENCH_ROUND=5 npm run bench -- load-compare
//   BENCH_BASE_BUILD=dir BENCH_NEW_BUILD=dir BENCH_NEW_ENV='{"SERVER_SEMI_SPACE_MB":"64"}' npm run bench -- load-compare
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { prepareSeededDatabase, startBenchServer } from "./lib/bench-server";
import { loadMix } from "./lib/load-mix";
import { signInPaidUser } from "./lib/paid-user";

const DIR = path.resolve("bench/.data/load-compare");
const DB_URL = `file:${path.join(DIR, "bench.db")}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND = Number(process.env.BENCH_ROUND ?? 10);
const BASE_BUILD = path.resolve(process.env.BENCH_BASE_BUILD ?? "bench/.data/base-build");
const PORT = Number(process.env.BENCH_PORT ?? 3393); // and PORT + 1
const ONLY = process.env.BENCH_ONLY; // keep the paths that contain this

/** CPU seconds (user + system) used so far by a process and its children (as bench/load.ts counts them). */
function cpuSeconds(pid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      if (Number(entry) === pid || Number(fields[1]) === pid) total += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return total / 100;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Bytes of one answer as sent gzipped. Retried once: a server left idle past its 5 s keep-alive while the other
 * one is measured closes the socket just as the next request goes out on it.
 */
async function gzippedBytes(base: string, p: string, cookie: string): Promise<number> {
  try {
    return await getOnce(base, p, cookie);
  } catch {
    return await getOnce(base, p, cookie);
  }
}
function getOnce(base: string, p: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${p}`, { agent, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve(bytes));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}
async function plain(base: string, p: string, cookie: string) {
  const r = await fetch(base + p, { headers: { cookie, "accept-encoding": "identity" } });
  return await r.text();
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  prepareSeededDatabase(DIR, DB_URL);
  const shared = {
    SESSION_SECRET: `bench-${randomBytes(16).toString("hex")}`,
    TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    WEB_CONCURRENCY: "1",
  };
  const old = await startBenchServer({
    port: PORT,
    dir: DIR,
    dbUrl: DB_URL,
    env: {
      ...shared,
      REMIX_BUILD: path.join(BASE_BUILD, "server/index.js"),
      APP_URL: `http://127.0.0.1:${PORT}`,
      ...JSON.parse(process.env.BENCH_OLD_ENV ?? "{}"),
    },
  });
  const neu = await startBenchServer({
    port: PORT + 1,
    dir: DIR,
    dbUrl: DB_URL,
    env: {
      ...shared,
      REMIX_BUILD: path.resolve(process.env.BENCH_NEW_BUILD ?? "build", "server/index.js"),
      APP_URL: `http://127.0.0.1:${PORT + 1}`,
      ...JSON.parse(process.env.BENCH_NEW_ENV ?? "{}"),
    },
  });
  const servers = [
    { name: "old", base: `http://127.0.0.1:${PORT}`, pid: old.pid },
    { name: "new", base: `http://127.0.0.1:${PORT + 1}`, pid: neu.pid },
  ];
  try {
    const cookie = await signInPaidUser(servers[0].base, DB_URL, "compare");
    const mix = await loadMix(servers[0].base, cookie);
    let paths = [...mix.pages, ...mix.apis];
    if (ONLY) paths = paths.filter((p) => p.includes(ONLY));
    // warm
    for (const s of servers) for (let i = 0; i < 3; i++) for (const p of paths) await gzippedBytes(s.base, p, cookie);
    console.log(
      `path  old-ms  new-ms  (median of ${ROUNDS} rounds of ${ROUND})  html KB old/new  gz KB old/new  elements old/new`,
    );
    const sums = { old: 0, new: 0, oldPages: 0, newPages: 0 };
    for (const p of paths) {
      const cpu: Record<string, number[]> = { old: [], new: [] };
      const gz: Record<string, number> = {};
      for (let r = 0; r < ROUNDS; r++) {
        for (const s of r % 2 ? [...servers].reverse() : servers) {
          const before = cpuSeconds(s.pid);
          let bytes = 0;
          for (let i = 0; i < ROUND; i++) bytes += await gzippedBytes(s.base, p, cookie);
          cpu[s.name].push(((cpuSeconds(s.pid) - before) * 1000) / ROUND);
          gz[s.name] = bytes / ROUND;
        }
      }
      const htmlOld = await plain(servers[0].base, p, cookie);
      const htmlNew = await plain(servers[1].base, p, cookie);
      const els = (h: string) => (h.match(/<[a-zA-Z]/g) ?? []).length;
      const o = median(cpu.old);
      const n = median(cpu.new);
      sums.old += o;
      sums.new += n;
      if (p.startsWith("/dashboard")) {
        sums.oldPages += o;
        sums.newPages += n;
      }
      console.log(
        `${p.slice(0, 50).padEnd(50)} ${o.toFixed(1).padStart(6)} ${n.toFixed(1).padStart(6)}   ${(htmlOld.length / 1024).toFixed(1)}/${(htmlNew.length / 1024).toFixed(1)}   ${(gz.old / 1024).toFixed(1)}/${(gz.new / 1024).toFixed(1)}   ${els(htmlOld)}/${els(htmlNew)}`,
      );
    }
    const pages = paths.filter((p) => p.startsWith("/dashboard")).length;
    const perPage = (sum: number) => (pages ? (sum / pages).toFixed(1) : "-");
    console.log(
      `mean over the paths: old ${(sums.old / paths.length).toFixed(1)} ms, new ${(sums.new / paths.length).toFixed(1)} ms; pages old ${perPage(sums.oldPages)}, new ${perPage(sums.newPages)}`,
    );
  } finally {
    await old.stop();
    await neu.stop();
  }
}
await main();
