// The way out (/…/billing?step=cancel): before the last click, the retention offer where it may be claimed, else
// the trial extension once on the way out of a trial (docs/decisions/055), else what cancelling means on this rail.
import { InlineStack, Text } from "@shopify/polaris";
import type { PlanView } from "~/domain/billing/billing";
import type { BilledBy, BillingPageData } from "~/ui/billing/billing-data";
import { IntentButton } from "~/ui/billing/intent-button";
import { TitledCard } from "~/ui/shared/titled-card";

export function CancelStep({
  planName,
  step,
  offer,
  trialExtension,
  billedBy,
}: {
  planName: string;
  step: PlanView["cancelStep"];
  offer: BillingPageData["offer"];
  trialExtension: BillingPageData["trialExtension"];
  billedBy: BilledBy;
}) {
  return (
    <TitledCard title="Before you go">
      {offer && step.offer ? (
        <>
          <Text as="p" data-testid="retention-offer">
            {`Keep ${planName} for ${offer.total} next cycle instead of cancelling. Everything stays as it is, including your saved products and credits.`}
          </Text>
          <StayOrCancel intent="claim-discount">{`Keep my plan for ${offer.total}`}</StayOrCancel>
        </>
      ) : trialExtension ? (
        <>
          <Text as="p">
            <span data-testid="trial-extension-offer">
              {`Not sure yet? Take ${trialExtension.days} more days to try ${planName}: your trial would end on ${trialExtension.until?.slice(0, 10) ?? "a week later"} instead, and nothing is charged before then. This is offered once.`}
            </span>
          </Text>
          {step.note ? <Text as="p">{step.note}</Text> : null}
          <StayOrCancel intent="extend-trial">{`Extend my trial by ${trialExtension.days} days`}</StayOrCancel>
        </>
      ) : (
        <>
          {billedBy === "shopify" ? (
            <Text as="p">Shopify ends the subscription as soon as you cancel; nothing more is charged.</Text>
          ) : step.note ? (
            <Text as="p">{step.note}</Text>
          ) : null}
          <div>
            <IntentButton intent="cancel" tone="critical">
              Cancel subscription
            </IntentButton>
          </div>
        </>
      )}
    </TitledCard>
  );
}

/** What the step offers instead of cancelling, first, and cancelling anyway beside it. */
function StayOrCancel({ intent, children }: { intent: string; children: string }) {
  return (
    <InlineStack gap="200">
      <IntentButton intent={intent} variant="primary">
        {children}
      </IntentButton>
      <IntentButton intent="cancel" tone="critical">
        Cancel anyway
      </IntentButton>
    </InlineStack>
  );
}
