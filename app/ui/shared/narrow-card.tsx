// The narrow card of the site's single-task pages: one centred column (.narrow in app.css, 440 px) holding one
// card headed by the page's h1. Log-in, sign-up, forgot and reset password, e-mail confirmation, the refused
// hand-off link, the Inner Circle offer and the checkout all wear it (decision 099), so they cannot drift.
import { Banner, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export function NarrowCard({
  title,
  aside,
  gap = "400",
  children,
}: {
  /** The page's h1. */
  title: ReactNode;
  /** Shown at the end of the title's line (a badge). */
  aside?: ReactNode;
  gap?: "300" | "400";
  children: ReactNode;
}) {
  const heading = (
    <Text as="h1" variant="headingLg">
      {title}
    </Text>
  );
  return (
    <div className="narrow">
      <Card>
        <BlockStack gap={gap}>
          {aside ? (
            <InlineStack align="space-between" blockAlign="center">
              {heading}
              {aside}
            </InlineStack>
          ) : (
            heading
          )}
          {children}
        </BlockStack>
      </Card>
    </div>
  );
}

/** A form's own refusal (not a field's), as a critical banner; nothing when there is none. */
export function FormErrorBanner({ message }: { message: string | null | undefined }) {
  return message ? (
    <Banner tone="critical">
      <p>{message}</p>
    </Banner>
  ) : null;
}
