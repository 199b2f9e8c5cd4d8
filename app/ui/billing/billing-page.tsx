// The Billing & credits page, the same on the site (/dashboard/billing) and in Shopify admin
// (/app/billing): plan and status, next bill, cancel with the retention offer, extend the trial, the
// credit balances and their history. Its loader and action are app/pages/billing/billing.server.ts.
// What differs inside the admin: Paddle's checkout cannot open in its iframe, so buying a plan and
// changing the card open the site in a new tab through a one-time sign-in link (app/ui/accounts/handoff.tsx).
// With SHOPIFY_BILLING=on the admin sells through Shopify instead (docs/decisions/034): the plan cards
// and credit packs ask for a Shopify charge and send the admin's top frame to Shopify's confirmation page.
import type { SerializeFrom } from "@remix-run/node";
import { Form, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Badge, Banner, BlockStack, Button, DataTable, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import { planStatusLine, planView } from "~/domain/billing/billing";
import { isUnlimited } from "~/domain/billing/credits";
import { CREDIT_FEATURES, featureLabel, findPlan, formatUsd, type Plan } from "~/domain/billing/plans";
import type { loadBillingPage } from "~/pages/billing/billing.server";
import { HandoffNoticeSection, useHandoff, type Handoff } from "~/ui/accounts/handoff";
import { LineChart } from "~/ui/shared/line-chart";
import { PaddleCheckoutButton } from "~/ui/billing/paddle-checkout";
import { planActionLabel, PlanCards, planPayUrl } from "~/ui/billing/plan-cards";
import { TitledCard } from "~/ui/shared/titled-card";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

export type BillingPageData = SerializeFrom<typeof loadBillingPage>;

export interface BillingOutcome {
  error: string | null;
  message: string | null;
  transactionId: string | null;
  /** Shopify's confirmation page, opened in the admin's top frame. */
  topUrl?: string | null;
}

export interface SubscriptionDates {
  status: string;
  nextBilledAt: string | null;
  scheduledChange: string | null;
  scheduledChangeAt: string | null;
}

/** Where a subscription stands, in one sentence: trial end, next bill, or when it ends (app/domain/billing/billing.ts). */
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

/** The plan cards inside Shopify admin with the Shopify rail: each asks for a Shopify subscription. */
function ShopifyPlanCards({ current, trial }: { current: string | null; trial: boolean }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const busyPlan = navigation.state !== "idle" && navigation.formData?.get("intent") === "shopify-subscribe" ? navigation.formData.get("plan") : null;
  return (
    <BlockStack gap="300">
      <Text as="p" tone="subdued">
        Plans are billed on your Shopify invoice. You approve the charge on Shopify&apos;s page and come back here. Your
        plan and credits are the same in Shopify and on the website.
      </Text>
      <PlanCards
        only={(plan) => plan.billing === "monthly" && plan.id !== current}
        actionFor={(plan) => ({
          // One trial per account (docs/decisions/034): only a first subscription starts one.
          label: current ? `Switch to ${plan.name}` : trial ? planActionLabel(plan) : `Subscribe to ${plan.name}`,
          loading: busyPlan === plan.id,
          onClick: () => submit({ intent: "shopify-subscribe", plan: plan.id }, { method: "post" }),
        })}
      />
    </BlockStack>
  );
}

function ChoosePlan({
  surface,
  handoff,
  shopifyRail,
  firstPlan = false,
}: {
  surface: Surface;
  handoff: Handoff;
  shopifyRail: boolean;
  firstPlan?: boolean;
}) {
  if (shopifyRail) return <ShopifyPlanCards current={null} trial={firstPlan} />;
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

/**
 * Basic <-> Pro on the Paddle rail: the other monthly plan, switched at once by Paddle, so a click first says what
 * happens and asks again (issue 35: a switch is never one stray click).
 */
function PlanSwitch({ targets, trialing }: { targets: BillingPageData["planSwitch"]; trialing: boolean }) {
  const [asking, setAsking] = useState<string | null>(null);
  return (
    <BlockStack gap="200">
      {targets.map((plan) => {
        const what = trialing
          ? `${plan.name} is ${formatUsd(plan.priceCents)} a month. Switching keeps your trial; the first charge is ${plan.name}'s price.`
          : `${plan.name} is ${formatUsd(plan.priceCents)} a month. Switching is immediate: you get ${plan.name}'s credits and pay the difference for the rest of this period.`;
        return asking === plan.id ? (
          <Banner key={plan.id} tone="warning" title={`Switch to ${plan.name} now?`} onDismiss={() => setAsking(null)}>
            <BlockStack gap="200">
              <Text as="p">{what}</Text>
              <Form method="post" onSubmit={() => setAsking(null)}>
                <input type="hidden" name="intent" value="change-plan" />
                <input type="hidden" name="plan" value={plan.id} />
                <InlineStack gap="200">
                  <Button submit variant="primary">{`Yes, switch to ${plan.name}`}</Button>
                  <Button onClick={() => setAsking(null)}>Keep my plan</Button>
                </InlineStack>
              </Form>
            </BlockStack>
          </Banner>
        ) : (
          <InlineStack key={plan.id} gap="200" blockAlign="center">
            <Text as="p" tone="subdued">
              {what}
            </Text>
            <Button onClick={() => setAsking(plan.id)}>{`Switch to ${plan.name}`}</Button>
          </InlineStack>
        );
      })}
    </BlockStack>
  );
}

/**
 * Extra credits where the plan allows: on Shopify's invoice with the Shopify rail, in Paddle's overlay on
 * the site (from the admin, on the site in a new tab), completed at once by the local test checkout.
 */
function CreditPacks({
  packs,
  surface,
  handoff,
  paddle,
  user,
  successUrl,
}: {
  packs: NonNullable<BillingPageData["creditPacks"]>;
  surface: Surface;
  handoff: Handoff;
  paddle: BillingPageData["paddle"];
  user: BillingPageData["user"];
  successUrl: string;
}) {
  const where =
    packs.via === "shopify"
      ? "billed once on your Shopify invoice"
      : packs.via === "local"
        ? "completed at once by the test checkout on this server (nothing is charged)"
        : "paid once through Paddle";
  return (
    <TitledCard title="Buy more credits">
      <Text as="p" tone="subdued">
        {`Extra credits on top of your plan, ${where}. They last until your next period starts, when your plan's allowance is set again.`}
      </Text>
      <InlineStack gap="200">
        {packs.packs.map((pack) => {
          const label = `${pack.name} · ${formatUsd(pack.priceCents)}`;
          if (packs.via === "paddle" && paddle && pack.priceId) {
            return (
              <PaddleCheckoutButton
                key={pack.id}
                clientToken={paddle.clientToken}
                environment={paddle.environment}
                customerId={user.paddleCustomerId}
                userId={user.id}
                email={user.email}
                priceId={pack.priceId}
                successUrl={successUrl}
                label={label}
              />
            );
          }
          if (packs.via === "handoff") {
            return (
              <Button key={pack.id} loading={handoff.busy} onClick={() => handoff.open({ to: "billing" }, "Billing & credits on the website")}>
                {label}
              </Button>
            );
          }
          return (
            <Form key={pack.id} method="post" style={{ display: "inline" }}>
              <input type="hidden" name="intent" value={packs.via === "shopify" ? "shopify-top-up" : "buy-credits"} />
              <input type="hidden" name="pack" value={pack.id} />
              <Button submit>{label}</Button>
            </Form>
          );
        })}
      </InlineStack>
      {surface === "embedded" && packs.via === "handoff" ? (
        <Text as="p" tone="subdued">
          Paddle&apos;s checkout opens on the Winning Products website in a new tab, signed in to this account.
        </Text>
      ) : null}
    </TitledCard>
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
  const { user, overview, balances, history, offer, paddle, local, shopify, trialExtension, planSwitch, creditPacks } = data;
  const handoff = useHandoff();
  const shopifyRail = shopify.rail;
  // Where the plan is billed, when it is not where this page would change it (docs/decisions/034).
  const billedBy = overview.subscription?.provider === "shopify" ? "shopify" : "paddle";
  const managedElsewhere =
    overview.subscription && overview.subscription.status !== "canceled"
      ? billedBy === "shopify"
        ? !shopifyRail
        : shopifyRail
      : false;
  const topUrl = actionData?.topUrl ?? null;
  useEffect(() => {
    // App Bridge lets the embedded app navigate the admin's top frame this way (Shopify's confirmation page).
    if (topUrl) window.open(topUrl, "_top");
  }, [topUrl]);
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
        {shopify.notice ? (
          <Layout.Section>
            <Banner tone={shopify.notice.tone}>
              <p data-testid="shopify-billing-notice">{shopify.notice.text}</p>
            </Banner>
          </Layout.Section>
        ) : null}
        {shopify.rails.duplicate ? (
          <Layout.Section>
            <Banner tone="warning" title="You are paying for two subscriptions">
              <BlockStack gap="200">
                <p data-testid="duplicate-subscriptions">
                  {`One is billed through Shopify (${shopify.rails.duplicate.shopifyShop ?? "your store"}) and one through Paddle on the website. Cancel one so you are not charged twice; your plan and credits continue on the other.`}
                </p>
                <InlineStack gap="200">
                  <Form method="post" style={{ display: "inline" }}>
                    <input type="hidden" name="intent" value="cancel-duplicate" />
                    <input type="hidden" name="provider" value="shopify" />
                    <Button submit>Cancel the Shopify one</Button>
                  </Form>
                  <Form method="post" style={{ display: "inline" }}>
                    <input type="hidden" name="intent" value="cancel-duplicate" />
                    <input type="hidden" name="provider" value="paddle" />
                    <Button submit>Cancel the Paddle one</Button>
                  </Form>
                </InlineStack>
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
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
                {managedElsewhere ? (
                  <BlockStack gap="100">
                    <Text as="p">
                      <span data-testid="plan-managed-where">
                        {billedBy === "shopify"
                          ? `This plan is billed through Shopify${sub.shop ? ` (${sub.shop})` : ""} and managed in Shopify admin.`
                          : "This plan is billed through Paddle and managed on the Winning Products website, under Billing & credits. You are not charged again here."}
                      </span>
                    </Text>
                    {billedBy === "shopify" && shopify.rails.shopifyManageUrl ? (
                      <div>
                        <Button url={shopify.rails.shopifyManageUrl} target="_blank" external>
                          Manage in Shopify admin
                        </Button>
                      </div>
                    ) : null}
                  </BlockStack>
                ) : view.actions.choosePlan ? (
                  <ChoosePlan surface={surface} handoff={handoff} shopifyRail={shopifyRail} />
                ) : (
                  <InlineStack gap="200">
                    {view.actions.resume ? (
                      <IntentButton intent="resume" variant="primary">
                        Resume subscription
                      </IntentButton>
                    ) : null}
                    {!view.actions.updatePayment || billedBy === "shopify" ? null : cardOnSite ? (
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
                {shopifyRail && billedBy === "shopify" && sub.status !== "canceled" ? (
                  <ShopifyPlanCards current={sub.planId} trial={false} />
                ) : null}
                {planSwitch.length > 0 && !managedElsewhere ? (
                  <PlanSwitch targets={planSwitch} trialing={sub.status === "trialing"} />
                ) : null}
                {sub.status !== "canceled" && !user.innerCircle && !shopifyRail && !managedElsewhere ? (
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
                <ChoosePlan surface={surface} handoff={handoff} shopifyRail={shopifyRail} firstPlan />
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
              ) : trialExtension ? (
                <>
                  <Text as="p">
                    <span data-testid="trial-extension-offer">
                      {`Not sure yet? Take ${trialExtension.days} more days to try ${sub.planName}: your trial would end on ${trialExtension.until?.slice(0, 10) ?? "a week later"} instead, and nothing is charged before then. This is offered once.`}
                    </span>
                  </Text>
                  {view?.cancelStep.note ? <Text as="p">{view.cancelStep.note}</Text> : null}
                  <InlineStack gap="200">
                    <IntentButton intent="extend-trial" variant="primary">
                      {`Extend my trial by ${trialExtension.days} days`}
                    </IntentButton>
                    <IntentButton intent="cancel" tone="critical">
                      Cancel anyway
                    </IntentButton>
                  </InlineStack>
                </>
              ) : (
                <>
                  {billedBy === "shopify" ? (
                    <Text as="p">Shopify ends the subscription as soon as you cancel; nothing more is charged.</Text>
                  ) : view?.cancelStep.note ? (
                    <Text as="p">{view.cancelStep.note}</Text>
                  ) : null}
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

        {creditPacks ? (
          <Layout.Section>
            <div id="buy-credits">
              <CreditPacks
                packs={creditPacks}
                surface={surface}
                handoff={handoff}
                paddle={paddle}
                user={user}
                successUrl={billingPath}
              />
            </div>
          </Layout.Section>
        ) : null}

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
              {sub && sub.status !== "canceled" && billedBy !== "shopify" ? (
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
