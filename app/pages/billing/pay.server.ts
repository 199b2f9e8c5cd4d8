// /pay?plan=&billing= (site only): the checkout page for one plan. The loader picks the plan from the URL
// (anything else -> /choose-plan), previews its price for the visitor's country, and says whether the
// user already has it; the action completes the local test checkout (decision 042).
import { data, redirect } from "@remix-run/node";
import { CHECKOUT_SUCCESS_URL, planStatusLine } from "~/domain/billing/billing";
import { AppError } from "~/domain/errors";
import { findPlan, isValidPlanChoice } from "~/domain/billing/plans";
import { getEnv, localCheckoutEnabled, publicEnv } from "~/env.server";
import { clientCountry, clientIp } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { billing } from "~/services/index.server";
import { chargeSchedule } from "~/domain/billing/checkout-terms";

function choice(request: Request) {
  const url = new URL(request.url);
  const plan = findPlan(url.searchParams.get("plan"));
  if (!plan || !isValidPlanChoice(plan.id, url.searchParams.get("billing"))) throw redirect("/choose-plan");
  return plan;
}

export async function loadPayPage(request: Request, user: User) {
  const plan = choice(request);
  const prices = await billing.previewPrices({ customerIp: clientIp(request), countryCode: clientCountry(request) });
  const env = getEnv();
  const paddle = publicEnv(env).paddle;
  const priceId =
    plan.id === "basic" ? env.PADDLE_PRICE_BASIC : plan.id === "pro" ? env.PADDLE_PRICE_PRO : env.PADDLE_PRICE_INNER_CIRCLE;
  const overview = await billing.overview(user);
  const current = overview.subscription;
  const alreadySubscribed = plan.billing === "monthly" && Boolean(current && current.status !== "canceled");
  return {
    plan,
    displayPrice: prices[plan.priceKey],
    priceSource: prices.source,
    paddle: paddle ? { ...paddle, priceId, customerId: user.paddleCustomerId } : null,
    // Without Paddle keys, the local test checkout runs only where docs/decisions/042 allows it.
    localCheckout: localCheckoutEnabled(env),
    user: { id: user.id, email: user.email },
    alreadySubscribed,
    // Where the plan they already have stands, instead of a checkout summary for one they cannot buy.
    current: alreadySubscribed && current ? { planName: current.planName, line: planStatusLine(current) } : null,
    alreadyInnerCircle: plan.id === "inner-circle" && user.innerCircle,
    // What is charged when, from today (decision 051).
    schedule: chargeSchedule(plan, prices[plan.priceKey], new Date()),
  };
}

export async function payPageAction(request: Request, user: User) {
  const plan = choice(request);
  try {
    await billing.completeLocalCheckout(user, plan.id);
  } catch (error) {
    if (error instanceof AppError) return data({ error: error.message }, { status: error.status });
    throw error;
  }
  return redirect(CHECKOUT_SUCCESS_URL);
}

