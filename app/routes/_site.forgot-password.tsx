// Asking for a password reset link (decision 051): the same answer whether or not an account uses the address.
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { forgotPasswordAction } from "~/pages/accounts/emails.server";
import { retryAfterHeaders } from "~/pages/http/page-headers.server";

export const meta: MetaFunction = () => [{ title: "Forgot your password · Winning Products" }];

/** A 429 (too many reset links asked for) keeps its Retry-After. */
export const headers = retryAfterHeaders;

export async function action({ request }: ActionFunctionArgs) {
  return forgotPasswordAction(request);
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [email, setEmail] = useState(result?.email ?? "");
  const errors: Record<string, string | undefined> = result?.errors ?? {};

  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            Forgot your password?
          </Text>
          {result?.sent ? (
            <Banner tone="success" title="Check your e-mail">
              <p>{result.message}</p>
            </Banner>
          ) : (
            <Text as="p" tone="subdued">
              Enter the e-mail address of your account. We will send you a link to choose a new password.
            </Text>
          )}
          {result?.formError ? (
            <Banner tone="critical">
              <p>{result.formError}</p>
            </Banner>
          ) : null}
          <Form method="post" noValidate>
            <BlockStack gap="300">
              <TextField
                label="E-mail"
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={setEmail}
                error={errors.email}
              />
              <Button submit variant="primary" loading={navigation.state === "submitting"} fullWidth>
                {result?.sent ? "Send the link again" : "Send me a reset link"}
              </Button>
            </BlockStack>
          </Form>
          <Text as="p">
            Remembered it? <Link to="/login">Log in</Link>
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
