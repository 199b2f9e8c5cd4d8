import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { expectedFailure } from "~/pages/form-errors.server";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useNavigation, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { BlockStack, Card, Divider, Text } from "@shopify/polaris";
import { fieldErrors, SignupSchema } from "~/domain/auth";
import { findPlan, formatUsd, isValidPlanChoice } from "~/domain/plans";
import { readForm } from "~/pages/http.server";
import type { loader as rootLoader } from "~/root";
import { createUserSession, requireAnonymous } from "~/pages/site-session.server";
import { accountEmails, auth } from "~/services/index.server";
import { EmailPasswordForm } from "~/ui/email-password-form";
import { GoogleButton } from "~/ui/google-button";

export const meta: MetaFunction = () => [{ title: "Start your free trial · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const values = { email: String(form.get("email") ?? "") };
  const parsed = SignupSchema.safeParse({
    email: form.get("email") ?? undefined,
    password: form.get("password") ?? undefined,
    plan: form.get("plan") ?? undefined,
    billing: form.get("billing") ?? undefined,
  });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values }, { status: 400 });
  const { email, password, plan } = parsed.data;
  const billing = parsed.data.billing ?? findPlan(plan)?.billing;
  if (plan && !isValidPlanChoice(plan, billing)) {
    return data({ errors: { plan: "Choose one of the plans shown on the plans page." }, values }, { status: 400 });
  }
  let result;
  try {
    result = await auth.signup({ email, password });
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ errors: { [String(failure.details.field ?? "email")]: failure.message }, values }, { status: failure.status });
  }
  // The confirmation link goes out as a job; the account works meanwhile (decision 051).
  await accountEmails.requestEmailVerification(result.userId);
  const cookie = await createUserSession(result.userId, request);
  const to = plan
    ? `/pay?${new URLSearchParams({ plan, billing: billing ?? "" }).toString()}`
    : "/choose-plan";
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}

export default function Signup() {
  const actionData = useActionData<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const plan = params.get("plan") ?? undefined;
  const billing = params.get("billing") ?? undefined;
  const chosen = findPlan(plan);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};

  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            Create your account
          </Text>
          {chosen ? (
            <Text as="p" tone="subdued">
              Plan: {chosen.name}, {formatUsd(chosen.priceCents)}
              {chosen.billing === "monthly" ? ` a month after a ${chosen.trialDays}-day free trial` : " once"}.
            </Text>
          ) : (
            <Text as="p" tone="subdued">
              Free to start. You choose a plan next.
            </Text>
          )}
          {root?.env.firebase ? (
            <>
              <GoogleButton config={root.env.firebase} mode="signup" plan={plan} billing={billing} />
              <Divider />
            </>
          ) : null}
          <EmailPasswordForm
            mode="signup"
            initialEmail={actionData?.values.email ?? params.get("email") ?? ""}
            errors={errors}
            submitLabel="Create account"
            submitting={navigation.state === "submitting"}
          >
            {plan ? <input type="hidden" name="plan" value={plan} /> : null}
            {billing ? <input type="hidden" name="billing" value={billing} /> : null}
            {errors.plan ? (
              <Text as="p" tone="critical">
                {errors.plan}
              </Text>
            ) : null}
          </EmailPasswordForm>
          <Text as="p" tone="subdued">
            By creating an account you accept the <Link to="/terms">Terms</Link> and the{" "}
            <Link to="/privacy">Privacy policy</Link>. Trials and refunds: <Link to="/refunds">Refund policy</Link>.
          </Text>
          <Text as="p">
            Already have an account? <Link to="/login">Log in</Link>
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
