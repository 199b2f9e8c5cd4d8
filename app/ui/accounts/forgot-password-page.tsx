// Asking for a password reset link (decision 051): the same answer whether or not an account uses the address.
// Answers come from app/pages/accounts/emails.server.ts (forgotPasswordAction).
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { forgotPasswordAction } from "~/pages/accounts/emails.server";
import { FormErrorBanner, NarrowCard } from "~/ui/shared/narrow-card";

export function ForgotPasswordPage({ result }: { result: SerializeFrom<typeof forgotPasswordAction> | undefined }) {
  const navigation = useNavigation();
  const [email, setEmail] = useState(result?.email ?? "");
  const errors: Record<string, string | undefined> = result?.errors ?? {};

  return (
    <NarrowCard title="Forgot your password?">
      {result?.sent ? (
        <Banner tone="success" title="Check your e-mail">
          <p>{result.message}</p>
        </Banner>
      ) : (
        <Text as="p" tone="subdued">
          Enter the e-mail address of your account. We will send you a link to choose a new password.
        </Text>
      )}
      <FormErrorBanner message={result?.formError} />
      <Form method="post" noValidate>
        <BlockStack gap="300">
          <TextField label="E-mail" name="email" type="email" autoComplete="email" value={email} onChange={setEmail} error={errors.email} />
          <Button submit variant="primary" loading={navigation.state === "submitting"} fullWidth>
            {result?.sent ? "Send the link again" : "Send me a reset link"}
          </Button>
        </BlockStack>
      </Form>
      <Text as="p">
        Remembered it? <Link to="/login">Log in</Link>
      </Text>
    </NarrowCard>
  );
}
