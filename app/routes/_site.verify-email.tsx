// Confirming the account's e-mail address, or a new one (decision 079), from the link we sent (GET), and "Resend"
// from the reminder (POST).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, Text } from "@shopify/polaris";
import { TOKEN_PAGE_REFERRER_POLICY } from "~/domain/accounts/account-emails";
import { TOKEN_PAGE_HEADERS, verifyEmailAction, verifyEmailLoader } from "~/pages/accounts/emails.server";
import { pageHeaders } from "~/pages/http/page-headers.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail · Winning Products" }, { name: "referrer", content: TOKEN_PAGE_REFERRER_POLICY }];

export const headers = pageHeaders(TOKEN_PAGE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  return verifyEmailLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return verifyEmailAction(request);
}

export default function VerifyEmail() {
  const result = useLoaderData<typeof loader>();
  return (
    <div className="narrow">
      <Card>
        <BlockStack gap="400">
          <Text as="h1" variant="headingLg">
            {result.changed ? "Your e-mail address is changed" : result.confirmed ? "Your e-mail address is confirmed" : "This link does not work any more"}
          </Text>
          {result.changed ? (
            <Banner tone="success">
              <p>
                Your account now uses {result.email}. Log in with it from now on; password reset links and subscription notices go
                there. Links we sent to your old address no longer work.
              </p>
            </Banner>
          ) : result.confirmed ? (
            <Banner tone="success">
              <p>Thank you: {result.email} is confirmed. Password reset links and subscription notices go there.</p>
            </Banner>
          ) : (
            <Banner tone="critical">
              <p>{result.error}</p>
            </Banner>
          )}
          <Text as="p">
            {result.signedIn ? <Link to="/dashboard?location=dashboard">Go to your dashboard</Link> : <Link to="/login">Log in</Link>}
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
