// Billing & credits inside Shopify admin: the same page, loader and action as /dashboard/billing, for
// the user the shop is linked to. With SHOPIFY_BILLING=on plans and credit packs are bought through
// Shopify's Billing API on this shop (docs/decisions/034); otherwise buying a plan or changing the card
// opens the site in a new tab with a one-time sign-in link (POST /app/handoff; docs/decisions/016), since
// Paddle's checkout cannot run in the admin's iframe.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { billingPageAction, loadBillingPage } from "~/pages/billing/billing.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { BillingAndCreditsPage } from "~/ui/billing/billing-page";

export const meta: MetaFunction = () => [{ title: "Billing & credits · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session } = await requireEmbeddedUser(request);
  return loadBillingPage(request, user, session.shop);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session } = await requireEmbeddedUser(request);
  return billingPageAction(request, user, "embedded", session.shop);
}

export default function EmbeddedBilling() {
  return (
    <BillingAndCreditsPage
      data={useLoaderData<typeof loader>()}
      actionData={useActionData<typeof action>()}
      surface="embedded"
    />
  );
}
