// Choosing a new password from a reset link (decision 051): the link works once; every session ends on use.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { INVALID_RESET_LINK, TOKEN_PAGE_REFERRER_POLICY } from "~/domain/accounts/account-emails";
import { PASSWORD_MIN_LENGTH } from "~/domain/accounts/auth";
import { resetPasswordAction, resetPasswordLoader, TOKEN_PAGE_HEADERS } from "~/pages/accounts/emails.server";
import { pageHeaders } from "~/pages/http/page-headers.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Winning Products" }, { name: "referrer", content: TOKEN_PAGE_REFERRER_POLICY }];

export const headers = pageHeaders(TOKEN_PAGE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  return resetPasswordLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return resetPasswordAction(request);
}

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const errors: Record<string, string | undefined> = result?.errors ?? {};

  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            Choose a new password
          </Text>
          {!valid ? (
            <>
              <Banner tone="critical">
                <p>{INVALID_RESET_LINK}</p>
              </Banner>
              <Text as="p">
                <Link to="/forgot-password">Ask for a new link</Link> or <Link to="/login">log in</Link>.
              </Text>
            </>
          ) : (
            <>
              {result?.formError ? (
                <Banner tone="critical">
                  <p>{result.formError}</p>
                </Banner>
              ) : null}
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
            </>
          )}
        </BlockStack>
      </Card>
    </div>
  );
}
