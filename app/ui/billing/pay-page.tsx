// The checkout page for one plan (/pay): the summary with its price and trial, Paddle's checkout or the
// local test checkout, or, for someone who already has what it sells, where that is managed. Data from
// app/pages/billing/pay.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, InlineStack, List, Text, TextField } from "@shopify/polaris";
import { formatUsd } from "~/domain/billing/plans";
import { PaddleCheckoutButton } from "~/ui/billing/paddle-checkout";
import { NarrowCard } from "~/ui/shared/narrow-card";
import { CHECKOUT_SUCCESS_URL } from "~/domain/billing/billing";
import type { loadPayPage } from "~/pages/billing/pay.server";

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
    <NarrowCard title={current ? "You already have a subscription" : "You are already in the Inner Circle"}>
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
    </NarrowCard>
  );
}

export function PayPage({ data, actionData }: { data: SerializeFrom<typeof loadPayPage>; actionData: { error: string } | undefined }) {
  const { plan, displayPrice, priceSource, paddle, localCheckout, user, alreadySubscribed, alreadyInnerCircle, current, schedule } = data;
  const navigation = useNavigation();
  const trial = plan.trialDays > 0;

  if (alreadySubscribed || alreadyInnerCircle) {
    return <AlreadyOwned plan={plan.name} current={alreadySubscribed ? current : null} email={user.email} />;
  }

  return (
    <NarrowCard title={plan.name} aside={trial ? <Badge tone="info">{`${plan.trialDays}-day free trial`}</Badge> : null}>
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
          successUrl={CHECKOUT_SUCCESS_URL}
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
    </NarrowCard>
  );
}
