// Property (fast-check, seeded): Paddle's notifications for several users' realistic histories
// (trial, activation, renewals, plan changes, the retention discount claimed and used up, failed
// charges with or without recovery, a failed card change, a scheduled cancel, the end, one-time
// purchases; notifications as little as 1 µs apart, as Paddle's occurred_at allows), every
// notification delivered 1-3 times in one random interleaved order, leave exactly the state that one
// in-order delivery of the same histories leaves: every user flag, the subscription and transaction
// rows, and the credit balances (and the balances still equal the ledger's sums). Real signed bodies
// go through the real route and handler on the migrated SQLite database.
// PROPERTY_RUNS=<n> runs more cases; PROPERTY_SEED=<n> replays one run's seed (fast-check prints it).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { OFFERS, type PlanId } from "~/domain/billing/plans";
import type { LocalPrice, SubscriptionSnapshot, TransactionSnapshot } from "~/integrations/paddle.server";
import {
  caseStudyPrice,
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

const RETENTION = getEnv().PADDLE_RETENTION_DISCOUNT_ID;

type SubState = Omit<SubscriptionSnapshot, "id" | "customerId" | "userId">;
type TxnState = Omit<TransactionSnapshot, "id" | "customerId" | "userId" | "subscriptionId"> & { ofSubscription: boolean };

/** One notification of an abstract history, independent of user and ids, so it can be made for two users. */
type Step =
  | { kind: "subscription"; eventType: string; at: number; state: SubState }
  | { kind: "transaction"; eventType: string; at: number; txn: number; state: TxnState };

type Move =
  | { kind: "renew" }
  | { kind: "plan-change" }
  | { kind: "claim-discount" }
  | { kind: "payment-failed"; recovers: boolean }
  | { kind: "card-change-fails" }
  | { kind: "one-time"; what: "inner-circle" | "case-study" };

interface Life {
  plan: PlanId;
  cancelInTrial: boolean;
  moves: Move[];
  ending: "none" | "cancel-scheduled" | "canceled";
  /** Microseconds between notifications: Paddle's occurred_at has microseconds, and 1 µs or 0.4 ms apart happens. */
  gaps: number[];
}

const moveArb: fc.Arbitrary<Move> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "renew" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "plan-change" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "claim-discount" as const }) },
  { weight: 1, arbitrary: fc.boolean().map((recovers) => ({ kind: "payment-failed" as const, recovers })) },
  { weight: 1, arbitrary: fc.constant({ kind: "card-change-fails" as const }) },
  { weight: 1, arbitrary: fc.constantFrom("inner-circle" as const, "case-study" as const).map((what) => ({ kind: "one-time" as const, what })) },
);

const lifeArb: fc.Arbitrary<Omit<Life, "cancelInTrial">> = fc.record({
  plan: fc.constantFrom<PlanId>("basic", "pro"),
  moves: fc.array(moveArb, { maxLength: 6 }),
  ending: fc.constantFrom("none" as const, "cancel-scheduled" as const, "canceled" as const),
  gaps: fc.array(fc.oneof(fc.constant(1), fc.constant(400), fc.constant(1000), fc.integer({ min: 1_000_000, max: 600_000_000 })), {
    minLength: 40,
    maxLength: 40,
  }),
});

/**
 * The notifications Paddle sends for a life, in the order (and with the occurred_at, in microseconds since
 * the epoch) it sends them. `start` is in milliseconds.
 */
