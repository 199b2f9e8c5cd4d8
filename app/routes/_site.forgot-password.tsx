// /forgot-password: controller app/pages/accounts/emails.server.ts (forgotPasswordAction), page
// app/ui/accounts/forgot-password-page.tsx. The same answer whether or not an account uses the address (decision 051).
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { forgotPasswordAction } from "~/pages/accounts/emails.server";
import { retryAfterHeaders } from "~/pages/http/page-headers.server";
import { ForgotPasswordPage } from "~/ui/accounts/forgot-password-page";

export const meta: MetaFunction = () => [{ title: "Forgot your password · Winning Products" }];

/** A 429 (too many reset links asked for) keeps its Retry-After. */
export const headers = retryAfterHeaders;

export async function action({ request }: ActionFunctionArgs) {
  return forgotPasswordAction(request);
}

export default function ForgotPassword() {
  return <ForgotPasswordPage result={useActionData<typeof action>()} />;
}
