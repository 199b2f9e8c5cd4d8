// The Billing & credits page's loader and action, shared by the site (/dashboard/billing) and the
// embedded app (/app/billing). Each surface's route authenticates its own way and hands the user over;
// from there both run exactly this. The rules are the billing and credits services'.
// One difference: Paddle's overlay cannot open inside Shopify admin's iframe, so the embedded page
// changes the card on the site, in a new tab (docs/decisions/016), and never asks for a transaction here.
// With SHOPIFY_BILLING=on the embedded page sells through Shopify instead (docs/decisions/034): plans,
// plan changes, cancelling, the trial extension and credit packs go through Shopify's Billing API, and
// the merchant's return from Shopify's confirmation page (?charge_id=) is read back here.
import { AppError } from "~/domain/errors";
import { data } from "@remix-run/node";
import { z } from "zod";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { creditPackRefusal, creditPacksAllowed, planSwitchTargets, planView } from "~/domain/billing/billing";
import { CREDIT_FEATURES, CREDIT_TOP_UPS, findPlan, findTopUp, OFFERS } from "~/domain/billing/plans";
import { publicEnv, shopifyBillingOn } from "~/env.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { billing, credits, products, shopifyBilling } from "~/services/index.server";
import { productInReason } from "~/domain/billing/credit-history";

/**
 * Inside the admin with the Shopify rail: reads back what Shopify holds for the shop (the merchant may
 * come back from a confirmation page, or Shopify may have ended a plan), and says what happened to the
 * charge named by ?charge_id=. Shopify being unreachable leaves our records as they are.
 */
async function syncShopify(request: Request, user: User, shop: string): Promise<{ tone: "success" | "warning"; text: string } | null> {
  const chargeId = new URL(request.url).searchParams.get("charge_id");
  const hasRows = (await shopifyBilling.rails(user)).shopifyShop !== null;
  if (!chargeId && !hasRows) return null;
  try {
    const { activeIds, purchaseIds } = await shopifyBilling.syncFromShopify(user, shop);
    if (!chargeId || !/^\d{1,20}$/.test(chargeId)) return null;
    if (activeIds.includes(`gid://shopify/AppSubscription/${chargeId}`)) {
      return { tone: "success", text: "Your plan is on. It is billed on your Shopify invoice." };
    }
    if (purchaseIds.includes(`gid://shopify/AppPurchaseOneTime/${chargeId}`)) {
      return { tone: "success", text: "Your credits were added. They are billed on your Shopify invoice." };
    }
    return { tone: "warning", text: "The charge was not approved in Shopify, so nothing was charged and nothing changed." };
  } catch (error) {
    if (error instanceof AppError) return { tone: "warning", text: error.message };
    throw error;
  }
}

export async function loadBillingPage(request: Request, user: User, shop: string | null = null) {
  // The rail inside Shopify admin: Shopify's Billing API with SHOPIFY_BILLING=on, else Paddle on the site.
  const shopifyRail = Boolean(shop) && shopifyBillingOn();
  const shopifyNotice = shopifyRail && shop ? await syncShopify(request, user, shop) : null;
  const [overview, balances, history, rails] = await Promise.all([
    billing.overview(user),
    credits.getBalances(user.id),
    credits.ledger(user.id, 100),
    shopifyBilling.rails(user),
  ]);
  const step = new URL(request.url).searchParams.get("step");
  let offer: { total: string; currencyCode: string } | null = null;
  // No offer for a plan already set to end: its page offers "Resume subscription" instead.
  if (
    step === "cancel" &&
    overview.subscription &&
    overview.canClaimDiscount &&
    overview.subscription.scheduledChange !== "cancel"
  ) {
    try {
      const preview = await billing.previewDiscount(user, overview.subscription.id);
      offer = { total: preview.formattedTotals.total, currencyCode: preview.currencyCode };
    } catch {
      // Seed §8: a failed preview keeps the default price.
      offer = { total: overview.retentionPrice, currencyCode: "USD" };
    }
  }
  const paddle = publicEnv().paddle;
  const sub = overview.subscription;
  // The seed's extendedTrial, offered where it makes sense: on the way out of a trial, once.
  const trialExtension =
    step === "cancel" && sub && (sub.provider === "shopify") === shopifyRail && planView(sub, overview).cancelStep.extendTrial
      ? { days: OFFERS.trialExtensionDays, until: addDays(sub.nextBilledAt ?? sub.currentPeriodEnd, OFFERS.trialExtensionDays) }
      : null;
  // Basic <-> Pro where this page changes the plan: a Paddle plan outside the Shopify rail (the Shopify
  // rail's plan cards switch a Shopify plan).
  const planSwitch =
    sub && sub.provider !== "shopify" && !shopifyRail
      ? planSwitchTargets(sub).map((p) => ({ id: p.id, name: p.name, priceCents: p.priceCents }))
      : [];
  // Extra credits where the plan allows, sold on this surface's rail: Shopify's invoice with the Shopify
  // rail, Paddle's overlay on the site (the embedded page hands over to the site, where the overlay can
  // open), and the local test checkout without Paddle keys.
  const packsOn = creditPacksAllowed({ innerCircle: user.innerCircle, subscription: sub })
    ? shopifyRail
      ? ("shopify" as const)
      : !paddle
        ? ("local" as const)
        : shop
          ? ("handoff" as const)
          : ("paddle" as const)
    : null;
  const creditPacks = packsOn
    ? { via: packsOn, packs: packsOn === "paddle" ? await billing.creditPackPrices() : CREDIT_TOP_UPS.map((p) => ({ ...p, priceId: null })) }
    : null;
  return {
    user: { id: user.id, email: user.email, paddleCustomerId: user.paddleCustomerId, innerCircle: user.innerCircle },
    overview,
    balances,
    history: await withProductTitles(history),
    offer,
    paddle,
    local: !paddle,
    trialExtension,
    planSwitch,
    creditPacks,
    shopify: { rail: shopifyRail, notice: shopifyNotice, rails, topUps: creditPacks?.via === "shopify" ? CREDIT_TOP_UPS : [] },
  };
}

