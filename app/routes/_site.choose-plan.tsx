import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import { getUser } from "~/pages/http/site-session.server";
import { planActionLabel, PlanCards, planPayUrl } from "~/ui/billing/plan-cards";

export const meta: MetaFunction = () => [{ title: "Choose your plan · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const email = new URL(request.url).searchParams.get("email");
  return { signedIn: Boolean(user), email: user?.email ?? email ?? null };
}

export default function ChoosePlan() {
  const { signedIn, email } = useLoaderData<typeof loader>();
  return (
    <BlockStack gap="500">
      <BlockStack gap="200">
        <Text as="h1" variant="headingXl">
          Choose your plan
        </Text>
        <Text as="p" tone="subdued">
          {email ? `Signed up as ${email}. ` : ""}Monthly plans start with a 7-day free trial; you can cancel before it
          ends and pay nothing.
        </Text>
      </BlockStack>
      <PlanCards
        actionFor={(plan) => {
          const pay = planPayUrl(plan);
          const url = signedIn
            ? pay
            : `/signup?${new URLSearchParams({ plan: plan.id, billing: plan.billing, ...(email ? { email } : {}) })}`;
          return { url, label: planActionLabel(plan) };
        }}
      />
    </BlockStack>
  );
}