function stepsOf(life: Life, start: number): Step[] {
  const steps: Step[] = [];
  let clock = start * 1000;
  let gap = 0;
  const tick = () => (clock += life.gaps[gap++ % life.gaps.length]);
  let txn = 0;
  const trialEnd = new Date(start + 7 * DAY_MS);
  let sub: SubState = {
    status: "trialing",
    price: planPrice(life.plan),
    startedAt: new Date(start),
    currentPeriodStart: new Date(start),
    currentPeriodEnd: trialEnd,
    nextBilledAt: trialEnd,
    scheduledChange: null,
    discountId: null,
  };
  let claimed = false;
  /** The retention discount applies to one renewal, then Paddle removes it. */
  let discountUses = 0;
  const push = (eventType: string, next: SubState) => {
    sub = next;
    steps.push({ kind: "subscription", eventType, at: tick(), state: sub });
  };
  const charge = (eventType: string, status: string, origin: TransactionSnapshot["origin"], total: number, id = txn++) => {
    steps.push({
      kind: "transaction",
      eventType,
      at: tick(),
      txn: id,
      state: {
        status,
        origin,
        price: sub.price,
        totalCents: total,
        billingPeriod: { startsAt: sub.currentPeriodStart, endsAt: sub.currentPeriodEnd },
        discountId: total === OFFERS.retentionDiscount.priceCents ? sub.discountId : null,
        ofSubscription: true,
      },
    });
    return id;
  };
  const newPeriod = (status: "active" | "past_due"): SubState => {
    const begins = sub.currentPeriodEnd;
    const ends = new Date(begins.getTime() + 30 * DAY_MS);
    // A discount that has paid for one renewal ends with it.
    const discountId = sub.discountId && discountUses >= 1 ? null : sub.discountId;
    return { ...sub, status, currentPeriodStart: begins, currentPeriodEnd: ends, nextBilledAt: ends, scheduledChange: null, discountId };
  };
  const renewalTotal = () => {
    if (sub.discountId) {
      discountUses++;
      return OFFERS.retentionDiscount.priceCents;
    }
    return sub.price.unitAmountCents;
  };

  push("subscription.created", sub);
  charge("transaction.completed", "completed", "web", 0);
  if (life.cancelInTrial) {
    push("subscription.canceled", { ...sub, status: "canceled", nextBilledAt: null, canceledAt: new Date(Math.floor(clock / 1000)) });
    return steps;
  }
  push("subscription.activated", newPeriod("active"));
  charge("transaction.completed", "completed", "subscription_recurring", sub.price.unitAmountCents);
  for (const move of life.moves) {
    if (sub.status !== "active") break;
    if (move.kind === "renew") {
      push("subscription.updated", newPeriod("active"));
      charge("transaction.completed", "completed", "subscription_recurring", renewalTotal());
    } else if (move.kind === "plan-change") {
      const other = planPrice(sub.price.id === planPrice("pro").id ? "basic" : "pro");
      push("subscription.updated", { ...sub, price: other });
    } else if (move.kind === "claim-discount") {
      if (claimed) continue;
      claimed = true;
      push("subscription.updated", { ...sub, discountId: RETENTION });
    } else if (move.kind === "payment-failed") {
      push("subscription.past_due", newPeriod("past_due"));
      const total = renewalTotal();
      const failed = charge("transaction.payment_failed", "past_due", "subscription_recurring", total);
      if (move.recovers) {
        // Paddle retries the same transaction; it completes, and the subscription is active again.
        charge("transaction.completed", "completed", "subscription_recurring", total, failed);
        push("subscription.updated", { ...sub, status: "active" });
      }
    } else if (move.kind === "card-change-fails") {
      // Paddle's zero-value transaction for a new card on an active subscription; the card is refused.
      charge("transaction.payment_failed", "ready", "subscription_payment_method_change", 0);
    } else {
      const price: LocalPrice = move.what === "inner-circle" ? planPrice("inner-circle") : caseStudyPrice();
      steps.push({
        kind: "transaction",
        eventType: "transaction.completed",
        at: tick(),
        txn: txn++,
        state: { status: "completed", origin: "web", price, totalCents: price.unitAmountCents, ofSubscription: false },
      });
    }
  }
  if (life.ending !== "none" && sub.status !== "canceled") {
    push("subscription.updated", {
      ...sub,
      scheduledChange: { action: "cancel", effectiveAt: sub.currentPeriodEnd },
      nextBilledAt: null,
    });
    if (life.ending === "canceled") {
      push("subscription.canceled", { ...sub, status: "canceled", scheduledChange: null, nextBilledAt: null, canceledAt: sub.currentPeriodEnd });
    }
  }
  return steps;
}

/** A step in a few words, for the failure message: "updated:active:Basic+dsc", "completed:999@2026-04-08". */
function label(step: Step): string {
  const type = step.eventType.replace(/^(subscription|transaction)\./, "");
  if (step.kind === "subscription") {
    const s = step.state;
    return `${type}:${s.status}:${s.price.name}${s.discountId ? "+dsc" : ""}${s.scheduledChange ? "+cancel" : ""}`;
  }
  const period = step.state.billingPeriod?.startsAt.toISOString().slice(0, 10);
  return `${type}#${step.txn}:${step.state.price.name}:${step.state.totalCents}${period ? `@${period}` : ""}`;
}

