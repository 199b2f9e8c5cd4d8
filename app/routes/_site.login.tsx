import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { expectedFailure } from "~/pages/form-errors.server";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useNavigation, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Card, Checkbox, Divider, Text } from "@shopify/polaris";
import { useState } from "react";
import { fieldErrors, LoginSchema } from "~/domain/auth";
import { REDIRECT_TO_PARAM, safeRedirectPath } from "~/domain/redirect-to";
import { clientIp, readForm } from "~/pages/http.server";
import type { loader as rootLoader } from "~/root";
import { createUserSession, requireAnonymous } from "~/pages/site-session.server";
import { auth } from "~/services/index.server";
import { EmailPasswordForm } from "~/ui/email-password-form";
import { GoogleButton } from "~/ui/google-button";

export const meta: MetaFunction = () => [{ title: "Log in · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const values = { email: String(form.get("email") ?? "") };
  const parsed = LoginSchema.safeParse({
    email: form.get("email") ?? undefined,
    password: form.get("password") ?? undefined,
    innerCircle: form.get("innerCircle") ?? undefined,
  });
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error), formError: null, values }, { status: 400 });
  let result;
  try {
    result = await auth.login(parsed.data, { ip: clientIp(request) });
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ errors: {}, formError: failure.message, values }, { status: failure.status });
  }
  const cookie = await createUserSession(result.userId, request);
  // Back to the page the visitor asked for (a same-origin path only), else the dashboard as before.
  const asked = safeRedirectPath(form.get(REDIRECT_TO_PARAM));
  const to = parsed.data.innerCircle ? "/purchase-inner-circle" : (asked ?? "/dashboard?location=dashboard");
  return redirect(to, { headers: { "Set-Cookie": cookie } });
}

export default function Login() {
  const actionData = useActionData<typeof action>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const [innerCircle, setInnerCircle] = useState(params.get("innerCircle") === "1");
  const redirectTo = safeRedirectPath(params.get(REDIRECT_TO_PARAM));
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};

  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            Log in
          </Text>
          {params.get("reset") === "1" && !actionData ? (
            <Banner tone="success">
              <p>Your password is changed and every device was signed out. Log in with your new password.</p>
            </Banner>
          ) : null}
          {actionData?.formError ? (
            <Banner tone="critical">
              <p>{actionData.formError}</p>
            </Banner>
          ) : null}
          {root?.env.firebase ? (
            <>
              <GoogleButton config={root.env.firebase} mode="signin" />
              <Divider />
            </>
          ) : null}
          <EmailPasswordForm
            mode="login"
            initialEmail={actionData?.values.email ?? ""}
            errors={errors}
            submitLabel="Log in"
            submitting={navigation.state === "submitting"}
            hidden={redirectTo ? <input type="hidden" name={REDIRECT_TO_PARAM} value={redirectTo} /> : null}
          >
            <Checkbox
              label="Take me to the Inner Circle offer after I log in"
              name="innerCircle"
              value="1"
              checked={innerCircle}
              onChange={setInnerCircle}
            />
          </EmailPasswordForm>
          <Text as="p">
            <Link to="/forgot-password">Forgot your password?</Link>
          </Text>
          <Text as="p">
            New here? <Link to="/signup">Start your free trial</Link>
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
