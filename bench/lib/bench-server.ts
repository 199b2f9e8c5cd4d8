// The production server a bench measures: a scratch database under bench/.data/NAME migrated and seeded as
// `npm start` seeds it, the app built once, and the built server started on 127.0.0.1 as a local demo (no
// Shopify, the local checkout, jobs off so they do not compete for the cores), ready when /healthz answers.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/** Empties `dir`, migrates and seeds the database at dbUrl, and builds the app when there is no build. */
export function prepareSeededDatabase(dir: string, dbUrl: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, DATABASE_URL: dbUrl, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", LOG_LEVEL: "warn" };
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], { env, stdio: "ignore" });
  execFileSync(path.resolve("node_modules/.bin/tsx"), ["prisma/seed.ts"], { env, stdio: "ignore" });
  ensureBuild();
}

/** Builds the app when there is no build (delete build/ after changing the app, or the bench measures the old one). */
export function ensureBuild(): void {
  if (!existsSync("build/server/index.js")) {
    console.log("building the app …");
    execFileSync(path.resolve("node_modules/.bin/remix"), ["vite:build"], { env: { ...process.env, NODE_ENV: "production" }, stdio: "ignore" });
  }
}

export interface BenchServer {
  pid: number;
  spawnedAt: number;
  stop(): Promise<void>;
}

/**
 * Starts the built server on `port` over the database at dbUrl; `env` adds or overrides settings. `script` starts
 * another server instead (node arguments after the heap settings), with the same environment, ready when its
 * /healthz answers.
 */
export async function startBenchServer(options: {
  port: number;
  dir: string;
  dbUrl: string;
  env?: Record<string, string>;
  startMs?: number;
  script?: string[];
}): Promise<BenchServer> {
  const base = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(options.port),
    HOST: "127.0.0.1",
    ACCESS_LOG: "off",
    DATABASE_URL: options.dbUrl,
    LOG_LEVEL: "warn",
    APP_URL: base,
    SHOPIFY_APP: "off",
    PADDLE_LOCAL_CHECKOUT: "true",
    SESSION_SECRET: `bench-${randomBytes(16).toString("hex")}`,
    TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    VIDEO_STORAGE_DIR: path.join(options.dir, "videos"),
    // Background jobs would compete for the same cores; a bench measures requests.
    JOBS_WORKER: "off",
    // Every request comes from 127.0.0.1: a bench measures requests, not the per-address limits (decision 064).
    INBOUND_LIMITS_SCALE: "1000000",
    ...options.env,
  };
  const { serverEnv, serverNodeArgs } = await import("../../server/node-args.mjs");
  const nodeArgs = serverNodeArgs(env);
  if (options.script) nodeArgs.splice(nodeArgs.length - 1, 1, ...options.script);
  const server = spawn(process.execPath, nodeArgs, { env: serverEnv(env), stdio: ["ignore", "ignore", "inherit"] });
  const spawnedAt = Date.now();
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  for (const deadline = Date.now() + (options.startMs ?? 120_000); ;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: server.pid!,
    spawnedAt,
    stop: async () => {
      server.kill("SIGTERM");
      await exited;
    },
  };
}
