// Billing, part one: Paddle's notifications. Owns verifying them (the SDK's signature check plus our
// bound on future-dated signatures), deduplicating them by event id, ignoring stale ones (at the full
// precision of occurred_at, docs/decisions/043), and applying each in one transaction: the subscription
// and transaction rows, the user's flags derived from all of the user's subscription rows and the
// primary one's charges (app/domain/billing/billing.ts), and the credits a period or purchase grants.
// Nothing else writes subscription state; the account part (billing-account.server.ts) reads it. The
// user's flags follow from the rows through billing-flags.server.ts, the rule both rails share.
import { creditPackForPrice, currentAmount, isStale, planForPrice, type PriceIds } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import { CREDIT_FEATURES, findPlan, UNLIMITED_CREDITS } from "~/domain/billing/plans";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import { WebhookSignatureError, type BillingEvent, type PaddleNotificationReader } from "~/integrations/paddle.server";
import { childLogger } from "~/logger.server";
import { endSubscriptionCredits, grantCreditPack, grantTrialCredits, resetPeriodCredits } from "~/services/billing/allowances.server";
import { readMarketingFlags, syncUserFlags, writeBillingLifecycle } from "~/services/billing/flags.server";
import { applyAllowance } from "~/services/billing/credits.server";
import { outboxWritten } from "~/services/outbox.server";

const log = childLogger("billing");

export type WebhookOutcome = "applied" | "duplicate" | "stale" | "unmatched" | "ignored";

export interface BillingEventsDeps {
  db: Db;
  prices: PriceIds;
  webhookSecret: string;
  retentionDiscountId: string;
  /** Verifies a notification's Paddle-Signature and reads its event (the Paddle adapter's readPaddleNotification). */
  readNotification: PaddleNotificationReader;
}

