// Billing: subscriptions, one-time purchases and the credits they grant, for both surfaces.
// Owns: applying Paddle notifications (verified, deduplicated by event id, stale ones ignored, each in
// one transaction), the seed's paddle-api calls, and the billing page's actions (cancel with a
// retention offer, claim the discount, extend the trial once, change card).
// Every subscription change goes through this file; the user's seed flags are derived from the
// subscription rows by app/domain/billing.ts, whichever provider sold them.
import { AppError } from "~/domain/errors";
import { randomUUID } from "node:crypto";
import {
  isStale,
  NO_SUBSCRIPTION_FLAGS,
  primarySubscription,
  subscriptionFlags,
  type SubscriptionStatus,
} from "~/domain/billing";
import { CREDIT_FEATURES, findPlan, formatUsd, OFFERS, PLANS, UNLIMITED_CREDITS, type Plan, type PlanId } from "~/domain/plans";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import {
  eventJson,
  normalizeEvent,
  signWebhook,
  subscriptionJson,
  transactionJson,
  unmarshalWebhook,
  WebhookSignatureError,
  type BillingEvent,
  type LocalPrice,
  type PaddlePort,
  type SubscriptionSnapshot,
} from "~/integrations/paddle.server";
import { childLogger } from "~/logger.server";
import { applyAllowance, expireAll } from "~/services/credits.server";
import type { User } from "~/services/auth.server";

const log = childLogger("billing");
const DAY_MS = 24 * 3600_000;

export interface PriceIds {
  basic: string;
  pro: string;
  innerCircle: string;
  caseStudy: string;
}

export interface BillingDeps {
  db: Db;
  paddle: PaddlePort;
  prices: PriceIds;
  webhookSecret: string;
  retentionDiscountId: string;
  /** Set only when the local test checkout is allowed. */
  localCheckout: boolean;
}

export type WebhookOutcome = "applied" | "duplicate" | "stale" | "unmatched" | "ignored";

