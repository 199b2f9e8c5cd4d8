// /dashboard/feedback: a feedback form and a bug report form (controller app/pages/feedback/feedback.server.ts,
// component app/ui/shared/feedback-page.tsx). Limits and messages live in feedback.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { feedbackAction, loadFeedbackPage } from "~/pages/feedback/feedback.server";
import { requireUser } from "~/pages/http/site-session.server";
import { FeedbackPage } from "~/ui/shared/feedback-page";

export const meta: MetaFunction = () => [{ title: "Feedback · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadFeedbackPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return feedbackAction(request, await requireUser(request));
}

export default function Feedback() {
  const { operator } = useLoaderData<typeof loader>();
  return <FeedbackPage operator={operator} result={useActionData<typeof action>()} />;
}
