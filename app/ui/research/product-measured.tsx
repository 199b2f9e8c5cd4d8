// The sections of a measured product's page (docs/decisions/046, 048), on both surfaces: its figures, each
// saying measured or estimated and its day (the reviews its stores publish too, or "No review data"; decision 094);
// the listings on the stores we observe (store, price in its currency, availability, reviews, a link to the store's
// page, first seen); stores selling over time; and the evidence
// of each match. Nothing here names who follows a store.
import { Badge, BlockStack, Card, DataTable, InlineGrid, InlineStack, Link, List, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { formatCount, INSIGHT_NOTES } from "~/domain/products/insights";
import { figureKind, soldByStores, type ShownFigure } from "~/domain/catalogue/measured-product";
import { NO_REVIEW_DATA } from "~/domain/catalogue/review-signals";
import type { ProductDetail } from "~/services/products.server";
import { FiguresCard } from "~/ui/research/figures-card";
import { formatDay, formatPrice, StageBadge } from "~/ui/research/product-card";
import { TrendChart } from "~/ui/shared/trend-chart";

type Measured = NonNullable<ProductDetail["measured"]>;
type Offer = ProductDetail["offers"][number];
type Signals = NonNullable<ProductDetail["signals"]>;

const dayOf = (day: string) => formatDay(`${day}T00:00:00Z`);

/** A price in the listing's own currency, its code after any other than dollars ("€24.95 EUR"); without a known currency, the amount alone. */
export function formatListedPrice(cents: number | null, currency: string | null): string {
  if (cents === null) return "No price";
  if (currency === null) return (cents / 100).toFixed(2);
  return formatPrice(cents, currency);
}

/**
 * What is said beside a price as listed (decision 089): its dollar figure and the day of the reference rate it was
 * converted at ("$20.26 at the rate of Jul 18, 2022"), or why it was not converted; "" for a price in dollars.
 */
export function conversionWords(c: { converted: { cents: number; rateDate: string } | null; conversionNote?: string | null; currency?: string | null }): string {
  if (c.converted) return `${formatPrice(c.converted.cents, "USD")} at the rate of ${dayOf(c.converted.rateDate)}`;
  if (!c.conversionNote) return "";
  return c.currency === null ? "currency unknown, not converted" : `no reference rate for ${c.currency}, not converted`;
}

function availabilityWords(available: boolean | null): string {
  if (available === null) return "Not published";
  return available ? "In stock" : "Out of stock";
}

function figureRow(label: string, f: ShownFigure<unknown>, value: string): [string, string, string] {
  return [label, value, `${figureKind(f)} · ${dayOf(f.asOf)}`];
}

/** Every figure of a measured product, measured or estimated, with its day; orders are said to be not measured. */
export function MeasuredFigures({ figures, signals, currency }: { figures: Measured; signals: Signals | null; currency: string | null }) {
  const rows: [string, string, string][] = [
    figureRow("Stores selling", figures.storesSelling, formatCount(figures.storesSelling.value)),
    figureRow("Stores added (7 days)", figures.storesAdded7d, formatCount(figures.storesAdded7d.value)),
    figureRow("Stores added (30 days)", figures.storesAdded30d, formatCount(figures.storesAdded30d.value)),
  ];
  if (signals) {
    rows.push(figureRow("Stores dropped (7 days)", signals.storesDropped7d, formatCount(signals.storesDropped7d.value)));
    if (signals.priceMinCents.value !== null) {
      rows.push(
        figureRow(
          "Price across stores",
          signals.priceMedianCents,
          `${formatListedPrice(signals.priceMinCents.value, signals.priceCurrency ?? currency)} to ${formatListedPrice(signals.priceMaxCents.value, signals.priceCurrency ?? currency)} (median ${formatListedPrice(signals.priceMedianCents.value, signals.priceCurrency ?? currency)})${
            signals.priceRateDate ? `, other currencies converted at the reference rate of ${dayOf(signals.priceRateDate)}` : ""
          }`,
        ),
      );
    }
    rows.push(figureRow("Listings out of stock", signals.outOfStock, formatCount(signals.outOfStock.value)));
    rows.push(figureRow("Restocks (30 days)", signals.restocked30d, formatCount(signals.restocked30d.value)));
    // Reviews its stores' product pages publish (decision 094): measured with the day read, or said to be missing.
    if (signals.reviews && signals.reviewsGained30d) {
      const stores = `${formatCount(signals.reviewStores)} ${signals.reviewStores === 1 ? "store" : "stores"}`;
      rows.push(figureRow("Reviews", signals.reviews, `${formatCount(signals.reviews.value)} across ${stores}`));
      rows.push(figureRow("Reviews gained (30 days)", signals.reviewsGained30d, `+${formatCount(signals.reviewsGained30d.value)}`));
    } else {
      rows.push(["Reviews", "No review data", NO_REVIEW_DATA.replace(/^No review data: n/, "N")]);
    }
  }
  rows.push(figureRow("First seen anywhere", figures.firstSeenAt, formatDay(figures.firstSeenAt.value)));
  rows.push(["Orders", "Not measured", "Stores publish their listings, not their sales"]);
  return (
    <FiguresCard
      rows={rows}
      how="How we know"
      note="Measured: counted from the listings of the stores we observe, on the day shown. Orders are not measured: a store's public catalogue shows its products and prices, never its sales."
    />
  );
}

/** One derived figure under its label, badged as an estimate. */
function EstimateTile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {label}
      </Text>
      {children}
      <InlineStack>
        <Badge tone="info">Estimate</Badge>
      </InlineStack>
    </BlockStack>
  );
}

