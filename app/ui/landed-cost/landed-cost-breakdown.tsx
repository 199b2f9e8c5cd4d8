// The landed-cost lines of the profit calculator (decision 052): duty with an expandable sum of its layers
// ("duty 38.4% = MFN 3.4% + Section 301 (List 3) 25% + ... as of 2026-11-26"), each layer's dates and source, and
// the refund and chargeback reserves with their sources. What the duty assumes (the day, the table, the layers whose
// validity ended and are not counted) is said once per page (DutyNotice; decision 081), never once per product.
import { Banner, BlockStack, Box, Text } from "@shopify/polaris";
import { endedLayersSentence } from "~/domain/landed-cost/landed-cost";
import type { LandedCostView, LandedMargin } from "~/services/landed-cost.server";
import { HtsCodePicker } from "~/ui/landed-cost/hts-code-picker";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

type Serialized<T> = T extends (infer U)[] ? Serialized<U>[] : T extends object ? { [K in keyof T]: Serialized<T[K]> } : T;
export type LandedCostData = Serialized<LandedCostView>;

/**
 * `compact`: for lists of many products under one DutyNotice (glitch mode): no line about the day and the table. Without
 * it (the product page, one product) the breakdown says them itself, once.
 */
export function LandedCostBreakdown({
  view,
  dutyCents,
  refundCents,
  chargebackCents,
  compact = false,
  objectID,
}: {
  view: LandedCostData;
  /** With it (the product page), the seller can pick the HTS code from the nearest ones. */
  objectID?: string;
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
      {compact ? null : <DutyNotice asOf={duty.asOf} table={duty.table} notCounted={endedLayersSentence(duty.ended)} />}
      {objectID && view.htsGuess && !compact ? <HtsCodePicker objectID={objectID} current={duty.htsCode} reason={duty.htsReason} guess={view.htsGuess} /> : null}
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
                  {`${layer.name}: ${layer.ratePercent !== undefined ? `${layer.ratePercent}%` : ""}${layer.ratePercent !== undefined && layer.perItemCents !== undefined ? " + " : ""}${layer.perItemCents !== undefined ? `${formatMoney(layer.perItemCents)} per item` : ""}, valid from ${layer.validFrom}${layer.validTo ? ` until ${layer.validTo}` : ""}. Source: ${layer.source}`}
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

/** The grid card's margin after duty and fees; the sum is in the hover title and an expandable line. */
export function LandedMarginLine({ margin }: { margin: LandedMarginData }) {
  const text = `Margin after duty and fees ${(margin.marginBps / 100).toFixed(1).replace(/\.0$/, "")}%`;
  return (
    <details title={margin.explanation} data-testid="landed-margin">
      <summary>
        <Text as="span" variant="bodySm" tone="subdued">
          {text}
        </Text>
      </summary>
      <Text as="p" variant="bodySm" tone="subdued">
        {`Duty ${formatMoney(margin.dutyCents)}: ${margin.explanation}.`}
      </Text>
    </details>
  );
}

/**
 * Once per page (decision 081): the day the duty layers are figured for, the table they come from, and the layers whose
 * validity ended, which no figure on the page counts. Information, not a warning: nothing on the page is out of date.
 * `inset`: placed straight on the page, not in a card, so on a phone (where Polaris cards run edge to edge) it keeps the
 * page title's 16 px margin instead of touching the screen's edge.
 */
export function DutyNotice({ asOf, table, notCounted, inset = false }: { asOf: string | null; table: string; notCounted: string | null; inset?: boolean }) {
  if (!asOf) return null;
  return (
    <div data-testid="duty-notice">
      <Box paddingInline={inset ? { xs: "400", sm: "0" } : "0"}>
        <Text as="p" variant="bodySm" tone="subdued">
          {`Duty as of ${asOf}, from ${table}.${notCounted ? ` ${notCounted}` : ""}`}
        </Text>
      </Box>
    </div>
  );
}

/** DutyNotice for a page of cards (under the grid's, above a drop's), from their margins. */
export function CardsDutyNotice({ margins, inset = false }: { margins: readonly LandedMarginData[]; inset?: boolean }) {
  if (margins.length === 0) return null;
  return <DutyNotice asOf={margins[0].asOf} table={margins[0].table} notCounted={endedLayersSentence(margins.flatMap((m) => m.ended))} inset={inset} />;
}
