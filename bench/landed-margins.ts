// Landed-margin refresh benchmark (decision 065): how fast every product's stored margin after duty and fees
// (Product.landedMarginBps, the grid's margin filter and sort) is figured again. Generates the catalogue into the
// bench's scratch database, then times a forced refresh that changes nothing (a read of every product) and one
// after a tariff import that raises a rate for every product (every row written). Prints products per second;
// asserts nothing.
//
//   npm run bench -- landed-margins
//   BENCH_LANDED_ROWS=1000000 npm run bench -- landed-margins
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { prepareScratchDb } from "./lib/scratch-db";

const ROWS = Number(process.env.BENCH_LANDED_ROWS ?? 100_000);
const dir = prepareScratchDb("landed-margins");
console.log(`Generating ${ROWS.toLocaleString("en-US")} products …`);
execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/products-generate.ts", "--count", String(ROWS), "--seed", "1"], { env: process.env, stdio: "ignore" });

const { db } = await import("~/db.server");
const { refreshLandedMargins } = await import("~/services/landed-cost/margins.server");
const { importTariffFile } = await import("~/services/landed-cost/tariffs.server");

const line = (what: string, r: { products: number; changed: number; ms: number }) =>
  console.log(
    `${what}: ${r.products.toLocaleString("en-US")} products in ${(r.ms / 1000).toFixed(1)} s = ` +
      `${Math.round((r.products * 1000) / Math.max(1, r.ms)).toLocaleString("en-US")} products/s, ${r.changed.toLocaleString("en-US")} written`,
  );

line("refresh, nothing changed (read every product)", await refreshLandedMargins(db, { force: true }));
const file = path.join(dir, "raise.json");
writeFileSync(
  file,
  JSON.stringify({
    edition: "bench-raise",
    layers: [{ kind: "surcharge", series: "bench-raise", name: "Bench surcharge", htsPrefix: "", origins: ["*"], ratePercent: 15, validFrom: "2026-01-01", source: "bench" }],
  }),
);
await importTariffFile(db, file, { validFrom: new Date().toISOString().slice(0, 10) });
line("refresh after a rate rise (every product written)", await refreshLandedMargins(db));
await db.$disconnect();