/** occurred_at as Paddle writes it, with microseconds: "2026-01-01T00:00:00.123456Z". */
function paddleTime(micros: number): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 23)}${String(micros % 1000).padStart(3, "0")}Z`;
}

/** A life's notifications for one user, with that user's own subscription, customer and transaction ids. */
function materialise(steps: Step[], userId: string) {
  const subscriptionId = newSubscriptionId();
  const customerId = newCustomerId();
  const txnIds: string[] = [];
  const events = steps.map((step) => {
    const when = new Date(Math.floor(step.at / 1000));
    if (step.kind === "subscription") {
      const event = subscriptionEvent(step.eventType, { ...step.state, id: subscriptionId, customerId, userId }, when);
      return { ...event, occurred_at: paddleTime(step.at) };
    }
    txnIds[step.txn] ??= newTransactionId();
    const { ofSubscription, ...state } = step.state;
    const event = transactionEvent(
      step.eventType,
      { ...state, id: txnIds[step.txn], customerId, userId, subscriptionId: ofSubscription ? subscriptionId : null },
      when,
    );
    return { ...event, occurred_at: paddleTime(step.at) };
  });
  return { subscriptionId, customerId, txnIds, events };
}

type Ids = ReturnType<typeof materialise>;

/** Several users' lives, and for the shuffled delivery: how often each notification goes out and in what order. */
const caseArb = fc
  .record({
    lives: fc.array(
      fc.record({ life: lifeArb, cancelInTrial: fc.integer({ min: 0, max: 9 }).map((n) => n === 0), startMinute: fc.integer({ min: 0, max: 100_000 }) }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .chain(({ lives }) => {
    const histories = lives.map(({ life, cancelInTrial, startMinute }) =>
      stepsOf({ ...life, cancelInTrial }, Date.UTC(2026, 0, 1) + startMinute * 60_000),
    );
    const total = histories.reduce((n, h) => n + h.length, 0);
    return fc.record({
      histories: fc.constant(histories),
      copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: total, maxLength: total }),
      order: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: total * 3, maxLength: total * 3 }),
    });
  });

const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : 20261123;

describe("Paddle notifications in any order, redelivered, for several users", () => {
  it(`end in the state one in-order delivery leaves (${RUNS} generated cases, seed ${SEED})`, async () => {
    const result = await fc.check(
      fc.asyncProperty(caseArb, async ({ histories, copies, order }) => {
        const inOrder: { userId: string; ids: Ids }[] = [];
        const shuffled: { userId: string; ids: Ids }[] = [];
        for (const steps of histories) {
          const a = await createUser();
          inOrder.push({ userId: a.id, ids: materialise(steps, a.id) });
          const b = await createUser();
          shuffled.push({ userId: b.id, ids: materialise(steps, b.id) });
        }
        for (const { ids } of inOrder) {
          for (const event of ids.events) {
            const res = await deliver(event);
            expect(res.body.outcome, `in order, ${event.event_type} applies`).toBe("applied");
          }
        }
        const all = shuffled.flatMap(({ ids }) => ids.events);
        const deliveries = all
          .flatMap((event, i) => Array.from({ length: copies[i] }, () => event))
          .map((event, i) => ({ event, key: order[i] }))
          .sort((x, y) => x.key - y.key)
          .map(({ event }) => event);
        for (const event of deliveries) {
          const res = await deliver(event);
          expect(res.status).toBe(200);
          expect(["applied", "duplicate", "stale"]).toContain(res.body.outcome);
        }
        for (let i = 0; i < histories.length; i++) {
          const story = histories[i].map(label).join(" -> ");
          const expected = await observableBilling(inOrder[i].userId, inOrder[i].ids);
          const actual = await observableBilling(shuffled[i].userId, shuffled[i].ids);
          expect(actual, story).toEqual(expected);
          expect(expected.ledgerSums).toEqual(expected.balances);
          expect(await db.paddleEvent.count({ where: { userId: shuffled[i].userId } })).toBe(shuffled[i].ids.events.length);
        }
      }),
      // No shrinking: every try runs real deliveries; the first counterexample's message says enough.
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Only the failing assertion (with the history it broke on), not fast-check's dump of every value.
    if (result.failed) {
      const error = result.errorInstance as Error;
      error.message = `after ${result.numRuns} cases (seed ${result.seed}, path ${result.counterexamplePath}): ${error.message}`;
      throw error;
    }
    expect(result.numRuns).toBe(RUNS);
  }, 120_000);
});
