// The landed-cost lines of the profit calculator (decision 052): duty with an expandable sum of its layers
// ("duty 38.4% = MFN 3.4% + Section 301 (List 3) 25% + ... as of 2026-11-26"), each layer's dates and source,
// the warning when a layer's validity has ended, and the refund and chargeback reserves with their sources.
import { Banner, BlockStack, Text } from "@shopify/polaris";
import type { LandedCostView, LandedMargin } from "~/services/landed-cost.server";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

type Serialized<T> = T extends (infer U)[] ? Serialized<U>[] : T extends object ? { [K in keyof T]: Serialized<T[K]> } : T;
export type LandedCostData = Serialized<LandedCostView>;

/**
 * `compact`: the expired-layer warning as one short caution line (which layer ended when) instead of a banner, for
 * lists that show many products under one page-level banner with the whole sentence (glitch mode, decision 066).
 */
export function LandedCostBreakdown({
  view,
  dutyCents,
  refundCents,
  chargebackCents,
  compact = false,
}: {
  view: LandedCostData;
  dutyCents: number;
  refundCents: number;
  chargebackCents: number;
  compact?: boolean;
}) {
  if (!view.duty || !view.reserves) {
    return (
      <Banner tone="warning" title="Duty not included">
        <p>{view.unavailable}</p>
      </Banner>
    );
  }
  const { duty, reserves } = view;
  return (
    <BlockStack gap="200">
      {duty.warning && compact ? (
        <Text as="p" variant="bodySm" tone="caution">
          {`A duty layer has expired and is still counted: ${duty.layers
            .filter((l) => l.expired)
            .map((l) => `${l.name} ended ${l.validTo}`)
            .join(", ")}.`}
        </Text>
      ) : duty.warning ? (
        <Banner tone="warning" title="A duty layer has expired">
          <p>{duty.warning}</p>
        </Banner>
      ) : null}
      <details data-testid="landed-cost-duty">
        <summary>
          <Text as="span" variant="bodySm">
            {`Duty ${formatMoney(dutyCents)}: ${duty.explanation}`}
          </Text>
        </summary>
        <BlockStack gap="100">
          <Text as="p" variant="bodySm" tone="subdued">
            {`HTS ${duty.htsCode} (${duty.htsReason}); origin ${duty.origin} (${duty.originReason}). Charged on your product cost.`}
          </Text>
          <ul>
            {duty.layers.map((layer) => (
              <li key={`${layer.name}-${layer.validFrom}`}>
                <Text as="span" variant="bodySm">
                  {`${layer.name}: ${layer.ratePercent !== undefined ? `${layer.ratePercent}%` : ""}${layer.ratePercent !== undefined && layer.perItemCents !== undefined ? " + " : ""}${layer.perItemCents !== undefined ? `${formatMoney(layer.perItemCents)} per item` : ""}, valid from ${layer.validFrom}${layer.validTo ? ` until ${layer.validTo}` : ""}${layer.expired ? " (expired, still counted)" : ""}. Source: ${layer.source}`}
                </Text>
              </li>
            ))}
          </ul>
        </BlockStack>
      </details>
      <details>
        <summary>
          <Text as="span" variant="bodySm">
            {`Reserves ${formatMoney(refundCents + chargebackCents)}: refunds ${formatMoney(refundCents)} (${reserves.refundRateBp / 100}% of the price) + chargebacks ${formatMoney(chargebackCents)}`}
          </Text>
        </summary>
        <Text as="p" variant="bodySm" tone="subdued">
          {`${reserves.sources.refundRateBp} ${reserves.sources.chargebackRateBp} ${reserves.sources.chargebackFeeCents}`}
        </Text>
      </details>
    </BlockStack>
  );
}

export type LandedMarginData = LandedMargin;

/**
 * The grid card's margin after duty and fees; the sum is in the hover title and an expandable line. A lapsed layer
 * tints the line and is said in full in the expandable line; the page says it once beside the cards
 * (LapsedLayerBanner), so it is not repeated in every card's text.
 */
export function LandedMarginLine({ margin }: { margin: LandedMarginData }) {
  const text = `Margin after duty and fees ${(margin.marginBps / 100).toFixed(1).replace(/\.0$/, "")}%`;
  return (
    <details title={margin.warning ? `${margin.explanation}. ${margin.warning}` : margin.explanation} data-testid="landed-margin">
      <summary>
        <Text as="span" variant="bodySm" tone={margin.warning ? "caution" : "subdued"}>
          {text}
        </Text>
      </summary>
      <Text as="p" variant="bodySm" tone="subdued">
        {`Duty ${formatMoney(margin.dutyCents)}: ${margin.explanation}.${margin.warning ? ` ${margin.warning}` : ""}`}
      </Text>
    </details>
  );
}

/** Once beside a page of cards (under the grid's, above a drop's): a duty layer whose validity has ended is still counted in their margins. */
export function LapsedLayerBanner({ margins }: { margins: readonly LandedMarginData[] }) {
  const warning = margins.find((m) => m.warning)?.warning;
  if (!warning) return null;
  return (
    <Banner tone="warning" title="A duty layer has expired">
      <p>{`${warning} Every margin after duty and fees on this page still counts it (open a margin to see its sum).`}</p>
    </Banner>
  );
}
