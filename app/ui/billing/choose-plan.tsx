// Choosing a plan on Billing & credits, on each rail: the site links to /choose-plan; inside Shopify admin the plan
// cards open the checkout on the site in a new, signed-in tab (Paddle's checkout cannot open in the admin's iframe),
// or, with SHOPIFY_BILLING=on, ask Shopify for the charge (docs/decisions/034).
import { useNavigation, useSubmit } from "@remix-run/react";
import { BlockStack, Button, Text } from "@shopify/polaris";
import type { Plan } from "~/domain/billing/plans";
import type { Handoff } from "~/ui/accounts/handoff";
import { planActionLabel, PlanCards, planPayUrl } from "~/ui/billing/plan-cards";
import type { Surface } from "~/ui/research/research-paths";

/** Where buying a plan goes: /pay on the site; from the admin, /pay in a new, signed-in tab. */
export function checkoutAction(plan: Plan, surface: Surface, handoff: Handoff) {
  if (surface === "site") return { url: planPayUrl(plan) };
  return {
    onClick: () => handoff.open({ to: "checkout", plan: plan.id, billing: plan.billing }, `the ${plan.name} checkout`),
    loading: handoff.busy,
  };
}

/** The plan cards inside Shopify admin with the Shopify rail: each asks for a Shopify subscription. */
export function ShopifyPlanCards({ current, trial }: { current: string | null; trial: boolean }) {
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

export function ChoosePlan({
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
