// `npm start` on a public address (docs/decisions/042): without Paddle keys it refuses to start, naming the
// variables and the explicit setting, before it builds or serves anything. It used to switch the local test
// checkout on by itself, so every plan was free.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { serverEnv, serverNodeArgs } from "../../../server/node-args.mjs";
import { ensureProductionBuild } from "../../helpers/production-server";
import { startLocalS3 } from "../../helpers/s3-server";

const run = promisify(execFile);

async function npmStart(extra: Record<string, string>) {
  const dir = process.env.TEST_TMP_DIR!;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    PORT: "1",
    DATABASE_URL: `file:${path.join(dir, `start-${randomBytes(4).toString("hex")}.db`)}`,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    TOKEN_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SHOPIFY_APP: "off",
    SKIP_BUILD: "1",
    ...extra,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/start.mjs"], { env, cwd: path.resolve("."), timeout: 90_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

describe("npm start on a public address", () => {
  it("refuses to start without Paddle keys, and says which variables would let it", { timeout: 120_000 }, async () => {
    const { code, output } = await npmStart({ APP_URL: "https://shop.example.com" });
    expect(code).toBe(1);
    expect(output).toContain("PADDLE_API_KEY is required in production on a public address (APP_URL https://shop.example.com is not on localhost)");
    expect(output).toContain("PADDLE_LOCAL_CHECKOUT=i-understand-plans-are-free");
    expect(output).not.toContain("Demo login");
    expect(output).not.toContain("Ready");
  });
});

/** A plain HTTP server of another program, answering 200 to everything (its /healthz included), on a free port. */
async function otherProgram(): Promise<{ port: number; close: () => Promise<void> }> {
  const other = http.createServer((_req, res) => res.end("someone else's server"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  const { port } = other.address() as net.AddressInfo;
  return { port, close: () => new Promise((resolve) => other.close(() => resolve())) };
}

// Issue 35 item 6 (decision 080): `npm start` said Ready when another program held its port: its own server failed
// with EADDRINUSE while the readiness check got a 200 from the other one.
describe("npm start on a port another program holds", () => {
  it("stops at once with a sentence naming the port, and never says Ready", { timeout: 120_000 }, async () => {
    const other = await otherProgram();
    try {
      // A local demo (no APP_URL): it listens on 127.0.0.1, where the other program is.
      const { code, output } = await npmStart({ PORT: String(other.port) });
      expect(code).toBe(1);
      expect(output).toContain(`Port ${other.port} is already in use by another program on 127.0.0.1: stop it, or set PORT to a free port`);
      expect(output).not.toContain("Ready");
      expect(output).not.toContain("Applying migrations");
    } finally {
      await other.close();
    }
  });
});

describe("the server on a port another program holds", () => {
  /** node server/workers.mjs as npm start runs it; its exit code and everything it printed. */
  function runServer(port: number, workers: string): Promise<{ code: number | null; output: string }> {
    const env = serverEnv({
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://127.0.0.1:${port}`,
      TOKEN_ENCRYPTION_KEYS: `test:${randomBytes(32).toString("base64")}`,
      JOBS_WORKER: "off",
      WEB_CONCURRENCY: workers,
    }) as NodeJS.ProcessEnv;
    return new Promise((resolve, reject) => {
      const child = execFile(process.execPath, serverNodeArgs(env), { env, timeout: 90_000 }, (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? null) : 0;
        resolve({ code: typeof code === "number" ? code : null, output: stdout + stderr });
      });
      child.on("error", reject);
    });
  }

  it.each(["1", "2"])("stops with exit code 1 and the sentence naming the port (WEB_CONCURRENCY=%s)", { timeout: 120_000 }, async (workers) => {
    ensureProductionBuild();
    const other = await otherProgram();
    try {
      const { code, output } = await runServer(other.port, workers);
      expect(code).toBe(1);
      expect(output).toContain(`The server cannot start: Port ${other.port} is already in use by another program on 127.0.0.1`);
    } finally {
      await other.close();
    }
  });
});

// Issue 38 item 3 (decision 097): a bucket that refuses writes stops `npm start` before it builds or serves, with
// the sentence naming the variable to fix.
describe("npm start with a bucket that refuses writes", () => {
  it("stops after seeding with the sentence naming STORAGE_BUCKET, and never says Ready", { timeout: 180_000 }, async () => {
    const s3 = await startLocalS3([]);
    try {
      const { code, output } = await npmStart(s3.env("not-created"));
      expect(code).toBe(1);
      expect(output).toContain("Checking file storage");
      expect(output).toContain(`File storage failed its start-up check. Storing `);
      expect(output).toContain(`the bucket "not-created" at ${s3.endpoint} does not exist: create it, or set STORAGE_BUCKET to one that does.`);
      expect(output).not.toContain("Building the app");
      expect(output).not.toContain("Ready");
    } finally {
      await s3.stop();
    }
  });
});

// Issue 38 (decision 098): `DATABASE_URL=postgresql://… npm start` on a server that does not answer ended in
// `prisma migrate deploy`'s "External error id#0" and its stack.
describe("npm start with a PostgreSQL DATABASE_URL that does not answer", () => {
  it("stops with one sentence naming DATABASE_URL, its password hidden, no stack, and never says Ready", { timeout: 120_000 }, async () => {
    const closed = await otherProgram();
    const port = closed.port;
    await closed.close();
    const { code, output } = await npmStart({ DATABASE_URL: `postgresql://app:s3cret-pw@127.0.0.1:${port}/shop` });
    expect(code).toBe(1);
    expect(output).toContain(
      `DATABASE_URL (postgresql://app:***@127.0.0.1:${port}/shop) does not answer: nothing accepted a PostgreSQL connection on 127.0.0.1:${port} (ECONNREFUSED).`,
    );
    expect(output).toContain(`Applying migrations to postgresql://app:***@127.0.0.1:${port}/shop`);
    expect(output).not.toContain("s3cret-pw");
    expect(output).not.toMatch(/External error|\n\s+at /);
    expect(output).not.toContain("Ready");
  });
});
