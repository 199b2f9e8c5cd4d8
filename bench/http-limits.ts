// Request-body limits (part of `npm run bench`; server/body-limit.mjs, docs/decisions/017): the server's
// resident memory before, during and after 8 concurrent 50 MB bodies, sent as an attacker would (every
// byte, as fast as the socket takes them, whatever the answer), once with a Content-Length and once
// chunked; and the next request on a kept-alive connection after a body the route did not read.
// Prints figures; asserts nothing.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";

const MB = 1024 * 1024;
const BODY = 50 * MB;
const CONCURRENT = 8;
const TARGETS = ["/webhooks/paddle", "/signup", "/api/analytics"];

const dir = path.resolve("bench/.data/http-limits");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const DATABASE_URL = `file:${path.join(dir, "bench.db")}`;

function rssMb(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kb) / 1024);
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

type Outcome = { status: number; answeredAfterMs: number; sentBeforeAnswerMb: number; sentMb: number };

/** Sends a whole `size`-byte body over a plain socket, ignoring the answer, until all is sent or the server closes. */
function attack(port: number, target: string, size: number, framing: "length" | "chunked"): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, "127.0.0.1");
    const piece = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let head = "";
    let answered: { status: number; at: number; sent: number } | undefined;
    socket.on("data", (data) => {
      if (answered) return;
      head += data.toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (status) answered = { status, at: performance.now() - started, sent };
    });
    socket.on("error", () => {});
    socket.on("close", () =>
      resolve({
        status: answered?.status ?? 0,
        answeredAfterMs: answered?.at ?? NaN,
        sentBeforeAnswerMb: (answered?.sent ?? sent) / MB,
        sentMb: sent / MB,
      }),
    );
    socket.once("connect", () => {
      const framingHeader = framing === "length" ? `Content-Length: ${size}` : "Transfer-Encoding: chunked";
      // Each route's own body type, so that it reads the body (a chunked one is then cut at the cap).
      const contentType = target === "/signup" ? "application/x-www-form-urlencoded" : "application/json";
      socket.write(
        `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${framingHeader}\r\n\r\n`,
      );
      const pump = () => {
        while (sent < size && !socket.destroyed) {
          const n = Math.min(piece.length, size - sent);
          const data =
            framing === "length"
              ? piece.subarray(0, n)
              : Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from("\r\n")]);
          sent += n;
          if (!socket.write(data)) return void socket.once("drain", pump);
        }
        if (socket.destroyed) return;
        if (framing === "chunked") socket.write("0\r\n\r\n");
        socket.end();
      };
      pump();
    });
  });
}

/** Samples the server's RSS every 20 ms while `work` runs; resolves with the work's result and the highest sample. */
async function withPeak<T>(pid: number, work: Promise<T>): Promise<[T, number]> {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  try {
    return [await work, Math.max(peak, rssMb(pid))];
  } finally {
    clearInterval(timer);
  }
}

function request(agent: http.Agent, port: number, method: string, target: string, body?: Buffer) {
  return new Promise<{ status: number; reused: boolean; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      { agent, host: "127.0.0.1", port, method, path: target, headers: body ? { "Content-Length": body.length } : {} },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, ms: performance.now() - started }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function main() {
  execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
    stdio: "ignore",
  });
  if (!existsSync("build/server/index.js")) {
    console.log("building the app …");
    execFileSync(path.resolve("node_modules/.bin/remix"), ["vite:build"], {
      env: { ...process.env, NODE_ENV: "production" },
      stdio: "ignore",
    });
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    ACCESS_LOG: "off",
    DATABASE_URL,
    LOG_LEVEL: "warn",
    APP_URL: base,
    SHOPIFY_APP_URL: base,
    SHOPIFY_API_KEY: "bench-api-key",
    SHOPIFY_API_SECRET: "bench-api-secret-0123456789",
    // One server process (server/workers.mjs): its memory figures are per process.
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY || "1",
    SESSION_SECRET: "bench-secret-0123456789",
    TOKEN_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString("base64")}`,
    // Every request comes from 127.0.0.1: a bench measures requests, not the per-address limits (decision 064).
    INBOUND_LIMITS_SCALE: "1000000",
  };
  const { serverEnv, serverNodeArgs } = await import("../server/node-args.mjs");
  const server = spawn(process.execPath, serverNodeArgs(env), {
    env: serverEnv(env),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const pid = server.pid!;
  try {
    for (const deadline = Date.now() + 60_000; ;) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    // Warm: the routes the attack reaches, answered once with small bodies.
    for (const target of TARGETS)
      await fetch(base + target, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });

    for (const framing of ["length", "chunked"] as const) {
      const before = rssMb(pid);
      const started = performance.now();
      const [outcomes, peak] = await withPeak(
        pid,
        Promise.all(
          Array.from({ length: CONCURRENT }, (_, i) => attack(port, TARGETS[i % TARGETS.length], BODY, framing)),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const statuses = [...new Set(outcomes.map((o) => o.status))].join(", ");
      const answerMs = outcomes.map((o) => o.answeredAfterMs).sort((a, b) => a - b);
      const sentBefore = Math.max(...outcomes.map((o) => o.sentBeforeAnswerMb));
      const sent = outcomes.reduce((sum, o) => sum + o.sentMb, 0);
      console.log(
        `\n== ${CONCURRENT} concurrent 50 MB bodies, ${framing === "length" ? "with Content-Length" : "chunked"} (${TARGETS.join(", ")}) ==`,
      );
      console.log(
        `  answers: ${statuses}; first byte after ${answerMs[0].toFixed(0)}-${answerMs[answerMs.length - 1].toFixed(0)} ms, at most ${sentBefore.toFixed(1)} MB sent by then`,
      );
      console.log(
        `  the clients had written ${sent.toFixed(0)} MB of ${(CONCURRENT * BODY) / MB} MB when their connections closed, after ${seconds.toFixed(1)} s`,
      );
      console.log(`  server RSS before ${before} MB, peak during ${peak} MB, after ${rssMb(pid)} MB`);
    }

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ignored = await request(agent, port, "POST", "/api/paddle-api/previewPrices", Buffer.alloc(500 * 1024, "a"));
    const nextStarted = performance.now();
    const next = await request(agent, port, "GET", "/healthz").catch((error: Error) => error);
    agent.destroy();
    console.log(
      `\n== keep-alive: 500 KB to POST /api/paddle-api/previewPrices (not read), then GET /healthz on the same connection ==`,
    );
    console.log(
      next instanceof Error
        ? `  first ${ignored.status} in ${ignored.ms.toFixed(1)} ms; next failed after ${(performance.now() - nextStarted).toFixed(0)} ms: ${next.message}`
        : `  first ${ignored.status} in ${ignored.ms.toFixed(1)} ms; next ${next.status} in ${next.ms.toFixed(1)} ms, same connection: ${next.reused ? "yes" : "no"}`,
    );
    console.log(`  server RSS at the end ${rssMb(pid)} MB (peak since start ${rssMb(pid, "VmHWM")} MB)`);
  } finally {
    server.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
