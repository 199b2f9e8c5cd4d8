// Billing, the Shopify rail (docs/decisions/034): plans and credit top-ups sold inside Shopify admin
// through Shopify's Billing API, on the shop's offline session. Owns asking Shopify for a charge
// (subscribe, change plan, cancel, extend the trial, top up), reading back what the merchant approved
// (currentAppInstallation), applying app_subscriptions/update and app_purchases_one_time/update, and
// ending a shop's subscription state on uninstall. What it writes is a BillingSubscription row with
// provider "shopify" on the user the shop is linked to; the user's flags come from all their rows
// through the same syncUserFlags as Paddle's, and credits follow the same allowances.
import { createHash } from "node:crypto";
import { AppError } from "~/domain/errors";
import { isStale, primarySubscription, type SubscriptionStatus } from "~/domain/billing";
import { exactTimeOf } from "~/domain/event-time";
import { CREDIT_FEATURES, CREDIT_TOP_UPS, findPlan, findTopUp, OFFERS, UNLIMITED_THRESHOLD, type Plan } from "~/domain/plans";
import {
  AppPurchaseWebhookSchema,
  AppSubscriptionWebhookSchema,
  billingErrorSentence,
  centsOf,
  decimalAmount,
  rowFromShopify,
  shopifySubscriptionName,
  topUpPurchaseName,
  trialDaysFor,
  type ShopifySubscriptionFacts,
} from "~/domain/shopify-billing";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import type { ShopifyAdmin } from "~/integrations/shopify-admin.server";
import * as api from "~/integrations/shopify-billing.server";
import { childLogger } from "~/logger.server";
import type { User } from "~/services/auth.server";
import { readMarketingFlags, writeBillingLifecycle } from "~/services/billing-events.server";
import { applyAllowance, expireAll } from "~/services/credits.server";
import { outboxWritten } from "~/services/outbox.server";

const log = childLogger("shopify-billing");

export interface ShopifyBillingDeps {
  db: Db;
  /** The Admin GraphQL client for a shop, on its offline session (AppError when the shop has none). */
  adminFor: (shop: string) => Promise<ShopifyAdmin>;
  /** Recomputes a user's flags from all their subscription rows (billing-events' syncUserFlags). */
  syncUserFlags: (tx: DbClient, userId: string) => Promise<{ id: string } | null>;
  /** Where Shopify sends the merchant back after the confirmation page (/app/billing inside the admin). */
  returnUrlFor: (shop: string) => string;
  /** Test charges (never real money): everywhere but production. */
  test: boolean;
  now?: () => Date;
}

export type ShopifyWebhookOutcome = "applied" | "stale" | "unmatched" | "ignored";

const ON = new Set(["active", "trialing", "past_due"]);

function factsFrom(sub: api.ShopifyAppSubscription): ShopifySubscriptionFacts {
  const price = sub.lineItems[0]?.plan.pricingDetails.price;
  return {
    id: sub.id,
    name: sub.name,
    status: sub.status,
    createdAt: new Date(sub.createdAt),
    trialDays: sub.trialDays,
    priceCents: centsOf(price?.amount),
    currencyCode: price?.currencyCode ?? null,
  };
}

