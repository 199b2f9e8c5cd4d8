// /signup: controller app/pages/accounts/auth.server.ts (signupAction), page app/ui/accounts/signup-page.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useRouteLoaderData } from "@remix-run/react";
import { signupAction } from "~/pages/accounts/auth.server";
import { retryAfterHeaders } from "~/pages/http/page-headers.server";
import { requireAnonymous } from "~/pages/http/site-session.server";
import type { loader as rootLoader } from "~/root";
import { SignupPage } from "~/ui/accounts/signup-page";

export const meta: MetaFunction = () => [{ title: "Start your free trial · Winning Products" }];

/** A 429 (decision 064) keeps its Retry-After. */
export const headers = retryAfterHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return signupAction(request);
}

export default function Signup() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return <SignupPage actionData={useActionData<typeof action>()} firebase={root?.env.firebase ?? null} />;
}
