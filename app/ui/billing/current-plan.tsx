// The Plan card of Billing & credits, the plan the user has: the plan, its status and price, and what can be done with it here: resume,
// change the card, cancel (through the cancel step), switch plans, upgrade to Inner Circle; a plan billed on the
// other rail is said to be managed there instead (docs/decisions/034). Without a plan: Inner Circle's lifetime
// access, or the way to choose one.
import { Badge, BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import type { PlanView } from "~/domain/billing/billing";
import { findPlan, formatUsd } from "~/domain/billing/plans";
import type { Handoff } from "~/ui/accounts/handoff";
import type { BilledBy, BillingPageData, BillingSubscription } from "~/ui/billing/billing-data";
import { checkoutAction, ChoosePlan, ShopifyPlanCards } from "~/ui/billing/choose-plan";
import { IntentButton } from "~/ui/billing/intent-button";
import { PlanSwitch } from "~/ui/billing/plan-switch";
import type { Surface } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";

interface CurrentPlanProps {
  data: Pick<BillingPageData, "user" | "paddle" | "shopify" | "planSwitch">;
  sub: BillingSubscription;
  view: PlanView | null;
  billedBy: BilledBy;
  /** Billed on the rail this page does not change it on: the card says where it is managed instead. */
  managedElsewhere: boolean;
  surface: Surface;
  handoff: Handoff;
  billingPath: string;
}

export function CurrentPlan(props: CurrentPlanProps) {
  const { data, sub, view, surface, handoff } = props;
  return (
    <TitledCard title="Plan">
      {sub && view ? (
        <SubscribedPlan {...props} sub={sub} view={view} />
      ) : data.user.innerCircle ? (
        <InlineStack gap="200" blockAlign="center">
          <Text as="p" variant="headingLg">
            {findPlan("inner-circle")!.name}
          </Text>
          <Badge tone="success">Lifetime access</Badge>
        </InlineStack>
      ) : (
        <BlockStack gap="200">
          <Text as="p">No subscription yet.</Text>
          <ChoosePlan surface={surface} handoff={handoff} shopifyRail={data.shopify.rail} firstPlan />
        </BlockStack>
      )}
    </TitledCard>
  );
}

function SubscribedPlan({
  data,
  sub,
  view,
  billedBy,
  managedElsewhere,
  surface,
  handoff,
  billingPath,
}: CurrentPlanProps & { sub: NonNullable<BillingSubscription>; view: PlanView }) {
  const { user, paddle, shopify, planSwitch } = data;
  const shopifyRail = shopify.rail;
  const innerCircle = findPlan("inner-circle")!;
  // Paddle's card form is an overlay that cannot open inside Shopify admin's iframe.
  const cardOnSite = surface === "embedded" && Boolean(paddle);
  return (
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
  );
}
