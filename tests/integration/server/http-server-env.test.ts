// The production server's own settings (server/env.mjs): a bad PORT, HOST, ACCESS_LOG, REMIX_BUILD or
// MAX_BODY_BYTES stops `node server/index.mjs` with one line naming the variable, before it loads
// anything; and the per-path body cap table (server/body-limit.mjs).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { bodyCapFor, describeBytes, tooLargeMessage } from "../../../server/body-limit.mjs";
import { parseServerEnv } from "../../../server/env.mjs";

const scratch = mkdtempSync(path.join(tmpdir(), "server-env-"));
const fakeBuild = path.join(scratch, "index.js");
writeFileSync(fakeBuild, "export {};\n");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the server with these variables; resolves with its exit code and what it printed on stderr. */
function runServer(vars: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["server/index.mjs"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", REMIX_BUILD: fakeBuild, ...vars },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    // A server that does not stop (it accepted the value) is killed: the test then fails on its exit code.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("node server/index.mjs with a bad setting", () => {
  // Concurrent: each run is a process start (~0.4 s) that mostly waits on loading modules.
  it.concurrent.each([
    ["PORT", "abc", 'PORT must be a whole number from 1 to 65535 (got "abc")'],
    ["PORT", "0", 'PORT must be a whole number from 1 to 65535 (got "0")'],
    ["PORT", "70000", 'PORT must be a whole number from 1 to 65535 (got "70000")'],
    ["PORT", "80.5", 'PORT must be a whole number from 1 to 65535 (got "80.5")'],
    ["HOST", "not a host", "HOST must be a host name or an IP address"],
    ["HOST", "-leading-dash.example", "HOST must be a host name or an IP address"],
    ["ACCESS_LOG", "maybe", 'ACCESS_LOG must be one of on, off, true, false, 1, 0 (got "maybe")'],
    ["REMIX_BUILD", "no/such/build.js", "REMIX_BUILD must be the server build's file"],
    ["REMIX_BUILD", "server", "is not a file"],
    ["MAX_BODY_BYTES", "12", 'MAX_BODY_BYTES must be a whole number of bytes from 1024 to 67108864 (got "12")'],
    ["MAX_BODY_BYTES", "1MB", "MAX_BODY_BYTES must be a whole number of bytes"],
    [
      "REQUEST_TIMEOUT_MS",
      "30s",
      'REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 500 to 600000 (got "30s")',
    ],
    ["REQUEST_TIMEOUT_MS", "0", "REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 500 to 600000"],
    ["HEADERS_TIMEOUT_MS", "100", "HEADERS_TIMEOUT_MS must be a whole number of milliseconds from 500 to 600000"],
    [
      "HEADERS_TIMEOUT_MS",
      "60000",
      'HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS (30000) (got "60000")',
    ],
    ["MAX_CONNECTIONS_PER_CLIENT", "-1", "MAX_CONNECTIONS_PER_CLIENT must be a whole number from 0 (no cap) to 100000"],
    [
      "MAX_CONNECTIONS_PER_CLIENT",
      "lots",
      "MAX_CONNECTIONS_PER_CLIENT must be a whole number from 0 (no cap) to 100000",
    ],
  ])("%s=%s: exits non-zero with a line naming the variable", async (name, value, message) => {
    const { code, stderr } = await runServer({ [name]: value });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain(message);
    expect(stderr.split("\n").filter((line) => line.includes(name))).toHaveLength(1);
  });

  it.concurrent("lists every bad value, one line each", async () => {
    const { code, stderr } = await runServer({ PORT: "-1", HOST: "a b", ACCESS_LOG: "yes" });
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines.filter((line) => /^\s+- (PORT|HOST|ACCESS_LOG) /.test(line))).toHaveLength(3);
  });
});

