// /dashboard/account: the seller's own account. Change the password or the e-mail, download their data,
// sign out everywhere, delete the account; each confirmed with the password (or, for an account that
// only signs in with Google, its e-mail address), deletion also with the word DELETE. The rules live in
// app/services/accounts/account.server.ts, the form handling in app/pages/accounts/account.server.ts.
// The page itself is app/ui/accounts/account-page.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { accountPageAction, loadAccountPage, type AccountOutcome } from "~/pages/accounts/account.server";
import { retryAfterHeaders } from "~/pages/http/page-headers.server";
import { requireUser } from "~/pages/http/site-session.server";
import { AccountPage } from "~/ui/accounts/account-page";

export const meta: MetaFunction = () => [{ title: "Account · Winning Products" }];

/** A 429 (too many wrong confirmations, or e-mail changes) keeps its Retry-After. */
export const headers = retryAfterHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  return loadAccountPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return accountPageAction(request, await requireUser(request));
}

export default function Account() {
  return <AccountPage overview={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as AccountOutcome | undefined} />;
}
