// A separate OS process that spends credits on a shared SQLite file, for the multi-process concurrency
// test (credits-concurrency.test.ts) and `npm run bench` (bench/billing.ts). Not a test file itself.
//
// Run: node --import tsx tests/integration/billing/credits-spend-worker.ts, with DATABASE_URL and the app's
// environment set, and SPEND_USER_ID, SPEND_FEATURE, SPEND_COUNT, SPEND_WORKER in the environment.
// It prints "ready" once connected, waits for a line on stdin (so every worker starts at once), fires
// all its spends concurrently, prints one JSON line with the results, and exits.
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { db, dbReady } from "~/db.server";
import { AppError } from "~/domain/errors";
import { spend } from "~/services/billing/credits.server";

const userId = process.env.SPEND_USER_ID!;
const feature = process.env.SPEND_FEATURE ?? "ai-ads";
const count = Number(process.env.SPEND_COUNT ?? 100);
const worker = process.env.SPEND_WORKER ?? String(process.pid);
// Concurrent spends in flight at once (all of them by default).
const concurrency = Number(process.env.SPEND_CONCURRENCY ?? count);

export interface WorkerReport {
  worker: string;
  ok: number;
  declined: number;
  failed: number;
  errors: string[];
  ledgerIds: number[];
  ms: number;
}

await dbReady;
// One cheap read so the connection is open before the start signal.
await db.creditBalance.findFirst({ where: { userId }, select: { balance: true } });
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once("line", () => resolve()));
lines.close();

const report: WorkerReport = { worker, ok: 0, declined: 0, failed: 0, errors: [], ledgerIds: [], ms: 0 };
const start = performance.now();
let next = 0;
async function lane() {
  while (next < count) {
    const i = next++;
    try {
      const result = await spend(db, {
        userId,
        feature,
        idempotencyKey: `worker:${worker}:${i}`,
        reason: "concurrency",
      });
      report.ok++;
      report.ledgerIds.push(result.ledgerId);
    } catch (error) {
      // A short balance is a declined spend (AppError 402), not a failure.
      if (error instanceof AppError && error.status === 402) {
        report.declined++;
        continue;
      }
      report.failed++;
      if (report.errors.length < 5) report.errors.push(String((error as Error)?.message ?? error));
    }
  }
}
await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
report.ms = performance.now() - start;
process.stdout.write(`${JSON.stringify(report)}\n`);
await db.$disconnect();
