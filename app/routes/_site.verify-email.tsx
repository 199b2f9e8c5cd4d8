// Confirming the account's e-mail address, or a new one (decision 079), from the link we sent (GET), and "Resend"
// from the reminder (POST). Controller app/pages/accounts/emails.server.ts, page app/ui/accounts/verify-email-page.tsx.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TOKEN_PAGE_REFERRER_POLICY } from "~/domain/accounts/account-emails";
import { TOKEN_PAGE_HEADERS, verifyEmailAction, verifyEmailLoader } from "~/pages/accounts/emails.server";
import { pageHeaders } from "~/pages/http/page-headers.server";
import { VerifyEmailPage } from "~/ui/accounts/verify-email-page";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail · Winning Products" }, { name: "referrer", content: TOKEN_PAGE_REFERRER_POLICY }];

export const headers = pageHeaders(TOKEN_PAGE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  return verifyEmailLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return verifyEmailAction(request);
}

export default function VerifyEmail() {
  return <VerifyEmailPage result={useLoaderData<typeof loader>()} />;
}
