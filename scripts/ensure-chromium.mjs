#!/usr/bin/env node
// Makes sure Debian's Chromium is at /usr/bin/chromium before the end-to-end tests (`npm run test:e2e`).
// Playwright drives that browser (playwright.config.ts); we never download one (`npx playwright install`
// cannot reach its CDN here). Installs the Debian package when it is missing and we are root; otherwise
// says what to do and fails.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = "/usr/bin/chromium";

function run(command, args) {
  console.log(`ensure-chromium: $ ${command} ${args.join(" ")}`);
  execFileSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

function version() {
  try {
    return execFileSync(CHROMIUM_PATH, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "version unknown";
  }
}

export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) {
    console.log(`ensure-chromium: found ${CHROMIUM_PATH} (${version()})`);
    return;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `${CHROMIUM_PATH} is missing and this user is not root, so it cannot be installed here. ` +
        "Install Debian's package as root (apt-get update && apt-get install -y chromium), then run the tests again.",
    );
  }
  console.log(`ensure-chromium: ${CHROMIUM_PATH} is missing; installing Debian's chromium package`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "chromium"]);
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`apt-get finished but ${CHROMIUM_PATH} still does not exist.`);
  }
  console.log(`ensure-chromium: installed ${CHROMIUM_PATH} (${version()})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureChromium();
  } catch (error) {
    console.error(`ensure-chromium: ${error.message}`);
    process.exit(1);
  }
}
