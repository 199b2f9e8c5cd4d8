#!/usr/bin/env node
// `npm test`: every test. Vitest (unit + integration on real SQLite), the integration tests of
// tests/postgres/pass.json again on PostgreSQL (a throw-away cluster), then Playwright end to end in
// Debian's Chromium (and a part of it again on PostgreSQL). Each runner prints its own report; the last line sums both, in the plain form
// "tests: N passed, N failed, N skipped", so a run that executed nothing is visible.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ensureDeps, reexecUnderNode22 } from "./ensure-deps.mjs";
import { postgresPass } from "./lib/postgres-pass.mjs";
import { failedPlaywrightTests, readVitestReport } from "./lib/test-reports.mjs";

ensureDeps();
reexecUnderNode22(import.meta.url);

const bin = (name) => path.resolve("node_modules/.bin", name);
const OUT = "test-results";
mkdirSync(OUT, { recursive: true });
const vitestJson = path.join(OUT, "vitest.json");
const vitestPgJson = path.join(OUT, "vitest-postgresql.json");
const e2eJson = path.join(OUT, "e2e.json");
const e2eBillingJson = path.join(OUT, "e2e-shopify-billing.json");
const e2ePostgresJson = path.join(OUT, "e2e-postgresql.json");
for (const file of [vitestJson, vitestPgJson, e2eJson, e2eBillingJson, e2ePostgresJson]) rmSync(file, { force: true });

function run(cmd, args, extraEnv = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  return result.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRunners = [];

/** Like run(), printing the output as it comes and keeping a copy to read afterwards. */
function runKeepingOutput(cmd, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, ...extraEnv } });
    let output = "";
    child.stdout.on("data", (d) => {
      process.stdout.write(d);
      output += d;
    });
    child.stderr.on("data", (d) => {
      process.stderr.write(d);
      output += d;
    });
    child.on("close", (code) => resolve({ status: code ?? 1, output }));
  });
}

/**
 * Vitest exits 1 on any unhandled error, tests or not. One of them is its own: a worker's progress report
 * ("Timeout calling onTaskUpdate") that the main process did not acknowledge within 60 s on a busy machine,
 * after every test passed. Only when the JSON report says every test and file passed, and every error the
 * run counted is that one, is the run taken as passed (with a line saying so); anything else fails it.
 */
function onlyVitestRpcTimeouts(report, output) {
  // eslint-disable-next-line no-control-regex -- the terminal's colour codes are what this removes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const counted = /^\s+Errors\s+(\d+) errors?/m.exec(plain);
  const rpc = plain.match(/\[vitest-worker\]: Timeout calling "onTaskUpdate"/g)?.length ?? 0;
  return report.success && report.numFailedTests === 0 && report.numFailedTestSuites === 0 && counted !== null && Number(counted[1]) === rpc;
}

// One production build for the run, from the sources under test: the Vitest files that start the production server
// find it (instead of the first one making it inside its own time limit), and both Playwright passes serve it
// (SKIP_BUILD=1) instead of building it again each. With SKIP_E2E=1, Vitest's files build it when it is missing.
const e2e = process.env.SKIP_E2E !== "1";
if (e2e) {
  console.log("\n=== Production build ===");
  const build = spawnSync(bin("remix"), ["vite:build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  if (build.status !== 0) failedRunners.push("build");
}

// The tests on PostgreSQL start a throw-away cluster with Debian's initdb (installed here when missing, as root).
if (run(process.execPath, ["scripts/ensure-postgres.mjs"]) !== 0) failedRunners.push("ensure-postgres");

const failedTests = [];

function countVitestReport(file, label) {
  const read = readVitestReport(file, label);
  if (!read) return null;
  for (const key of Object.keys(totals)) totals[key] += read.counts[key];
  failedTests.push(...read.failedTests);
  return read.report;
}

/** One Vitest run with the default and JSON reporters; pushes `label` to the failed runners when it failed. */
async function runVitest(label, args, json, extraEnv = {}) {
  const run = await runKeepingOutput(bin("vitest"), ["run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${json}`], extraEnv);
  let status = run.status;
  const report = countVitestReport(json, label);
  if (status !== 0 && report && onlyVitestRpcTimeouts(report, run.output)) {
    console.log("\nEvery test passed; the only errors were Vitest's own progress-report timeouts on a busy machine.");
    status = 0;
  }
  if (status !== 0) failedRunners.push(label);
}

console.log("\n=== Unit and integration tests (Vitest) ===");
await runVitest("vitest", [], vitestJson);

// The same integration tests of tests/postgres/pass.json again, each file on a PostgreSQL database of its own.
{
  const pass = postgresPass();
  console.log(`\n=== Integration tests on PostgreSQL (Vitest; ${pass.notYet} files not yet engine-neutral are left out, tests/postgres/pass.json) ===`);
  await runVitest("vitest (PostgreSQL)", pass.args, vitestPgJson, pass.env);
}

if (!e2e) {
  console.log("\nSKIP_E2E=1: end-to-end tests not run.");
} else {
  console.log("\n=== End-to-end tests (Playwright, Chromium) ===");
  const ensure = run(process.execPath, ["scripts/ensure-chromium.mjs"]);
  // Three passes: every spec on the default server, then Shopify Billing's spec on a server with
  // SHOPIFY_BILLING=on, then the specs that reach the database only through the app on PostgreSQL
  // (playwright.config.ts picks the specs from E2E_SHOPIFY_BILLING and E2E_DATABASE).
  const passes = [
    { name: "playwright", env: {}, json: e2eJson },
    { name: "playwright (SHOPIFY_BILLING=on)", env: { E2E_SHOPIFY_BILLING: "on" }, json: e2eBillingJson },
    { name: "playwright (PostgreSQL)", env: { E2E_DATABASE: "postgresql" }, json: e2ePostgresJson },
  ];
  for (const pass of passes) {
    if (pass.env.E2E_SHOPIFY_BILLING) console.log("\n=== End-to-end: Shopify Billing (server on SHOPIFY_BILLING=on) ===");
    if (pass.env.E2E_DATABASE) console.log("\n=== End-to-end on PostgreSQL (the specs of E2E_POSTGRES_SPECS, tests/e2e/support/constants.ts) ===");
    const status =
      ensure === 0 ? run(bin("playwright"), ["test"], { ...pass.env, PLAYWRIGHT_JSON_OUTPUT_NAME: pass.json, SKIP_BUILD: "1" }) : 1;
    if (existsSync(pass.json)) {
      const s = JSON.parse(readFileSync(pass.json, "utf8")).stats ?? {};
      totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
      totals.failed += s.unexpected ?? 0;
      totals.skipped += s.skipped ?? 0;
      failedTests.push(...failedPlaywrightTests(pass.json, pass.name));
    }
    if (status !== 0) failedRunners.push(pass.name);
  }
}

const ranNothing = totals.passed + totals.failed === 0;
// The failed tests last, so the tail of a long CI log names them.
if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.map((t) => `  ${t}`).join("\n")}`);
if (failedRunners.length > 0) console.log(`\nFailed: ${failedRunners.join(", ")}`);
if (ranNothing) console.log("\nNo test was executed.");
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRunners.length > 0 || ranNothing ? 1 : 0);
