// Choosing a new password from a reset link (decision 051): the link works once; every session ends on use.
// Data from app/pages/accounts/emails.server.ts (resetPasswordLoader, resetPasswordAction).
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { INVALID_RESET_LINK } from "~/domain/accounts/account-emails";
import { PASSWORD_MIN_LENGTH } from "~/domain/accounts/auth";
import type { resetPasswordAction, resetPasswordLoader } from "~/pages/accounts/emails.server";
import { FormErrorBanner, NarrowCard } from "~/ui/shared/narrow-card";

export function ResetPasswordPage({
  link: { token, valid },
  result,
}: {
  link: SerializeFrom<typeof resetPasswordLoader>;
  result: SerializeFrom<typeof resetPasswordAction> | undefined;
}) {
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const errors: Record<string, string | undefined> = result?.errors ?? {};

  if (!valid) {
    return (
      <NarrowCard title="Choose a new password">
        <Banner tone="critical">
          <p>{INVALID_RESET_LINK}</p>
        </Banner>
        <Text as="p">
          <Link to="/forgot-password">Ask for a new link</Link> or <Link to="/login">log in</Link>.
        </Text>
      </NarrowCard>
    );
  }
  return (
    <NarrowCard title="Choose a new password">
      <FormErrorBanner message={result?.formError} />
      <Text as="p" tone="subdued">
        After you save it, every device signed in to your account is signed out. Log in again with the new password.
      </Text>
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={token} />
        <BlockStack gap="300">
          <TextField
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            helpText={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            error={errors.password}
          />
          <Button submit variant="primary" loading={navigation.state === "submitting"} fullWidth>
            Save my new password
          </Button>
        </BlockStack>
      </Form>
    </NarrowCard>
  );
}
