// Billing and credits figures for `npm run bench` (printed, never asserted):
// - Paddle notifications verified (SDK signature check) and applied (one transaction each) per second,
//   distinct events signed just before delivery, through billing.handleWebhook;
// - credit spends per second on one hot balance: in-process one at a time, in-process all at once, and
//   from 4 OS processes on the same SQLite file (tests/integration/billing/credits-spend-worker.ts).
// bench/run.ts sets DATABASE_URL (a scratch file) and the environment before calling runBillingBench();
// app modules are imported inside it for that reason. `npx tsx bench/billing.ts` runs it alone on its
// own scratch database.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const SPEND_WORKER = path.resolve("tests/integration/billing/credits-spend-worker.ts");
const WEBHOOK_WORKER = path.resolve("tests/integration/billing/billing-webhook-worker.ts");

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

interface WorkerReport {
  ok: number;
  declined: number;
  failed: number;
  errors: string[];
  ms: number;
}

/** Runs `workers` spend processes on the shared file, released together; wall time from release. */
async function spendFromProcesses(workers: number, perWorker: number, env: Record<string, string>) {
  const children = Array.from({ length: workers }, (_, w) =>
    spawn(process.execPath, ["--import", "tsx", SPEND_WORKER], {
      env: {
        ...process.env,
        ...env,
        SPEND_COUNT: String(perWorker),
        SPEND_WORKER: `bench${w}-${randomUUID().slice(0, 6)}`,
      },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  const outputs = children.map((child) => {
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { child, lines, stderr: () => stderr };
  });
  try {
    for (const o of outputs) {
      const first = await o.lines.next();
      if (first.value !== "ready") throw new Error(`spend worker did not start: ${o.stderr()}`);
    }
    const start = performance.now();
    for (const o of outputs) o.child.stdin.write("go\n");
    const reports = await Promise.all(
      outputs.map(async (o) => {
        const line = await o.lines.next();
        if (line.done) throw new Error(`spend worker printed no report: ${o.stderr()}`);
        return JSON.parse(line.value) as WorkerReport;
      }),
    );
    return { reports, ms: performance.now() - start };
  } finally {
    for (const o of outputs) if (o.child.exitCode === null) o.child.stdin.end();
  }
}

/** Runs one webhook worker per body list on the shared file, released together; wall time from release. */
async function webhooksFromProcesses(bodyLists: string[][], env: Record<string, string>) {
  const { writeFileSync, mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-webhooks-"));
  const outputs = bodyLists.map((bodies, w) => {
    const file = path.join(dir, `bodies-${w}.json`);
    writeFileSync(file, JSON.stringify(bodies));
    const child = spawn(process.execPath, ["--import", "tsx", WEBHOOK_WORKER], {
      env: { ...process.env, ...env, WEBHOOK_BODIES_FILE: file },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => stderr };
  });
  try {
    for (const o of outputs) {
      const first = await o.lines.next();
      if (first.value !== "ready") throw new Error(`webhook worker did not start: ${o.stderr()}`);
    }
    const start = performance.now();
    for (const o of outputs) o.child.stdin.write("go\n");
    const results = await Promise.all(
      outputs.map(async (o) => {
        const line = await o.lines.next();
        if (line.done) throw new Error(`webhook worker printed no result: ${o.stderr()}`);
        return JSON.parse(line.value) as { status: number; outcome: string }[];
      }),
    );
    return { results, ms: performance.now() - start };
  } finally {
    for (const o of outputs) if (o.child.exitCode === null) o.child.stdin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runBillingBench(options: { webhooks?: number; spends?: number } = {}) {
  const { db, dbReady } = await import("~/db.server");
  const { createBilling } = await import("~/services/billing.server");
  const paddle = await import("~/integrations/paddle.server");
  const { createLocalPaddle } = await import("~/integrations/paddle-local.server");
  const credits = await import("~/services/billing/credits.server");
  const { findPlan } = await import("~/domain/billing/plans");
  await dbReady;

  const secret = `bench-${randomUUID()}`;
  const prices = {
    basic: "pri_bench_basic",
    pro: "pri_bench_pro",
    innerCircle: "pri_bench_ic",
    caseStudy: "pri_bench_cs",
  };
  const billing = createBilling({
    db,
    prices,
    webhookSecret: secret,
    retentionDiscountId: "dsc_bench",
    localCheckout: false,
    paddle: { local: createLocalPaddle },
    readNotification: paddle.readPaddleNotification,
  });

  // ---------- webhooks ----------
  const pro = findPlan("pro")!;
  const price = {
    id: prices.pro,
    name: pro.name,
    unitAmountCents: pro.priceCents,
    currencyCode: "USD",
    interval: "month" as const,
    trialDays: 7,
  };
  const nWebhooks = options.webhooks ?? 1500;
  const usersNeeded = Math.ceil(nWebhooks / 5);
  const userIds: string[] = [];
  for (let i = 0; i < usersNeeded; i++) {
    const u = await db.user.create({
      data: { email: `bench-billing-${randomUUID()}@example.com` },
      select: { id: true },
    });
    userIds.push(u.id);
  }
  const DAY = 24 * 3600_000;
  // Five notifications per user, as Paddle sends them over a subscription's first two months.
  function lifeOf(userId: string, t0: number) {
    const id = `sub_bench_${randomUUID().slice(0, 12)}`;
    const customerId = `ctm_bench_${randomUUID().slice(0, 12)}`;
    const start = new Date(t0);
    const trial = {
      id,
      status: "trialing" as const,
      customerId,
      userId,
      price,
      startedAt: start,
      currentPeriodStart: start,
      currentPeriodEnd: new Date(t0 + 7 * DAY),
      nextBilledAt: new Date(t0 + 7 * DAY),
      scheduledChange: null,
      discountId: null,
    };
    const p1 = {
      ...trial,
      status: "active" as const,
      currentPeriodStart: trial.currentPeriodEnd,
      currentPeriodEnd: new Date(t0 + 37 * DAY),
      nextBilledAt: new Date(t0 + 37 * DAY),
    };
    const p2 = {
      ...p1,
      currentPeriodStart: p1.currentPeriodEnd,
      currentPeriodEnd: new Date(t0 + 67 * DAY),
      nextBilledAt: new Date(t0 + 67 * DAY),
    };
    const txn = (at: number) =>
      paddle.transactionJson(
        {
          id: `txn_bench_${randomUUID().slice(0, 12)}`,
          status: "completed",
          customerId,
          userId,
          subscriptionId: id,
          origin: "subscription_recurring",
          price,
          totalCents: price.unitAmountCents,
        },
        new Date(at),
      );
    return [
      paddle.eventJson("subscription.created", paddle.subscriptionJson(trial, start), start),
      paddle.eventJson(
        "subscription.activated",
        paddle.subscriptionJson(p1, new Date(t0 + 7 * DAY)),
        new Date(t0 + 7 * DAY),
      ),
      paddle.eventJson("transaction.completed", txn(t0 + 7 * DAY + 1000), new Date(t0 + 7 * DAY + 1000)),
      paddle.eventJson(
        "subscription.updated",
        paddle.subscriptionJson(p2, new Date(t0 + 37 * DAY)),
        new Date(t0 + 37 * DAY),
      ),
      paddle.eventJson("transaction.completed", txn(t0 + 37 * DAY + 1000), new Date(t0 + 37 * DAY + 1000)),
    ].map((e) => JSON.stringify(e));
  }
  // Whole lives per user, so each user's notifications stay in one part: a third one at a time, a third
  // 8 in flight, a third from 4 processes (each process gets its own users).
  const lives = userIds.map((u, i) => lifeOf(u, Date.UTC(2026, 0, 1) + i * 60_000));
  const third = Math.floor(lives.length / 3);
  const bodies = [...lives.slice(0, third).flat(), ...lives.slice(third, 2 * third).flat()];
  const processLives = lives.slice(2 * third);
  const half = third * 5;

  const times: number[] = [];
  let applied = 0;
  let start = performance.now();
  for (const raw of bodies.slice(0, half)) {
    const t = performance.now();
    const res = await billing.handleWebhook(raw, paddle.signWebhook(raw, secret));
    times.push(performance.now() - t);
    if (res.outcome === "applied") applied++;
  }
  const sequentialMs = performance.now() - start;
  times.sort((a, b) => a - b);
  console.log(
    `paddle webhooks, verified + applied one at a time: ${rate(half, sequentialMs)} /s, p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms (${applied}/${half} applied)`,
  );

  // Paddle delivers in parallel: 8 in flight at once (the adapter serialises within the process).
  const rest = bodies.slice(half);
  let cursor = 0;
  let appliedConcurrent = 0;
  start = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cursor < rest.length) {
        const raw = rest[cursor++];
        const res = await billing.handleWebhook(raw, paddle.signWebhook(raw, secret));
        if (res.outcome !== "duplicate") appliedConcurrent++;
      }
    }),
  );
  const concurrentMs = performance.now() - start;
  console.log(
    `paddle webhooks, verified + applied 8 in flight: ${rate(rest.length, concurrentMs)} /s (${appliedConcurrent}/${rest.length} applied or stale)`,
  );

  const perProcess = [0, 1, 2, 3].map((w) => processLives.filter((_, i) => i % 4 === w).flat());
  const fromProcesses = await webhooksFromProcesses(perProcess, {
    DATABASE_URL: process.env.DATABASE_URL!,
    WEBHOOK_SECRET: secret,
    WEBHOOK_PRICES: JSON.stringify(prices),
  });
  const delivered = fromProcesses.results.flat();
  const appliedByProcesses = delivered.filter((r) => r.status === 200 && r.outcome === "applied").length;
  const failedByProcesses = delivered.filter((r) => r.status !== 200).length;
  console.log(
    `paddle webhooks, verified + applied from 4 processes at once: ${rate(delivered.length, fromProcesses.ms)} /s (${appliedByProcesses}/${delivered.length} applied, ${failedByProcesses} answered non-2xx for Paddle to retry)`,
  );

  // ---------- spends on one hot balance ----------
  const nSpends = options.spends ?? 2000;
  const hot = await db.user.create({ data: { email: `bench-hot-${randomUUID()}@example.com` }, select: { id: true } });
  const initial = 10_000_000;
  await credits.applyAllowance(db, {
    userId: hot.id,
    feature: "glitch-mode",
    allowance: initial,
    idempotencyKey: `bench:${hot.id}`,
    reason: "bench",
    mode: "reset",
  });

  const spendTimes: number[] = [];
  start = performance.now();
  for (let i = 0; i < nSpends; i++) {
    const t = performance.now();
    await credits.spend(db, { userId: hot.id, feature: "glitch-mode" });
    spendTimes.push(performance.now() - t);
  }
  const seqSpendMs = performance.now() - start;
  spendTimes.sort((a, b) => a - b);
  console.log(
    `credit spends, one hot balance, one at a time: ${rate(nSpends, seqSpendMs)} /s, p50 ${percentile(spendTimes, 50).toFixed(2)} ms, p99 ${percentile(spendTimes, 99).toFixed(2)} ms`,
  );

  start = performance.now();
  // A declined spend throws AppError 402; only the ones that went through count.
  const results = await Promise.allSettled(
    Array.from({ length: nSpends }, () => credits.spend(db, { userId: hot.id, feature: "glitch-mode" })),
  );
  const concSpendMs = performance.now() - start;
  console.log(
    `credit spends, one hot balance, ${nSpends} at once in one process: ${rate(nSpends, concSpendMs)} /s (${results.filter((r) => r.status === "fulfilled").length} ok)`,
  );

  const perWorker = Math.ceil(nSpends / 4);
  const multi = await spendFromProcesses(4, perWorker, {
    DATABASE_URL: process.env.DATABASE_URL!,
    SPEND_USER_ID: hot.id,
    SPEND_FEATURE: "glitch-mode",
  });
  const okFromProcesses = multi.reports.reduce((n, r) => n + r.ok, 0);
  const failedFromProcesses = multi.reports.reduce((n, r) => n + r.failed, 0);
  console.log(
    `credit spends, one hot balance, 4 processes x ${perWorker} at once: ${rate(okFromProcesses, multi.ms)} /s (${okFromProcesses} ok, ${failedFromProcesses} failed)`,
  );

  // The figures only count if the books balance.
  const balance = await credits.getBalance(db, hot.id, "glitch-mode");
  const sum = await db.creditLedger.aggregate({
    where: { userId: hot.id, feature: "glitch-mode" },
    _sum: { amount: true },
  });
  const spent = nSpends + results.filter((r) => r.status === "fulfilled").length + okFromProcesses;
  const consistent = balance === initial - spent && sum._sum.amount === balance;
  console.log(
    `credit ledger after the bench: balance ${balance}, ledger sum ${sum._sum.amount}, ${consistent ? "consistent" : "INCONSISTENT"}`,
  );
  if (!consistent) process.exitCode = 1;
}

// `npx tsx bench/billing.ts`: alone, on a scratch database of its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { rmSync } = await import("node:fs");
  const { prepareScratchDb } = await import("./lib/scratch-db");
  const dir = prepareScratchDb("billing-standalone");
  try {
    await runBillingBench();
  } finally {
    const { db } = await import("~/db.server");
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}
