// Product search benchmark (issue 4): a fixed mix of queries on a generated catalogue, in process and
// over HTTP, beside two baselines run in the same process on the same file: a naive LIKE scan and a
// straightforward FTS5 join + ORDER BY + LIMIT. Prints figures; asserts nothing.
//
//   npm run bench -- search                 # uses bench/.data/products-1m.db, generating it if missing
//   BENCH_PRODUCTS=100000 npm run bench -- search
//   BENCH_HTTP=0 (in-process only) or BENCH_INPROCESS=0 (HTTP only)
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { generatedCatalogue } from "./lib/generated-catalogue";

type Params = Record<string, string>;
interface MixQuery {
  cls: string;
  label: string;
  params: Params;
}

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 1_000_000);
const DIR = path.resolve("bench/.data");
const FILE = path.join(DIR, COUNT === 1_000_000 ? "products-1m.db" : `products-${COUNT}.db`);
const ensureCatalogue = () => generatedCatalogue(COUNT);

function pct(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (n: number) => (Number.isNaN(n) ? "-" : n < 10 ? n.toFixed(2) : n.toFixed(1));

/** Picks words by how many titles contain them, from a sample, so the mix fits any generated catalogue. */
async function pickWords(rows: (sql: string, args?: unknown[]) => Promise<unknown[][]>) {
  const sample = await rows(`SELECT title, niches FROM Product WHERE id % 97 = 0 LIMIT 5000`);
  const df = new Map<string, number>();
  for (const [title] of sample) {
    const words = new Set(String(title).toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 4));
    for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const byFreq = [...df.entries()].map(([w, n]) => ({ w, f: n / sample.length })).sort((a, b) => b.f - a.f);
  const near = (target: number) => [...byFreq].sort((a, b) => Math.abs(a.f - target) - Math.abs(b.f - target));
  const broad = near(0.1).slice(0, 3).map((x) => x.w);
  const rare = byFreq.filter((x) => x.f > 0 && x.f <= 0.002).slice(0, 3).map((x) => x.w);
  const niches = await rows(`SELECT primaryNiche, count(*) c FROM Product WHERE id % 97 = 0 GROUP BY primaryNiche ORDER BY c DESC LIMIT 3`);
  return { broad, rare: rare.length ? rare : [byFreq[byFreq.length - 1].w], niches: niches.map((r) => String(r[0])) };
}

function mix(words: { broad: string[]; rare: string[]; niches: string[] }): MixQuery[] {
  const [b1, b2, b3] = [words.broad[0], words.broad[1] ?? words.broad[0], words.broad[2] ?? words.broad[0]];
  const [r1, r2] = [words.rare[0], words.rare[1] ?? words.rare[0]];
  const [n1, n2] = [words.niches[0], words.niches[1] ?? words.niches[0]];
  return [
    { cls: "broad text", label: `"${b1}" by score`, params: { q: b1, sort: "winning-score" } },
    { cls: "broad text", label: `"${b2}" by orders`, params: { q: b2, sort: "orders" } },
    { cls: "broad text", label: `"${b3}" by price asc`, params: { q: b3, sort: "price-asc" } },
    { cls: "broad text", label: `"${b1} ${b2}" by score`, params: { q: `${b1} ${b2}`, sort: "winning-score" } },
    { cls: "rare text", label: `"${r1}" by score`, params: { q: r1, sort: "winning-score" } },
    // A rare word beside a broad one: few products carry both, so those carrying most of the text follow them.
    { cls: "rare text", label: `"${r1} ${b1}" by score`, params: { q: `${r1} ${b1}`, sort: "winning-score" } },
    { cls: "rare text", label: `"${r2}" by relevance`, params: { q: r2, sort: "relevance" } },
    { cls: "no match", label: `"xyzzyplughq"`, params: { q: "xyzzyplughq", sort: "winning-score" } },
    { cls: "no match", label: `"${b1} xyzzyplughq"`, params: { q: `${b1} xyzzyplughq`, sort: "orders" } },
    { cls: "filters only", label: `niche=${n1}`, params: { niche: n1 } },
    { cls: "filters only", label: "margin>=60%, price<=$30, by orders", params: { minMargin: "60", maxPrice: "30", sort: "orders" } },
    { cls: "filters only", label: "stage=rising, orders>=100, by trending", params: { stage: "rising", minOrders: "100", sort: "trending" } },
    { cls: "filters only", label: "Amazon>=$19, by margin", params: { minAmazonPrice: "19", sort: "margin" } },
    { cls: "filters only", label: "stores<=5, orders>=50 (selective)", params: { maxStores: "5", minOrders: "50" } },
    { cls: "filters + text", label: `"${b1}" + niche=${n2}`, params: { q: b1, niche: n2, sort: "winning-score" } },
    { cls: "filters + text", label: `"${r1}" + price>=$10`, params: { q: r1, minPrice: "10", sort: "orders" } },
    { cls: "filters + text", label: `"${b2}" + margin>=50%, by revenue`, params: { q: b2, minMargin: "50", sort: "revenue" } },
    { cls: "sorts", label: "by revenue", params: { sort: "revenue" } },
    { cls: "sorts", label: "by newest", params: { sort: "newest" } },
    { cls: "sorts", label: "by price", params: { sort: "price" } },
    { cls: "sorts", label: "first seen in 30 days, by newest", params: { firstSeenDays: "30", sort: "newest" } },
    { cls: "sorts", label: "default (winning score)", params: {} },
    { cls: "random", label: "random, seed 12345", params: { sort: "random", seed: "12345" } },
    { cls: "random", label: "random, seed 777, page 3", params: { sort: "random", seed: "777", page: "3" } },
    { cls: "deep page", label: "by orders, page 50", params: { sort: "orders", page: "50" } },
    { cls: "deep page", label: `"${b1}" by score, page 50`, params: { q: b1, sort: "winning-score", page: "50" } },
    { cls: "deep page", label: `niche=${n1} by margin, page 50`, params: { niche: n1, sort: "margin", page: "50" } },
    { cls: "relevance", label: `"${b2}" by relevance (BM25)`, params: { q: b2, sort: "relevance" } },
    // Misspelt: the text finds nothing, its correction from the catalogue's words is searched instead.
    { cls: "misspelt", label: `"bluetoth speker"`, params: { q: "bluetoth speker", sort: "winning-score" } },
    { cls: "misspelt", label: `"${typo(b1)}" by orders`, params: { q: typo(b1), sort: "orders" } },
    { cls: "misspelt", label: `"${typo(b1)} ${typo(b2)}"`, params: { q: `${typo(b1)} ${typo(b2)}` } },
    { cls: "misspelt", label: `"${swap(r1)}" by score`, params: { q: swap(r1), sort: "winning-score" } },
    { cls: "misspelt", label: `"${typo(b3)}" + niche=${n2}`, params: { q: typo(b3), niche: n2, sort: "margin" } },
    { cls: "misspelt", label: `"bluetoth speker" literal=1 (as typed)`, params: { q: "bluetoth speker", literal: "1" } },
  ];
}

/** A typing slip: the middle letter left out ("speaker" -> "speker"). */
function typo(word: string): string {
  const i = Math.floor(word.length / 2);
  return word.slice(0, i) + word.slice(i + 1);
}

/** Two neighbouring letters swapped ("tracker" -> "tarcker"). */
function swap(word: string): string {
  return word[0] + word[2] + word[1] + word.slice(3);
}

// ---------- baselines ----------

const SORT_SQL: Record<string, string> = {
  "winning-score": `p.winningScore DESC, p.id DESC`,
  orders: `p.orders DESC, p.id DESC`,
  revenue: `p.revenueCents DESC, p.id DESC`,
  margin: `p.marginBps DESC, p.id DESC`,
  price: `p.priceCents DESC, p.id DESC`,
  "price-asc": `p.priceCents ASC, p.id ASC`,
  newest: `p.firstSeenAt DESC, p.id DESC`,
  trending: `p.trendingScore DESC, p.id DESC`,
  random: `p.randomSortKey DESC, p.id DESC`,
};

function whereSql(q: import("~/domain/products/product-query").ProductQuery): { sql: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  const range = (col: string, r: { min?: number; max?: number }) => {
    if (r.min !== undefined) {
      parts.push(`${col} >= ?`);
      args.push(r.min);
    }
    if (r.max !== undefined) {
      parts.push(`${col} <= ?`);
      args.push(r.max);
    }
  };
  range("p.priceCents", q.price);
  range("p.costCents", q.cost);
  range("p.marginBps", q.margin);
  range("p.orders", q.orders);
  range("p.storesSelling", q.stores);
  range("p.amazonPriceCents", q.amazonPrice);
  if (q.niches.length) {
    parts.push(`(${q.niches.map(() => `p.niches LIKE ?`).join(" OR ")})`);
    args.push(...q.niches.map((n) => `%"${n}"%`));
  }
  if (q.stages.length) {
    parts.push(`p.lifecycleStage IN (${q.stages.map(() => "?").join(",")})`);
    args.push(...q.stages);
  }
  if (q.firstSeen.min !== undefined) {
    parts.push(`p.firstSeenAt >= ?`);
    args.push(new Date(q.firstSeen.min * 86_400_000).toISOString());
  }
  return { sql: parts.length ? parts.join(" AND ") : "1", args };
}

async function main() {
  ensureCatalogue();
  Object.assign(process.env, {
    DATABASE_URL: `file:${FILE}`,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SESSION_SECRET: "bench-secret-0123456789",
  });
  const { createSqlReader } = await import("~/db.server");
  const { parseProductQuery } = await import("~/domain/products/product-query");
  const { ftsQuery } = await import("~/domain/products/product-query");
  const { CatalogSearch } = await import("~/services/search/catalog-search.server");
  const reader = createSqlReader(`file:${FILE}`);
  await reader.rows("PRAGMA busy_timeout = 5000");
  const [[n]] = await reader.rows(`SELECT count(*) FROM Product`);
  console.log(`\n== Product search on ${Number(n).toLocaleString("en-US")} products (${FILE}) ==`);

  const words = await pickWords((sql, args) => reader.rows(sql, args as never));
  console.log(`broad words ${words.broad.join(", ")}; rare ${words.rare.join(", ")}; niches ${words.niches.join(", ")}`);
  const queries = mix(words);

  if (process.env.BENCH_INPROCESS === "0") {
    await httpBench(queries);
    return;
  }
  const engine = new CatalogSearch(reader);
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  await engine.current();
  console.log(
    `index load: ${((performance.now() - t0) / 1000).toFixed(1)} s, RSS +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB (now ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB)`,
  );
  // Cold: the first run of each query, text caches empty (the broadest words read with the index, as a server
  // reads them when a catalogue version loads). Warm: 30 more runs each.
  const cold = new Map<string, number>();
  // The same first runs in CPU time (process.cpuUsage: this process's threads, whatever else the machine runs).
  const coldCpu: number[] = [];
  const warm = new Map<string, number[]>();
  const plans = new Map<string, string>();
  for (const mq of queries) {
    const q = parseProductQuery(new URLSearchParams(mq.params));
    const c = process.cpuUsage();
    const t = performance.now();
    const page = await engine.search(q);
    cold.set(mq.label, performance.now() - t);
    const used = process.cpuUsage(c);
    coldCpu.push((used.user + used.system) / 1000);
    const corrected = page.correctedQuery ? `, searched "${page.correctedQuery}"` : "";
    plans.set(mq.label, `${page.plan}, ${page.totalIsEstimate ? "≈" : ""}${page.total.toLocaleString("en-US")} matches${corrected}`);
  }
  await new Promise((r) => setTimeout(r, 500)); // background reads started by probes settle
  for (let rep = 0; rep < 30; rep++) {
    for (const mq of queries) {
      const q = parseProductQuery(new URLSearchParams(mq.params));
      const t = performance.now();
      await engine.search(q);
      const list = warm.get(mq.label) ?? [];
      list.push(performance.now() - t);
      warm.set(mq.label, list);
    }
  }

  // The spelling vocabulary is built inside the load above; build it again alone to show its share. After the
  // query timings: its garbage (hundreds of MB of strings) is no part of a search, and its collection landed in
  // the cold runs when this came first.
  const { vocabulary } = await engine.current();
  const { Vocabulary, VocabularyBuilder, correctQuery } = await import("~/domain/products/spelling");
  const tv = performance.now();
  const builder = new VocabularyBuilder();
  for (let lastId = 0; ; lastId += 100_000) {
    const [[titles]] = (await reader.rows(`SELECT group_concat(title || ' ' || niches, char(10)) FROM Product WHERE id > ? AND id <= ?`, [
      lastId,
      lastId + 100_000,
    ])) as [[string | null]];
    if (!titles) break;
    builder.addText(titles);
  }
  const again = builder.build();
  console.log(
    `spelling vocabulary: ${vocabulary.size.toLocaleString("en-US")} words, ~${(vocabulary.approximateBytes() / 1024).toFixed(0)} KB in memory (estimated from its strings and arrays); reading and counting the titles alone: ${((performance.now() - tv) / 1000).toFixed(1)} s (${again.size} words)`,
  );
  // A real catalogue has far more distinct words than the generator's: the same figures for 200,000.
  let seed = 7;
  const letter = () => String.fromCharCode(97 + ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % 26);
  const synthetic = new Map<string, number>();
  while (synthetic.size < 200_000) synthetic.set(Array.from({ length: 4 + (synthetic.size % 9) }, letter).join(""), 1 + (synthetic.size % 50));
  const big = new Vocabulary(synthetic);
  const probes = [...synthetic.keys()].slice(0, 200).map((w) => w.slice(0, 2) + w.slice(3) + "q");
  const tc = performance.now();
  for (const p of probes) correctQuery(p, big);
  console.log(
    `  with 200,000 distinct words: ~${(big.approximateBytes() / 1e6).toFixed(1)} MB, one misspelt word corrected in ${((performance.now() - tc) / probes.length).toFixed(2)} ms on average (uncached)`,
  );

  // Baselines, same queries, same file.
  const likeTimes = new Map<string, number>();
  const joinTimes = new Map<string, number>();
  for (const mq of queries) {
    const q = parseProductQuery(new URLSearchParams(mq.params));
    const w = whereSql(q);
    const order = SORT_SQL[q.sort === "relevance" ? "winning-score" : q.sort];
    const offset = (q.page - 1) * q.pageSize;
    const fts = q.q ? ftsQuery(q.q) : null;
    let t = performance.now();
    if (fts) {
      const like = q.q.split(/\s+/).map(() => `(p.title LIKE ? OR p.description LIKE ?)`).join(" AND ");
      const likeArgs = q.q.split(/\s+/).flatMap((word) => [`%${word}%`, `%${word}%`]);
      await reader.rows(`SELECT p.id FROM Product p WHERE ${like} AND ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...likeArgs, ...w.args, q.pageSize, offset] as never);
    } else {
      await reader.rows(`SELECT p.id FROM Product p WHERE ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...w.args, q.pageSize, offset] as never);
    }
    likeTimes.set(mq.label, performance.now() - t);
    t = performance.now();
    if (fts) {
      await reader.rows(
        `SELECT p.id FROM ProductSearch s JOIN Product p ON p.id = s.rowid WHERE ProductSearch MATCH ? AND ${w.sql} ORDER BY ${q.sort === "relevance" ? "s.rank" : order} LIMIT ? OFFSET ?`,
        [fts, ...w.args, q.pageSize, offset] as never,
      );
    } else {
      await reader.rows(`SELECT p.id FROM Product p WHERE ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...w.args, q.pageSize, offset] as never);
    }
    joinTimes.set(mq.label, performance.now() - t);
  }

  console.log(`\nper query (ms): cold = first run; warm p50/p95 of 30 runs; baselines: naive LIKE, FTS join + ORDER BY`);
  console.log(`${"class".padEnd(15)} ${"query".padEnd(40)} ${"cold".padStart(7)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"LIKE".padStart(8)} ${"join".padStart(8)}  plan`);
  for (const mq of queries) {
    const ws = [...warm.get(mq.label)!].sort((a, b) => a - b);
    console.log(
      `${mq.cls.padEnd(15)} ${mq.label.slice(0, 40).padEnd(40)} ${ms(cold.get(mq.label)!).padStart(7)} ${ms(pct(ws, 50)).padStart(7)} ${ms(pct(ws, 95)).padStart(7)} ${ms(likeTimes.get(mq.label)!).padStart(8)} ${ms(joinTimes.get(mq.label)!).padStart(8)}  ${plans.get(mq.label)}`,
    );
  }
  console.log(`\nper class (ms, warm runs plus the cold run of each query):`);
  const classes = [...new Set(queries.map((q) => q.cls))];
  const all: number[] = [];
  let likeSum = 0;
  let joinSum = 0;
  let oursSum = 0;
  for (const cls of classes) {
    const times = queries.filter((q) => q.cls === cls).flatMap((q) => [cold.get(q.label)!, ...warm.get(q.label)!]).sort((a, b) => a - b);
    all.push(...times);
    console.log(`  ${cls.padEnd(15)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}  p99 ${ms(pct(times, 99))}`);
  }
  for (const mq of queries) {
    likeSum += likeTimes.get(mq.label)!;
    joinSum += joinTimes.get(mq.label)!;
    oursSum += pct([...warm.get(mq.label)!].sort((a, b) => a - b), 50);
  }
  all.sort((a, b) => a - b);
  const coldSorted = [...cold.values()].sort((a, b) => a - b);
  console.log(`  ${"whole mix".padEnd(15)} p50 ${ms(pct(all, 50))}  p95 ${ms(pct(all, 95))}  p99 ${ms(pct(all, 99))}   (target p95 <= 10 ms)`);
  console.log(`  ${"cold runs only".padEnd(15)} p50 ${ms(pct(coldSorted, 50))}  p95 ${ms(pct(coldSorted, 95))}  max ${ms(coldSorted[coldSorted.length - 1])}   (target p95 <= 10 ms)`);
  coldCpu.sort((a, b) => a - b);
  console.log(
    `  ${"cold, CPU time".padEnd(15)} p50 ${ms(pct(coldCpu, 50))}  p95 ${ms(pct(coldCpu, 95))}  max ${ms(coldCpu[coldCpu.length - 1])}   (the same runs in this process's CPU time: less dependent on the machine's load; machine load ${loadavg()[0].toFixed(1)})`,
  );
  console.log(
    `  one pass of the mix: ours ${ms(oursSum)} ms (warm p50s), FTS join ${ms(joinSum)} ms (${(joinSum / oursSum).toFixed(0)}x), naive LIKE ${ms(likeSum)} ms (${(likeSum / oursSum).toFixed(0)}x)`,
  );
  console.log(`  bench process RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);

  if (process.env.BENCH_HTTP !== "0") await httpBench(queries);
}

async function httpBench(queries: MixQuery[]) {
  const port = 3199;
  if (!existsSync("build/server/index.js")) {
    console.log("\nbuilding the app for the HTTP benchmark …");
    execFileSync(path.resolve("node_modules/.bin/remix"), ["vite:build"], { stdio: "ignore" });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: `file:${FILE}`,
    LOG_LEVEL: "warn",
    // A local demo (docs/decisions/042): the local test checkout runs, the bench secrets are accepted.
    APP_URL: `http://127.0.0.1:${port}`,
    // The embedded Shopify app is not measured here (production refuses to run it without its keys).
    SHOPIFY_APP: "off",
    // One server process (server/workers.mjs): its memory figures are per process.
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY || "1",
    SESSION_SECRET: "bench-secret-0123456789",
    TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    // e.g. BENCH_SERVER_NODE_OPTIONS=--prof to profile the server under load
    NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? "",
  };
  const { db } = await import("~/db.server");
  const siteSession = await import("~/pages/http/site-session.server");
  await db.user.upsert({ where: { email: "bench@example.com" }, create: { email: "bench@example.com", userSubscribed: "yes" }, update: {}, select: { id: true } });
  const user = await db.user.findUniqueOrThrow({ where: { email: "bench@example.com" }, select: { id: true } });
  const cookie = (await siteSession.createUserSession(user.id, new Request("http://bench.local/"))).split(";")[0];

  const { serverEnv, serverNodeArgs } = await import("../server/node-args.mjs");
  const server = spawn(process.execPath, serverNodeArgs(env), { env: serverEnv(env), stdio: ["ignore", "ignore", "inherit"] });
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 300));
    }
    const paths = queries.map((q) => `/api/products?${new URLSearchParams(q.params)}`);
    for (const p of paths) await fetch(base + p, { headers: { cookie } }); // loads the index, warms text caches
    // @ts-expect-error autocannon ships no type declarations
    const { default: autocannon } = await import("autocannon");
    const result = await autocannon({
      url: base,
      connections: 16,
      duration: 20,
      headers: { cookie },
      requests: paths.map((p) => ({ method: "GET", path: p })),
    });
    const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
    const rss = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    const hwm = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    const kb = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
    console.log(`\n== HTTP, loopback, 16 connections, 20 s, the same mix through GET /api/products ==`);
    console.log(
      `  ${Math.round(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ${result.non2xx} non-2xx, ${result.errors} errors   (target >= 1,000 req/s, p99 <= 50 ms)`,
    );
    console.log(`  server RSS ${Math.round(Number(rss) / 1024)} MB (peak ${Math.round(Number(hwm) / 1024)} MB)   (target <= 300 MB)`);
    console.log(`    of which anonymous ${kb("RssAnon")} MB, mapped files (code, libraries) ${kb("RssFile")} MB, shared memory ${kb("RssShmem")} MB`);
  } finally {
    server.kill("SIGTERM");
    await db.$disconnect();
  }
}

export const runSearchBench = main;

if (import.meta.url === `file://${process.argv[1]}`) await main();
