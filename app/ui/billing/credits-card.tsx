// The credit balances at a glance, for the home page of both surfaces (the full table with costs and
// history is on Billing & credits).
import { BlockStack, Button, DataTable, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { featureLabel } from "~/domain/billing/plans";
import { TitledCard } from "~/ui/shared/titled-card";

export function CreditsCard({
  credits,
  creditsUrl,
  children,
}: {
  credits: { feature: string; balance: number; unlimited: boolean }[];
  /** Where credits come from (the credit packs on Billing & credits): linked when a balance is empty. */
  creditsUrl?: string;
  /** The surface's link to Billing & credits, if it shows one. */
  children?: ReactNode;
}) {
  const empty = credits.filter((c) => !c.unlimited && c.balance <= 0).map((c) => featureLabel(c.feature));
  return (
    <TitledCard title="Credits">
      {creditsUrl && empty.length > 0 ? (
        <BlockStack gap="100">
          <Text as="p" tone="caution">{`Out of credits for ${empty.join(", ")}.`}</Text>
          <div>
            <Button url={creditsUrl} variant="primary">
              Get more credits
            </Button>
          </div>
        </BlockStack>
      ) : null}
      <DataTable
        columnContentTypes={["text", "numeric"]}
        headings={["Feature", "Balance"]}
        rows={credits.map((c) => [featureLabel(c.feature), c.unlimited ? "Unlimited" : String(c.balance)])}
      />
      {children}
    </TitledCard>
  );
}
