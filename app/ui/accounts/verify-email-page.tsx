// Confirming the account's e-mail address, or a new one (decision 079), from the link we sent: what happened,
// and where to go next. Data from app/pages/accounts/emails.server.ts (verifyEmailLoader).
import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Banner, Text } from "@shopify/polaris";
import type { verifyEmailLoader } from "~/pages/accounts/emails.server";
import { NarrowCard } from "~/ui/shared/narrow-card";

export function VerifyEmailPage({ result }: { result: SerializeFrom<typeof verifyEmailLoader> }) {
  return (
    <NarrowCard
      title={result.changed ? "Your e-mail address is changed" : result.confirmed ? "Your e-mail address is confirmed" : "This link does not work any more"}
    >
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
    </NarrowCard>
  );
}
