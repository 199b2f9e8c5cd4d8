// The local stand-in for Paddle (no PADDLE_API_KEY; docs/decisions/009): the PaddlePort, plus the
// local test checkout and its end-of-period simulations. It acts as Paddle does: every change is
// reported as a Paddle-shaped notification, signed with the notification secret and handed to
// `deliver`, which the composition root wires to the same webhook handler Paddle's requests reach.
// It holds no state of its own: what Paddle would know about a subscription is read through
// `loadSubscription` (our copy, kept current by those very notifications). Prices are the
// catalogue's, in USD. Who may buy or simulate what is the billing service's to check, not this.
import { randomUUID } from "node:crypto";
import { creditPackPrice, planForPrice, type PriceIds, type SubscriptionStatus } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import { findPlan, OFFERS, PLANS, formatUsd, type CreditTopUp, type Plan, type PlanId } from "~/domain/billing/plans";
import {
  eventJson,
  signWebhook,
  subscriptionJson,
  transactionJson,
  type LocalPrice,
  type PaddlePort,
  type SubscriptionSnapshot,
  type TransactionSnapshot,
} from "~/integrations/paddle.server";

const DAY_MS = 24 * 3600_000;

/** Our stored copy of a subscription, as much of it as Paddle's view needs. */
export interface StoredSubscription {
  id: string;
  userId: string;
  status: string;
  customerId: string | null;
  planId: string | null;
  createdAt: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextBilledAt: Date | null;
  scheduledChange: string | null;
  scheduledChangeAt: Date | null;
  discountId: string | null;
}

export interface LocalPaddleDeps {
  prices: PriceIds;
  /** The notification secret the webhook handler verifies with. */
  webhookSecret: string;
  /** Hands a raw body and its Paddle-Signature header to the webhook handler; rejects when it refuses or fails. */
  deliver: (rawBody: string, signature: string) => Promise<unknown>;
  loadSubscription: (subscriptionId: string) => Promise<StoredSubscription | null>;
}

export type LocalSimulation = "renew" | "payment-failed" | "end";

export interface LocalPaddle extends PaddlePort {
  readonly mode: "local";
  /**
   * A completed checkout as Paddle reports it: subscription.created and transaction.completed for a
   * monthly plan (with its trial, if any), transaction.completed alone for a one-time purchase.
   */
  checkout(input: { userId: string; customerId: string | null; planId: PlanId }): Promise<{ subscriptionId: string | null }>;
  /** A completed one-time purchase of a credit pack (transaction.completed with the pack's price). */
  buyCreditPack(input: { userId: string; customerId: string | null; pack: CreditTopUp }): Promise<{ transactionId: string }>;
  /** What Paddle does at the end of a period: renew (or end, if a cancel is scheduled), fail a charge, end. */
  simulate(subscriptionId: string, what: LocalSimulation): Promise<void>;
}

/** A catalogue plan as a Paddle price. */
function localPrice(plan: Plan, prices: PriceIds): LocalPrice {
  return {
    id: plan.id === "basic" ? prices.basic : plan.id === "pro" ? prices.pro : prices.innerCircle,
    name: plan.name,
    unitAmountCents: plan.priceCents,
    currencyCode: plan.currency,
    interval: plan.billing === "monthly" ? "month" : null,
    trialDays: plan.trialDays,
  };
}

const localId = (prefix: string) => `${prefix}_local_${randomUUID().slice(0, 12)}`;

