import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, List, Text } from "@shopify/polaris";
import { findPlan, formatUsd } from "~/domain/billing/plans";
import { requireUser } from "~/pages/http/site-session.server";
import { planPayUrl } from "~/ui/billing/plan-cards";
import { NarrowCard } from "~/ui/shared/narrow-card";

export const meta: MetaFunction = () => [{ title: "Inner Circle · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const plan = findPlan("inner-circle")!;
  return { plan, alreadyMember: user.innerCircle };
}

export default function PurchaseInnerCircle() {
  const { plan, alreadyMember } = useLoaderData<typeof loader>();
  return (
    <NarrowCard title="Inner Circle">
      <Text as="p">{plan.tagline}</Text>
      <List>
        {plan.features.map((f) => (
          <List.Item key={f}>{f}</List.Item>
        ))}
      </List>
      {alreadyMember ? (
        <BlockStack gap="200">
          <Text as="p" tone="success">
            You are already in the Inner Circle.
          </Text>
          <Button url="/dashboard?location=dashboard">Go to your dashboard</Button>
        </BlockStack>
      ) : (
        <BlockStack gap="200">
          <Text as="p" variant="headingLg">
            {formatUsd(plan.priceCents)} once
          </Text>
          <Button url={planPayUrl(plan)} variant="primary" fullWidth>
            Join the Inner Circle
          </Button>
          <Button url="/dashboard?location=dashboard" variant="plain">
            Not now, take me to my dashboard
          </Button>
        </BlockStack>
      )}
    </NarrowCard>
  );
}
