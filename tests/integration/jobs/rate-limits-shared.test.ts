// The shared rate limiter (decisions 051 and 063) on a real migrated SQLite file: concurrent tries let exactly
// the limit through, two clients and two OS processes count into one window, the window restarts on a virtual
// clock, usage and reset; and an API key revoked in one process is refused by another at once.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db, dbReady } from "~/db.server";
import { AppError } from "~/domain/errors";
import { getEnv } from "~/env.server";
import { action as keysAction } from "~/routes/api.keys";
import { action as keyAction } from "~/routes/api.keys.$id";
import { apiKeys } from "~/services/index.server";
import { createRateLimits, type RateLimitRule } from "~/services/api-access/rate-limits.server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const WORKER = path.resolve("tests/integration/jobs/rate-limit-worker.ts");
const limits = () => createRateLimits({ db, databaseUrl: getEnv().DATABASE_URL });
let ruleCount = 0;
const rule = (points: number, windowSeconds = 60): RateLimitRule => ({
  name: `test-shared-${process.pid}-${++ruleCount}`,
  points,
  windowSeconds,
  refusal: (retryIn) => `Too many tries. Try again ${retryIn}.`,
});

let worker: { ask(line: string): Promise<Record<string, number>>; stop(): void };

beforeAll(async () => {
  await dbReady;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--import", "tsx", WORKER], {
    cwd: process.cwd(),
    env: process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== "ready") throw new Error(`the worker did not start: ${String(first.value)} ${stderr}`);
  worker = {
    async ask(line) {
      child.stdin.write(`${line}\n`);
      const answer = await lines.next();
      if (answer.done) throw new Error(`the worker stopped: ${stderr}`);
      return JSON.parse(answer.value) as Record<string, number>;
    },
    stop: () => child.kill("SIGKILL"),
  };
}, 60_000);

afterAll(() => worker?.stop());
afterEach(() => {
  vi.useRealTimers();
});

async function takeMany(limit: ReturnType<ReturnType<typeof limits>["limit"]>, count: number) {
  const results = await Promise.allSettled(Array.from({ length: count }, () => limit.take({ subject: "shared" })));
  const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof AppError && r.reason.status === 429);
  return { accepted: results.filter((r) => r.status === "fulfilled").length, refused: refused.length, failed: count - results.filter((r) => r.status === "fulfilled").length - refused.length };
}

