// The end-to-end tests' server on PostgreSQL (E2E_DATABASE=postgresql, playwright.config.ts; issue 38 item 5,
// decision 098): a throw-away cluster (tests/helpers/postgres-cluster.ts), an empty database on it, then
// `node scripts/start.mjs` on that DATABASE_URL exactly as on SQLite (it migrates and seeds). Playwright stops the
// pass with SIGTERM (its gracefulShutdown): the server stops first, then the cluster is removed.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startPostgresCluster } from "../../helpers/postgres-cluster";
import { E2E_POSTGRES_URL_FILE } from "./constants";

const cluster = await startPostgresCluster();
const url = await cluster.createDatabase("e2e");
// The specs' helpers reach into the same database (tests/e2e/support/app.ts).
mkdirSync(path.dirname(E2E_POSTGRES_URL_FILE), { recursive: true });
writeFileSync(E2E_POSTGRES_URL_FILE, url);
const server = spawn(process.execPath, ["scripts/start.mjs"], { stdio: "inherit", env: { ...process.env, DATABASE_URL: url } });

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
  await cluster.stop();
  process.exit(code);
}

process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));
server.on("exit", (code) => void stop(code ?? 1));