describe("parseServerEnv", () => {
  const ok = (vars: Record<string, string>) => {
    const result = parseServerEnv({ REMIX_BUILD: fakeBuild, ...vars });
    if (!result.ok) throw new Error(result.problems.join("; "));
    return result.env;
  };

  it("defaults: port 3000, all interfaces, access log on, a 1 MB body cap, 30 s / 15 s to receive a request / its headers, 64 sockets per client; empty values count as unset", () => {
    for (const vars of [
      {},
      {
        PORT: "",
        HOST: "",
        ACCESS_LOG: " ",
        MAX_BODY_BYTES: "",
        REQUEST_TIMEOUT_MS: "",
        MAX_CONNECTIONS_PER_CLIENT: "",
      },
    ] as Record<string, string>[]) {
      expect(ok(vars)).toEqual({
        port: 3000,
        host: undefined,
        accessLog: true,
        buildFile: fakeBuild,
        maxBodyBytes: 1024 * 1024,
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 15_000,
        maxConnectionsPerClient: 64,
      });
    }
  });

  it("a request timeout shorter than 15 s bounds the headers timeout too, unless that is set; 0 turns the connection cap off", () => {
    expect(ok({ REQUEST_TIMEOUT_MS: "2000" })).toMatchObject({ requestTimeoutMs: 2000, headersTimeoutMs: 2000 });
    expect(ok({ REQUEST_TIMEOUT_MS: "2000", HEADERS_TIMEOUT_MS: "1000" })).toMatchObject({ headersTimeoutMs: 1000 });
    expect(ok({ MAX_CONNECTIONS_PER_CLIENT: "0" }).maxConnectionsPerClient).toBe(0);
  });

  it("takes every port from 1 to 65535 and nothing else", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 65535 }), (port) => ok({ PORT: String(port) }).port === port));
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 65536 }), fc.double({ noInteger: true })).map(String),
        (value) => {
          const result = parseServerEnv({ REMIX_BUILD: fakeBuild, PORT: value });
          return !result.ok && result.problems.length === 1 && result.problems[0].startsWith("PORT ");
        },
      ),
    );
  });

  it("takes IP addresses and host names for HOST", () => {
    fc.assert(fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.domain()), (host) => ok({ HOST: host }).host === host));
    expect(ok({ HOST: "localhost" }).host).toBe("localhost");
  });

  it("reads ACCESS_LOG as a switch, in any letter case", () => {
    for (const [value, on] of [
      ["on", true],
      ["TRUE", true],
      ["1", true],
      ["off", false],
      ["False", false],
      ["0", false],
    ] as const) {
      expect(ok({ ACCESS_LOG: value }).accessLog).toBe(on);
    }
  });
});

describe("the body cap of a path", () => {
  const limits = [{ prefix: "/api/imports", maxBytes: 50 * 1024 * 1024 }];

  it("a table entry covers its path and what lies under it, every other path gets the default", () => {
    expect(bodyCapFor("/api/imports", limits, 1024)).toBe(50 * 1024 * 1024);
    expect(bodyCapFor("/api/imports/csv", limits, 1024)).toBe(50 * 1024 * 1024);
    expect(bodyCapFor("/api/importsx", limits, 1024)).toBe(1024);
    expect(bodyCapFor("/signup", limits, 1024)).toBe(1024);
    const paths = fc
      .array(fc.constantFrom("api", "imports", "importsx", "import", "signup", ""), { maxLength: 4 })
      .map((segments) => `/${segments.join("/")}`);
    fc.assert(
      fc.property(
        paths,
        (p) =>
          bodyCapFor(p, limits, 1024) ===
          (p === "/api/imports" || p.startsWith("/api/imports/") ? 50 * 1024 * 1024 : 1024),
      ),
    );
  });

  it("is stated in the 413's sentence as a person reads it", () => {
    expect(tooLargeMessage(1024 * 1024)).toBe("The request body is larger than 1 MB.");
    expect(describeBytes(1536 * 1024)).toBe("1.5 MB");
    expect(describeBytes(4096)).toBe("4 KB");
    expect(describeBytes(1000)).toBe("1000 bytes");
  });
});
