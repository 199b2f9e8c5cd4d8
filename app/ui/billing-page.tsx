// The Billing & credits page, the same on the site (/dashboard/billing) and in Shopify admin
// (/app/billing): plan and status, next bill, cancel with the retention offer, extend the trial, the
// credit balances and their history. Its loader and action are app/pages/billing-page.server.ts.
// What differs inside the admin: Paddle's checkout cannot open in its iframe, so buying a plan and
// changing the card open the site in a new tab through a one-time sign-in link (app/ui/handoff.tsx).
import type { SerializeFrom } from "@remix-run/node";
import { Form, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, DataTable, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import { planStatusLine, planView } from "~/domain/billing";
import { isUnlimited } from "~/domain/credits";
import { CREDIT_FEATURES, featureLabel, findPlan, formatUsd, type Plan } from "~/domain/plans";
import type { loadBillingPage } from "~/pages/billing-page.server";
import { HandoffNoticeSection, useHandoff, type Handoff } from "~/ui/handoff";
import { LineChart } from "~/ui/line-chart";
import { PaddleCheckoutButton } from "~/ui/paddle-checkout";
import { planActionLabel, PlanCards, planPayUrl } from "~/ui/plan-cards";
import { TitledCard } from "~/ui/titled-card";
import { researchPaths, type Surface } from "~/ui/research-paths";

export type BillingPageData = SerializeFrom<typeof loadBillingPage>;

export interface BillingOutcome {
  error: string | null;
  message: string | null;
  transactionId: string | null;
}

export interface SubscriptionDates {
  status: string;
  nextBilledAt: string | null;
  scheduledChange: string | null;
  scheduledChangeAt: string | null;
}

/** Where a subscription stands, in one sentence: trial end, next bill, or when it ends (app/domain/billing.ts). */
export function subscriptionLine(sub: SubscriptionDates): string {
  return planStatusLine(sub);
}

const credits = (n: number) => (isUnlimited(n) ? "Unlimited" : String(n));

function IntentButton({
  intent,
  children,
  tone,
  variant,
  feature,
}: {
  intent: string;
  children: string;
  tone?: "critical";
  variant?: "primary" | "plain";
  feature?: string;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("feature") === (feature ?? null);
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

/** Where buying a plan goes: /pay on the site; from the admin, /pay in a new, signed-in tab. */
function checkoutAction(plan: Plan, surface: Surface, handoff: Handoff) {
  if (surface === "site") return { url: planPayUrl(plan) };
  return {
    onClick: () => handoff.open({ to: "checkout", plan: plan.id, billing: plan.billing }, `the ${plan.name} checkout`),
    loading: handoff.busy,
  };
}

function ChoosePlan({ surface, handoff }: { surface: Surface; handoff: Handoff }) {
  if (surface === "site") {
    return (
      <div>
        <Button url="/choose-plan" variant="primary">
          Choose a plan
        </Button>
      </div>
    );
  }
  return (
    <BlockStack gap="300">
      <Text as="p" tone="subdued">
        The checkout opens on the Winning Products website in a new tab, signed in to this account. Your plan and
        credits are the same in Shopify and on the website.
      </Text>
      <PlanCards
        actionFor={(plan) => ({
          ...checkoutAction(plan, surface, handoff),
          label: planActionLabel(plan),
        })}
      />
    </BlockStack>
  );
}

export function BillingAndCreditsPage({
  data,
  actionData,
  surface,
}: {
  data: BillingPageData;
  actionData: BillingOutcome | undefined;
  surface: Surface;
}) {
  const { user, overview, balances, history, offer, paddle, local } = data;
  const handoff = useHandoff();
  const [params] = useSearchParams();
  const billingPath = researchPaths(surface).billing;
  const sub = overview.subscription;
  const view = sub ? planView(sub, overview) : null;
  const cancelStep = params.get("step") === "cancel" && sub && view?.cancelStep.available;
  const innerCircle = findPlan("inner-circle")!;
  // Paddle's card form is an overlay that cannot open inside Shopify admin's iframe.
  const cardOnSite = surface === "embedded" && Boolean(paddle);

  // Balance over time, oldest first, from the ledger (each row records the balance after it).
  const chartFeature = "ai-ads";
  const chartPoints = history
    .filter((h) => h.feature === chartFeature)
    .reverse()
    .map((h) => ({ at: h.createdAt.replace("T", " ").slice(0, 16), value: h.balanceAfter }));

  return (
    <Page
      title="Billing & credits"
      backAction={surface === "site" ? { content: "Overview", url: "/dashboard?location=dashboard" } : undefined}
    >
      <Layout>
        <HandoffNoticeSection handoff={handoff} />
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
              successUrl={billingPath}
              label="Enter your new card"
            />
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <TitledCard title="Plan">
            {sub && view ? (
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="p" variant="headingLg">
                    {sub.planName}
                  </Text>
                  <Badge tone={view.badge.tone ?? undefined}>{view.badge.label}</Badge>
                  {view.discountBadge ? <Badge tone="success">Retention offer applied</Badge> : null}
                </InlineStack>
                <Text as="p">
                  <span data-testid="billing-status">{view.statusLine}</span>
                </Text>
                {view.priceLine ? (
                  <Text as="p" tone="subdued">
                    {view.priceLine}
                  </Text>
                ) : null}
                {view.actions.choosePlan ? (
                  <ChoosePlan surface={surface} handoff={handoff} />
                ) : (
                  <InlineStack gap="200">
                    {view.actions.resume ? (
                      <IntentButton intent="resume" variant="primary">
                        Resume subscription
                      </IntentButton>
                    ) : null}
                    {view.actions.extendTrial ? (
                      <IntentButton intent="extend-trial">Extend my trial by 7 days</IntentButton>
                    ) : null}
                    {!view.actions.updatePayment ? null : cardOnSite ? (
                      <Button
                        loading={handoff.busy}
                        onClick={() => handoff.open({ to: "billing" }, "Billing & credits on the website")}
                      >
                        Update payment method
                      </Button>
                    ) : (
                      <IntentButton intent="update-payment">Update payment method</IntentButton>
                    )}
                    {view.actions.cancel ? (
                      <Button url={`${billingPath}?step=cancel`} tone="critical" variant="plain">
                        Cancel subscription
                      </Button>
                    ) : null}
                  </InlineStack>
                )}
                {sub.status !== "canceled" && !user.innerCircle ? (
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="p" tone="subdued">
                      {`${innerCircle.tagline} One payment of ${formatUsd(innerCircle.priceCents)}.`}
                    </Text>
                    <Button {...checkoutAction(innerCircle, surface, handoff)} variant="plain">
                      Upgrade to Inner Circle
                    </Button>
                  </InlineStack>
                ) : null}
              </BlockStack>
            ) : user.innerCircle ? (
              <InlineStack gap="200" blockAlign="center">
                <Text as="p" variant="headingLg">
                  {innerCircle.name}
                </Text>
                <Badge tone="success">Lifetime access</Badge>
              </InlineStack>
            ) : (
              <BlockStack gap="200">
                <Text as="p">No subscription yet.</Text>
                <ChoosePlan surface={surface} handoff={handoff} />
              </BlockStack>
            )}
          </TitledCard>
        </Layout.Section>

        {cancelStep ? (
          <Layout.Section>
            <TitledCard title="Before you go">
              {offer && view?.cancelStep.offer ? (
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
                  {view?.cancelStep.note ? <Text as="p">{view.cancelStep.note}</Text> : null}
                  <div>
                    <IntentButton intent="cancel" tone="critical">
                      Cancel subscription
                    </IntentButton>
                  </div>
                </>
              )}
            </TitledCard>
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <TitledCard title="Credits">
            <Text as="p" tone="subdued">
              One balance for the website and the Shopify app. Each use costs: AI ads 5, automatic mode 4, everything
              else 1.
            </Text>
            <DataTable
              columnContentTypes={["text", "numeric", "numeric"]}
              headings={["Feature", "Balance", "Cost per use"]}
              rows={balances.map((b) => [featureLabel(b.feature), credits(b.balance), b.cost])}
            />
            {chartPoints.length > 1 ? (
              <LineChart points={chartPoints} label="AI ad credits over time" format={credits} />
            ) : null}
          </TitledCard>
        </Layout.Section>

        <Layout.Section>
          <TitledCard title="Credit history">
            {history.length === 0 ? (
              <Text as="p" tone="subdued">
                No credit changes yet.
              </Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
                headings={["When (UTC)", "Feature", "What", "Change", "Balance after"]}
                rows={history
                  .slice(0, 30)
                  .map((h) => [
                    h.createdAt.replace("T", " ").slice(0, 16),
                    featureLabel(h.feature),
                    h.product ? (
                      <span key={h.id}>
                        {h.product.before}
                        <Link url={researchPaths(surface).product(h.product.objectID)}>{h.product.title}</Link>
                        {h.product.after}
                      </span>
                    ) : (
                      h.reason ?? h.kind
                    ),
                    h.amount > 0 ? `+${credits(h.amount)}` : String(h.amount),
                    credits(h.balanceAfter),
                  ])}
              />
            )}
          </TitledCard>
        </Layout.Section>

        {local ? (
          <Layout.Section>
            <TitledCard title="Test tools (local checkout only)">
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
            </TitledCard>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
