// /dashboard/billing: plan, status, cancel with the retention offer, trial extension, card change, and
// the credit balances. The page, its loader and its action are shared with /app/billing.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { billingPageAction, loadBillingPage } from "~/pages/billing/billing.server";
import { requireUser } from "~/pages/http/site-session.server";
import { BillingAndCreditsPage } from "~/ui/billing/billing-page";

export const meta: MetaFunction = () => [{ title: "Billing & credits · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadBillingPage(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return billingPageAction(request, await requireUser(request), "site");
}

export default function BillingPage() {
  return (
    <BillingAndCreditsPage
      data={useLoaderData<typeof loader>()}
      actionData={useActionData<typeof action>()}
      surface="site"
    />
  );
}