const DAY_MS = 24 * 3600_000;
function addDays(iso: string | null, days: number): string | null {
  return iso ? new Date(new Date(iso).getTime() + days * DAY_MS).toISOString() : null;
}

/**
 * The ledger rows for the page: a row whose reason names a product carries that product's title
 * (the reason itself only has its objectID, which means nothing to a person) and its objectID for a link.
 */
async function withProductTitles(history: Awaited<ReturnType<typeof credits.ledger>>) {
  const named = history.map((h) => productInReason(h.reason));
  const titles = await products.productTitles(named.flatMap((n) => (n ? [n.objectID] : [])));
  return history.map((h, i) => {
    const n = named[i];
    const title = n ? titles.get(n.objectID) : undefined;
    return {
      ...h,
      createdAt: h.createdAt.toISOString(),
      product: n && title ? { objectID: n.objectID, title, before: n.before, after: n.after } : null,
    };
  });
}

const Intent = z.enum([
  "change-plan",
  "buy-credits",
  "shopify-subscribe",
  "shopify-top-up",
  "cancel-duplicate",
  "extend-trial",
  "cancel",
  "resume",
  "claim-discount",
  "update-payment",
  "simulate-renew",
  "simulate-payment-failed",
  "simulate-end",
  "spend",
]);

interface Outcome {
  error: string | null;
  message: string | null;
  transactionId: string | null;
  /** Shopify's confirmation page: the embedded page sends the admin's top frame there. */
  topUrl?: string | null;
}

const done = (message: string | null, transactionId: string | null = null): Outcome => ({
  error: null,
  message,
  transactionId,
});
const failed = (status: number, error: string) =>
  data<Outcome>({ error, message: null, transactionId: null }, { status });

/** The Shopify rail's own actions (docs/decisions/034); null when the intent is not one of them. */
async function shopifyAction(
  intent: z.infer<typeof Intent>,
  form: FormData,
  user: User,
  shop: string | null,
  overview: Awaited<ReturnType<typeof billing.overview>>,
): Promise<Outcome | ReturnType<typeof failed> | null> {
  const rail = Boolean(shop) && shopifyBillingOn();
  const sub = overview.subscription;
  if (intent === "shopify-subscribe" || intent === "shopify-top-up") {
    if (!rail || !shop) return failed(403, "Plans are sold through Shopify only inside Shopify admin.");
    if (intent === "shopify-subscribe") {
      const plan = findPlan(String(form.get("plan") ?? ""));
      if (!plan || plan.billing !== "monthly") return failed(400, "Choose the Basic or the Pro plan.");
      const { confirmationUrl } = await shopifyBilling.subscribe(user, shop, plan.id);
      return { ...done(`Approve the ${plan.name} plan in Shopify to start it.`), topUrl: confirmationUrl };
    }
    const pack = findTopUp(String(form.get("pack") ?? ""));
    if (!pack) return failed(400, "Choose one of the credit packs.");
    if (!creditPacksAllowed({ innerCircle: user.innerCircle, subscription: sub })) return failed(409, creditPackRefusal(user));
    const { confirmationUrl } = await shopifyBilling.buyTopUp(user, shop, pack.id);
    return { ...done(`Approve ${pack.name} in Shopify to add them.`), topUrl: confirmationUrl };
  }
  if (intent === "cancel-duplicate") {
    const rails = await shopifyBilling.rails(user);
    if (!rails.duplicate) return failed(409, "You do not have two paid subscriptions.");
    const which = form.get("provider");
    if (which === "shopify") {
      await shopifyBilling.cancel(user, rails.duplicate.shopify);
      return done("The subscription billed through Shopify is cancelled. Your plan continues through Paddle.");
    }
    if (which === "paddle") {
      await billing.cancel(user, rails.duplicate.paddle);
      return done("The subscription billed through Paddle will end at the end of its period. Your plan continues through Shopify.");
    }
    return failed(400, "Choose which subscription to cancel.");
  }
  // A Shopify subscription is changed inside Shopify admin (the site says so and links there): cancel and
  // the trial extension go through Shopify; elsewhere the Paddle actions refuse it with a sentence.
  if (!rail || sub?.provider !== "shopify") return null;
  if (intent === "cancel") {
    await shopifyBilling.cancel(user, sub.id);
    return done("Your subscription is cancelled in Shopify; nothing more is charged.");
  }
  if (intent === "extend-trial") {
    const r = await shopifyBilling.extendTrial(user, sub.id);
    return done(`Your trial now ends on ${r.nextBilledAt.slice(0, 10)}.`);
  }
  if (intent === "change-plan" && shop) {
    // A Shopify plan is switched by a new subscription that replaces it once approved in Shopify.
    const plan = findPlan(String(form.get("plan") ?? ""));
    if (!plan || plan.billing !== "monthly") return failed(400, "Choose the Basic or the Pro plan.");
    const { confirmationUrl } = await shopifyBilling.subscribe(user, shop, plan.id);
    return { ...done(`Approve the ${plan.name} plan in Shopify to switch.`), topUrl: confirmationUrl };
  }
  return null;
}

