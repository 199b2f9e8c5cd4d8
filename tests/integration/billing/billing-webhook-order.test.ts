// Property: a generated, realistic life of one subscription (trial -> active -> renewals -> maybe a
// failed payment -> maybe recovered -> maybe a scheduled cancel -> maybe canceled), delivered in order
// once to one user, and shuffled with every notification redelivered 1-3 times to another user, leaves
// the same user flags, subscription row, transaction rows and credit balances. Seeded, so a failure
// names the seed that reproduces it (PROPERTY_SEED=<n> runs that one alone).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import type { LocalPrice, SubscriptionSnapshot, TransactionSnapshot } from "~/integrations/paddle.server";
import type { PlanId } from "~/domain/billing/plans";
import {
  DAY_MS,
  deliver,
  newCustomerId,
  newSubscriptionId,
  newTransactionId,
  observableBilling,
  planPrice,
  subscriptionEvent,
  transactionEvent,
} from "../../helpers/paddle";
import { createUser } from "../../helpers/site-users";

/** mulberry32: small, fast, good enough to generate test cases reproducibly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    shuffle<T>(items: T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}

type Rng = ReturnType<typeof prng>;

/** One step of the abstract life, independent of user and ids, so it can be built for two users. */
type Step =
  | {
      kind: "subscription";
      eventType: string;
      at: Date;
      state: Omit<SubscriptionSnapshot, "id" | "customerId" | "userId">;
    }
  | {
      kind: "transaction";
      eventType: string;
      at: Date;
      txnIndex: number;
      state: Omit<TransactionSnapshot, "id" | "customerId" | "userId" | "subscriptionId">;
    };

function generateLife(rng: Rng): { steps: Step[]; story: string[] } {
  const plan: PlanId = rng.chance(0.5) ? "basic" : "pro";
  const price: LocalPrice = planPrice(plan);
  const steps: Step[] = [];
  const story: string[] = [plan];
  // occurred_at strictly increasing, a few seconds to minutes apart; some 1 ms apart as Paddle's are.
  let clock = Date.UTC(2026, 0, 1) + rng.int(0, 1000) * 60_000;
  const tick = () => (clock += rng.chance(0.2) ? 1 : rng.int(1000, 600_000));
  let txnIndex = 0;

  const startedAt = new Date(clock);
  let sub: Omit<SubscriptionSnapshot, "id" | "customerId" | "userId"> = {
    status: "trialing",
    price,
    startedAt,
    currentPeriodStart: startedAt,
    currentPeriodEnd: new Date(startedAt.getTime() + 7 * DAY_MS),
    nextBilledAt: new Date(startedAt.getTime() + 7 * DAY_MS),
    scheduledChange: null,
    discountId: null,
  };
  const push = (eventType: string, next: typeof sub) => {
    sub = next;
    steps.push({ kind: "subscription", eventType, at: new Date(tick()), state: sub });
    story.push(
      `${eventType}:${sub.status}:${sub.price.name}${sub.scheduledChange ? `+${sub.scheduledChange.action}` : ""}`,
    );
  };
  const txn = (eventType: string, status: string, origin: TransactionSnapshot["origin"], totalCents: number) => {
    steps.push({
      kind: "transaction",
      eventType,
      at: new Date(tick()),
      txnIndex: txnIndex++,
      state: { status, origin, price: sub.price, totalCents },
    });
    story.push(`${eventType}:${status}`);
  };
  const newPeriod = (status: "active" | "past_due") => {
    const start = sub.currentPeriodEnd;
    const end = new Date(start.getTime() + 30 * DAY_MS);
    return {
      ...sub,
      status,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      nextBilledAt: end,
      scheduledChange: null,
    };
  };

  push("subscription.created", sub);
  txn("transaction.completed", "completed", "web", 0);

  const cancelInTrial = rng.chance(0.15);
  if (!cancelInTrial) {
    push("subscription.activated", newPeriod("active"));
    txn("transaction.completed", "completed", "subscription_recurring", sub.price.unitAmountCents);
    if (rng.chance(0.3)) {
      // A plan change within the period (Paddle keeps the billing period and prorates), sometimes
      // changed back again before the period ends.
      const other = planPrice(sub.price.id === planPrice("pro").id ? "basic" : "pro");
      const original = sub.price;
      push("subscription.updated", { ...sub, price: other });
      if (rng.chance(0.5)) push("subscription.updated", { ...sub, price: original });
    }
    const renewals = rng.int(0, 3);
    for (let i = 0; i < renewals; i++) {
      push("subscription.updated", newPeriod("active"));
      txn("transaction.completed", "completed", "subscription_recurring", sub.price.unitAmountCents);
    }
    if (rng.chance(0.4)) {
      // A renewal charge fails: Paddle moves to the new period and marks the subscription past_due.
      push("subscription.past_due", newPeriod("past_due"));
      txn("transaction.payment_failed", "past_due", "subscription_recurring", sub.price.unitAmountCents);
      if (rng.chance(0.75)) {
        push("subscription.updated", { ...sub, status: "active" });
        txn("transaction.completed", "completed", "subscription_recurring", sub.price.unitAmountCents);
      }
    }
  }
  if (sub.status !== "past_due" && rng.chance(0.6)) {
    push("subscription.updated", {
      ...sub,
      scheduledChange: { action: "cancel", effectiveAt: sub.currentPeriodEnd },
      nextBilledAt: null,
    });
    if (rng.chance(0.7)) {
      push("subscription.canceled", {
        ...sub,
        status: "canceled",
        scheduledChange: null,
        nextBilledAt: null,
        canceledAt: sub.currentPeriodEnd,
      });
    }
  }
  return { steps, story };
}