export function createShopifyBilling(deps: ShopifyBillingDeps) {
  /**
   * The user's flags recomputed from their rows, and the marketing lifecycle events the change causes (trial
   * started, subscription started or cancelled, ...) written to the outbox in the same transaction, exactly as
   * a Paddle notification does (docs/decisions/032). `changeKey` makes the events' dedupe keys unique.
   */
  async function syncFlags(tx: DbClient, userId: string, changeKey: string) {
    const before = await readMarketingFlags(tx, userId);
    await deps.syncUserFlags(tx, userId);
    // The deliverer is woken after the commit; before it, it finds nothing and the minute sweep catches up.
    if (before && (await writeBillingLifecycle(tx, userId, before, `shopify:${changeKey}`))) setImmediate(outboxWritten);
  }

  const { db } = deps;
  const now = () => deps.now?.() ?? new Date();

  function unreachable(what: string, error: unknown): AppError {
    log.warn({ err: error }, `${what} failed`);
    return new AppError(502, `Shopify could not be reached to ${what}. Nothing was charged; try again in a minute.`, {
      cause: String(error),
    });
  }

  /** Shopify's answer to a call, or a 502 sentence when Shopify could not be reached or refused the call. */
  async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unreachable(what, error);
    }
  }

  /** The shop's Admin API client for a webhook: null when the shop has no session (uninstalled), 502 when it cannot be had. */
  async function adminOrNull(shop: string, what: string): Promise<ShopifyAdmin | null> {
    try {
      return await deps.adminFor(shop);
    } catch (error) {
      if (error instanceof AppError) return null;
      throw unreachable(what, error);
    }
  }

  // ---------- applying a subscription's state (webhook, read-back, our own calls) ----------

  /**
   * Writes one Shopify subscription's state as of `at` onto `userId`, unless an equal or newer state is
   * already held (out-of-order webhooks), then recomputes the user's flags and applies the allowances
   * exactly as billing-events does for Paddle. Runs inside the caller's transaction.
   */
  async function applyFacts(
    tx: DbClient,
    input: { userId: string; shop: string; facts: ShopifySubscriptionFacts; at: Date },
  ): Promise<ShopifyWebhookOutcome> {
    const { userId, shop, facts, at } = input;
    const existing = await tx.billingSubscription.findUnique({
      where: { id: facts.id },
      select: { userId: true, lastEventAt: true, provider: true, trialExtended: true },
    });
    if (existing && (existing.userId !== userId || existing.provider !== "shopify")) return "unmatched";
    if (isStale(existing?.lastEventAt, at)) return "stale";
    const state = rowFromShopify(facts, at);
    if (!state) return "ignored"; // not approved yet: nothing is charged, nothing changes
    const data = {
      provider: "shopify",
      shop,
      status: state.status,
      planId: state.planId,
      priceId: state.planId ? `shopify:${state.planId}` : null,
      billingInterval: "month",
      currentPeriodStart: state.currentPeriodStart,
      currentPeriodEnd: state.currentPeriodEnd,
      nextBilledAt: state.nextBilledAt,
      scheduledChange: null,
      scheduledChangeAt: null,
      priceAmountCents: state.priceAmountCents,
      priceCurrencyCode: state.priceCurrencyCode,
      recurringTotalCents: state.priceAmountCents,
      currencyCode: state.priceCurrencyCode,
      trialExtended: state.trialExtended || Boolean(existing?.trialExtended),
      lastEventAt: at,
      // Shopify's times are milliseconds; the exact column is what rows are ordered by (docs/decisions/043).
      lastEventAtExact: exactTimeOf(at),
    };
    await tx.billingSubscription.upsert({
      where: { id: facts.id },
      create: { id: facts.id, userId, ...data },
      update: data,
      select: { id: true },
    });
    await syncFlags(tx, userId, `${facts.id}:${state.status}:${at.getTime()}`);
    await grantForPrimary(tx, userId);
    return "applied";
  }

  /**
   * Credits follow the subscription that decides the user's access, as for Paddle, but applied for
   * that subscription whichever row's webhook changed it: when Pro expires before the Basic it replaced
   * is reported cancelled, the Basic row decides for a moment and then nothing does, and the balance
   * must end where an in-order delivery ends it. Every grant is keyed, so applying it again is a no-op.
   * A Paddle row deciding is left to Paddle's notifications.
   */
  async function grantForPrimary(tx: DbClient, userId: string) {
    const rows = await tx.billingSubscription.findMany({
      where: { userId },
      select: { id: true, provider: true, status: true, planId: true, customerId: true, scheduledChange: true, currentPeriodStart: true, lastEventAt: true, lastEventAtExact: true },
    });
    const primary = primarySubscription(rows);
    if (!primary || primary.provider !== "shopify") return;
    const periodStart = primary.currentPeriodStart ?? primary.lastEventAt;
    // Ending is keyed on every row's state, not only on the ended row: if a stale "on" row decided for a
    // while and topped the balance up, the end applies again once nothing is on. Emptying is harmless to repeat.
    const endKey = rows
      .map((r) => `${r.id}=${r.status}@${r.lastEventAt.getTime()}`)
      .sort()
      .join(",");
    await grantFor(tx, userId, primary.id, primary.status as SubscriptionStatus, findPlan(primary.planId), periodStart, primary.id, endKey);
  }

  /** The allowances of billing-events' applySubscription, for the subscription that decides the user's access. */
  async function grantFor(
    tx: DbClient,
    userId: string,
    subscriptionId: string,
    status: SubscriptionStatus,
    plan: Plan | undefined,
    periodStart: Date,
    primaryId: string | null,
    endKey = "",
  ) {
    if (primaryId !== subscriptionId) return;
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { innerCircle: true } });
    if (user.innerCircle) return;
    if (status === "trialing" && plan) {
      for (const feature of CREDIT_FEATURES) {
        await applyAllowance(tx, {
          userId,
          feature,
          allowance: plan.trialCredits[feature],
          idempotencyKey: `trial:${subscriptionId}:${feature}`,
          reason: `${plan.name} trial started`,
          mode: "top-up",
        });
      }
    } else if ((status === "active" || status === "past_due") && plan) {
      const period = periodStart.toISOString();
      for (const feature of CREDIT_FEATURES) {
        await applyAllowance(tx, {
          userId,
          feature,
          allowance: plan.credits[feature],
          idempotencyKey: `period:${subscriptionId}:${period}:shopify:${plan.id}:${feature}`,
          reason: `${plan.name} credits for the period from ${period.slice(0, 10)}`,
          mode: "reset",
        });
      }
    } else if (status === "canceled") {
      await expireAll(tx, {
        userId,
        idempotencyKey: `canceled:${subscriptionId}${endKey ? `:${createHash("sha256").update(endKey).digest("base64url").slice(0, 22)}` : ""}`,
        reason: "Subscription ended",
      });
    }
  }

  /** The user a shop's charge belongs to: the one its rows already name, else the shop's linked user. */
  async function ownerOf(tx: DbClient, shop: string, subscriptionId: string | null): Promise<string | null> {
    if (subscriptionId) {
      const row = await tx.billingSubscription.findUnique({ where: { id: subscriptionId }, select: { userId: true } });
      if (row) return row.userId;
    }
    const store = await tx.shopifyStore.findUnique({ where: { shop }, select: { userId: true, connected: true } });
    return store?.connected ? store.userId : null;
  }

  // ---------- webhooks ----------

  /**
   * What the shop's Shopify says of a subscription that is on (ACTIVE or FROZEN): whether
   * currentAppInstallation.activeSubscriptions lists it, and its trial's length (the webhook does not
   * carry it: a replacement has none; an extension adds days). "not-asked" for a subscription that is
   * not on, or when the shop has no session (uninstalled). When Shopify cannot be asked, a 502 (AppError),
   * so the webhook fails and Shopify retries.
   */
  async function liveSubscription(
    shop: string,
    id: string,
    status: string,
  ): Promise<{ listed: boolean; trialDays: number | null } | "not-asked"> {
    if (!["ACTIVE", "FROZEN"].includes(status.toUpperCase())) return "not-asked";
    const admin = await adminOrNull(shop, "read the subscription");
    if (!admin) return "not-asked";
    const installation = await ask("read the subscription", () => api.currentAppInstallation(admin));
    const live = installation.activeSubscriptions.find((sub) => sub.id === id);
    return { listed: Boolean(live), trialDays: live?.trialDays ?? null };
  }

  /**
   * app_subscriptions/update (HMAC verified, once per webhook id and body: the route). The body names
   * the subscription but only the shop's GID, which we do not store, so the subscription ties it to
   * the shop (docs/decisions/041): a row we hold for it must be the shop's (else 401, nothing changes),
   * and one we do not hold yet is only attached to the shop when it is on and the shop's own Shopify
   * lists it. Applied in one transaction; `updated_at` orders deliveries, so an older one arriving late
   * changes nothing. A body that is not the documented shape is a 400 (AppError).
   */
  async function applySubscriptionWebhook(shop: string, payload: unknown): Promise<ShopifyWebhookOutcome> {
    const parsed = AppSubscriptionWebhookSchema.safeParse(payload);
    if (!parsed.success) throw new AppError(400, "The app_subscriptions/update body is not the documented shape.");
    const s = parsed.data.app_subscription;
    const held = await db.billingSubscription.findUnique({ where: { id: s.admin_graphql_api_id }, select: { shop: true } });
    if (held && held.shop !== shop) {
      throw new AppError(401, "The signed body names a subscription that is not this shop's; nothing was changed.", {
        cause: `X-Shopify-Shop-Domain ${shop}, subscription ${s.admin_graphql_api_id} of ${held.shop ?? "a Paddle customer"}`,
      });
    }
    const live = await liveSubscription(shop, s.admin_graphql_api_id, s.status);
    if (!held && live !== "not-asked" && !live.listed) {
      log.warn({ shop, subscription: s.admin_graphql_api_id, status: s.status }, "app subscription update ignored: the shop's Shopify does not list it");
      return "unmatched";
    }
    const trialDays = live === "not-asked" ? null : live.trialDays;
    const outcome = await writeTransaction(db, async (tx) => {
      const userId = await ownerOf(tx, shop, s.admin_graphql_api_id);
      if (!userId) return "unmatched" as const;
      const existing = await tx.billingSubscription.findUnique({
        where: { id: s.admin_graphql_api_id },
        select: { trialExtended: true },
      });
      return applyFacts(tx, {
        userId,
        shop,
        at: new Date(s.updated_at),
        facts: {
          id: s.admin_graphql_api_id,
          name: s.name,
          status: s.status,
          createdAt: new Date(s.created_at),
          trialDays: trialDays ?? trialDaysFor(s.name, Boolean(existing?.trialExtended)),
          priceCents: centsOf(s.price ?? null),
          currencyCode: s.currency ?? null,
        },
      });
    });
    log.info({ shop, subscription: s.admin_graphql_api_id, status: s.status, outcome }, "app subscription update");
    return outcome;
  }

  /**
   * app_purchases_one_time/update: an approved top-up grants its credits (once, whichever of this and
   * the return comes first). The body names the purchase and only the shop's GID, so the purchase is
   * granted to the header's shop only when that shop's Shopify lists it as approved (docs/decisions/041):
   * another shop's signed body sent with this shop's header grants nothing.
   */
  async function applyPurchaseWebhook(shop: string, payload: unknown): Promise<ShopifyWebhookOutcome> {
    const parsed = AppPurchaseWebhookSchema.safeParse(payload);
    if (!parsed.success) throw new AppError(400, "The app_purchases_one_time/update body is not the documented shape.");
    const p = parsed.data.app_purchase_one_time;
    if (p.status.toUpperCase() !== "ACTIVE") return "ignored";
    const admin = await adminOrNull(shop, "confirm the purchase");
    if (!admin) return "unmatched"; // no session: the app is not installed there
    const installation = await ask("confirm the purchase", () => api.currentAppInstallation(admin));
    const listed = installation.oneTimePurchases.nodes.find((n) => n.id === p.admin_graphql_api_id && n.status.toUpperCase() === "ACTIVE");
    if (!listed) {
      log.warn({ shop, purchase: p.admin_graphql_api_id }, "app purchase update ignored: the shop's Shopify does not list it as approved");
      return "unmatched";
    }
    return writeTransaction(db, async (tx) => {
      const userId = await ownerOf(tx, shop, null);
      if (!userId) return "unmatched" as const;
      return (await grantTopUp(tx, userId, listed.id, listed.name)) ? "applied" : "ignored";
    });
  }

  // ---------- top-ups ----------

  /**
   * Adds a top-up's credits once per purchase id: the ledger's unique idempotency key makes a second
   * grant (webhook and return both seen) a no-op. Returns whether anything was granted.
   */
  async function grantTopUp(tx: DbClient, userId: string, purchaseId: string, name: string): Promise<boolean> {
    const topUp = CREDIT_TOP_UPS.find((t) => topUpPurchaseName(t.name) === name);
    if (!topUp) return false;
    const key = `shopify-topup:${purchaseId}`;
    const seen = await tx.creditLedger.findUnique({ where: { idempotencyKey: key }, select: { id: true } });
    if (seen) return false;
    const balance = await tx.creditBalance.findUnique({
      where: { userId_feature: { userId, feature: topUp.feature } },
      select: { balance: true },
    });
    const before = balance?.balance ?? 0;
    if (before > UNLIMITED_THRESHOLD) return false; // Inner Circle: nothing to add to
    await tx.creditLedger.create({
      data: {
        userId,
        feature: topUp.feature,
        kind: "grant",
        amount: topUp.credits,
        cost: 0,
        balanceAfter: before + topUp.credits,
        idempotencyKey: key,
        reason: `Bought in Shopify: ${topUp.name}`,
      },
      select: { id: true },
    });
    return true;
  }

  /** Starts a top-up: Shopify's confirmation page for a one-time charge; credits come once it is approved. */
  async function buyTopUp(user: User, shop: string, topUpId: string): Promise<{ confirmationUrl: string }> {
    const topUp = findTopUp(topUpId);
    if (!topUp) throw new AppError(400, "Choose one of the credit packs.");
    if (user.innerCircle) throw new AppError(409, "Inner Circle credits are unlimited; there is nothing to top up.");
    const admin = await deps.adminFor(shop);
    const result = await ask("start the purchase", () =>
      api.appPurchaseOneTimeCreate(admin, {
        name: topUpPurchaseName(topUp.name),
        priceAmount: decimalAmount(topUp.priceCents),
        currencyCode: "USD",
        returnUrl: deps.returnUrlFor(shop),
        test: deps.test,
      }),
    );
    if (result.userErrors.length > 0 || !result.confirmationUrl) {
      throw new AppError(422, billingErrorSentence(result.userErrors, "purchase"));
    }
    return { confirmationUrl: result.confirmationUrl };
  }

  // ---------- subscribing and changing plans ----------

  async function rowsOf(tx: DbClient | Db, userId: string) {
    return tx.billingSubscription.findMany({
      where: { userId },
      select: {
        id: true,
        provider: true,
        shop: true,
        status: true,
        planId: true,
        customerId: true,
        scheduledChange: true,
        currentPeriodStart: true,
        lastEventAt: true,
        lastEventAtExact: true,
        trialExtended: true,
      },
    });
  }

  /**
   * Asks Shopify for a subscription to a monthly plan and returns the confirmation page to send the top
   * frame to. A plan change is a new subscription that replaces the running one (Shopify's way); one
   * trial per account. Refused while the plan is billed through Paddle or to another store, so nobody
   * pays twice.
   */
  async function subscribe(user: User, shop: string, planId: string): Promise<{ confirmationUrl: string }> {
    const plan = findPlan(planId);
    if (!plan || plan.billing !== "monthly") throw new AppError(400, "Choose the Basic or the Pro plan.");
    const rows = await rowsOf(db, user.id);
    const on = rows.filter((r) => ON.has(r.status));
    const paddle = on.find((r) => r.provider !== "shopify");
    if (paddle) {
      throw new AppError(
        409,
        "Your plan is billed through Paddle on the Winning Products website. Change or cancel it there; subscribing here too would charge you twice.",
      );
    }
    const elsewhere = on.find((r) => r.shop !== shop);
    if (elsewhere) {
      throw new AppError(
        409,
        `Your plan is billed to ${elsewhere.shop ?? "another store"} through Shopify. Change it from that store's admin, so you are not charged twice.`,
      );
    }
    const current = on.find((r) => r.shop === shop);
    if (current?.planId === plan.id) throw new AppError(409, `You are already on ${plan.name}.`);
    const hadTrial = rows.length > 0;
    const admin = await deps.adminFor(shop);
    const result = await ask("start the subscription", () =>
      api.appSubscriptionCreate(admin, {
        name: shopifySubscriptionName(plan),
        priceAmount: decimalAmount(plan.priceCents),
        currencyCode: plan.currency,
        returnUrl: deps.returnUrlFor(shop),
        test: deps.test,
        trialDays: hadTrial ? 0 : plan.trialDays,
        // Upgrades take effect at once, downgrades at the end of the paid cycle (Shopify's STANDARD).
        replacementBehavior: "STANDARD",
      }),
    );
    if (result.userErrors.length > 0 || !result.confirmationUrl) {
      throw new AppError(422, billingErrorSentence(result.userErrors, "subscription"));
    }
    log.info({ shop, userId: user.id, plan: plan.id, replaces: current?.id ?? null }, "shopify subscription requested");
    return { confirmationUrl: result.confirmationUrl };
  }

  /**
   * Reads what Shopify holds for the shop (after the confirmation page, and when the billing page opens)
   * and applies it as of now: every active subscription, and our rows for this shop that Shopify no
   * longer lists as active end. Approved top-ups grant their credits. Returns the active ids, so the page
   * can tell an approved charge from a declined one.
   */
  async function syncFromShopify(user: User, shop: string): Promise<{ activeIds: string[]; purchaseIds: string[] }> {
    const admin = await deps.adminFor(shop);
    const installation = await ask("read your subscription", () => api.currentAppInstallation(admin));
    const at = now();
    const activeIds = installation.activeSubscriptions.map((s) => s.id);
    const approved = installation.oneTimePurchases.nodes.filter((p) => p.status.toUpperCase() === "ACTIVE");
    await writeTransaction(db, async (tx) => {
      for (const sub of installation.activeSubscriptions) {
        await applyFacts(tx, { userId: user.id, shop, facts: factsFrom(sub), at });
      }
      const gone = (await rowsOf(tx, user.id)).filter(
        (r) => r.provider === "shopify" && r.shop === shop && ON.has(r.status) && !activeIds.includes(r.id),
      );
      for (const row of gone) await endRow(tx, user.id, row.id, at);
      for (const p of approved) await grantTopUp(tx, user.id, p.id, p.name);
    });
    return { activeIds, purchaseIds: approved.map((p) => p.id) };
  }

  /** Ends one of our Shopify rows as of `at` (cancelled, declined, expired or uninstalled). */
  async function endRow(tx: DbClient, userId: string, id: string, at: Date) {
    const row = await tx.billingSubscription.findUnique({ where: { id }, select: { lastEventAt: true } });
    if (!row || isStale(row.lastEventAt, at)) return;
    await tx.billingSubscription.update({
      where: { id },
      data: { status: "canceled", nextBilledAt: null, scheduledChange: null, scheduledChangeAt: null, lastEventAt: at, lastEventAtExact: exactTimeOf(at) },
      select: { id: true },
    });
    await syncFlags(tx, userId, `${id}:canceled:${at.getTime()}`);
    await grantForPrimary(tx, userId);
  }

  /** The user's own Shopify row that is still on (404 otherwise, 409 for a Paddle one). */
  async function ownShopifyRow(user: Pick<User, "id">, subscriptionId: string) {
    const row = await db.billingSubscription.findFirst({
      where: { id: subscriptionId, userId: user.id },
      select: { id: true, provider: true, shop: true, status: true, trialExtended: true, nextBilledAt: true },
    });
    if (!row) throw new AppError(404, "No subscription with that id belongs to you.");
    if (row.provider !== "shopify" || !row.shop) {
      throw new AppError(409, "This subscription is billed through Paddle; manage it on the Winning Products website.");
    }
    if (!ON.has(row.status)) throw new AppError(409, "This subscription has already ended.");
    return row as typeof row & { shop: string };
  }

  /** Cancels at Shopify (it ends at once there; nothing more is charged) and records it. */
  async function cancel(user: Pick<User, "id">, subscriptionId: string) {
    const row = await ownShopifyRow(user, subscriptionId);
    const admin = await deps.adminFor(row.shop);
    const result = await ask("cancel the subscription", () => api.appSubscriptionCancel(admin, row.id));
    if (result.userErrors.length > 0) throw new AppError(422, billingErrorSentence(result.userErrors, "change"));
    await writeTransaction(db, (tx) => endRow(tx, user.id, row.id, now()));
  }

  /** Extends a running trial once by the catalogue's days (appSubscriptionTrialExtend). */
  async function extendTrial(user: User, subscriptionId: string) {
    const row = await ownShopifyRow(user, subscriptionId);
    if (row.status !== "trialing") throw new AppError(409, "Only a trial can be extended.");
    if (user.extendedTrial || row.trialExtended) throw new AppError(409, "Your trial has already been extended once.");
    const admin = await deps.adminFor(row.shop);
    const result = await ask("extend the trial", () =>
      api.appSubscriptionTrialExtend(admin, row.id, OFFERS.trialExtensionDays),
    );
    if (result.userErrors.length > 0 || !result.appSubscription) {
      throw new AppError(422, billingErrorSentence(result.userErrors, "change"));
    }
    const sub = result.appSubscription;
    const at = now();
    await writeTransaction(db, async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { extendedTrial: true }, select: { id: true } });
      await tx.billingSubscription.update({ where: { id: row.id }, data: { trialExtended: true }, select: { id: true } });
      await applyFacts(tx, { userId: user.id, shop: row.shop, facts: factsFrom(sub), at });
    });
    const ends = new Date(new Date(sub.createdAt).getTime() + sub.trialDays * 24 * 3600_000);
    return { nextBilledAt: ends.toISOString() };
  }

  // ---------- uninstall ----------

  /**
   * app/uninstalled: Shopify cancels the shop's charges itself; our rows for the shop end now, and the
   * user's flags and credits follow. A Paddle subscription is not touched. Inside `tx` when given (the
   * webhook's own transaction), else one transaction per row.
   */
  async function endShop(shop: string, tx?: DbClient) {
    const rows = await (tx ?? db).billingSubscription.findMany({
      where: { shop, provider: "shopify", status: { in: [...ON] } },
      select: { id: true, userId: true },
    });
    const at = now();
    for (const row of rows) {
      if (tx) await endRow(tx, row.userId, row.id, at);
      else await writeTransaction(db, (t) => endRow(t, row.userId, row.id, at));
    }
    return { shopifySubscriptionsEnded: rows.length };
  }

  // ---------- what the page shows ----------

  /**
   * Where the user's plan is billed, for both surfaces: "paddle", "shopify" (with the store and its
   * billing page in Shopify admin) or null; and whether two paid subscriptions are on at once.
   */
  async function rails(user: User) {
    const rows = await rowsOf(db, user.id);
    const on = rows.filter((r) => ON.has(r.status));
    const primary = primarySubscription(rows);
    const shopify = on.filter((r) => r.provider === "shopify");
    const paddle = on.filter((r) => r.provider !== "shopify");
    const shopifyShop = shopify[0]?.shop ?? null;
    return {
      primaryProvider: primary && ON.has(primary.status) ? (primary.provider === "shopify" ? "shopify" : "paddle") : null,
      shopifyShop,
      /** The app's Billing & credits page in that store's Shopify admin, where the plan is changed. */
      shopifyManageUrl: shopifyShop ? deps.returnUrlFor(shopifyShop) : null,
      duplicate:
        shopify.length > 0 && paddle.length > 0
          ? { shopify: shopify[0].id, shopifyShop: shopify[0].shop, paddle: paddle[0].id }
          : null,
    };
  }

  return {
    subscribe,
    syncFromShopify,
    cancel,
    extendTrial,
    buyTopUp,
    applySubscriptionWebhook,
    applyPurchaseWebhook,
    endShop,
    rails,
  };
}

export type ShopifyBilling = ReturnType<typeof createShopifyBilling>;