export async function billingPageAction(request: Request, user: User, surface: Surface, shop: string | null = null) {
  const form = await readForm(request);
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) return failed(400, "Unknown action.");
  const paddleConfigured = Boolean(publicEnv().paddle);
  const overview = await billing.overview(user);
  const subId = overview.subscription?.id;
  try {
    const viaShopify = await shopifyAction(intent.data, form, user, surface === "embedded" ? shop : null, overview);
    if (viaShopify) return viaShopify;
    if (intent.data === "spend") {
      if (paddleConfigured) return failed(403, "Test tools are off on this server.");
      const feature = z.enum(CREDIT_FEATURES).safeParse(form.get("feature"));
      if (!feature.success) return failed(400, "Unknown feature.");
      const result = await credits.spend({
        userId: user.id,
        feature: feature.data,
        reason: "Test use from the billing page",
      });
      return done(`Used ${result.cost} ${feature.data} credits.`);
    }
    if (intent.data === "buy-credits") {
      // Paddle's overlay sells packs on the site (the page opens it with the pack's price); only the
      // local test checkout completes a purchase from here.
      if (paddleConfigured) return failed(409, "Credit packs are paid in Paddle's checkout: use the pack's button on Billing & credits on the website.");
      const pack = await billing.completeLocalCreditPack(user, String(form.get("pack") ?? ""));
      return done(`${pack.name} added (test checkout).`);
    }
    if (!subId) return failed(404, "You have no subscription.");
    switch (intent.data) {
      case "change-plan": {
        const r = await billing.changePlan(user, subId, String(form.get("plan") ?? ""));
        return done(
          r.trialing
            ? `You are on ${r.plan} now. Your trial goes on; the first charge is ${r.plan}'s price.`
            : `You are on ${r.plan} now, with its credits. Paddle charges the difference for the rest of this period.`,
        );
      }
      case "extend-trial": {
        const r = await billing.extendTrial(user, subId);
        return done(`Your trial now ends on ${r.nextBilledAt.slice(0, 10)}.`);
      }
      case "cancel":
        await billing.cancel(user, subId);
        return done("Your subscription will end at the end of this billing period.");
      case "resume": {
        const r = await billing.resume(user, subId);
        const day = r.renewsAt?.slice(0, 10) ?? "the end of this period";
        return done(
          r.status === "trialing"
            ? `Your plan is back on: your trial ends on ${day} and the first charge is on that day.`
            : `Your plan is back on and renews on ${day}.`,
        );
      }
      case "claim-discount":
        await billing.claimDiscount(user, subId);
        return done("Offer claimed: your next cycle is discounted and your plan stays on.");
      case "update-payment": {
        if (paddleConfigured && surface === "embedded") {
          return failed(
            409,
            "The card is changed on the website: use “Update payment method”, which opens it in a new tab.",
          );
        }
        const { transactionId } = await billing.paymentMethodChange(user, subId);
        return paddleConfigured ? done(null, transactionId) : done("Payment method updated (test checkout).");
      }
      case "simulate-renew":
        await billing.simulate(user, subId, "renew");
        return done("Renewed (test): a new period started and credits were reset.");
      case "simulate-payment-failed":
        await billing.simulate(user, subId, "payment-failed");
        return done("A failed renewal was simulated.");
      case "simulate-end":
        await billing.simulate(user, subId, "end");
        return done("The subscription ended (test).");
    }
  } catch (error) {
    if (error instanceof AppError) return failed(error.status, error.message);
    throw error;
  }
}
