// 500 concurrent ai-ads spends (cost 5) on a balance of 100: exactly 20 succeed, the balance ends at 0
// and equals the ledger's sum. Within one process the Prisma libSQL adapter serialises queries, so the
// real proof is the multi-process run: 4 OS processes on the same SQLite file, released at once.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { AppError } from "~/domain/errors";
import * as credits from "~/services/billing/credits.server";
import { createUser } from "../../helpers/site-users";
import type { WorkerReport } from "./credits-spend-worker";

const WORKER = path.resolve("tests/integration/billing/credits-spend-worker.ts");

async function userWithBalance(feature: string, balance: number) {
  const user = await createUser();
  await credits.applyAllowance(db, {
    userId: user.id,
    feature,
    allowance: balance,
    idempotencyKey: `concurrency-grant:${user.id}`,
    reason: "test grant",
    mode: "reset",
  });
  return user.id;
}

async function ledgerState(userId: string, feature: string) {
  const balance = await credits.getBalance(db, userId, feature);
  const sum = await db.creditLedger.aggregate({ where: { userId, feature }, _sum: { amount: true } });
  const spends = await db.creditLedger.findMany({
    where: { userId, feature, kind: "spend" },
    orderBy: { id: "asc" },
    select: { amount: true, balanceAfter: true },
  });
  return { balance, ledgerSum: sum._sum.amount ?? 0, spends };
}

/** Starts the workers, waits until every one is connected, releases them together, collects reports. */
async function runWorkers(n: number, env: Record<string, string>, perWorker: number): Promise<WorkerReport[]> {
  const children: ChildProcessWithoutNullStreams[] = [];
  const ready: Promise<void>[] = [];
  const reports: Promise<WorkerReport>[] = [];
  for (let w = 0; w < n; w++) {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        ...env,
        SPEND_COUNT: String(perWorker),
        SPEND_WORKER: `${randomUUID().slice(0, 8)}-w${w}`,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const lines = createInterface({ input: child.stdout });
    const iterator = lines[Symbol.asyncIterator]();
    ready.push(
      iterator.next().then((line) => {
        if (line.value !== "ready") throw new Error(`worker ${w} did not start: ${line.value ?? ""} ${stderr}`);
      }),
    );
    reports.push(
      new Promise((resolve, reject) => {
        child.on("exit", async (code) => {
          if (code !== 0) return reject(new Error(`worker ${w} exited ${code}: ${stderr}`));
          const rest: string[] = [];
          for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value);
          const last = rest.filter(Boolean).pop();
          if (!last) return reject(new Error(`worker ${w} printed no report: ${stderr}`));
          resolve(JSON.parse(last) as WorkerReport);
        });
      }),
    );
  }
  try {
    await Promise.all(ready);
    for (const child of children) child.stdin.write("go\n");
    return await Promise.all(reports);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}

describe("500 concurrent spends on a balance of 100 (ai-ads, cost 5)", () => {
  it("in one process (Promise.allSettled): exactly 20 succeed, the balance ends at 0", async () => {
    const userId = await userWithBalance("ai-ads", 100);
    const results = await Promise.allSettled(
      Array.from({ length: 500 }, (_, i) =>
        credits.spend(db, { userId, feature: "ai-ads", idempotencyKey: `p:${userId}:${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    // A declined spend throws AppError 402 with the upsell and the numbers.
    const declined = results.flatMap((r) =>
      r.status === "rejected" && r.reason instanceof AppError && r.reason.status === 402 ? [r.reason.toJSON()] : [],
    );
    expect(ok).toHaveLength(20);
    expect(declined).toHaveLength(480);
    for (const r of declined) expect(r).toMatchObject({ upsell: true, cost: 5 });

    const state = await ledgerState(userId, "ai-ads");
    expect(state.balance).toBe(0);
    expect(state.ledgerSum).toBe(state.balance);
    // Every success saw a distinct balance on the way down: 95, 90, ..., 0.
    expect(state.spends.map((s) => s.balanceAfter).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 20 }, (_, i) => 95 - i * 5),
    );
  });

  it("across 4 OS processes on the same SQLite file: exactly 20 succeed, the balance ends at 0", async () => {
    const userId = await userWithBalance("ai-ads", 100);
    const reports = await runWorkers(
      4,
      { DATABASE_URL: process.env.DATABASE_URL!, SPEND_USER_ID: userId, SPEND_FEATURE: "ai-ads" },
      125,
    );
    const total = reports.reduce(
      (acc, r) => ({ ok: acc.ok + r.ok, declined: acc.declined + r.declined, failed: acc.failed + r.failed }),
      { ok: 0, declined: 0, failed: 0 },
    );
    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    expect(total).toEqual({ ok: 20, declined: 480, failed: 0 });

    const state = await ledgerState(userId, "ai-ads");
    expect(state.balance).toBe(0);
    expect(state.ledgerSum).toBe(0);
    expect(state.spends).toHaveLength(20);
    expect(state.spends.map((s) => s.balanceAfter).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 20 }, (_, i) => 95 - i * 5),
    );
    // The ledger rows the workers were told about are exactly the ones in the database.
    const ids = reports.flatMap((r) => r.ledgerIds).sort((a, b) => a - b);
    expect(new Set(ids).size).toBe(20);
    const rows = await db.creditLedger.findMany({ where: { id: { in: ids } }, select: { userId: true, kind: true } });
    expect(rows.every((r) => r.userId === userId && r.kind === "spend")).toBe(true);
    expect(rows).toHaveLength(20);
  }, 60_000);
});
