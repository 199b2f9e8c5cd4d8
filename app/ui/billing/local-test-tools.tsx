// The local test checkout's tools (no Paddle keys): each button sends what Paddle would, through the same
// action, so every event can be seen at work; the subscription's events only for a plan Paddle would bill.
import { InlineStack, Text } from "@shopify/polaris";
import { CREDIT_FEATURES } from "~/domain/billing/plans";
import { IntentButton } from "~/ui/billing/intent-button";
import { TitledCard } from "~/ui/shared/titled-card";

export function LocalTestTools({ subscriptionEvents }: { subscriptionEvents: boolean }) {
  return (
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
      {subscriptionEvents ? (
        <InlineStack gap="200">
          <IntentButton intent="simulate-renew">Renew now</IntentButton>
          <IntentButton intent="simulate-payment-failed">Fail the next payment</IntentButton>
          <IntentButton intent="simulate-end" tone="critical">
            End the subscription
          </IntentButton>
        </InlineStack>
      ) : null}
    </TitledCard>
  );
}