describe("the shared rate limiter", () => {
  it("lets exactly 20 of 50 concurrent takes through a limit of 20, and refuses the others with a 429", async () => {
    const limit = limits().limit(rule(20));
    expect(await takeMany(limit, 50)).toEqual({ accepted: 20, refused: 30, failed: 0 });
    await expect(limit.usage("shared")).resolves.toMatchObject({ limit: 20, remaining: 0 });
  });

  it("counts two clients on the same database into one window", async () => {
    const r = rule(10);
    const [a, b] = [limits().limit(r), limits().limit(r)];
    await a.take({ subject: "shared" });
    await expect(b.take({ subject: "shared" })).resolves.toMatchObject({ limit: 10, remaining: 8 });
    const both = await Promise.all([takeMany(a, 6), takeMany(b, 6)]);
    expect(both[0].accepted + both[1].accepted).toBe(8);
    await expect(a.take({ subject: "shared" })).rejects.toMatchObject({ status: 429 });
  });

  it("counts two OS processes into one window: 40 concurrent takes in each on a limit of 30 let exactly 30 through", async () => {
    const r = rule(30);
    const [here, there] = await Promise.all([takeMany(limits().limit(r), 40), worker.ask(`take ${r.name} 30 40`)]);
    expect(here.failed + there.failed).toBe(0);
    expect(here.accepted + there.accepted).toBe(30);
    expect(here.refused + there.refused).toBe(50);
  });

  it("counts two OS processes' API calls (takeSteps, decision 074) into one window: exactly 30 of 80 through, and only those in the month", async () => {
    const [minute, month] = [rule(30), rule(100_000, 3600)];
    const here = limits();
    const [minuteHere, monthHere] = [here.limit(minute), here.limit(month)];
    const calls = Array.from({ length: 40 }, () =>
      here.takeSteps([
        { limit: minuteHere, subjects: [{ subject: "key:shared" }, { subject: "user:shared" }] },
        { limit: monthHere, subjects: [{ subject: "user:shared" }] },
      ]),
    );
    const [results, there] = await Promise.all([Promise.allSettled(calls), worker.ask(`steps ${minute.name} 30 ${month.name} 40`)]);
    const accepted = results.filter((r) => r.status === "fulfilled").length;
    const refused = results.filter((r) => r.status === "rejected" && r.reason instanceof AppError && r.reason.status === 429).length;
    expect(there.failed).toBe(0);
    expect({ accepted: accepted + there.accepted, refused: refused + there.refused }).toEqual({ accepted: 30, refused: 50 });
    await expect(minuteHere.usage("key:shared")).resolves.toMatchObject({ used: 80 });
    await expect(monthHere.usage("user:shared")).resolves.toMatchObject({ used: 30 });
  });

  it("restarts the window when it ends (virtual clock), and says when in the refusal", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-26T12:00:00Z") });
    const limit = limits().limit(rule(3, 60));
    for (let i = 0; i < 3; i++) await limit.take({ subject: "shared" });
    vi.setSystemTime(new Date("2026-11-26T12:00:30Z"));
    const over = await limit.take({ subject: "shared" }).catch((e: unknown) => e);
    expect(over).toMatchObject({ status: 429, message: "Too many tries. Try again in 1 minute.", details: { retryAfterSeconds: 30 } });
    vi.setSystemTime(new Date("2026-11-26T12:01:00.001Z"));
    await expect(limit.take({ subject: "shared" })).resolves.toMatchObject({ limit: 3, remaining: 2, resetSeconds: 60 });
    await expect(limit.usage("shared")).resolves.toMatchObject({ used: 1, remaining: 2 });
  });

  it("holds each subject to its own limit in one take, reports the tightest, and forgets a subject on reset", async () => {
    const limit = limits().limit(rule(5));
    await expect(limit.take({ subject: "key:a" }, { subject: "user:a", limit: 2 })).resolves.toMatchObject({ limit: 2, remaining: 1 });
    await limit.take({ subject: "key:a" }, { subject: "user:a", limit: 2 });
    await expect(limit.take({ subject: "key:a" }, { subject: "user:a", limit: 2 })).rejects.toMatchObject({ status: 429, details: { rateLimit: { limit: 2, remaining: 0 } } });
    await limit.reset("user:a");
    await expect(limit.take({ subject: "user:a", limit: 2 })).resolves.toMatchObject({ limit: 2, remaining: 1 });
    await expect(limit.usage("key:a")).resolves.toMatchObject({ used: 3, remaining: 2 });
  });

  it("consume counts each subject given and refuses with retryAfterSeconds when one is over", async () => {
    const limit = limits().limit(rule(2, 3600));
    await limit.consume("ip:1", "email:a");
    await limit.consume("ip:1", null, undefined);
    const over = await limit.consume("email:a", "ip:1").catch((e: unknown) => e);
    expect(over).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many tries\. Try again in 60 minutes\.$/), details: { retryAfterSeconds: expect.any(Number) } });
    await limit.consume("email:b");
  });
});

describe("an API key revoked in one process", () => {
  it("is refused by another process at once", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const res = await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "two processes" } });
    const created = (await res.json()) as { id: string; key: string };
    await expect(worker.ask(`auth ${created.key}`)).resolves.toEqual({ status: 200 });
    await apiKeys.authenticate(created.key, "read");

    const revoked = await call(keyAction, `/api/keys/${created.id}`, { method: "DELETE", cookie: user.cookie, params: { id: created.id } });
    expect(revoked.status).toBe(200);
    await expect(worker.ask(`auth ${created.key}`)).resolves.toEqual({ status: 401 });
    await expect(apiKeys.authenticate(created.key, "read")).rejects.toMatchObject({ status: 401 });
  });
});
