// Basic <-> Pro on the Paddle rail: the other monthly plan, switched at once by Paddle, so a click first says what
// happens and asks again (issue 35: a switch is never one stray click).
import { Form } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { formatUsd } from "~/domain/billing/plans";
import type { BillingPageData } from "~/ui/billing/billing-data";

export function PlanSwitch({ targets, trialing }: { targets: BillingPageData["planSwitch"]; trialing: boolean }) {
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