export function createBillingEvents(deps: BillingEventsDeps) {
  const { db, prices } = deps;

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

  /**
   * The retention offer is once per user: any verified notification that shows it on the user's
   * subscription or charge marks it claimed for good, even one too old to change anything else (a
   * newer update without the discount may have arrived first), and nothing ever clears it.
   */
  async function markClaimedDiscount(tx: DbClient, userId: string, discountId: string | null) {
    if (discountId !== deps.retentionDiscountId) return;
    await tx.user.updateMany({ where: { id: userId, claimedDiscount: false }, data: { claimedDiscount: true } });
  }

  /**
   * The subscription's current amount, derived from its row and its stored charges (currentAmount in
   * app/domain/billing/billing.ts) rather than from whichever notification came last, so the result is the
   * same whatever order they arrive in. Called after every change to either.
   */
  async function refreshAmount(tx: DbClient, subscriptionId: string) {
    const sub = await tx.billingSubscription.findUnique({
      where: { id: subscriptionId },
      select: {
        userId: true,
        priceId: true,
        currentPeriodStart: true,
        priceAmountCents: true,
        priceCurrencyCode: true,
        recurringTotalCents: true,
        currencyCode: true,
      },
    });
    if (!sub) return; // its charges are picked up when the subscription's own notification arrives
    const charges = await tx.billingTransaction.findMany({
      where: { subscriptionId, userId: sub.userId },
      select: {
        id: true,
        status: true,
        origin: true,
        priceIds: true,
        totalCents: true,
        currencyCode: true,
        billingPeriodStart: true,
        discountId: true,
        lastEventAt: true,
        lastEventAtExact: true,
      },
    });
    // Rows written before the price's own amount was kept (migration 010) fall back to what they hold.
    const legacy = sub.priceAmountCents === null;
    const amount = currentAmount(
      {
        priceId: sub.priceId,
        currentPeriodStart: sub.currentPeriodStart,
        priceAmountCents: legacy ? sub.recurringTotalCents : sub.priceAmountCents,
        priceCurrencyCode: legacy ? sub.currencyCode : sub.priceCurrencyCode,
      },
      charges.map((c) => ({ ...c, priceIds: c.priceIds ? c.priceIds.split(",") : [] })),
    );
    const next = { recurringTotalCents: amount?.cents ?? null, currencyCode: amount?.currencyCode ?? null };
    if (next.recurringTotalCents !== sub.recurringTotalCents || next.currencyCode !== sub.currencyCode) {
      await tx.billingSubscription.update({ where: { id: subscriptionId }, data: next, select: { id: true } });
    }
  }

  async function applySubscription(tx: DbClient, event: Extract<BillingEvent, { kind: "subscription" }>) {
    const s = event.subscription;
    const userId = await resolveUserId(tx, { userId: event.userId, subscriptionId: s.id, customerId: s.customerId });
    if (!userId) return { outcome: "unmatched" as const, userId: null };
    const existing = await tx.billingSubscription.findUnique({
      where: { id: s.id },
      select: { lastEventAt: true, lastEventAtExact: true, userId: true, priceId: true, currentPeriodStart: true },
    });
    if (existing && existing.userId !== userId) return { outcome: "unmatched" as const, userId: null };
    await markClaimedDiscount(tx, userId, s.discountId);
    if (isStale(existing && (existing.lastEventAtExact ?? existing.lastEventAt), event.occurredAtExact)) {
      return { outcome: "stale" as const, userId };
    }

    const planId = planForPrice(prices, s.priceId);
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
      priceAmountCents: s.recurringTotalCents,
      priceCurrencyCode: s.currencyCode,
      lastEventAt: event.occurredAt,
      lastEventAtExact: event.occurredAtExact,
    };
    await tx.billingSubscription.upsert({
      where: { id: s.id },
      create: { id: s.id, userId, ...data },
      update: data,
      select: { id: true },
    });
    await refreshAmount(tx, s.id);
    const primary = await syncUserFlags(tx, userId);

    // Credits follow the subscription that decides the user's access, and never touch Inner Circle's
    // unlimited balances.
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { innerCircle: true } });
    const plan = findPlan(planId);
    if (primary?.id === s.id && !user.innerCircle) {
      if (s.status === "trialing" && plan) {
        await grantTrialCredits(tx, userId, plan, s.id);
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
        await resetPeriodCredits(tx, userId, plan, period, (feature) =>
          planChanged ? `plan-change:${event.eventId}:${feature}` : `period:${s.id}:${period}:${s.priceId}:${feature}`,
        );
      } else if (s.status === "canceled") {
        await endSubscriptionCredits(tx, userId, `canceled:${s.id}`);
      }
    }
    return { outcome: "applied" as const, userId };
  }

  async function applyTransaction(tx: DbClient, event: Extract<BillingEvent, { kind: "transaction" }>) {
    const t = event.transaction;
    const userId = await resolveUserId(tx, { userId: event.userId, subscriptionId: t.subscriptionId, customerId: t.customerId });
    if (!userId) return { outcome: "unmatched" as const, userId: null };
    await markClaimedDiscount(tx, userId, t.discountId);
    const existing = await tx.billingTransaction.findUnique({ where: { id: t.id }, select: { lastEventAt: true, lastEventAtExact: true } });
    if (isStale(existing && (existing.lastEventAtExact ?? existing.lastEventAt), event.occurredAtExact)) {
      return { outcome: "stale" as const, userId };
    }
    const data = {
      status: t.status,
      subscriptionId: t.subscriptionId,
      origin: t.origin,
      priceIds: t.priceIds.join(","),
      totalCents: t.totalCents,
      currencyCode: t.currencyCode,
      billingPeriodStart: t.billingPeriodStart,
      discountId: t.discountId,
      lastEventAt: event.occurredAt,
      lastEventAtExact: event.occurredAtExact,
      lastEventType: event.eventType,
    };
    await tx.billingTransaction.upsert({
      where: { id: t.id },
      create: { id: t.id, userId, ...data },
      update: data,
      select: { id: true },
    });

    const userData: { innerCircle?: true; boughtCaseStudy?: true; paddleCustomerId?: string } = {};
    const paid = t.status === "completed" || t.status === "paid";
    if (paid && t.priceIds.includes(prices.innerCircle)) userData.innerCircle = true;
    if (paid && t.priceIds.includes(prices.caseStudy)) userData.boughtCaseStudy = true;
    // What the subscriber pays per cycle follows from all the subscription's charges (refreshAmount).
    if (t.subscriptionId) await refreshAmount(tx, t.subscriptionId);
    if (t.customerId) {
      const u = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { paddleCustomerId: true } });
      if (!u.paddleCustomerId) userData.paddleCustomerId = t.customerId;
    }
    if (Object.keys(userData).length > 0) {
      await tx.user.update({ where: { id: userId }, data: userData, select: { id: true } });
    }
    // A charge of the subscription failing or paid may change chargeDeclined (paymentDeclined: only
    // renewals, changes billed now and one-time charges count, newest first; a card change never does).
    if (t.subscriptionId) await syncUserFlags(tx, userId);
    // A credit pack paid for: its credits on top of the balance, once per transaction and pack.
    if (paid) {
      for (const priceId of t.priceIds) {
        const pack = creditPackForPrice(prices, priceId);
        if (pack) await grantCreditPack(tx, userId, pack, `paddle-credits:${t.id}:${pack.id}`, `Bought: ${pack.name}`);
      }
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
    let wroteOutbox = false;
    const outcome = await writeTransaction(db, async (tx) => {
      const seen = await tx.paddleEvent.findUnique({ where: { eventId: event.eventId }, select: { eventId: true } });
      if (seen) return "duplicate";
      // The flags before the change, for the lifecycle events it causes (trial started, cancelled, ...).
      const hint =
        event.kind === "subscription"
          ? { userId: event.userId, subscriptionId: event.subscription.id, customerId: event.subscription.customerId }
          : event.kind === "transaction"
            ? { userId: event.userId, subscriptionId: event.transaction.subscriptionId, customerId: event.transaction.customerId }
            : null;
      const hintedUserId = hint ? await resolveUserId(tx, hint) : null;
      const before = hintedUserId ? await readMarketingFlags(tx, hintedUserId) : null;
      let result: { outcome: WebhookOutcome; userId: string | null } = { outcome: "ignored", userId: null };
      if (event.kind === "subscription") result = await applySubscription(tx, event);
      else if (event.kind === "transaction") result = await applyTransaction(tx, event);
      if (result.outcome === "applied" && result.userId && before && result.userId === hintedUserId) {
        wroteOutbox = await writeBillingLifecycle(tx, result.userId, before, `paddle:${event.eventId}`);
      }
      await tx.paddleEvent.create({
        data: {
          eventId: event.eventId,
          eventType: event.eventType,
          occurredAt: event.occurredAt,
          occurredAtExact: event.occurredAtExact,
          entityId: event.kind === "subscription" ? event.subscription.id : event.kind === "transaction" ? event.transaction.id : null,
          userId: result.userId,
          outcome: result.outcome,
        },
        select: { eventId: true },
      });
      return result.outcome;
    });
    if (wroteOutbox) outboxWritten();
    return outcome;
  }

  /**
   * POST /webhooks/paddle: `{ ok: true, outcome }` once the event is applied (or was already, or is stale).
   * AppError 401 for a bad, missing, expired or future-dated signature and 400 when a correctly signed body
   * cannot be read (nothing changes); a failure while applying is thrown on as it is (the error handler's
   * 500, logged), so Paddle retries.
   */
  async function handleWebhook(rawBody: string, signature: string | null): Promise<{ ok: true; outcome: WebhookOutcome }> {
    let event: BillingEvent;
    try {
      event = await deps.readNotification(rawBody, deps.webhookSecret, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        log.warn({ reason: error.reason }, "paddle notification refused: Paddle-Signature");
        throw new AppError(401, error.message);
      }
      // Authentic but unreadable (e.g. a payload shape this SDK version does not know): nothing is
      // applied, and a non-2xx answer keeps it in Paddle's retries until a fix is deployed.
      log.error({ err: error }, "paddle notification could not be read");
      throw new AppError(400, "The notification could not be read.");
    }
    try {
      const outcome = await applyEvent(event);
      log.info({ eventId: event.eventId, eventType: event.eventType, outcome }, "paddle event");
      return { ok: true, outcome };
    } catch (error) {
      log.error({ err: error, eventId: event.eventId, eventType: event.eventType }, "paddle event failed; Paddle will retry");
      throw error;
    }
  }

  return { handleWebhook, applyEvent, syncUserFlags };
}

export type BillingEvents = ReturnType<typeof createBillingEvents>;
