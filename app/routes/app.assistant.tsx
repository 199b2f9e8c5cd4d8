// The research assistant inside Shopify admin: the same threads, questions and answers as
// /dashboard/assistant (one page component, one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { assistantPageAction, loadAssistantPage } from "~/pages/research/assistant.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { AssistantPage } from "~/ui/research/assistant-page";

export const meta: MetaFunction = () => [{ title: "Research assistant · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadAssistantPage(request, user);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return assistantPageAction(request, user);
}

export default function EmbeddedAssistant() {
  return <AssistantPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
