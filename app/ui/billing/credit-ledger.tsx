// The credit balances, one for the website and the Shopify app, with the AI ad balance over time, and the ledger
// behind them: each change with what it was for, naming (and linking) the product a spend was for.
import { DataTable, Link, Text } from "@shopify/polaris";
import { isUnlimited } from "~/domain/billing/credits";
import { featureLabel } from "~/domain/billing/plans";
import type { BillingPageData } from "~/ui/billing/billing-data";
import { researchPaths, type Surface } from "~/ui/research/research-paths";
import { LineChart } from "~/ui/shared/line-chart";
import { TitledCard } from "~/ui/shared/titled-card";

const credits = (n: number) => (isUnlimited(n) ? "Unlimited" : String(n));

export function CreditBalances({ balances, history }: Pick<BillingPageData, "balances" | "history">) {
  // Balance over time, oldest first, from the ledger (each row records the balance after it).
  const chartFeature = "ai-ads";
  const chartPoints = history
    .filter((h) => h.feature === chartFeature)
    .reverse()
    .map((h) => ({ at: h.createdAt.replace("T", " ").slice(0, 16), value: h.balanceAfter }));
  return (
    <TitledCard title="Credits">
      <Text as="p" tone="subdued">
        One balance for the website and the Shopify app. Each use costs: AI ads 5, automatic mode 4, everything
        else 1.
      </Text>
      <DataTable
        columnContentTypes={["text", "numeric", "numeric"]}
        headings={["Feature", "Balance", "Cost per use"]}
        rows={balances.map((b) => [featureLabel(b.feature), credits(b.balance), b.cost])}
      />
      {chartPoints.length > 1 ? (
        <LineChart points={chartPoints} label="AI ad credits over time" format={credits} />
      ) : null}
    </TitledCard>
  );
}

export function CreditHistory({ history, surface }: { history: BillingPageData["history"]; surface: Surface }) {
  return (
    <TitledCard title="Credit history">
      {history.length === 0 ? (
        <Text as="p" tone="subdued">
          No credit changes yet.
        </Text>
      ) : (
        <DataTable
          columnContentTypes={["text", "text", "text", "numeric", "numeric"]}
          headings={["When (UTC)", "Feature", "What", "Change", "Balance after"]}
          rows={history
            .slice(0, 30)
            .map((h) => [
              h.createdAt.replace("T", " ").slice(0, 16),
              featureLabel(h.feature),
              h.product ? (
                <span key={h.id}>
                  {h.product.before}
                  <Link url={researchPaths(surface).product(h.product.objectID)}>{h.product.title}</Link>
                  {h.product.after}
                </span>
              ) : (
                h.reason ?? h.kind
              ),
              h.amount > 0 ? `+${credits(h.amount)}` : String(h.amount),
              credits(h.balanceAfter),
            ])}
        />
      )}
    </TitledCard>
  );
}
