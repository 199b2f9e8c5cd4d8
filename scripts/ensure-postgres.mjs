#!/usr/bin/env node
// Makes sure Debian's PostgreSQL server binaries are here before the tests that start a throw-away cluster
// (tests/helpers/postgres-cluster.ts: initdb and postgres as a user of their own; decision 098). Installs the Debian
// package `postgresql` when initdb is missing and we are root; otherwise says what to do and fails. Nothing is started
// here, and the package's own cluster is not used.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const ROOT = "/usr/lib/postgresql";

function initdb() {
  if (existsSync(ROOT)) {
    for (const version of readdirSync(ROOT).sort().reverse()) {
      const file = path.join(ROOT, version, "bin", "initdb");
      if (existsSync(file)) return file;
    }
  }
  try {
    return execFileSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

export function ensurePostgres() {
  const found = initdb();
  if (found) {
    console.log(`ensure-postgres: found ${found}`);
    return;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      "PostgreSQL's initdb is missing and this user is not root, so it cannot be installed here. " +
        "Install Debian's package as root (apt-get update && apt-get install -y postgresql), then run the tests again.",
    );
  }
  console.log("ensure-postgres: initdb is missing; installing Debian's postgresql package");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "postgresql"], { stdio: "inherit", env });
  const installed = initdb();
  if (!installed) throw new Error("apt-get finished but PostgreSQL's initdb is still missing.");
  console.log(`ensure-postgres: installed ${installed}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensurePostgres();
  } catch (error) {
    console.error(`ensure-postgres: ${error.message}`);
    process.exit(1);
  }
}
