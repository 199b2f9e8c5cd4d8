// /reset-password: controller app/pages/accounts/emails.server.ts, page app/ui/accounts/reset-password-page.tsx.
// The link works once; every session ends on use (decision 051).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TOKEN_PAGE_REFERRER_POLICY } from "~/domain/accounts/account-emails";
import { resetPasswordAction, resetPasswordLoader, TOKEN_PAGE_HEADERS } from "~/pages/accounts/emails.server";
import { pageHeaders } from "~/pages/http/page-headers.server";
import { ResetPasswordPage } from "~/ui/accounts/reset-password-page";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Winning Products" }, { name: "referrer", content: TOKEN_PAGE_REFERRER_POLICY }];

export const headers = pageHeaders(TOKEN_PAGE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  return resetPasswordLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return resetPasswordAction(request);
}

export default function ResetPassword() {
  return <ResetPasswordPage link={useLoaderData<typeof loader>()} result={useActionData<typeof action>()} />;
}
