// /login: controller app/pages/accounts/auth.server.ts (loginAction), page app/ui/accounts/login-page.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useRouteLoaderData } from "@remix-run/react";
import { loginAction } from "~/pages/accounts/auth.server";
import { retryAfterHeaders } from "~/pages/http/page-headers.server";
import { requireAnonymous } from "~/pages/http/site-session.server";
import type { loader as rootLoader } from "~/root";
import { LoginPage } from "~/ui/accounts/login-page";

export const meta: MetaFunction = () => [{ title: "Log in · Winning Products" }];

/** A 429 (decision 064) keeps its Retry-After. */
export const headers = retryAfterHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  return loginAction(request);
}

export default function Login() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return <LoginPage actionData={useActionData<typeof action>()} firebase={root?.env.firebase ?? null} />;
}
