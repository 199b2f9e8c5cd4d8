// The site's log-in page: Google (when configured), the e-mail/password form, and where a reset password or a
// redirect sends the visitor. A link to /login?innerCircle=1 (the seed's Inner Circle option) goes on to the Inner
// Circle offer after logging in, said above the form; nobody else is offered it here. Answers come from
// app/pages/accounts/auth.server.ts.
import { Link, useNavigation, useSearchParams } from "@remix-run/react";
import { Banner, Divider, Text } from "@shopify/polaris";
import type { FieldErrors } from "~/domain/accounts/auth";
import { REDIRECT_TO_PARAM, safeRedirectPath } from "~/domain/accounts/redirect-to";
import type { PublicEnv } from "~/env.server";
import { EmailPasswordForm } from "~/ui/accounts/email-password-form";
import { GoogleButton } from "~/ui/accounts/google-button";
import { FormErrorBanner, NarrowCard } from "~/ui/shared/narrow-card";

/** A refused log-in: the fields' sentences, or the form's own, and the address as typed. */
export type LoginActionData = { errors: FieldErrors; formError: string | null; values: { email: string } };

export function LoginPage({ actionData, firebase }: { actionData: LoginActionData | undefined; firebase: PublicEnv["firebase"] }) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const innerCircle = params.get("innerCircle") === "1";
  const redirectTo = safeRedirectPath(params.get(REDIRECT_TO_PARAM));
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};

  return (
    <NarrowCard title="Log in">
      {params.get("reset") === "1" && !actionData ? (
        <Banner tone="success">
          <p>Your password is changed and every device was signed out. Log in with your new password.</p>
        </Banner>
      ) : null}
      {innerCircle ? (
        <Text as="p" tone="subdued">
          After you log in we show you the Inner Circle offer.
        </Text>
      ) : null}
      <FormErrorBanner message={actionData?.formError} />
      {firebase ? (
        <>
          <GoogleButton config={firebase} mode="signin" />
          <Divider />
        </>
      ) : null}
      <EmailPasswordForm
        mode="login"
        initialEmail={actionData?.values.email ?? ""}
        errors={errors}
        submitLabel="Log in"
        submitting={navigation.state === "submitting"}
        hidden={
          <>
            {redirectTo ? <input type="hidden" name={REDIRECT_TO_PARAM} value={redirectTo} /> : null}
            {innerCircle ? <input type="hidden" name="innerCircle" value="1" /> : null}
          </>
        }
      />
      <Text as="p">
        <Link to="/forgot-password">Forgot your password?</Link>
      </Text>
      <Text as="p">
        New here? <Link to="/signup">Start your free trial</Link>
      </Text>
    </NarrowCard>
  );
}
