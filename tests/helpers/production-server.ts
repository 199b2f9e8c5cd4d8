// The production server (node server/index.mjs, started as `npm start` starts it) on a free port, against the
// production build (made once when missing) and the test database; for tests that need real sockets.
import http from "node:http";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { serverEnv, serverNodeArgs } from "../../server/node-args.mjs";

const BUILD = path.resolve("build/server/index.js");

export type RunningServer = { port: number; pid: number; output: () => string; stop: () => Promise<void> };

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * One request on a socket of its own, closed after the answer, with exactly these headers (fetch would add its own,
 * Accept-Encoding among them); the answer's body read whole. A body goes with its Content-Length, or chunked.
 */
export function rawRequest(
  port: number,
  request: { path: string; method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<RawAnswer> {
  const { path: target, method = "GET", headers = {}, body, chunked = false } = request;
  const bytes = body === undefined ? undefined : Buffer.from(body);
  const framing: Record<string, string> =
    bytes === undefined ? {} : chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(bytes.length) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: target, method, headers: { connection: "close", ...framing, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
}

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Like bench/search.ts and npm start: the production build, made once when missing (~10-30 s; minutes on a busy CI
 * machine). Two test files may ask at once (Vitest's two forks, or two runs in one checkout): under one lock, the
 * first builds and the second finds it made, instead of both building into build/ at the same time.
 */
export function ensureProductionBuild() {
  if (existsSync(BUILD)) return;
  const lock = path.resolve("tests/.tmp/build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  execFileSync("flock", [lock, "sh", "-c", 'test -f "$1" || exec "$2" vite:build', "sh", BUILD, path.resolve("node_modules/.bin/remix")], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: "ignore",
  });
}

/**
 * node server/index.mjs as `npm start` runs it, on the test database, with these variables on top (a function of
 * the port when a variable names it, e.g. APP_URL).
 */
export async function startServer(
  extra: Record<string, string> | ((port: number) => Record<string, string>) = {},
): Promise<RunningServer> {
  // freePort's port is free when probed, not reserved: another test's server may take it first. The server then
  // exits with its sentence naming the port, and this starts it again on another.
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      return await startServerOn(port, typeof extra === "function" ? extra(port) : extra);
    } catch (error) {
      const portTaken = error instanceof Error && error.message.includes(`Port ${port} is already in use`);
      if (!portTaken || tries === 3) throw error;
    }
  }
}

/** How long a server may take to answer /healthz: minutes on a CI machine running two test files and a build at once. */
const START_DEADLINE_MS = 120_000;

async function startServerOn(port: number, extraEnv: Record<string, string>): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    ACCESS_LOG: "off",
    LOG_LEVEL: "warn",
    // A local demo (docs/decisions/042): the local test checkout runs, the test secrets are accepted.
    APP_URL: `http://127.0.0.1:${port}`,
    TOKEN_ENCRYPTION_KEYS: `test:${randomBytes(32).toString("base64")}`,
    // One process (not one per core): the tests read its memory and count its sockets.
    WEB_CONCURRENCY: "1",
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, serverNodeArgs(env), {
    env: serverEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + START_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      // A connection of its own, closed after the answer: a kept-alive socket would count against
      // MAX_CONNECTIONS_PER_CLIENT in the tests that measure it.
      // Its own line first: a 200 from another server that took the port is not this one's.
      if (output.includes(`[server] http://localhost:${port}`) && (await healthzStatus(port)) === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer /healthz within ${START_DEADLINE_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function healthzStatus(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent: false, headers: { connection: "close" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}
