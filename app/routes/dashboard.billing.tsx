import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineStack,
  Layout,
  Page,
  Text,
} from "@shopify/polaris";
import { z } from "zod";
import { CREDIT_FEATURES, featureLabel } from "~/domain/plans";
import { publicEnv } from "~/env.server";
import { BillingError } from "~/services/billing.server";
import { auth, billing, credits } from "~/services/index.server";
import { LineChart } from "~/ui/line-chart";
import { PaddleCheckoutButton } from "~/ui/paddle-checkout";

export const meta: MetaFunction = () => [{ title: "Billing & credits · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  const [overview, balances, history] = await Promise.all([
    billing.overview(user),
    credits.getBalances(user.id),
    credits.ledger(user.id, 100),
  ]);
  const step = new URL(request.url).searchParams.get("step");
  let offer: { total: string; currencyCode: string } | null = null;
  if (step === "cancel" && overview.subscription && overview.canClaimDiscount) {
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
    user: { id: user.id, email: user.email, paddleCustomerId: user.paddleCustomerId },
    overview,
    balances,
    history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })),
    offer,
    paddle,
    local: !paddle,
  };
}

const Intent = z.enum([
  "extend-trial",
  "cancel",
  "claim-discount",
  "update-payment",
  "simulate-renew",
  "simulate-payment-failed",
  "simulate-end",
  "spend",
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  const form = await request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) return data({ error: "Unknown action.", message: null, transactionId: null }, { status: 400 });
  const overview = await billing.overview(user);
  const subId = overview.subscription?.id;
  try {
    if (intent.data === "spend") {
      if (publicEnv().paddle) return data({ error: "Test tools are off on this server.", message: null, transactionId: null }, { status: 403 });
      const feature = z.enum(CREDIT_FEATURES).safeParse(form.get("feature"));
      if (!feature.success) return data({ error: "Unknown feature.", message: null, transactionId: null }, { status: 400 });
      const result = await credits.spend({ userId: user.id, feature: feature.data, reason: "Test use from the billing page" });
      if (!result.ok) return data({ error: result.message, message: null, transactionId: null }, { status: result.status });
      return { error: null, message: `Used ${result.cost} ${feature.data} credits.`, transactionId: null };
    }
    if (!subId) return data({ error: "You have no subscription.", message: null, transactionId: null }, { status: 404 });
    switch (intent.data) {
      case "extend-trial": {
        const r = await billing.extendTrial(user, subId);
        return { error: null, message: `Your trial now ends on ${r.nextBilledAt.slice(0, 10)}.`, transactionId: null };
      }
      case "cancel":
        await billing.cancel(user, subId);
        return { error: null, message: "Your subscription will end at the end of this billing period.", transactionId: null };
      case "claim-discount":
        await billing.claimDiscount(user, subId);
        return { error: null, message: "Offer claimed: your next cycle is discounted and your plan stays on.", transactionId: null };
      case "update-payment": {
        const { transactionId } = await billing.paymentMethodChange(user, subId);
        return {
          error: null,
          message: publicEnv().paddle ? null : "Payment method updated (test checkout).",
          transactionId: publicEnv().paddle ? transactionId : null,
        };
      }
      case "simulate-renew":
        await billing.simulate(user, subId, "renew");
        return { error: null, message: "Renewed (test): a new period started and credits were reset.", transactionId: null };
      case "simulate-payment-failed":
        await billing.simulate(user, subId, "payment-failed");
        return { error: null, message: "A failed renewal was simulated.", transactionId: null };
      case "simulate-end":
        await billing.simulate(user, subId, "end");
        return { error: null, message: "The subscription ended (test).", transactionId: null };
    }
  } catch (error) {
    if (error instanceof BillingError) return data({ error: error.message, message: null, transactionId: null }, { status: error.status });
    throw error;
  }
}

