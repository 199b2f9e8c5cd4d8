import { AppError } from "~/domain/errors";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, List, Text, TextField } from "@shopify/polaris";
import { planStatusLine } from "~/domain/billing";
import { chargeSchedule } from "~/domain/checkout-terms";
import { findPlan, formatUsd, isValidPlanChoice } from "~/domain/plans";
import { getEnv, localCheckoutEnabled, publicEnv } from "~/env.server";
import { requireUser } from "~/pages/site-session.server";
import { billing } from "~/services/index.server";
import { clientCountry, clientIp } from "~/pages/http.server";
import { PaddleCheckoutButton } from "~/ui/paddle-checkout";

export const meta: MetaFunction = () => [{ title: "Checkout · Winning Products" }];

const SUCCESS_URL = "/dashboard?location=dashboard&checkout=success";

function choice(request: Request) {
  const url = new URL(request.url);
  const plan = findPlan(url.searchParams.get("plan"));
  if (!plan || !isValidPlanChoice(plan.id, url.searchParams.get("billing"))) throw redirect("/choose-plan");
  return plan;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
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

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const plan = choice(request);
  try {
    await billing.completeLocalCheckout(user, plan.id);
  } catch (error) {
    if (error instanceof AppError) return data({ error: error.message }, { status: error.status });
    throw error;
  }
  return redirect(SUCCESS_URL);
}

const BILLING_PAGE = "/dashboard/billing";

/** Someone who already has what this page sells: where it is managed, not a checkout summary. */
function AlreadyOwned({
  plan,
  current,
  email,
}: {
  plan: string;
  current: { planName: string; line: string } | null;
  email: string;
}) {
  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {current ? "You already have a subscription" : "You are already in the Inner Circle"}
          </Text>
          {current ? (
            <BlockStack gap="200">
              <Text as="p">
                <span data-testid="current-plan">{`${current.planName}. ${current.line}`}</span>
              </Text>
              <Text as="p" tone="subdued">
                {`Your plan is managed on Billing & credits: change your card, cancel or resume there.${plan === current.planName ? "" : ` To move to ${plan}, cancel first and choose it once your plan has ended.`}`}
              </Text>
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              Your lifetime access is already on this account; there is nothing more to pay.
            </Text>
          )}
          <div>
            <Button url={BILLING_PAGE} variant="primary">
              Go to Billing &amp; credits
            </Button>
          </div>
          <Text as="p" tone="subdued">
            Account: {email}
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}

export default function Pay() {
  const { plan, displayPrice, priceSource, paddle, localCheckout, user, alreadySubscribed, alreadyInnerCircle, current, schedule } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const trial = plan.trialDays > 0;

  if (alreadySubscribed || alreadyInnerCircle) {
    return <AlreadyOwned plan={plan.name} current={alreadySubscribed ? current : null} email={user.email} />;
  }

  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h1" variant="headingLg">
              {plan.name}
            </Text>
            {trial ? <Badge tone="info">{`${plan.trialDays}-day free trial`}</Badge> : null}
          </InlineStack>
          <InlineStack align="space-between">
            <Text as="span">Due today</Text>
            <Text as="span" fontWeight="semibold">
              {trial ? "$0.00" : displayPrice}
            </Text>
          </InlineStack>
          {trial ? (
            <InlineStack align="space-between">
              <Text as="span">{`Then every month, from day ${plan.trialDays + 1}`}</Text>
              <Text as="span">{displayPrice}</Text>
            </InlineStack>
          ) : null}
          <Text as="p" tone="subdued">
            {priceSource === "paddle"
              ? "Price shown in your currency, before tax; the checkout adds tax where it applies."
              : `Prices in USD (${formatUsd(plan.priceCents)}), before tax.`}
          </Text>
          <BlockStack gap="100">
            <Text as="h2" variant="headingSm">
              What is charged when
            </Text>
            <List>
              {schedule.lines.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
            <Text as="p" tone="subdued">
              {schedule.refundTerms} Full terms: <Link to="/refunds">Refund policy</Link> · <Link to="/terms">Terms</Link> ·{" "}
              <Link to="/privacy">Privacy</Link>.
            </Text>
          </BlockStack>
          <Text as="h2" variant="headingSm">
            Included
          </Text>
          <List>
            {plan.features.map((f) => (
              <List.Item key={f}>{f}</List.Item>
            ))}
          </List>
          {actionData?.error ? (
            <Banner tone="critical">
              <p>{actionData.error}</p>
            </Banner>
          ) : null}
          {paddle ? (
            <PaddleCheckoutButton
              clientToken={paddle.clientToken}
              environment={paddle.environment}
              customerId={paddle.customerId}
              userId={user.id}
              email={user.email}
              priceId={paddle.priceId}
              successUrl={SUCCESS_URL}
              label={trial ? "Start free trial" : `Pay ${displayPrice}`}
            />
          ) : !localCheckout ? (
            <Banner tone="critical" title="Checkout is not available">
              <p>This server has no Paddle keys and its local test checkout is turned off, so plans cannot be bought here.</p>
            </Banner>
          ) : (
            <Form method="post">
              <BlockStack gap="300">
                <Banner tone="warning" title="Test checkout">
                  <p>
                    This server has no Paddle keys, so this is a local test checkout: no card is charged and no money
                    moves. It completes the purchase with the same signed notifications Paddle would send.
                  </p>
                </Banner>
                <TextField label="Card number (test)" value="4242 4242 4242 4242" readOnly autoComplete="off" />
                <InlineStack gap="300" wrap={false}>
                  <TextField label="Expiry (test)" value="12/30" readOnly autoComplete="off" />
                  <TextField label="CVC (test)" value="100" readOnly autoComplete="off" />
                </InlineStack>
                <Button submit variant="primary" size="large" fullWidth loading={navigation.state !== "idle"}>
                  {trial ? "Start free trial (test)" : `Pay ${displayPrice} (test)`}
                </Button>
              </BlockStack>
            </Form>
          )}
          <Text as="p" tone="subdued">
            Account: {user.email}
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
