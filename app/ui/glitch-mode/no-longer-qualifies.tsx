// Glitch mode's products that reach 20% on the plain spread but no longer after duty and fees (decision 066), as a
// seller can use them on a phone (issue 35 item 14, decision 092): a card with their count and why, and the list behind
// a disclosure, closed until asked for. Each row is the title and its one-sentence reason (the sentence already names
// the duty, the fees and the reserves); how it was figured (the estimate, each duty layer, the reserves) is one more
// disclosure in the row. What the duty assumes is said once at the top of the page (DutyNotice), never here.
import { Badge, BlockStack, Box, InlineStack, Link, Text } from "@shopify/polaris";
import { formatCount } from "~/domain/products/insights";
import type { GlitchLandedView, NoLongerGlitch } from "~/services/glitch-mode.server";
import { LandedCostBreakdown } from "~/ui/landed-cost/landed-cost-breakdown";
import { ProductImage } from "~/ui/research/product-card";
import type { ResearchPaths } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";

/**
 * The spread after duty and fees in one line, marked an estimate with the day of its duty layers, and the
 * landed-cost breakdown's expandable lines (the duty layers' sum, each layer's dates and source; the reserves).
 */
export function LandedSpreadLines({ landed }: { landed: GlitchLandedView }) {
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <Badge tone="info">Estimate</Badge>
        <Text as="p" variant="bodySm">
          {`${landed.explanation} (duty as of ${landed.asOf})`}
        </Text>
      </InlineStack>
      <LandedCostBreakdown view={landed.breakdown} dutyCents={landed.dutyCents} refundCents={landed.refundCents} chargebackCents={landed.chargebackCents} compact />
    </BlockStack>
  );
}

/** One product that no longer qualifies: greyed title, why in one sentence, and how it was figured behind a disclosure. */
function NoLongerRow({ item, paths }: { item: NoLongerGlitch; paths: ResearchPaths }) {
  const { landed } = item;
  return (
    <li style={{ borderTop: "1px solid var(--p-color-border-secondary)" }} data-testid="glitch-no-longer">
      <Box paddingBlock="300">
        <BlockStack gap="200">
          <div style={{ opacity: 0.6 }}>
            <InlineStack gap="300" blockAlign="center" wrap={false}>
              <ProductImage src={item.image} alt="" size={40} />
              <BlockStack gap="050">
                <Link url={paths.product(item.objectID)} removeUnderline>
                  <Text as="span" variant="headingSm" tone="subdued">
                    {item.title}
                  </Text>
                </Link>
                <InlineStack gap="100">
                  <Badge>No longer qualifies after duty</Badge>
                  {item.sampleData ? <Badge tone="attention">Sample data</Badge> : null}
                </InlineStack>
              </BlockStack>
            </InlineStack>
          </div>
          {landed ? (
            <>
              <Text as="p" variant="bodySm">
                {landed.reason}
              </Text>
              <details data-testid="glitch-no-longer-figures">
                <summary>
                  <Text as="span" variant="bodySm">
                    How it was figured
                  </Text>
                </summary>
                <LandedSpreadLines landed={landed} />
              </details>
            </>
          ) : null}
        </BlockStack>
      </Box>
    </li>
  );
}

/** The card: how many no longer qualify and why, the list (the first `items.length` by spread before duty) closed. */
export function NoLongerQualifies({
  noLonger,
  minSpreadPercent,
  reveal,
  paths,
}: {
  noLonger: { total: number; items: NoLongerGlitch[] };
  minSpreadPercent: number;
  reveal: boolean;
  paths: ResearchPaths;
}) {
  const { total, items } = noLonger;
  if (total === 0) return null;
  const shown = items.length;
  return (
    <TitledCard title={`No longer qualifies after duty: ${formatCount(total)} ${total === 1 ? "product" : "products"}`}>
      <Text as="p" variant="bodySm" tone="subdued">
        {`Their spread reaches ${minSpreadPercent}% of the Amazon price before duty, but not once duty, payment fees and the refund reserve are taken off.${reveal ? "" : " Paid plans see why for each."}`}
      </Text>
      <details data-testid="glitch-no-longer-list">
        <summary>
          <Text as="span" variant="bodyMd" fontWeight="semibold">
            {shown < total ? `Show the ${formatCount(shown)} with the largest spread before duty` : `Show ${total === 1 ? "it" : `all ${formatCount(total)}`}`}
          </Text>
        </summary>
        <ul aria-label="Products that no longer qualify after duty" style={{ listStyle: "none", margin: "var(--p-space-200) 0 0", padding: 0 }}>
          {items.map((item) => (
            <NoLongerRow key={item.objectID} item={item} paths={paths} />
          ))}
        </ul>
      </details>
    </TitledCard>
  );
}
