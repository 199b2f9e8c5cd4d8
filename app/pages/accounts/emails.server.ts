// The pages of the account e-mails (docs/decisions/051): /forgot-password (ask for a reset link), /reset-password
// (choose a new password from the link), /verify-email (open a confirmation link, or ask for a new one). The
// rules live in app/services/accounts/emails.server.ts; this is the HTTP around them.
import { data, redirect } from "@remix-run/node";
import { fieldErrors } from "~/domain/accounts/auth";
import { EmailSchema } from "~/domain/accounts/auth";
import { RESET_REQUESTED_MESSAGE, ResetPasswordSchema, TOKEN_PAGE_REFERRER_POLICY } from "~/domain/accounts/account-emails";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { clientIp, errorHeaders, readForm } from "~/pages/http/http.server";
import { getUser, requireUser } from "~/pages/http/site-session.server";
import { accountEmails } from "~/services/index.server";

/** Links carry a token: the pages that read one never send it in a Referer (only our origin) and are never cached. */
export const TOKEN_PAGE_HEADERS = { "Referrer-Policy": TOKEN_PAGE_REFERRER_POLICY, "Cache-Control": "no-store" };

export async function forgotPasswordAction(request: Request) {
  const form = await readForm(request);
  const email = String(form.get("email") ?? "");
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) {
    return data({ sent: false, message: null, formError: null, errors: { email: parsed.error.issues[0]?.message }, email }, { status: 400 });
  }
  try {
    await accountEmails.requestPasswordReset(parsed.data, { ip: clientIp(request) });
  } catch (error) {
    const failure = expectedFailure(error);
    return data(
      { sent: false, message: null, formError: failure.message, errors: {}, email },
      { status: failure.status, headers: errorHeaders(failure) },
    );
  }
  return data({ sent: true, message: RESET_REQUESTED_MESSAGE, formError: null, errors: {}, email: parsed.data });
}

export async function resetPasswordLoader(request: Request) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token !== "" && (await accountEmails.passwordResetLinkWorks(token));
  return data({ token: valid ? token : "", valid }, { headers: TOKEN_PAGE_HEADERS });
}

export async function resetPasswordAction(request: Request) {
  const form = await readForm(request);
  const parsed = ResetPasswordSchema.safeParse({ token: form.get("token") ?? undefined, password: form.get("password") ?? undefined });
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data({ formError: errors.token ?? null, errors }, { status: 400, headers: TOKEN_PAGE_HEADERS });
  }
  try {
    await accountEmails.resetPassword(parsed.data);
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ formError: failure.message, errors: {} }, { status: failure.status, headers: TOKEN_PAGE_HEADERS });
  }
  // Every session has ended, this browser's too: log in with the new password.
  return redirect("/login?reset=1", { headers: TOKEN_PAGE_HEADERS });
}

/** Opening a confirmation link (the account's address, or a new one: `changed`): confirmed, or why not. Works signed in or out. */
export async function verifyEmailLoader(request: Request) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const user = await getUser(request);
  try {
    const { email, changed } = await accountEmails.verifyEmail(token);
    return data({ confirmed: true, changed, email, error: null, signedIn: user !== null }, { headers: TOKEN_PAGE_HEADERS });
  } catch (error) {
    const failure = expectedFailure(error);
    return data(
      { confirmed: false, changed: false, email: null, error: failure.message, signedIn: user !== null },
      { status: failure.status, headers: TOKEN_PAGE_HEADERS },
    );
  }
}

/** "Resend" on the reminder: a new link to the signed-in user's address (429 past the limit). */
export async function verifyEmailAction(request: Request) {
  const user = await requireUser(request);
  await readForm(request);
  try {
    await accountEmails.requestEmailVerification(user.id, { resend: true });
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ ok: false, message: failure.message }, { status: failure.status, headers: errorHeaders(failure) });
  }
  return data({ ok: true, message: `We have sent a new link to ${user.email}.` });
}
