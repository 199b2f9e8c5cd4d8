// /dashboard/assistant: the research assistant's threads, questions in plain words answered with
// products and the filters they used. The page (app/ui/research/assistant-page.tsx) and its loader and action
// (app/pages/research/assistant.server.ts) are the same in Shopify admin (/app/assistant).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { assistantPageAction, loadAssistantPage } from "~/pages/research/assistant.server";
import { requireUser } from "~/pages/http/site-session.server";
import { AssistantPage } from "~/ui/research/assistant-page";

export const meta: MetaFunction = () => [{ title: "Research assistant · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadAssistantPage(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return assistantPageAction(request, await requireUser(request));
}

export default function DashboardAssistant() {
  return <AssistantPage data={useLoaderData<typeof loader>()} surface="site" />;
}