function statusBadge(status: string, scheduledChange: string | null) {
  if (scheduledChange === "cancel") return <Badge tone="warning">Ends at period end</Badge>;
  if (status === "trialing") return <Badge tone="info">Free trial</Badge>;
  if (status === "active") return <Badge tone="success">Active</Badge>;
  if (status === "past_due") return <Badge tone="critical">Payment failed</Badge>;
  if (status === "paused") return <Badge>Paused</Badge>;
  return <Badge>Ended</Badge>;
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");

function IntentButton({ intent, children, tone, variant, feature }: { intent: string; children: string; tone?: "critical"; variant?: "primary" | "plain"; feature?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("feature") === (feature ?? null);
  return (
    <Form method="post" style={{ display: "inline" }}>
      <input type="hidden" name="intent" value={intent} />
      {feature ? <input type="hidden" name="feature" value={feature} /> : null}
      <Button submit tone={tone} variant={variant} loading={busy}>
        {children}
      </Button>
    </Form>
  );
}

export default function BillingPage() {
  const { user, overview, balances, history, offer, paddle, local } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const sub = overview.subscription;
  const cancelStep = params.get("step") === "cancel" && sub && sub.status !== "canceled" && sub.scheduledChange !== "cancel";
  const fmt = (n: number) => (n > 1e9 ? "Unlimited" : String(n));

  // Balance over time, oldest first, from the ledger (each row records the balance after it).
  const chartFeature = "ai-ads";
  const chartPoints = history
    .filter((h) => h.feature === chartFeature)
    .reverse()
    .map((h) => ({ at: h.createdAt.replace("T", " ").slice(0, 16), value: h.balanceAfter }));

  return (
    <Page title="Billing & credits" backAction={{ content: "Overview", url: "/dashboard?location=dashboard" }}>
      <Layout>
        {actionData?.error ? (
          <Layout.Section>
            <Banner tone="critical">
              <p>{actionData.error}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {actionData?.message ? (
          <Layout.Section>
            <Banner tone="success">
              <p>{actionData.message}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {actionData?.transactionId && paddle ? (
          <Layout.Section>
            <PaddleCheckoutButton
              clientToken={paddle.clientToken}
              environment={paddle.environment}
              customerId={user.paddleCustomerId}
              userId={user.id}
              email={user.email}
              transactionId={actionData.transactionId}
              successUrl="/dashboard/billing"
              label="Enter your new card"
            />
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Plan
              </Text>
              {sub ? (
                <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="p" variant="headingLg">
                      {sub.planName}
                    </Text>
                    {statusBadge(sub.status, sub.scheduledChange)}
                    {sub.discounted ? <Badge tone="success">Retention offer applied</Badge> : null}
                  </InlineStack>
                  <Text as="p" data-testid="billing-status">
                    {sub.status === "trialing"
                      ? `Trial ends ${day(sub.nextBilledAt)}; the first charge is on that day.`
                      : sub.scheduledChange === "cancel"
                        ? `Access until ${day(sub.scheduledChangeAt)}; you will not be charged again.`
                        : sub.status === "canceled"
                          ? "This subscription has ended."
                          : `Next bill ${day(sub.nextBilledAt)}.`}
                  </Text>
                  {sub.recurringTotal ? (
                    <Text as="p" tone="subdued">
                      {`${(sub.recurringTotal.cents / 100).toFixed(2)} ${sub.recurringTotal.currencyCode} a month${sub.discounted ? `; next cycle ${overview.retentionPrice}` : ""}.`}
                    </Text>
                  ) : null}
                  {sub.status !== "canceled" ? (
                    <InlineStack gap="200">
                      {overview.canExtendTrial ? <IntentButton intent="extend-trial">Extend my trial by 7 days</IntentButton> : null}
                      <IntentButton intent="update-payment">Update payment method</IntentButton>
                      {sub.scheduledChange !== "cancel" ? (
                        <Button url="/dashboard/billing?step=cancel" tone="critical" variant="plain">
                          Cancel subscription
                        </Button>
                      ) : null}
                    </InlineStack>
                  ) : (
                    <div>
                      <Button url="/choose-plan" variant="primary">
                        Choose a plan
                      </Button>
                    </div>
                  )}
                </BlockStack>
              ) : (
                <BlockStack gap="200">
                  <Text as="p">No subscription yet.</Text>
                  <div>
                    <Button url="/choose-plan" variant="primary">
                      Choose a plan
                    </Button>
                  </div>
                </BlockStack>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>

        {cancelStep ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Before you go
                </Text>
                {offer ? (
                  <>
                    <Text as="p" data-testid="retention-offer">
                      {`Keep ${sub.planName} for ${offer.total} next cycle instead of cancelling. Everything stays as it is, including your saved products and credits.`}
                    </Text>
                    <InlineStack gap="200">
                      <IntentButton intent="claim-discount" variant="primary">
                        {`Keep my plan for ${offer.total}`}
                      </IntentButton>
                      <IntentButton intent="cancel" tone="critical">
                        Cancel anyway
                      </IntentButton>
                    </InlineStack>
                  </>
                ) : (
                  <>
                    <Text as="p">
                      {sub.status === "trialing"
                        ? "If you cancel now you keep access until the trial ends and are never charged."
                        : "You keep access until the end of the period you paid for."}
                    </Text>
                    <div>
                      <IntentButton intent="cancel" tone="critical">
                        Cancel subscription
                      </IntentButton>
                    </div>
                  </>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Credits
              </Text>
              <Text as="p" tone="subdued">
                One balance for the website and the Shopify app. Each use costs: AI ads 5, automatic mode 4, everything
                else 1.
              </Text>
              <DataTable
                columnContentTypes={["text", "numeric", "numeric"]}
                headings={["Feature", "Balance", "Cost per use"]}
                rows={balances.map((b) => [featureLabel(b.feature), fmt(b.balance), b.cost])}
              />
              {chartPoints.length > 1 ? (
                <LineChart points={chartPoints} label="AI ad credits over time" format={fmt} />
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>

        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Credit history
              </Text>
              {history.length === 0 ? (
                <Text as="p" tone="subdued">
                  No credit changes yet.
                </Text>
              ) : (
                <DataTable
                  columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
                  headings={["When (UTC)", "Feature", "What", "Change", "Balance after"]}
                  rows={history.slice(0, 30).map((h) => [
                    h.createdAt.replace("T", " ").slice(0, 16),
                    featureLabel(h.feature),
                    h.reason ?? h.kind,
                    h.amount > 0 ? `+${fmt(h.amount)}` : String(h.amount),
                    fmt(h.balanceAfter),
                  ])}
                />
              )}
            </BlockStack>
          </Card>
        </Layout.Section>

        {local ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Test tools (local checkout only)
                </Text>
                <Text as="p" tone="subdued">
                  This server has no Paddle keys. These buttons send the notifications Paddle would send, so you can see
                  what each event does. They do not exist when Paddle is configured.
                </Text>
                <InlineStack gap="200">
                  {CREDIT_FEATURES.map((f) => (
                    <IntentButton key={f} intent="spend" feature={f}>
                      {`Use ${f}`}
                    </IntentButton>
                  ))}
                </InlineStack>
                {sub && sub.status !== "canceled" ? (
                  <InlineStack gap="200">
                    <IntentButton intent="simulate-renew">Renew now</IntentButton>
                    <IntentButton intent="simulate-payment-failed">Fail the next payment</IntentButton>
                    <IntentButton intent="simulate-end" tone="critical">
                      End the subscription
                    </IntentButton>
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
