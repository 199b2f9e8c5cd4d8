// A merchant's Shopify subscription (docs/decisions/034): asking Shopify for one (a plan change is a new
// subscription replacing the running one), reading back what the merchant approved, cancelling,
// extending the trial once, and ending a shop's rows on uninstall. Refused while the plan is billed
// through Paddle or to another store, so nobody pays twice.
import { AppError } from "~/domain/errors";
import { findPlan, OFFERS } from "~/domain/billing/plans";
import { billingErrorSentence, decimalAmount, shopifySubscriptionName } from "~/domain/billing/shopify-billing";
import { writeTransaction, type DbClient } from "~/db.server";
import type { User } from "~/services/accounts/auth.server";
import { ask, factsFrom, log, ON, rowsOf, type ShopifyBillingRuntime } from "~/services/shopify-billing/shared.server";
import { applyFacts, endRow } from "~/services/shopify-billing/state.server";
import { grantTopUp } from "~/services/shopify-billing/top-ups.server";

/**
 * Asks Shopify for a subscription to a monthly plan and returns the confirmation page to send the top
 * frame to. A plan change is a new subscription that replaces the running one (Shopify's way); one
 * trial per account. Refused while the plan is billed through Paddle or to another store, so nobody
 * pays twice.
 */
export async function subscribe(rt: ShopifyBillingRuntime, user: User, shop: string, planId: string): Promise<{ confirmationUrl: string }> {
  const plan = findPlan(planId);
  if (!plan || plan.billing !== "monthly") throw new AppError(400, "Choose the Basic or the Pro plan.");
  const rows = await rowsOf(rt.db, user.id);
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
  const admin = await rt.adminFor(shop);
  const result = await ask("start the subscription", () =>
    rt.api.appSubscriptionCreate(admin, {
      name: shopifySubscriptionName(plan),
      priceAmount: decimalAmount(plan.priceCents),
      currencyCode: plan.currency,
      returnUrl: rt.returnUrlFor(shop),
      test: rt.test,
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
export async function syncFromShopify(rt: ShopifyBillingRuntime, user: User, shop: string): Promise<{ activeIds: string[]; purchaseIds: string[] }> {
  const admin = await rt.adminFor(shop);
  const installation = await ask("read your subscription", () => rt.api.currentAppInstallation(admin));
  const at = rt.now();
  const activeIds = installation.activeSubscriptions.map((s) => s.id);
  const approved = installation.oneTimePurchases.nodes.filter((p) => p.status.toUpperCase() === "ACTIVE");
  await writeTransaction(rt.db, async (tx) => {
    for (const sub of installation.activeSubscriptions) {
      await applyFacts(rt, tx, { userId: user.id, shop, facts: factsFrom(sub), at });
    }
    const gone = (await rowsOf(tx, user.id)).filter(
      (r) => r.provider === "shopify" && r.shop === shop && ON.has(r.status) && !activeIds.includes(r.id),
    );
    for (const row of gone) await endRow(rt, tx, user.id, row.id, at);
    for (const p of approved) await grantTopUp(tx, user.id, p.id, p.name);
  });
  return { activeIds, purchaseIds: approved.map((p) => p.id) };
}

/** The user's own Shopify row that is still on (404 otherwise, 409 for a Paddle one). */
async function ownShopifyRow(rt: ShopifyBillingRuntime, user: Pick<User, "id">, subscriptionId: string) {
  const row = await rt.db.billingSubscription.findFirst({
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
export async function cancel(rt: ShopifyBillingRuntime, user: Pick<User, "id">, subscriptionId: string) {
  const row = await ownShopifyRow(rt, user, subscriptionId);
  const admin = await rt.adminFor(row.shop);
  const result = await ask("cancel the subscription", () => rt.api.appSubscriptionCancel(admin, row.id));
  if (result.userErrors.length > 0) throw new AppError(422, billingErrorSentence(result.userErrors, "change"));
  await writeTransaction(rt.db, (tx) => endRow(rt, tx, user.id, row.id, rt.now()));
}

/** Extends a running trial once by the catalogue's days (appSubscriptionTrialExtend). */
export async function extendTrial(rt: ShopifyBillingRuntime, user: User, subscriptionId: string) {
  const row = await ownShopifyRow(rt, user, subscriptionId);
  if (row.status !== "trialing") throw new AppError(409, "Only a trial can be extended.");
  if (user.extendedTrial || row.trialExtended) throw new AppError(409, "Your trial has already been extended once.");
  const admin = await rt.adminFor(row.shop);
  const result = await ask("extend the trial", () =>
    rt.api.appSubscriptionTrialExtend(admin, row.id, OFFERS.trialExtensionDays),
  );
  if (result.userErrors.length > 0 || !result.appSubscription) {
    throw new AppError(422, billingErrorSentence(result.userErrors, "change"));
  }
  const sub = result.appSubscription;
  const at = rt.now();
  await writeTransaction(rt.db, async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { extendedTrial: true }, select: { id: true } });
    await tx.billingSubscription.update({ where: { id: row.id }, data: { trialExtended: true }, select: { id: true } });
    await applyFacts(rt, tx, { userId: user.id, shop: row.shop, facts: factsFrom(sub), at });
  });
  const ends = new Date(new Date(sub.createdAt).getTime() + sub.trialDays * 24 * 3600_000);
  return { nextBilledAt: ends.toISOString() };
}

/**
 * app/uninstalled: Shopify cancels the shop's charges itself; our rows for the shop end now, and the
 * user's flags and credits follow. A Paddle subscription is not touched. Inside `tx` when given (the
 * webhook's own transaction), else one transaction per row.
 */
export async function endShop(rt: ShopifyBillingRuntime, shop: string, tx?: DbClient) {
  const rows = await (tx ?? rt.db).billingSubscription.findMany({
    where: { shop, provider: "shopify", status: { in: [...ON] } },
    select: { id: true, userId: true },
  });
  const at = rt.now();
  for (const row of rows) {
    if (tx) await endRow(rt, tx, row.userId, row.id, at);
    else await writeTransaction(rt.db, (t) => endRow(rt, t, row.userId, row.id, at));
  }
  return { shopifySubscriptionsEnded: rows.length };
}
