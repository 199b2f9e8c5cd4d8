// server/workers.mjs, the server's entry point: WEB_CONCURRENCY copies of server/index.mjs behind one port
// (node:cluster), started as `npm start` starts it. Both serve requests, the start-up line is printed once,
// SIGTERM stops them all, a bad WEB_CONCURRENCY stops the start with one line (docs/decisions/039).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWebConcurrency } from "../../../server/env.mjs";
import { ensureProductionBuild, startServer, type RunningServer } from "../../helpers/production-server";

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let server: RunningServer;

beforeAll(async () => {
  ensureProductionBuild();
  server = await startServer({ WEB_CONCURRENCY: "2" });
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("WEB_CONCURRENCY=2", () => {
  it("runs two server processes behind one port, says where it listens once, and SIGTERM stops them all", async () => {
    const workers = childrenOf(server.pid);
    expect(workers).toHaveLength(2);
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => (await fetch(`http://127.0.0.1:${server.port}/healthz`)).status),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    // Whichever worker listened first answered /healthz; the first worker says where the server listens.
    const said = () => server.output().match(/\[server\] http:\/\/localhost:\d+/g) ?? [];
    for (let attempt = 0; attempt < 200 && said().length === 0; attempt++) await new Promise((r) => setTimeout(r, 50));
    expect(said()).toHaveLength(1);

    await server.stop();
    for (let attempt = 0; attempt < 100 && workers.some(alive); attempt++) await new Promise((r) => setTimeout(r, 50));
    expect(workers.filter(alive)).toEqual([]);
  });
});

describe("a bad WEB_CONCURRENCY", () => {
  it.each(["0", "two", "65"])("WEB_CONCURRENCY=%s stops the start with one line naming it", (value) => {
    const run = spawnSync(process.execPath, ["server/workers.mjs"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", WEB_CONCURRENCY: value },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`WEB_CONCURRENCY must be a whole number of processes from 1 to 64 (got "${value}")`);
  });

  it("defaults to one process per core in production, one otherwise", () => {
    expect(parseWebConcurrency({ NODE_ENV: "production" }, 4)).toEqual({ ok: true, workers: 4 });
    expect(parseWebConcurrency({ NODE_ENV: "development" }, 4)).toEqual({ ok: true, workers: 1 });
    expect(parseWebConcurrency({ NODE_ENV: "production", WEB_CONCURRENCY: " 3 " }, 4)).toEqual({
      ok: true,
      workers: 3,
    });
  });
});
