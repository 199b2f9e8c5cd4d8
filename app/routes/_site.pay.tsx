// /pay: controller app/pages/billing/pay.server.ts, page app/ui/billing/pay-page.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadPayPage, payPageAction } from "~/pages/billing/pay.server";
import { requireUser } from "~/pages/http/site-session.server";
import { PayPage } from "~/ui/billing/pay-page";

export const meta: MetaFunction = () => [{ title: "Checkout · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadPayPage(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return payPageAction(request, await requireUser(request));
}

export default function Pay() {
  return <PayPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />;
}
