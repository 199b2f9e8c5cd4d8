// Glitch mode's ranking after duty and fees (decision 066): every product with a plain spread of 20% or more is
// read and figured (landed cost with the defaults) on each list, so the time grows with the catalogue. Prints the
// catalogue's size, how many candidates and glitches there are, and the time of a list (first and warm); asserts
// nothing. The catalogue is generated once into the bench's scratch database.
//
//   npm run bench -- glitch
//   BENCH_GLITCH_PRODUCTS=20000 npm run bench -- glitch
import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { prepareScratchDb } from "./lib/scratch-db";

const PRODUCTS = Number(process.env.BENCH_GLITCH_PRODUCTS ?? 100_000);
prepareScratchDb("glitch");
console.log(`Generating ${PRODUCTS.toLocaleString("en-US")} products …`);
execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/products-generate.ts", "--count", String(PRODUCTS), "--seed", "1"], { env: process.env, stdio: "ignore" });

const { db } = await import("~/db.server");
const { glitchMode } = await import("~/services/index.server");

const user = await db.user.create({
  data: { id: "bench-glitch", email: "bench-glitch@example.com", userSubscribed: "yes" },
  select: { id: true, userSubscribed: true, trialing: true, innerCircle: true, extendedTrial: true, claimedDiscount: true, usedGlitchModeOnTrial: true },
});
const glitchUser = { ...user, trialing: false };
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const times: number[] = [];
let last: Awaited<ReturnType<typeof glitchMode.list>> | null = null;
const rssBefore = process.memoryUsage().rss;
for (let i = 0; i < 4; i++) {
  const started = performance.now();
  last = await glitchMode.list(glitchUser, 1);
  times.push(performance.now() - started);
}
const candidates = last!.total + last!.noLonger.total;
console.log(
  `${PRODUCTS.toLocaleString("en-US")} products: ${candidates.toLocaleString("en-US")} candidates (plain spread >= 20%), ` +
    `${last!.total.toLocaleString("en-US")} glitches after duty, ${last!.noLonger.total.toLocaleString("en-US")} no longer, ` +
    `${last!.belowBeforeDuty.toLocaleString("en-US")} under 20% before duty`,
);
console.log(`list, page 1: first ${times[0].toFixed(0)} ms (loads the tariff table), then ${times.slice(1).map((t) => t.toFixed(0)).join(" / ")} ms`);
console.log(`RSS ${mb(rssBefore)} before, ${mb(process.memoryUsage().rss)} after`);
await db.$disconnect();
