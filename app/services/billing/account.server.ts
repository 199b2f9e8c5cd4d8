// Billing, part two: the account. Owns what a signed-in user reads and asks of their subscription
// (the seed's paddle-api calls, the billing page's overview, cancel with a retention offer, resume a
// scheduled cancellation, claim the discount, extend the trial once, switch Basic <-> Pro, buy a credit pack, change card) and the local test checkout's purchase and period-end
// tools. Changes are asked of Paddle (or the local stand-in); our state changes when Paddle's
// notification arrives (billing-events.server.ts). Every read is scoped to the user.
import { AppError } from "~/domain/errors";
import { creditPackPrice, creditPackRefusal, creditPacksAllowed, planSwitchRefusal, primarySubscription, type PriceIds } from "~/domain/billing/billing";
import { CREDIT_TOP_UPS, findPlan, findTopUp, formatUsd, OFFERS, PLANS } from "~/domain/billing/plans";
import type { Db } from "~/db.server";
import type { PaddlePort } from "~/integrations/paddle.server";
import type { LocalPaddle, LocalSimulation, StoredSubscription } from "~/integrations/paddle-local.server";
import { childLogger } from "~/logger.server";
import type { User } from "~/services/accounts/auth.server";

const log = childLogger("billing");
const DAY_MS = 24 * 3600_000;

export interface BillingAccountDeps {
  db: Db;
  paddle: PaddlePort;
  prices: PriceIds;
  retentionDiscountId: string;
  /** The local test checkout when this server allows it, else null (its actions answer 403). */
  localCheckout: LocalPaddle | null;
}

/** The fields of our copy of a subscription that the account's reads (and tests observing them) take. */
export const SUBSCRIPTION_FIELDS = {
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
  provider: true,
  shop: true,
} as const;

