// Banners about the account itself, above every dashboard page (decision 051): "confirm your e-mail" with a
// Resend button (the account works meanwhile), and "You are in the demo account" on the README's demo login.
import { useFetcher } from "@remix-run/react";
import { Banner, Box, Button, InlineStack, Text } from "@shopify/polaris";

export interface AccountBannersProps {
  email: string;
  emailVerified: boolean;
  demo: boolean;
}

function ConfirmEmailBanner({ email }: { email: string }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  const answer = fetcher.data;
  return (
    <Banner tone={answer && !answer.ok ? "critical" : "warning"} title="Confirm your e-mail address">
      <InlineStack gap="300" blockAlign="center" wrap>
        <Text as="p">
          {answer ? answer.message : `We sent a link to ${email}. Open it so password reset links and billing notices reach you.`}
        </Text>
        <fetcher.Form method="post" action="/verify-email">
          <Button submit size="slim" loading={fetcher.state !== "idle"}>
            Resend the link
          </Button>
        </fetcher.Form>
      </InlineStack>
    </Banner>
  );
}

export function AccountBanners({ email, emailVerified, demo }: AccountBannersProps) {
  if (!demo && emailVerified) return null;
  return (
    <Box paddingInline="400" paddingBlockStart="400">
      {demo ? (
        <Banner tone="info" title="You are in the demo account">
          <p>
            Everything here is a sample: a Pro plan trial with credits, bought through the local test checkout. Changes you
            make are visible to anyone who uses the demo login. <a href="/signup">Start your own free trial</a>.
          </p>
        </Banner>
      ) : (
        <ConfirmEmailBanner email={email} />
      )}
    </Box>
  );
}
