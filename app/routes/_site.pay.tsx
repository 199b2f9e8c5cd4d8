import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, InlineStack, List, Text } from "@shopify/polaris";
import { findPlan, formatUsd, isValidPlanChoice } from "~/domain/plans";
import { auth } from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: "Checkout · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  const url = new URL(request.url);
  const plan = findPlan(url.searchParams.get("plan"));
  if (!plan || !isValidPlanChoice(plan.id, url.searchParams.get("billing"))) throw redirect("/choose-plan");
  return { email: user.email, plan };
}

export default function Pay() {
  const { email, plan } = useLoaderData<typeof loader>();
  const trial = plan.trialDays > 0;
  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {plan.name}
          </Text>
          <InlineStack align="space-between">
            <Text as="span">{trial ? `Due today (${plan.trialDays}-day trial)` : "Due today"}</Text>
            <Text as="span" fontWeight="semibold">
              {trial ? "$0.00" : formatUsd(plan.priceCents)}
            </Text>
          </InlineStack>
          {trial ? (
            <InlineStack align="space-between">
              <Text as="span">Then every month</Text>
              <Text as="span">{formatUsd(plan.priceCents)}</Text>
            </InlineStack>
          ) : null}
          <List>
            {plan.features.map((f) => (
              <List.Item key={f}>{f}</List.Item>
            ))}
          </List>
          <Text as="p" tone="subdued">
            Account: {email}. Prices in USD before tax; the checkout shows your local price and tax.
          </Text>
          <div id="checkout" />
        </BlockStack>
      </Card>
    </div>
  );
}