/** Why a measured product scores what it does: its reasons (paid), and the derived score, stage and saturation. */
export function MeasuredInsights({ product, figures }: { product: ProductDetail; figures: Measured }) {
  const asOf = dayOf(figures.asOf);
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {`Why it scores ${figures.winningScore.value}`}
        </Text>
        <Text as="p" variant="bodyLg" fontWeight="semibold">
          {soldByStores(figures.storesSelling.value).replace(/^s/, "S")}
          {figures.storesAdded7d.value > 0 ? ` · +${formatCount(figures.storesAdded7d.value)} this week` : ""}
        </Text>
        {figures.thinEvidence ? (
          <Text as="p" tone="subdued">
            {`Thin evidence: ${figures.thinEvidence}.`}
          </Text>
        ) : null}
        {product.insights && product.insights.reasons.length > 0 ? (
          <List type="number">
            {product.insights.reasons.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
        ) : null}
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          <EstimateTile label={INSIGHT_NOTES.winningScore.label}>
            <Text as="p" variant="headingLg">
              {`${figures.winningScore.value}/100`}
            </Text>
          </EstimateTile>
          <EstimateTile label={INSIGHT_NOTES.lifecycleStage.label}>
            <InlineStack>
              <StageBadge stage={figures.lifecycleStage.value} />
            </InlineStack>
          </EstimateTile>
          <EstimateTile label={INSIGHT_NOTES.saturation.label}>
            <Text as="p" variant="headingLg">
              {`${figures.saturation.value}/100`}
            </Text>
          </EstimateTile>
        </InlineGrid>
        <Text as="p" variant="bodySm" tone="subdued">
          {`Estimated from measured counts only (stores adding it, stores selling it, restocks, how new it is${product.signals?.reviews ? ", reviews gained on its stores' pages" : ""}), as of ${asOf}. No order or margin figure goes into them.`}
        </Text>
      </BlockStack>
    </Card>
  );
}

/** The listings: where the product is sold now, at what price, in stock or not, since when. */
export function MeasuredListings({ offers }: { offers: Offer[] }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {`Listings (${offers.length})`}
        </Text>
        {offers.length === 0 ? (
          <Text as="p" tone="subdued">
            No store lists it at the moment.
          </Text>
        ) : (
          <DataTable
            columnContentTypes={["text", "numeric", "text", "text", "text"]}
            headings={["Store", "Price", "Availability", "Reviews", "First seen"]}
            rows={offers.map((o) => [
              <Link key={o.url} url={o.url} external>
                {o.store}
              </Link>,
              conversionWords(o) ? `${formatListedPrice(o.priceCents, o.currency)} (${conversionWords(o)})` : formatListedPrice(o.priceCents, o.currency),
              availabilityWords(o.available),
              o.reviews === null ? "No review data" : `${formatCount(o.reviews)} (${o.reviewsAsOf ? dayOf(o.reviewsAsOf) : ""})`,
              formatDay(o.firstSeenAt),
            ])}
          />
        )}
      </BlockStack>
    </Card>
  );
}

/** Stores selling it, and stores that added it, per day (the measured series). */
export function MeasuredChart({ series }: { series: NonNullable<Signals["series"]> }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Stores over time
        </Text>
        <TrendChart
          startDay={series.startDay}
          series={[
            {
              label: "Stores selling",
              values: series.storesSelling,
              color: "#0b6e4f",
              summary: (v) => `${formatCount(v[v.length - 1] ?? 0)} on ${dayOf(series.endDay)}`,
            },
            { label: "Stores that added it", values: series.added, color: "#2c6ecb" },
          ]}
        />
        <Text as="p" variant="bodySm" tone="subdued">
          Measured each day from the listings of the stores we observe.
        </Text>
      </BlockStack>
    </Card>
  );
}

/** Why we believe these listings are one product: each match's evidence sentence. */
export function MatchEvidenceCard({ evidence }: { evidence: ProductDetail["matchEvidence"] }) {
  if (evidence.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Why these listings are one product
        </Text>
        <List type="bullet">
          {evidence.map((e) => (
            <List.Item key={e.listing.url}>
              <Link url={e.listing.url} external>
                {e.listing.store}
              </Link>
              {` (${e.listing.title}): ${e.reason}`}
            </List.Item>
          ))}
        </List>
        <Text as="p" variant="bodySm" tone="subdued">
          Two listings are one product when their pictures are near and their titles and prices do not contradict each other.
        </Text>
      </BlockStack>
    </Card>
  );
}
