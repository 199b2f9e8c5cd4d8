// Makes `npm start` and `npm test` work on a fresh clone: installs the locked packages when
// node_modules is missing or older than package-lock.json, and re-runs the calling script under the
// Node 22 that the `node` package puts in node_modules/.bin (the system Node may be 20).
// Uses only Node built-ins so it runs before anything is installed.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";

const LOCK = "package-lock.json";
const INSTALLED = "node_modules/.package-lock.json";
const NODE22 = path.resolve("node_modules/.bin/node");

export function ensureDeps() {
  const stale = !existsSync(INSTALLED) || (existsSync(LOCK) && statSync(LOCK).mtimeMs > statSync(INSTALLED).mtimeMs);
  if (stale) {
    console.log("▸ Installing packages (npm ci) …");
    // --include=dev: start.mjs and the tests run tsx, vitest and prisma's CLI, and the e2e server is started with
    // NODE_ENV=production, under which a plain `npm ci` would leave the development packages out.
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--include=dev"], { stdio: "inherit" });
  }
}

/** Re-executes the current script under Node 22 if this process runs an older Node. */
export function reexecUnderNode22(scriptUrl) {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return;
  if (!existsSync(NODE22)) {
    console.error(`Node ${process.versions.node} is too old and node_modules/.bin/node is missing; run npm ci.`);
    process.exit(1);
  }
  const script = new URL(scriptUrl).pathname;
  const result = spawnSync(NODE22, [script, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(NODE22)}${path.delimiter}${process.env.PATH ?? ""}` },
  });
  process.exit(result.status ?? 1);
}