export function createBilling(deps: BillingDeps) {
  const { db, prices } = deps;

  const priceToPlan = new Map<string, PlanId>([
    [prices.basic, "basic"],
    [prices.pro, "pro"],
    [prices.innerCircle, "inner-circle"],
  ]);
  const planPriceId = (plan: Plan) =>
    plan.id === "basic" ? prices.basic : plan.id === "pro" ? prices.pro : prices.innerCircle;

  // ---------- webhooks ----------

  async function resolveUserId(
    tx: DbClient,
    hint: { userId: string | null; subscriptionId?: string | null; customerId?: string | null },
  ): Promise<string | null> {
    if (hint.userId) {
      const user = await tx.user.findUnique({ where: { id: hint.userId }, select: { id: true } });
      if (user) return user.id;
    }
    if (hint.subscriptionId) {
      const sub = await tx.billingSubscription.findUnique({ where: { id: hint.subscriptionId }, select: { userId: true } });
      if (sub) return sub.userId;
    }
    if (hint.customerId) {
      const user = await tx.user.findFirst({ where: { paddleCustomerId: hint.customerId }, select: { id: true } });
      if (user) return user.id;
    }
    return null;
  }

  /** Recomputes the user's subscription flags from all their subscription rows. */
  async function syncUserFlags(tx: DbClient, userId: string) {
    const rows = await tx.billingSubscription.findMany({
      where: { userId },
      select: {
        id: true,
        status: true,
        customerId: true,
        scheduledChange: true,
        currentPeriodStart: true,
        lastEventAt: true,
        discountId: true,
      },
    });
    const primary = primarySubscription(rows);
    const flags = primary
      ? subscriptionFlags({
          id: primary.id,
          status: primary.status as SubscriptionStatus,
          customerId: primary.customerId,
          scheduledChange: primary.scheduledChange as "cancel" | null,
        })
      : NO_SUBSCRIPTION_FLAGS;
    await tx.user.update({
      where: { id: userId },
      data: {
        ...flags,
        ...(primary?.customerId ? { paddleCustomerId: primary.customerId } : {}),
        ...(primary?.discountId === deps.retentionDiscountId ? { claimedDiscount: true } : {}),
      },
      select: { id: true },
    });
    return primary;
  }

  async function applySubscription(tx: DbClient, event: Extract<BillingEvent, { kind: "subscription" }>) {
    const s = event.subscription;
    const userId = await resolveUserId(tx, { userId: event.userId, subscriptionId: s.id, customerId: s.customerId });
    if (!userId) return { outcome: "unmatched" as const, userId: null };
    const existing = await tx.billingSubscription.findUnique({
      where: { id: s.id },
      select: { lastEventAt: true, userId: true, priceId: true, currentPeriodStart: true },
    });
    if (existing && existing.userId !== userId) return { outcome: "unmatched" as const, userId: null };
    if (isStale(existing?.lastEventAt, event.occurredAt)) return { outcome: "stale" as const, userId };

    const planId = s.priceId ? (priceToPlan.get(s.priceId) ?? null) : null;
    const data = {
      status: s.status,
      customerId: s.customerId,
      planId,
      priceId: s.priceId,
      billingInterval: s.billingInterval,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
      nextBilledAt: s.nextBilledAt,
      scheduledChange: s.scheduledChange,
      scheduledChangeAt: s.scheduledChangeAt,
      discountId: s.discountId,
      recurringTotalCents: s.recurringTotalCents,
      currencyCode: s.currencyCode,
      lastEventAt: event.occurredAt,
    };
    await tx.billingSubscription.upsert({
      where: { id: s.id },
      create: { id: s.id, userId, ...data },
      // Same price: keep the amount its transactions reported (localised, what the buyer pays).
      update:
        existing?.priceId === s.priceId ? { ...data, recurringTotalCents: undefined, currencyCode: undefined } : data,
      select: { id: true },
    });
    const primary = await syncUserFlags(tx, userId);

    // Credits follow the subscription that decides the user's access, and never touch Inner Circle's
    // unlimited balances.
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { innerCircle: true } });
    const plan = findPlan(planId);
    if (primary?.id === s.id && !user.innerCircle) {
      if (s.status === "trialing" && plan) {
        for (const feature of CREDIT_FEATURES) {
          await applyAllowance(tx, {
            userId,
            feature,
            allowance: plan.trialCredits[feature],
            idempotencyKey: `trial:${s.id}:${feature}`,
            reason: `${plan.name} trial started`,
            mode: "top-up",
          });
        }
      } else if ((s.status === "active" || s.status === "past_due") && plan && s.currentPeriodStart) {
        // past_due counts as a started period (access continues while Paddle retries the charge) and
        // uses the same key as active, so recovering grants nothing twice. Granting only on active
        // made the balance depend on delivery order: a past_due that arrived first made the older
        // active events stale, and the user ended with no credits at all.
        const period = s.currentPeriodStart.toISOString();
        // A plan change within the period we hold resets to the new plan's allowance even when the
        // user had that plan earlier in the same period (pro -> basic -> pro must end with pro's
        // credits, as it does when Paddle's last notification happens to arrive first). The event id
        // keeps it once-only; any other update in the period reuses the period's key and grants nothing.
        const planChanged =
          existing !== null &&
          existing.priceId !== null &&
          existing.priceId !== s.priceId &&
          existing.currentPeriodStart?.getTime() === s.currentPeriodStart.getTime();
        for (const feature of CREDIT_FEATURES) {
          await applyAllowance(tx, {
            userId,
            feature,
            allowance: plan.credits[feature],
            idempotencyKey: planChanged
              ? `plan-change:${event.eventId}:${feature}`
              : `period:${s.id}:${period}:${s.priceId}:${feature}`,
            reason: `${plan.name} credits for the period from ${period.slice(0, 10)}`,
            mode: "reset",
          });
        }
      } else if (s.status === "canceled") {
        await expireAll(tx, { userId, idempotencyKey: `canceled:${s.id}`, reason: "Subscription ended" });
      }
    }
    return { outcome: "applied" as const, userId };
  }

  async function applyTransaction(tx: DbClient, event: Extract<BillingEvent, { kind: "transaction" }>) {
    const t = event.transaction;
    const userId = await resolveUserId(tx, { userId: event.userId, subscriptionId: t.subscriptionId, customerId: t.customerId });
    if (!userId) return { outcome: "unmatched" as const, userId: null };
    const existing = await tx.billingTransaction.findUnique({ where: { id: t.id }, select: { lastEventAt: true } });
    if (isStale(existing?.lastEventAt, event.occurredAt)) return { outcome: "stale" as const, userId };
    const data = {
      status: t.status,
      subscriptionId: t.subscriptionId,
      origin: t.origin,
      priceIds: t.priceIds.join(","),
      totalCents: t.totalCents,
      currencyCode: t.currencyCode,
      lastEventAt: event.occurredAt,
    };
    await tx.billingTransaction.upsert({
      where: { id: t.id },
      create: { id: t.id, userId, ...data },
      update: data,
      select: { id: true },
    });

    const userData: { innerCircle?: true; boughtCaseStudy?: true; chargeDeclined?: true; paddleCustomerId?: string } = {};
    const paid = t.status === "completed" || t.status === "paid";
    if (paid && t.priceIds.includes(prices.innerCircle)) userData.innerCircle = true;
    if (paid && t.priceIds.includes(prices.caseStudy)) userData.boughtCaseStudy = true;
    if (paid && t.subscriptionId && (t.totalCents ?? 0) > 0 && (t.origin === "web" || t.origin === "subscription_recurring")) {
      // What the subscriber really pays per cycle, in their currency (localised prices, tax included),
      // rather than the price's base amount.
      await tx.billingSubscription.updateMany({
        where: { id: t.subscriptionId, userId },
        data: { recurringTotalCents: t.totalCents, currencyCode: t.currencyCode },
      });
    }
    if (t.customerId) {
      const u = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { paddleCustomerId: true } });
      if (!u.paddleCustomerId) userData.paddleCustomerId = t.customerId;
    }
    if ((event.eventType === "transaction.payment_failed" || t.status === "past_due") && t.subscriptionId) {
      // A failed charge counts only if it is newer than the subscription state we hold, so the order
      // in which Paddle delivers the two does not matter.
      const sub = await tx.billingSubscription.findUnique({ where: { id: t.subscriptionId }, select: { lastEventAt: true } });
      if (!sub || sub.lastEventAt.getTime() < event.occurredAt.getTime()) userData.chargeDeclined = true;
    }
    if (Object.keys(userData).length > 0) {
      await tx.user.update({ where: { id: userId }, data: userData, select: { id: true } });
    }
    if (userData.innerCircle) {
      for (const feature of CREDIT_FEATURES) {
        await applyAllowance(tx, {
          userId,
          feature,
          allowance: UNLIMITED_CREDITS,
          idempotencyKey: `inner-circle:${t.id}:${feature}`,
          reason: "Inner Circle: unlimited",
          mode: "top-up",
        });
      }
    }
    return { outcome: "applied" as const, userId };
  }

  async function applyEvent(event: BillingEvent): Promise<WebhookOutcome> {
    return writeTransaction(db, async (tx) => {
      const seen = await tx.paddleEvent.findUnique({ where: { eventId: event.eventId }, select: { eventId: true } });
      if (seen) return "duplicate";
      let result: { outcome: WebhookOutcome; userId: string | null } = { outcome: "ignored", userId: null };
      if (event.kind === "subscription") result = await applySubscription(tx, event);
      else if (event.kind === "transaction") result = await applyTransaction(tx, event);
      await tx.paddleEvent.create({
        data: {
          eventId: event.eventId,
          eventType: event.eventType,
          occurredAt: event.occurredAt,
          entityId: event.kind === "subscription" ? event.subscription.id : event.kind === "transaction" ? event.transaction.id : null,
          userId: result.userId,
          outcome: result.outcome,
        },
        select: { eventId: true },
      });
      return result.outcome;
    });
  }

  /**
   * POST /webhooks/paddle. 401 for a bad, missing or stale signature (nothing changes); 200 once
   * the event is applied (or was already, or is stale); 400 when a correctly signed body cannot be
   * parsed; 500 when applying failed, so Paddle retries.
   */
  async function handleWebhook(rawBody: string, signature: string | null): Promise<{ status: number; body: Record<string, unknown> }> {
    let event: BillingEvent;
    try {
      event = normalizeEvent(await unmarshalWebhook(rawBody, deps.webhookSecret, signature));
    } catch (error) {
      if (error instanceof WebhookSignatureError) return { status: 401, body: { error: error.message } };
      // Authentic but unreadable (e.g. a payload shape this SDK version does not know): nothing is
      // applied, and a non-2xx answer keeps it in Paddle's retries until a fix is deployed.
      log.error({ err: error }, "paddle notification could not be read");
      return { status: 400, body: { error: "The notification could not be read." } };
    }
    try {
      const outcome = await applyEvent(event);
      log.info({ eventId: event.eventId, eventType: event.eventType, outcome }, "paddle event");
      return { status: 200, body: { ok: true, outcome } };
    } catch (error) {
      log.error({ err: error, eventId: event.eventId, eventType: event.eventType }, "paddle event failed; Paddle will retry");
      return { status: 500, body: { error: "The event could not be applied; it will be retried." } };
    }
  }

  // ---------- reads ----------

  async function ownSubscription(user: User, subscriptionId: string) {
    const sub = await db.billingSubscription.findFirst({
      where: { id: subscriptionId, userId: user.id },
      select: {
        id: true,
        status: true,
        planId: true,
        priceId: true,
        billingInterval: true,
        currentPeriodStart: true,
        currentPeriodEnd: true,
        nextBilledAt: true,
        scheduledChange: true,
        scheduledChangeAt: true,
        discountId: true,
        recurringTotalCents: true,
        currencyCode: true,
        trialExtended: true,
      },
    });
    if (!sub) throw new AppError(404, "No subscription with that id belongs to you.");
    return sub;
  }

  /** The seed's getPlanDetails: from our copy of the subscription, kept current by webhooks. */
  async function getPlanDetails(user: User, subscriptionId: string) {
    const sub = await ownSubscription(user, subscriptionId);
    return {
      priceId: sub.priceId,
      billingCycle: sub.billingInterval,
      billingCycleEndDate: sub.currentPeriodEnd?.toISOString() ?? null,
      totalPrice: sub.recurringTotalCents,
      currencyCode: sub.currencyCode,
    };
  }

  const DEFAULT_PRICES = {
    newPrice: formatUsd(PLANS[0].priceCents),
    newPrice2: formatUsd(PLANS[1].priceCents),
    innerCircle: formatUsd(PLANS[2].priceCents),
  };

  /** The seed's previewPrices: localised by Paddle for the buyer's country; the catalogue's on failure. */
  async function previewPrices(input: { customerIp: string | null; countryCode: string | null }) {
    try {
      const lines = await deps.paddle.previewPrices({
        priceIds: [prices.basic, prices.pro, prices.innerCircle],
        customerIp: input.customerIp,
        countryCode: input.countryCode,
      });
      const byId = new Map(lines.map((l) => [l.priceId, l]));
      const basic = byId.get(prices.basic);
      const pro = byId.get(prices.pro);
      const inner = byId.get(prices.innerCircle);
      if (!basic || !pro || !inner) throw new Error("Paddle's preview lacks a price");
      return {
        newPrice: basic.formattedTotal,
        newPrice2: pro.formattedTotal,
        innerCircle: inner.formattedTotal,
        currencyCode: basic.currencyCode,
        source: deps.paddle.mode,
      };
    } catch (error) {
      log.warn({ err: error }, "price preview failed; showing default prices");
      return { ...DEFAULT_PRICES, currencyCode: "USD", source: "default" as const };
    }
  }

  /** The seed's preview-discount: what the next cycle costs with the retention offer. */
  async function previewDiscount(user: User, subscriptionId: string) {
    await ownSubscription(user, subscriptionId);
    try {
      const preview = await deps.paddle.previewDiscount({ subscriptionId, discountId: deps.retentionDiscountId });
      return { currencyCode: preview.currencyCode, formattedTotals: { total: preview.formattedTotal } };
    } catch (error) {
      log.warn({ err: error, subscriptionId }, "discount preview failed");
      throw new AppError(502, "The discounted price could not be previewed right now.");
    }
  }

  async function overview(user: User) {
    const subs = await db.billingSubscription.findMany({
      where: { userId: user.id },
      select: {
        id: true,
        status: true,
        planId: true,
        priceId: true,
        customerId: true,
        billingInterval: true,
        currentPeriodStart: true,
        currentPeriodEnd: true,
        nextBilledAt: true,
        scheduledChange: true,
        scheduledChangeAt: true,
        discountId: true,
        recurringTotalCents: true,
        currencyCode: true,
        trialExtended: true,
        lastEventAt: true,
      },
    });
    const primary = primarySubscription(subs);
    const plan = findPlan(primary?.planId);
    return {
      subscription: primary
        ? {
            id: primary.id,
            status: primary.status,
            planName: plan?.name ?? "Unknown plan",
            planId: primary.planId,
            nextBilledAt: primary.nextBilledAt?.toISOString() ?? null,
            currentPeriodEnd: primary.currentPeriodEnd?.toISOString() ?? null,
            scheduledChange: primary.scheduledChange,
            scheduledChangeAt: primary.scheduledChangeAt?.toISOString() ?? null,
            recurringTotal:
              primary.recurringTotalCents !== null ? { cents: primary.recurringTotalCents, currencyCode: primary.currencyCode ?? "USD" } : null,
            discounted: primary.discountId === deps.retentionDiscountId,
            trialExtended: primary.trialExtended,
          }
        : null,
      canClaimDiscount: Boolean(primary && primary.status !== "canceled" && !user.claimedDiscount && primary.status !== "trialing"),
      canExtendTrial: Boolean(primary && primary.status === "trialing" && !user.extendedTrial),
      retentionPrice: formatUsd(OFFERS.retentionDiscount.priceCents),
    };
  }

  // ---------- actions ----------

  async function requireManageable(user: User, subscriptionId: string) {
    const sub = await ownSubscription(user, subscriptionId);
    if (sub.status === "canceled") throw new AppError(409, "This subscription has already ended.");
    return sub;
  }

  async function cancel(user: User, subscriptionId: string) {
    const sub = await requireManageable(user, subscriptionId);
    if (sub.scheduledChange === "cancel") throw new AppError(409, "This subscription is already set to end.");
    await deps.paddle.cancelAtPeriodEnd(subscriptionId);
  }

  /** The retention offer: the next cycle at $9.99, once per user. */
  async function claimDiscount(user: User, subscriptionId: string) {
    const sub = await requireManageable(user, subscriptionId);
    if (user.claimedDiscount || sub.discountId === deps.retentionDiscountId) {
      throw new AppError(409, "You have already claimed this offer.");
    }
    if (sub.status === "trialing") throw new AppError(409, "The offer applies once your trial has ended.");
    await deps.paddle.applyDiscountNextCycle({ subscriptionId, discountId: deps.retentionDiscountId });
    // Recorded now, not only when Paddle's update arrives, so a second click cannot claim twice.
    await db.user.update({ where: { id: user.id }, data: { claimedDiscount: true }, select: { id: true } });
  }

  async function extendTrial(user: User, subscriptionId: string) {
    const sub = await requireManageable(user, subscriptionId);
    if (sub.status !== "trialing") throw new AppError(409, "Only a trial can be extended.");
    if (user.extendedTrial || sub.trialExtended) throw new AppError(409, "Your trial has already been extended once.");
    const from = sub.nextBilledAt ?? sub.currentPeriodEnd ?? new Date();
    const nextBilledAt = new Date(from.getTime() + OFFERS.trialExtensionDays * DAY_MS);
    await deps.paddle.extendTrial({ subscriptionId, nextBilledAt });
    await db.$transaction([
      db.user.update({ where: { id: user.id }, data: { extendedTrial: true }, select: { id: true } }),
      db.billingSubscription.update({ where: { id: subscriptionId }, data: { trialExtended: true }, select: { id: true } }),
    ]);
    return { nextBilledAt: nextBilledAt.toISOString() };
  }

  async function paymentMethodChange(user: User, subscriptionId: string) {
    await requireManageable(user, subscriptionId);
    return deps.paddle.paymentMethodChangeTransaction(subscriptionId);
  }

  // ---------- the local test checkout (no Paddle keys) ----------

  function localPrice(plan: Plan): LocalPrice {
    return {
      id: planPriceId(plan),
      name: plan.name,
      unitAmountCents: plan.priceCents,
      currencyCode: plan.currency,
      interval: plan.billing === "monthly" ? "month" : null,
      trialDays: plan.trialDays,
    };
  }

  async function deliver(eventType: string, data: unknown, occurredAt = new Date()) {
    const raw = JSON.stringify(eventJson(eventType, data, occurredAt));
    const result = await handleWebhook(raw, signWebhook(raw, deps.webhookSecret));
    if (result.status !== 200) throw new Error(`local webhook ${eventType} answered ${result.status}`);
  }

  function requireLocal() {
    if (!deps.localCheckout) throw new AppError(403, "The local test checkout is turned off on this server.");
  }

  /**
   * Completes a purchase as Paddle would, by sending signed subscription and transaction
   * notifications through handleWebhook. Returns when the user's account reflects it.
   */
  async function completeLocalCheckout(user: User, planId: string) {
    requireLocal();
    const plan = findPlan(planId);
    if (!plan) throw new AppError(400, "Choose one of the plans.");
    const customerId = user.paddleCustomerId ?? `ctm_local_${randomUUID().slice(0, 12)}`;
    const now = new Date();
    const price = localPrice(plan);
    if (plan.billing === "monthly") {
      const current = await overview(user);
      if (current.subscription && current.subscription.status !== "canceled") {
        throw new AppError(409, "You already have a subscription. Manage it on the billing page.");
      }
      const subId = `sub_local_${randomUUID().slice(0, 12)}`;
      const trial = plan.trialDays > 0;
      const end = new Date(now.getTime() + (trial ? plan.trialDays * DAY_MS : 30 * DAY_MS));
      const snapshot: SubscriptionSnapshot = {
        id: subId,
        status: trial ? "trialing" : "active",
        customerId,
        userId: user.id,
        price,
        startedAt: now,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        nextBilledAt: end,
        scheduledChange: null,
        discountId: null,
      };
      await deliver("subscription.created", subscriptionJson(snapshot, now), now);
      await deliver(
        "transaction.completed",
        transactionJson(
          { id: `txn_local_${randomUUID().slice(0, 12)}`, status: "completed", customerId, userId: user.id, subscriptionId: subId, origin: "web", price, totalCents: trial ? 0 : plan.priceCents },
          now,
        ),
        now,
      );
      return { subscriptionId: subId };
    }
    if (user.innerCircle) throw new AppError(409, "You are already in the Inner Circle.");
    await deliver(
      "transaction.completed",
      transactionJson(
        { id: `txn_local_${randomUUID().slice(0, 12)}`, status: "completed", customerId, userId: user.id, subscriptionId: null, origin: "web", price, totalCents: plan.priceCents },
        now,
      ),
      now,
    );
    return { subscriptionId: null };
  }

  /** Our copy of a subscription in Paddle's terms, so the local port can report a change as Paddle would. */
  async function snapshotById(subscriptionId: string): Promise<SubscriptionSnapshot> {
    const row = await db.billingSubscription.findUnique({
      where: { id: subscriptionId },
      select: {
        id: true,
        userId: true,
        status: true,
        customerId: true,
        planId: true,
        createdAt: true,
        currentPeriodStart: true,
        currentPeriodEnd: true,
        nextBilledAt: true,
        scheduledChange: true,
        scheduledChangeAt: true,
        discountId: true,
      },
    });
    const plan = findPlan(row?.planId);
    if (!row || !plan) throw new AppError(404, "No subscription with that id belongs to you.");
    const now = new Date();
    return {
      id: row.id,
      status: row.status as SubscriptionStatus,
      customerId: row.customerId ?? `ctm_local_${row.userId}`,
      userId: row.userId,
      price: localPrice(plan),
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

  /** Test tools of the local checkout: what Paddle would do at the end of a period. */
  async function simulate(user: User, subscriptionId: string, what: "renew" | "payment-failed" | "end") {
    requireLocal();
    await ownSubscription(user, subscriptionId);
    const s = await snapshotById(subscriptionId);
    const now = new Date();
    if (what === "renew") {
      if (s.scheduledChange?.action === "cancel") return simulate(user, subscriptionId, "end");
      const start = s.currentPeriodEnd.getTime() > now.getTime() ? now : s.currentPeriodEnd;
      const end = new Date(start.getTime() + 30 * DAY_MS);
      const next = { ...s, status: "active" as const, currentPeriodStart: start, currentPeriodEnd: end, nextBilledAt: end };
      const total = s.discountId ? OFFERS.retentionDiscount.priceCents : s.price.unitAmountCents;
      await deliver("subscription.updated", subscriptionJson(next, now), now);
      await deliver(
        "transaction.completed",
        transactionJson(
          { id: `txn_local_${randomUUID().slice(0, 12)}`, status: "completed", customerId: s.customerId, userId: user.id, subscriptionId, origin: "subscription_recurring", price: s.price, totalCents: total },
          now,
        ),
        now,
      );
    } else if (what === "payment-failed") {
      const txn = { id: `txn_local_${randomUUID().slice(0, 12)}`, status: "past_due", customerId: s.customerId, userId: user.id, subscriptionId, origin: "subscription_recurring" as const, price: s.price, totalCents: s.price.unitAmountCents };
      await deliver("subscription.past_due", subscriptionJson({ ...s, status: "past_due" }, now), now);
      await deliver("transaction.payment_failed", transactionJson(txn, now), new Date(now.getTime() + 1));
    } else {
      await deliver("subscription.canceled", subscriptionJson({ ...s, status: "canceled", scheduledChange: null, canceledAt: now, nextBilledAt: null }, now), now);
    }
  }

  return {
    handleWebhook,
    applyEvent,
    getPlanDetails,
    previewPrices,
    previewDiscount,
    overview,
    cancel,
    claimDiscount,
    extendTrial,
    paymentMethodChange,
    completeLocalCheckout,
    simulate,
    snapshotById,
    deliver,
  };
}

export type Billing = ReturnType<typeof createBilling>;
