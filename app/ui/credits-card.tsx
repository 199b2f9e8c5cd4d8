// The credit balances at a glance, for the home page of both surfaces (the full table with costs and
// history is on Billing & credits).
import { DataTable } from "@shopify/polaris";
import type { ReactNode } from "react";
import { featureLabel } from "~/domain/plans";
import { TitledCard } from "~/ui/titled-card";

export function CreditsCard({
  credits,
  children,
}: {
  credits: { feature: string; balance: number; unlimited: boolean }[];
  /** The surface's link to Billing & credits, if it shows one. */
  children?: ReactNode;
}) {
  return (
    <TitledCard title="Credits">
      <DataTable
        columnContentTypes={["text", "numeric"]}
        headings={["Feature", "Balance"]}
        rows={credits.map((c) => [featureLabel(c.feature), c.unlimited ? "Unlimited" : String(c.balance)])}
      />
      {children}
    </TitledCard>
  );
}