export function createLocalPaddle(deps: LocalPaddleDeps): LocalPaddle {
  const { prices } = deps;
  const priceCents = new Map([
    [prices.basic, PLANS[0].priceCents],
    [prices.pro, PLANS[1].priceCents],
    [prices.innerCircle, PLANS[2].priceCents],
  ]);

  async function send(eventType: string, data: unknown, occurredAt = new Date()) {
    const raw = JSON.stringify(eventJson(eventType, data, occurredAt));
    await deps.deliver(raw, signWebhook(raw, deps.webhookSecret));
  }

  /** Paddle's view of a subscription, from our copy of it. */
  async function snapshot(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const row = await deps.loadSubscription(subscriptionId);
    const plan = findPlan(row?.planId);
    if (!row || !plan) throw new AppError(404, "No subscription with that id belongs to you.");
    const now = new Date();
    return {
      id: row.id,
      status: row.status as SubscriptionStatus,
      customerId: row.customerId ?? `ctm_local_${row.userId}`,
      userId: row.userId,
      price: localPrice(plan, prices),
      startedAt: row.createdAt,
      currentPeriodStart: row.currentPeriodStart ?? now,
      currentPeriodEnd: row.currentPeriodEnd ?? now,
      nextBilledAt: row.nextBilledAt,
      scheduledChange:
        row.scheduledChange && row.scheduledChangeAt
          ? { action: row.scheduledChange as "cancel", effectiveAt: row.scheduledChangeAt }
          : null,
      discountId: row.discountId,
    };
  }

  function transaction(t: Omit<TransactionSnapshot, "id">, at: Date) {
    return transactionJson({ id: localId("txn"), ...t }, at);
  }

  async function simulate(subscriptionId: string, what: LocalSimulation): Promise<void> {
    const s = await snapshot(subscriptionId);
    const now = new Date();
    if (what === "renew") {
      if (s.scheduledChange?.action === "cancel") return simulate(subscriptionId, "end");
      const start = s.currentPeriodEnd.getTime() > now.getTime() ? now : s.currentPeriodEnd;
      const end = new Date(start.getTime() + 30 * DAY_MS);
      const next = { ...s, status: "active" as const, currentPeriodStart: start, currentPeriodEnd: end, nextBilledAt: end };
      const total = s.discountId ? OFFERS.retentionDiscount.priceCents : s.price.unitAmountCents;
      await send("subscription.updated", subscriptionJson(next, now), now);
      await send(
        "transaction.completed",
        transaction(
          { status: "completed", customerId: s.customerId, userId: s.userId, subscriptionId, origin: "subscription_recurring", price: s.price, totalCents: total },
          now,
        ),
        now,
      );
    } else if (what === "payment-failed") {
      const failed = transaction(
        { status: "past_due", customerId: s.customerId, userId: s.userId, subscriptionId, origin: "subscription_recurring", price: s.price, totalCents: s.price.unitAmountCents },
        now,
      );
      await send("subscription.past_due", subscriptionJson({ ...s, status: "past_due" }, now), now);
      await send("transaction.payment_failed", failed, new Date(now.getTime() + 1));
    } else {
      await send(
        "subscription.canceled",
        subscriptionJson({ ...s, status: "canceled", scheduledChange: null, canceledAt: now, nextBilledAt: null }, now),
        now,
      );
    }
  }

  return {
    mode: "local",
    async previewPrices({ priceIds }) {
      return priceIds.map((priceId) => ({
        priceId,
        formattedTotal: formatUsd(priceCents.get(priceId) ?? 0),
        currencyCode: "USD",
      }));
    },
    async previewDiscount() {
      return { currencyCode: "USD", formattedTotal: formatUsd(OFFERS.retentionDiscount.priceCents) };
    },
    async cancelAtPeriodEnd(subscriptionId) {
      const s = await snapshot(subscriptionId);
      const now = new Date();
      await send(
        "subscription.updated",
        subscriptionJson({ ...s, scheduledChange: { action: "cancel", effectiveAt: s.currentPeriodEnd } }, now),
        now,
      );
    },
    async resumeScheduledCancel(subscriptionId) {
      const s = await snapshot(subscriptionId);
      const now = new Date();
      // Paddle bills again at the period end, as if the cancellation had never been asked for.
      await send(
        "subscription.updated",
        subscriptionJson({ ...s, scheduledChange: null, nextBilledAt: s.nextBilledAt ?? s.currentPeriodEnd }, now),
        now,
      );
    },
    async cancelNow(subscriptionId) {
      await simulate(subscriptionId, "end");
    },
    async applyDiscountNextCycle({ subscriptionId, discountId }) {
      const s = await snapshot(subscriptionId);
      const now = new Date();
      await send("subscription.updated", subscriptionJson({ ...s, discountId, scheduledChange: null }, now), now);
    },
    async changePlan({ subscriptionId, priceId }) {
      const s = await snapshot(subscriptionId);
      const plan = findPlan(planForPrice(prices, priceId));
      if (!plan || plan.billing !== "monthly") throw new AppError(400, "Choose the Basic or the Pro plan.");
      const now = new Date();
      await send("subscription.updated", subscriptionJson({ ...s, price: localPrice(plan, prices) }, now), now);
    },
    async buyCreditPack({ userId, customerId, pack }) {
      const priceId = creditPackPrice(prices, pack.id);
      if (!priceId) throw new AppError(400, "Choose one of the credit packs.");
      const now = new Date();
      const price: LocalPrice = { id: priceId, name: pack.name, unitAmountCents: pack.priceCents, currencyCode: "USD", interval: null, trialDays: 0 };
      const data = transaction(
        { status: "completed", customerId: customerId ?? localId("ctm"), userId, subscriptionId: null, origin: "web", price, totalCents: pack.priceCents },
        now,
      );
      await send("transaction.completed", data, now);
      return { transactionId: (data as { id: string }).id };
    },
    async extendTrial({ subscriptionId, nextBilledAt }) {
      const s = await snapshot(subscriptionId);
      const now = new Date();
      await send("subscription.updated", subscriptionJson({ ...s, nextBilledAt, currentPeriodEnd: nextBilledAt }, now), now);
    },
    async paymentMethodChangeTransaction(subscriptionId) {
      const s = await snapshot(subscriptionId);
      const now = new Date();
      const transactionId = localId("txn");
      await send(
        "transaction.completed",
        transactionJson(
          {
            id: transactionId,
            status: "completed",
            customerId: s.customerId,
            userId: s.userId,
            subscriptionId,
            origin: "subscription_payment_method_change",
            price: s.price,
            totalCents: 0,
          },
          now,
        ),
        now,
      );
      if (s.status === "past_due") {
        // Paddle retries the failed charge with the new card; in the test checkout it succeeds.
        await send("subscription.updated", subscriptionJson({ ...s, status: "active" }, now), new Date(now.getTime() + 1));
      }
      return { transactionId };
    },
    async checkout({ userId, customerId: knownCustomerId, planId }) {
      const plan = findPlan(planId);
      if (!plan) throw new AppError(400, "Choose one of the plans.");
      const customerId = knownCustomerId ?? localId("ctm");
      const now = new Date();
      const price = localPrice(plan, prices);
      if (plan.billing === "monthly") {
        const subscriptionId = localId("sub");
        const trial = plan.trialDays > 0;
        const end = new Date(now.getTime() + (trial ? plan.trialDays * DAY_MS : 30 * DAY_MS));
        const s: SubscriptionSnapshot = {
          id: subscriptionId,
          status: trial ? "trialing" : "active",
          customerId,
          userId,
          price,
          startedAt: now,
          currentPeriodStart: now,
          currentPeriodEnd: end,
          nextBilledAt: end,
          scheduledChange: null,
          discountId: null,
        };
        await send("subscription.created", subscriptionJson(s, now), now);
        await send(
          "transaction.completed",
          transaction({ status: "completed", customerId, userId, subscriptionId, origin: "web", price, totalCents: trial ? 0 : plan.priceCents }, now),
          now,
        );
        return { subscriptionId };
      }
      await send(
        "transaction.completed",
        transaction({ status: "completed", customerId, userId, subscriptionId: null, origin: "web", price, totalCents: plan.priceCents }, now),
        now,
      );
      return { subscriptionId: null };
    },
    simulate,
  };
}
