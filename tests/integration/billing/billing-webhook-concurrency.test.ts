// Several server processes receiving Paddle notifications at once on one SQLite file (as behind a load
// balancer, with Paddle delivering in parallel and retrying): every notification is applied exactly once,
// each in its own transaction, and the users end in the state in-order delivery gives. Within one process
// the libSQL adapter serialises queries, so this needs real OS processes.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { findPlan } from "~/domain/billing/plans";
import {
  balancesOf,
  completedTransaction,
  nextPeriod,
  priceIds,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
  userBilling,
  webhookSecret,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

const WORKER = path.resolve("tests/integration/billing/billing-webhook-worker.ts");
const pro = findPlan("pro")!;

type Result = { status: number; outcome: string };

async function deliverFromProcesses(workers: number, bodiesPerWorker: string[][]): Promise<Result[][]> {
  const children = bodiesPerWorker.slice(0, workers).map((bodies) => {
    const file = path.join(process.env.TEST_TMP_DIR!, `webhooks-${randomUUID()}.json`);
    writeFileSync(file, JSON.stringify(bodies));
    const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      env: {
        ...process.env,
        WEBHOOK_BODIES_FILE: file,
        WEBHOOK_SECRET: webhookSecret(),
        WEBHOOK_PRICES: JSON.stringify(priceIds()),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => stderr };
  });
  try {
    for (const c of children) {
      const first = await c.lines.next();
      if (first.value !== "ready") throw new Error(`webhook worker did not start: ${first.value ?? ""} ${c.stderr()}`);
    }
    for (const c of children) c.child.stdin.write("go\n");
    return await Promise.all(
      children.map(async (c) => {
        const line = await c.lines.next();
        if (line.done) throw new Error(`webhook worker printed no result: ${c.stderr()}`);
        return JSON.parse(line.value) as Result[];
      }),
    );
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.stdin.end();
  }
}

function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("Paddle notifications from 4 processes at once", () => {
  it("every notification applied exactly once; retried until 200 as Paddle does; the same end state as in order", async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const bodies: string[] = [];
    const base = Date.now() - 3600_000;
    users.forEach((user, i) => {
      const t = base + i * 1000;
      const trial = trialSnapshot(user.id, { at: new Date(t) });
      const active = nextPeriod(trial);
      bodies.push(
        JSON.stringify(subscriptionEvent("subscription.created", trial, new Date(t))),
        JSON.stringify(
          transactionEvent(
            "transaction.completed",
            completedTransaction(user.id, trial.price, {
              customerId: trial.customerId,
              subscriptionId: trial.id,
              totalCents: 0,
            }),
            new Date(t + 10),
          ),
        ),
        JSON.stringify(subscriptionEvent("subscription.activated", active, new Date(t + 20))),
      );
    });

    // Each process gets every notification, in its own order: 4 deliveries of each, at once.
    let pending = bodies;
    const outcomes = new Map<string, string[]>();
    let rounds = 0;
    let failures = 0;
    while (pending.length > 0) {
      rounds++;
      expect(rounds, "Paddle would keep retrying; this many rounds means something is stuck").toBeLessThan(6);
      const results = await deliverFromProcesses(
        4,
        [0, 1, 2, 3].map((w) => shuffle(pending, rounds * 10 + w + 1)),
      );
      const answered = new Set<string>();
      results.forEach((perWorker, w) => {
        const order = shuffle(pending, rounds * 10 + w + 1);
        perWorker.forEach((r, k) => {
          const eventId = (JSON.parse(order[k]) as { event_id: string }).event_id;
          expect([200, 500], `unexpected answer ${JSON.stringify(r)}`).toContain(r.status);
          if (r.status === 200) {
            answered.add(eventId);
            outcomes.set(eventId, [...(outcomes.get(eventId) ?? []), r.outcome]);
          } else failures++;
        });
      });
      // Paddle redelivers whatever was not answered 2xx.
      pending = pending.filter((raw) => !answered.has((JSON.parse(raw) as { event_id: string }).event_id));
    }

    // Exactly one delivery of each notification applied it (or found it stale); every other one saw a duplicate.
    for (const [eventId, seen] of outcomes) {
      const firsts = seen.filter((o) => o !== "duplicate");
      expect(firsts, `${eventId}: ${seen.join(",")}`).toHaveLength(1);
    }
    expect(outcomes.size).toBe(bodies.length);
    expect(await db.paddleEvent.count({ where: { userId: { in: users.map((u) => u.id) } } })).toBe(bodies.length);

    for (const user of users) {
      expect(await userBilling(user.id)).toMatchObject({
        userSubscribed: "yes",
        trialing: false,
        chargeDeclined: false,
      });
      expect(await balancesOf(user.id)).toEqual(pro.credits);
      const sums = await db.creditLedger.groupBy({
        by: ["feature"],
        where: { userId: user.id },
        _sum: { amount: true },
      });
      expect(Object.fromEntries(sums.map((s) => [s.feature, s._sum.amount]))).toEqual(pro.credits);
    }
    // Reported so a regression in contention handling is visible even when the end state is right.
    console.info(`webhooks from 4 processes: ${rounds} round(s), ${failures} answer(s) of 500 retried`);
  }, 120_000);
});
