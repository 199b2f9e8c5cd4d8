// What Billing & credits says above its cards, each in its own section: Shopify's word on a charge the merchant
// came back from, two paid subscriptions at once (one form to cancel each), the action's outcome or refusal, and
// Paddle's card form for a card change the action asked Paddle for.
import { Form } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Layout } from "@shopify/polaris";
import type { BillingOutcome, BillingPageData } from "~/ui/billing/billing-data";
import { PaddleCheckoutButton } from "~/ui/billing/paddle-checkout";

export function BillingNotices({
  shopify,
  actionData,
  paddle,
  user,
  billingPath,
}: Pick<BillingPageData, "shopify" | "paddle" | "user"> & { actionData: BillingOutcome | undefined; billingPath: string }) {
  return (
    <>
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
      {actionData?.error ? <OutcomeSection tone="critical" text={actionData.error} /> : null}
      {actionData?.message ? <OutcomeSection tone="success" text={actionData.message} /> : null}
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
    </>
  );
}

/** The action's refusal or what it did, in words. */
function OutcomeSection({ tone, text }: { tone: "critical" | "success"; text: string }) {
  return (
    <Layout.Section>
      <Banner tone={tone}>
        <p>{text}</p>
      </Banner>
    </Layout.Section>
  );
}
