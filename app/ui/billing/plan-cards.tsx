// Plan cards from the catalogue (app/domain/billing/plans.ts), shared by the landing page, /choose-plan and the
// embedded Billing & credits page (whose buttons open the checkout in a new tab instead of a link).
import { Badge, BlockStack, Button, Card, InlineStack, List, Text } from "@shopify/polaris";
import { formatUsd, PLANS, type Plan } from "~/domain/billing/plans";

function priceLine(plan: Plan) {
  return plan.billing === "monthly" ? `${formatUsd(plan.priceCents)} / month` : `${formatUsd(plan.priceCents)} once`;
}

export interface PlanAction {
  label: string;
  url?: string;
  onClick?: () => void;
  loading?: boolean;
}

export function PlanCards({
  actionFor,
  only,
}: {
  actionFor: (plan: Plan) => PlanAction;
  /** Which plans to show (all by default). */
  only?: (plan: Plan) => boolean;
}) {
  return (
    <div className="plan-grid">
      {PLANS.filter((plan) => !only || only(plan)).map((plan) => {
        const action = actionFor(plan);
        return (
          <Card key={plan.id}>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h3" variant="headingMd">
                  {plan.name}
                </Text>
                {plan.highlighted ? <Badge tone="success">Most popular</Badge> : null}
              </InlineStack>
              <Text as="p" variant="headingXl">
                {priceLine(plan)}
              </Text>
              <Text as="p" tone="subdued">
                {plan.trialDays > 0 ? `${plan.trialDays}-day free trial, cancel any time. ` : "One payment. "}
                {plan.tagline}
              </Text>
              <List>
                {plan.features.map((f) => (
                  <List.Item key={f}>{f}</List.Item>
                ))}
              </List>
              <Button
                url={action.url}
                onClick={action.onClick}
                loading={action.loading}
                variant={plan.highlighted ? "primary" : "secondary"}
                fullWidth
              >
                {action.label}
              </Button>
            </BlockStack>
          </Card>
        );
      })}
    </div>
  );
}

/** The words on a plan's buy button, wherever it is. */
export function planActionLabel(plan: Plan) {
  return plan.trialDays > 0 ? `Start ${plan.name} free trial` : `Get ${plan.name}`;
}

export function planPayUrl(plan: Plan) {
  return `/pay?${new URLSearchParams({ plan: plan.id, billing: plan.billing })}`;
}
