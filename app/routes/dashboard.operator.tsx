// /dashboard/operator (operators only, 404 for everyone else): controller app/pages/operator/operator.server.ts,
// page app/ui/operator/operator-page.tsx (the inbox, then the observed stores and the measured catalogue, decision 047).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { loadOperatorPage, operatorPageAction } from "~/pages/operator/operator.server";
import { requireUser } from "~/pages/http/site-session.server";
import { OperatorPage } from "~/ui/operator/operator-page";

export const meta: MetaFunction = () => [{ title: "Operator inbox · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadOperatorPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return operatorPageAction(request, await requireUser(request));
}

export default function Operator() {
  return <OperatorPage data={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