/** The life's notifications for one user, with that user's own subscription, customer and event ids. */
function materialise(steps: Step[], userId: string) {
  const id = newSubscriptionId();
  const customerId = newCustomerId();
  const txnIds: string[] = [];
  const events = steps.map((step) => {
    if (step.kind === "subscription") {
      return subscriptionEvent(step.eventType, { ...step.state, id, customerId, userId }, step.at);
    }
    txnIds[step.txnIndex] ??= newTransactionId();
    return transactionEvent(
      step.eventType,
      { ...step.state, id: txnIds[step.txnIndex], customerId, userId, subscriptionId: id },
      step.at,
    );
  });
  return { subscriptionId: id, customerId, txnIds, events };
}

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const ONLY_SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : null;

describe("webhook delivery order and redelivery", () => {
  it(`shuffled, redelivered 1-3 times: the same state as in-order single delivery (${ONLY_SEED ?? RUNS} generated lives)`, async () => {
    const seeds = ONLY_SEED !== null ? [ONLY_SEED] : Array.from({ length: RUNS }, (_, i) => 1000 + i);
    const shapes = new Set<string>();
    for (const seed of seeds) {
      const rng = prng(seed);
      const { steps, story } = generateLife(rng);
      shapes.add(story.filter((s) => s.startsWith("subscription.")).join(" "));

      const inOrderUser = await createUser();
      const inOrder = materialise(steps, inOrderUser.id);
      for (const event of inOrder.events) {
        const res = await deliver(event);
        expect(res.status, `seed ${seed}`).toBe(200);
        expect(res.body.outcome, `seed ${seed}: in order every event applies`).toBe("applied");
      }

      const shuffledUser = await createUser();
      const shuffled = materialise(steps, shuffledUser.id);
      const deliveries = rng.shuffle(
        shuffled.events.flatMap((event) => Array.from({ length: rng.int(1, 3) }, () => event)),
      );
      for (const event of deliveries) {
        const res = await deliver(event);
        expect(res.status, `seed ${seed}`).toBe(200);
        expect(["applied", "duplicate", "stale"], `seed ${seed}`).toContain(res.body.outcome);
      }
      // Each distinct notification was recorded exactly once.
      expect(await db.paddleEvent.count({ where: { userId: shuffledUser.id } }), `seed ${seed}`).toBe(
        shuffled.events.length,
      );

      const expected = await observableBilling(inOrderUser.id, inOrder);
      const actual = await observableBilling(shuffledUser.id, shuffled);
      expect(actual, `seed ${seed}: ${story.join(" -> ")}`).toEqual(expected);
      expect(expected.ledgerSums, `seed ${seed}`).toEqual(expected.balances);
    }
    // The generator really covers different lives (not 60 copies of one).
    if (ONLY_SEED === null) expect(shapes.size).toBeGreaterThan(10);
  }, 240_000);
});
