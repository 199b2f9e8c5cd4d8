// The process guard (server/process-guard.mjs, docs/decisions/038) in a real Node process: an error that escapes
// every request, job and timer (a timer that throws, a promise nobody awaits) is logged and the process keeps
// answering; without the guard the same process dies. A server that cannot listen, or an entry module that fails
// while loading, still ends the process with exit code 1.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";

const scratch = mkdtempSync(path.join(tmpdir(), "process-guard-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const GUARD = pathToFileURL(path.resolve("server/process-guard.mjs")).href;

/** A tiny HTTP server whose routes make an error escape the way a request's or a job's callback would. */
const SERVER_SCRIPT = `
import { createServer } from "node:http";
if (process.argv[2] === "guarded") (await import(${JSON.stringify(GUARD)})).installProcessGuard();
const server = createServer((req, res) => {
  if (req.url === "/timer-throws") setTimeout(() => { throw new Error("a timer threw"); });
  if (req.url === "/promise-rejects") Promise.reject(new Error("a promise nobody awaited"));
  if (req.url === "/callback-throws") process.nextTick(() => { throw new TypeError("a callback threw"); });
  res.end("alive " + req.url);
});
server.listen(0, "127.0.0.1", () => console.log("listening on " + server.address().port));
`;
const serverScript = path.join(scratch, "server.mjs");
writeFileSync(serverScript, SERVER_SCRIPT);

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** Resolves when the child's stdout and stderr together match; rejects if it exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

const children: ChildProcess[] = [];
afterEach(() => {
  while (children.length) children.pop()!.kill("SIGKILL");
});

function start(args: string[], env: Record<string, string> = {}): Child {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH, NODE_ENV: "production", ...env } });
  children.push(child);
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    output += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code: number | null) => resolve(code)));
  return {
    process: child,
    output: () => output,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (!match) return;
          listeners.delete(check);
          resolve(match);
        };
        listeners.add(check);
        check();
        void exited.then((code) => reject(new Error(`exited with ${code} before printing ${pattern}:\n${output}`)));
      }),
  };
}

async function startServer(mode: "guarded" | "bare") {
  const child = start([serverScript, mode]);
  const port = Number((await child.waitFor(/listening on (\d+)/))[1]);
  const get = async (p: string) => (await fetch(`http://127.0.0.1:${port}${p}`)).text();
  return { child, get };
}

/** The JSON log lines the guard wrote. */
function logLines(output: string): { level: number; msg: string; err?: { message: string }; origin?: string }[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

describe("an error no request, job or timer caught", () => {
  it.each(["/timer-throws", "/promise-rejects", "/callback-throws"])("%s ends an unguarded process", async (route) => {
    const { child, get } = await startServer("bare");
    // The answer may or may not leave before the process dies.
    await get(route).catch(() => null);
    expect(await child.exited).not.toBe(0);
  });

  it("is logged, and the guarded process keeps answering", async () => {
    const { child, get } = await startServer("guarded");
    expect(await get("/timer-throws")).toBe("alive /timer-throws");
    await child.waitFor(/a timer threw/);
    expect(await get("/promise-rejects")).toBe("alive /promise-rejects");
    await child.waitFor(/a promise nobody awaited/);
    expect(await get("/callback-throws")).toBe("alive /callback-throws");
    await child.waitFor(/a callback threw/);
    expect(await get("/")).toBe("alive /");

    const logged = logLines(child.output());
    expect(logged.map((l) => [l.level, l.err?.message, l.origin])).toEqual([
      [50, "a timer threw", "uncaughtException"],
      [50, "a promise nobody awaited", "unhandledRejection"],
      [50, "a callback threw", "uncaughtException"],
    ]);
    expect(logged.every((l) => /keeps serving/.test(l.msg))).toBe(true);
    expect(child.process.exitCode).toBeNull();
  });
});

describe("node server/index.mjs", () => {
  // A stand-in build (REMIX_BUILD) whose resource routes the server calls directly: one answers, one lets a
  // timer throw and a promise reject after answering, the way a bug in a loader's callback would.
  const build = path.join(scratch, "build.mjs");
  writeFileSync(
    build,
    `export const future = {};
     export const entry = { module: {} };
     export const assetsBuildDirectory = ${JSON.stringify(path.join(scratch, "client"))};
     export const routes = {
       healthz: { id: "healthz", path: "healthz", module: { loader: () => new Response("ok") } },
       boom: { id: "boom", path: "boom", module: { loader: () => {
         setTimeout(() => { throw new Error("a loader's timer threw"); });
         Promise.reject(new Error("a loader's promise nobody awaited"));
         return new Response("answered");
       } } },
     };`,
  );

  it("logs an error that escaped a loader and keeps serving", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const server = start(["server/index.mjs"], {
      REMIX_BUILD: build,
      PORT: String(port),
      HOST: "127.0.0.1",
      ACCESS_LOG: "off",
    });
    await server.waitFor(/\[server\] http/);
    const get = async (p: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      return `${res.status} ${await res.text()}`;
    };
    expect(await get("/boom")).toBe("200 answered");
    await server.waitFor(/a loader's timer threw/);
    await server.waitFor(/a loader's promise nobody awaited/);
    expect(await get("/healthz")).toBe("200 ok");
    expect(logLines(server.output()).map((l) => [l.err?.message, /keeps serving/.test(l.msg)])).toEqual([
      ["a loader's promise nobody awaited", true],
      ["a loader's timer threw", true],
    ]);
    expect(server.process.exitCode).toBeNull();
  });
});

describe("what still ends a guarded process", () => {
  let taken: Server | null = null;
  afterEach(() => taken?.close());

  it("a server that cannot listen (the port is taken): exit code 1 and a fatal log line", async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken!.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    const script = path.join(scratch, "listen.mjs");
    writeFileSync(
      script,
      `(await import(${JSON.stringify(GUARD)})).installProcessGuard();
       import("node:http").then(({ createServer }) => createServer().listen(${port}, "127.0.0.1"));
       setInterval(() => {}, 1000);`,
    );
    const child = start([script]);
    expect(await child.exited).toBe(1);
    const [line] = logLines(child.output());
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/cannot listen \(EADDRINUSE\)/);
  });

  it("an entry module that fails while loading (a missing build): exit code 1 and a fatal log line", async () => {
    const script = path.join(scratch, "entry.mjs");
    writeFileSync(
      script,
      `(await import(${JSON.stringify(GUARD)})).installProcessGuard();
       setInterval(() => {}, 1000);
       await import("./no-such-build.js");`,
    );
    const child = start([script]);
    expect(await child.exited).toBe(1);
    const [line] = logLines(child.output());
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(/failed while starting/);
    expect(line.err?.message).toMatch(/no-such-build/);
  });
});