/** Our copy of a subscription in the shape the local stand-in for Paddle reads (any owner). */
export async function storedSubscription(db: Db, subscriptionId: string): Promise<StoredSubscription | null> {
  return db.billingSubscription.findUnique({
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
}

export function createBillingAccount(deps: BillingAccountDeps) {
  const { db, prices } = deps;

  // ---------- reads ----------

  async function ownSubscription(user: User, subscriptionId: string) {
    const sub = await db.billingSubscription.findFirst({
      where: { id: subscriptionId, userId: user.id },
      select: SUBSCRIPTION_FIELDS,
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
      select: { ...SUBSCRIPTION_FIELDS, customerId: true, lastEventAt: true, lastEventAtExact: true },
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
            // "paddle" or "shopify" (docs/decisions/034); a Shopify plan is changed in Shopify admin.
            provider: primary.provider,
            shop: primary.shop,
          }
        : null,
      // The retention offer is a Paddle discount: never offered on a Shopify subscription.
      canClaimDiscount: Boolean(
        primary && primary.provider === "paddle" && primary.status !== "canceled" && !user.claimedDiscount && primary.status !== "trialing",
      ),
      canExtendTrial: Boolean(primary && primary.status === "trialing" && !user.extendedTrial),
      retentionPrice: formatUsd(OFFERS.retentionDiscount.priceCents),
    };
  }

  // ---------- actions ----------

  async function requireManageable(user: User, subscriptionId: string) {
    const sub = await ownSubscription(user, subscriptionId);
    if (sub.provider === "shopify") {
      throw new AppError(
        409,
        "This plan is billed through Shopify. Change or cancel it in Shopify admin, on the Winning Products app's Billing & credits page.",
      );
    }
    if (sub.status === "canceled") throw new AppError(409, "This subscription has already ended.");
    return sub;
  }

  async function cancel(user: User, subscriptionId: string) {
    const sub = await requireManageable(user, subscriptionId);
    if (sub.scheduledChange === "cancel") throw new AppError(409, "This subscription is already set to end.");
    await deps.paddle.cancelAtPeriodEnd(subscriptionId);
  }

  /**
   * Withdraws the user's scheduled cancellation before the period ends, so the plan renews as before.
   * Like every change, our copy follows when Paddle's subscription.updated arrives.
   */
  async function resume(user: User, subscriptionId: string, now: Date = new Date()) {
    const sub = await requireManageable(user, subscriptionId);
    if (sub.scheduledChange !== "cancel") {
      throw new AppError(409, "This subscription is not set to end, so there is nothing to resume.");
    }
    if (sub.scheduledChangeAt && sub.scheduledChangeAt.getTime() <= now.getTime()) {
      throw new AppError(409, "This subscription has already ended. Choose a plan to subscribe again.");
    }
    await deps.paddle.resumeScheduledCancel(subscriptionId);
    const renewsAt = sub.nextBilledAt ?? sub.scheduledChangeAt ?? sub.currentPeriodEnd;
    return { status: sub.status, renewsAt: renewsAt?.toISOString() ?? null };
  }

  /**
   * Account deletion (app/services/accounts/account.server.ts, which has checked the subscription is the user's):
   * ends it now at Paddle, with no retention offer and no wait for the period end.
   */
  async function cancelNow(subscriptionId: string) {
    await deps.paddle.cancelNow(subscriptionId);
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

  /**
   * Switches a running Paddle subscription between the monthly plans (Basic <-> Pro). During the trial
   * nothing is charged and the trial goes on; after it Paddle prorates and charges the difference now.
   * The plan, its price and its credits follow when Paddle's subscription.updated arrives (billing-events:
   * a plan change within a period resets the balances to the new plan's allowance).
   */
  async function changePlan(user: User, subscriptionId: string, planId: string) {
    const sub = await requireManageable(user, subscriptionId);
    const refusal = planSwitchRefusal(sub, planId);
    if (refusal) throw new AppError(409, refusal);
    const plan = findPlan(planId)!;
    await deps.paddle.changePlan({ subscriptionId, priceId: plan.id === "pro" ? prices.pro : prices.basic, trialing: sub.status === "trialing" });
    return { plan: plan.name, trialing: sub.status === "trialing" };
  }

  /**
   * What buying a credit pack on the site needs: the pack's Paddle price for the checkout overlay, once the
   * user's plan allows extra credits. The credits come with Paddle's transaction.completed (billing-events).
   */
  async function creditPackCheckout(user: User, packId: string) {
    const pack = findTopUp(packId);
    const priceId = pack ? creditPackPrice(prices, pack.id) : null;
    if (!pack || !priceId) throw new AppError(400, "Choose one of the credit packs.");
    const { subscription } = await overview(user);
    if (!creditPacksAllowed({ innerCircle: user.innerCircle, subscription })) throw new AppError(409, creditPackRefusal(user));
    return { pack, priceId };
  }

  async function paymentMethodChange(user: User, subscriptionId: string) {
    await requireManageable(user, subscriptionId);
    return deps.paddle.paymentMethodChangeTransaction(subscriptionId);
  }

  // ---------- the local test checkout (no Paddle keys) ----------

  function requireLocal(): LocalPaddle {
    if (!deps.localCheckout) throw new AppError(403, "The local test checkout is turned off on this server.");
    return deps.localCheckout;
  }

  /**
   * Completes a purchase as Paddle would, by sending signed subscription and transaction
   * notifications through the webhook handler. Returns when the user's account reflects it.
   */
  async function completeLocalCheckout(user: User, planId: string) {
    const local = requireLocal();
    const plan = findPlan(planId);
    if (!plan) throw new AppError(400, "Choose one of the plans.");
    if (plan.billing === "monthly") {
      const current = await overview(user);
      if (current.subscription && current.subscription.status !== "canceled") {
        throw new AppError(409, "You already have a subscription. Manage it on the billing page.");
      }
    } else if (user.innerCircle) {
      throw new AppError(409, "You are already in the Inner Circle.");
    }
    return local.checkout({ userId: user.id, customerId: user.paddleCustomerId, planId: plan.id });
  }

  /** Every credit pack with its Paddle price, for the checkout overlay (packs without a price are left out). */
  async function creditPackPrices() {
    return CREDIT_TOP_UPS.flatMap((pack) => {
      const priceId = creditPackPrice(prices, pack.id);
      return priceId ? [{ ...pack, priceId }] : [];
    });
  }

  /** The local test checkout's credit pack purchase: completed at once, credits granted by the webhook handler. */
  async function completeLocalCreditPack(user: User, packId: string) {
    const local = requireLocal();
    const { pack } = await creditPackCheckout(user, packId);
    await local.buyCreditPack({ userId: user.id, customerId: user.paddleCustomerId, pack });
    return pack;
  }

  /** Test tools of the local checkout: what Paddle would do at the end of a period. */
  async function simulate(user: User, subscriptionId: string, what: LocalSimulation) {
    const local = requireLocal();
    const sub = await ownSubscription(user, subscriptionId);
    if (sub.provider === "shopify") throw new AppError(409, "The test tools stand in for Paddle; this plan is billed through Shopify.");
    await local.simulate(subscriptionId, what);
  }

  return {
    getPlanDetails,
    previewPrices,
    previewDiscount,
    overview,
    cancel,
    resume,
    cancelNow,
    claimDiscount,
    extendTrial,
    changePlan,
    creditPackCheckout,
    creditPackPrices,
    paymentMethodChange,
    completeLocalCheckout,
    completeLocalCreditPack,
    simulate,
  };
}

export type BillingAccount = ReturnType<typeof createBillingAccount>;
