// Extra credits where the plan allows: on Shopify's invoice with the Shopify rail, in Paddle's overlay on the site
// (from the admin, on the site in a new tab), completed at once by the local test checkout.
import { Form } from "@remix-run/react";
import { Button, InlineStack, Text } from "@shopify/polaris";
import { formatUsd } from "~/domain/billing/plans";
import type { Handoff } from "~/ui/accounts/handoff";
import type { BillingPageData } from "~/ui/billing/billing-data";
import { PaddleCheckoutButton } from "~/ui/billing/paddle-checkout";
import type { Surface } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";

export function CreditPacks({
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
