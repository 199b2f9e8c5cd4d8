// /login and /signup (site only): the two forms' actions. Each form is read with zod (LoginForm, SignupForm:
// the domain's LoginSchema / SignupSchema and the page's own fields); a refused field comes back with its
// sentence under that field, anything auth.server.ts refuses as the form's sentence (login) or under the field
// it names (signup), a 429 with its Retry-After (decision 064). A success sets the session cookie and redirects.
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { fieldErrors, LoginSchema, SignupSchema } from "~/domain/accounts/auth";
import { findPlan, isValidPlanChoice } from "~/domain/billing/plans";
import { REDIRECT_TO_PARAM, safeRedirectPath } from "~/domain/accounts/redirect-to";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { clientIp, errorHeaders, formFields, readForm } from "~/pages/http/http.server";
import { createUserSession } from "~/pages/http/site-session.server";
import { accountEmails, auth } from "~/services/index.server";

/**
 * The log-in form: e-mail, password, where to go next (a same-origin path only), and `innerCircle`, which a link to
 * /login?innerCircle=1 carries (the seed's Inner Circle option): then the Inner Circle offer comes next.
 */
export const LoginForm = LoginSchema.extend({ [REDIRECT_TO_PARAM]: z.unknown().optional().transform(safeRedirectPath) });

/** The sign-up form: e-mail, password, and the plan chosen before (optional). */
export const SignupForm = SignupSchema;

/** What the form shows again after a refusal: the address as typed. */
const typedValues = (fields: Record<string, unknown>) => ({ email: String(fields.email ?? "") });

export async function loginAction(request: Request) {
  const fields = formFields(await readForm(request));
  const values = typedValues(fields);
  const parsed = LoginForm.safeParse(fields);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), formError: null, values }, { status: 400 });
  const { email, password, innerCircle } = parsed.data;
  let result;
  try {
    result = await auth.login({ email, password }, { ip: clientIp(request) });
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ errors: {}, formError: failure.message, values }, { status: failure.status, headers: errorHeaders(failure) });
  }
  const cookie = await createUserSession(result.userId, request);
  // Back to the page the visitor asked for, else the dashboard as before.
  const to = innerCircle ? "/purchase-inner-circle" : (parsed.data[REDIRECT_TO_PARAM] ?? "/dashboard?location=dashboard");
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}

export async function signupAction(request: Request) {
  const fields = formFields(await readForm(request));
  const values = typedValues(fields);
  const parsed = SignupForm.safeParse(fields);
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values }, { status: 400 });
  const { email, password, plan } = parsed.data;
  const billing = parsed.data.billing ?? findPlan(plan)?.billing;
  // Checked once the fields are valid, so a bad address is not answered with a plan error as well.
  if (plan && !isValidPlanChoice(plan, billing)) {
    return data({ errors: { plan: "Choose one of the plans shown on the plans page." }, values }, { status: 400 });
  }
  let result;
  try {
    result = await auth.signup({ email, password }, { ip: clientIp(request) });
  } catch (error) {
    const failure = expectedFailure(error);
    return data(
      { errors: { [String(failure.details.field ?? "email")]: failure.message }, values },
      { status: failure.status, headers: errorHeaders(failure) },
    );
  }
  // The confirmation link goes out as a job; the account works meanwhile (decision 051).
  await accountEmails.requestEmailVerification(result.userId);
  const cookie = await createUserSession(result.userId, request);
  const to = plan ? `/pay?${new URLSearchParams({ plan, billing: billing ?? "" }).toString()}` : "/choose-plan";
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}
