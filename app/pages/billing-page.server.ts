// The Billing & credits page's loader and action, shared by the site (/dashboard/billing) and the
// embedded app (/app/billing). Each surface's route authenticates its own way and hands the user over;
// from there both run exactly this. The rules are the billing and credits services'.
// One difference: Paddle's overlay cannot open inside Shopify admin's iframe, so the embedded page
// changes the card on the site, in a new tab (docs/decisions/016), and never asks for a transaction here.
import { AppError } from "~/domain/errors";
import { data } from "@remix-run/node";
import { z } from "zod";
import type { Surface } from "~/domain/embedded-paths";
import { CREDIT_FEATURES } from "~/domain/plans";
import { publicEnv } from "~/env.server";
import { readForm } from "~/pages/http.server";
import type { User } from "~/services/auth.server";
import { billing, credits, products } from "~/services/index.server";
import { productInReason } from "~/domain/credit-history";

export async function loadBillingPage(request: Request, user: User) {
  const [overview, balances, history] = await Promise.all([
    billing.overview(user),
    credits.getBalances(user.id),
    credits.ledger(user.id, 100),
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
  return {
    user: { id: user.id, email: user.email, paddleCustomerId: user.paddleCustomerId, innerCircle: user.innerCircle },
    overview,
    balances,
    history: await withProductTitles(history),
    offer,
    paddle,
    local: !paddle,
  };
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
}

const done = (message: string | null, transactionId: string | null = null): Outcome => ({
  error: null,
  message,
  transactionId,
});
const failed = (status: number, error: string) =>
  data<Outcome>({ error, message: null, transactionId: null }, { status });

export async function billingPageAction(request: Request, user: User, surface: Surface) {
  const form = await readForm(request);
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) return failed(400, "Unknown action.");
  const paddleConfigured = Boolean(publicEnv().paddle);
  const overview = await billing.overview(user);
  const subId = overview.subscription?.id;
  try {
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
    if (!subId) return failed(404, "You have no subscription.");
    switch (intent.data) {
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
