// The site's sign-up page: the plan chosen before (if any), Google (when configured), the e-mail/password form and
// the policies. Answers come from app/pages/accounts/auth.server.ts.
import { Link, useNavigation, useSearchParams } from "@remix-run/react";
import { Divider, Text } from "@shopify/polaris";
import type { FieldErrors } from "~/domain/accounts/auth";
import { findPlan, formatUsd } from "~/domain/billing/plans";
import type { PublicEnv } from "~/env.server";
import { EmailPasswordForm } from "~/ui/accounts/email-password-form";
import { GoogleButton } from "~/ui/accounts/google-button";
import { NarrowCard } from "~/ui/shared/narrow-card";

/** A refused sign-up: each field's sentence (the plan's too), and the address as typed. */
export type SignupActionData = { errors: FieldErrors; values: { email: string } };

export function SignupPage({ actionData, firebase }: { actionData: SignupActionData | undefined; firebase: PublicEnv["firebase"] }) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const plan = params.get("plan") ?? undefined;
  const billing = params.get("billing") ?? undefined;
  const chosen = findPlan(plan);
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};

  return (
    <NarrowCard title="Create your account">
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
      {firebase ? (
        <>
          <GoogleButton config={firebase} mode="signup" plan={plan} billing={billing} />
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
    </NarrowCard>
  );
}
