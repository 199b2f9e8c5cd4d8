// `npm run products:generate -- --count N [--seed S] [--out FILE.ndjson|FILE.csv] [--end-day YYYY-MM-DD]`
// A deterministic, realistic catalogue (scripts/lib/product-generator.ts). With --out it writes an
// import file; without, it imports straight into DATABASE_URL (default file:./data/app.db, migrated
// first) through importProducts. Same seed, count and end day -> the same products.
import { createWriteStream, statSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { dayNumber, formatCount } from "~/domain/products/insights";
import { PRODUCT_CSV_COLUMNS, rowToCsvFields, toCsvLine } from "~/domain/products/product-import";
import { algoliaSyncFromEnv, openImportDb, refreshLandedMarginsAfterImport, printSummary, progressPrinter, queueSavedSearchAlerts, rowsPerSecond } from "./lib/import-cli";
import { defaultEndDay, generateProducts, type GenerateOptions } from "./lib/product-generator";

const USAGE = `Usage: npm run products:generate -- --count N [--seed S] [--out FILE.ndjson|FILE.csv] [--end-day YYYY-MM-DD]

  --count N      how many products (1 to 10,000,000)
  --seed S       PRNG seed, a whole number (default 1)
  --out FILE     write NDJSON (.ndjson/.jsonl) or CSV (.csv) instead of importing into DATABASE_URL
  --end-day DAY  last day of the 90-day history (default: yesterday, UTC)
  --threads 1|2  generate on the main thread (1) or a worker thread (2); default: a worker from 20,000 products`;

interface Args {
  count: number;
  seed: number;
  out: string | null;
  endDay: string;
  threads: 1 | 2 | undefined;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { count: NaN, seed: 1, out: null, endDay: defaultEndDay(), threads: undefined };
  const list = argv.filter((a) => a !== "--");
  for (let i = 0; i < list.length; i++) {
    const [flag, inline] = list[i].split("=", 2);
    const value = inline ?? list[++i];
    if (value === undefined) return `${flag} needs a value`;
    switch (flag) {
      case "--count":
        args.count = /^\d+$/.test(value.replace(/[_,]/g, "")) ? Number(value.replace(/[_,]/g, "")) : NaN;
        if (!(args.count >= 1 && args.count <= 10_000_000)) return "--count must be a whole number from 1 to 10,000,000";
        break;
      case "--seed":
        if (!/^\d{1,10}$/.test(value) || Number(value) > 0xffffffff) return "--seed must be a whole number from 0 to 4294967295";
        args.seed = Number(value);
        break;
      case "--out":
        if (!/\.(ndjson|jsonl|csv)$/i.test(value)) return "--out must name a .ndjson, .jsonl or .csv file";
        args.out = value;
        break;
      case "--end-day":
        try {
          dayNumber(value);
        } catch {
          return "--end-day must be a day written YYYY-MM-DD";
        }
        args.endDay = value;
        break;
      case "--threads":
        if (value !== "1" && value !== "2") return "--threads must be 1 or 2";
        args.threads = value === "1" ? 1 : 2;
        break;
      default:
        return `unknown option ${flag}`;
    }
  }
  if (Number.isNaN(args.count)) return "--count is required";
  return args;
}

async function writeFile(args: Args, options: GenerateOptions) {
  const out = createWriteStream(args.out!);
  const csv = /\.csv$/i.test(args.out!);
  const started = Date.now();
  let last = started;
  let written = 0;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  if (csv) await write(`${toCsvLine(PRODUCT_CSV_COLUMNS)}\n`);
  for (const row of generateProducts(args.count, options)) {
    await write(csv ? `${toCsvLine(rowToCsvFields(row))}\n` : `${JSON.stringify(row)}\n`);
    written++;
    if (Date.now() - last >= 1000) {
      last = Date.now();
      process.stderr.write(`generated ${formatCount(written)} / ${formatCount(args.count)} (${Math.floor((written * 100) / args.count)}%)\n`);
    }
  }
  out.end();
  await once(out, "finish");
  const ms = Date.now() - started;
  process.stdout.write(
    `Wrote ${formatCount(written)} products (seed ${args.seed}, history to ${args.endDay}) to ${args.out} in ` +
      `${(ms / 1000).toFixed(1)} s (${rowsPerSecond(written, ms)} rows/s, ${(statSync(args.out!).size / 1024 / 1024).toFixed(1)} MB)\n`,
  );
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") {
    process.stderr.write(`products:generate: ${args}\n${USAGE}\n`);
    return 1;
  }
  const options: GenerateOptions = { seed: args.seed, endDay: args.endDay };
  if (args.out) {
    await writeFile(args, options);
    return 0;
  }

  const { db, url, jobs, close } = await openImportDb();
  const { importGeneratedProducts } = await import("./lib/generated-import");
  const { landedMarginTable } = await import("~/services/landed-cost/margins.server");
  process.stderr.write(`Generating ${formatCount(args.count)} products (seed ${args.seed}, history to ${args.endDay}) into ${url}\n`);
  const started = Date.now();
  try {
    const landed = await landedMarginTable(db);
    const sync = await algoliaSyncFromEnv(db);
    const summary = await importGeneratedProducts(db, args.count, options, {
      threads: args.threads,
      onProgress: progressPrinter(() => args.count, { exact: true }),
      onCommitted: sync,
      landed,
      imageJobs: jobs,
    });
    const elapsedMs = Date.now() - started;
    printSummary(summary, { source: `generated (seed ${args.seed})`, elapsedMs, rejectionsFile: path.resolve("data/generated.rejections.txt") });
    await refreshLandedMarginsAfterImport(db, landed, sync);
    await queueSavedSearchAlerts(jobs, summary);
    if (url.startsWith("file:")) {
      const file = path.resolve(url.slice("file:".length));
      const bytes = ["", "-wal"].reduce((sum, suffix) => {
        try {
          return sum + statSync(file + suffix).size;
        } catch {
          return sum;
        }
      }, 0);
      process.stdout.write(`  database: ${file} (${(bytes / 1024 / 1024).toFixed(0)} MB)\n`);
    }
    return summary.imported + summary.updated > 0 ? 0 : 2;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`products:generate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
