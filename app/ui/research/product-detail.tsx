// The sections of a product's page, shared by both surfaces: images, figures with their dates, the
// estimates with how each is computed (INSIGHT_NOTES), supplier and Amazon price, and the change since
// tracking. What a locked user may see was decided on the server: locked fields arrive as null.
import { Badge, BlockStack, Box, Card, DataTable, InlineGrid, InlineStack, Link, List, Text } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { isDemoSupplier } from "~/domain/products/demo-catalogue";
import { GLITCH_MIN_AMAZON_PRICE_CENTS, glitchQualifies } from "~/domain/glitch-mode/glitch";
import { formatCount, INSIGHT_NOTES } from "~/domain/products/insights";
import type { ProductDetail } from "~/services/products.server";
import { FiguresCard } from "~/ui/research/figures-card";
import { formatBps, formatChange, formatDay, formatGrowth, formatMoney, formatMoneyRounded, formatPrice, ProductImage, StageBadge } from "~/ui/research/product-card";

export type { ProductDetail };


export function ProductGallery({ images, title }: { images: string[]; title: string }) {
  const [current, setCurrent] = useState(0);
  const main = images[current] ?? images[0] ?? null;
  return (
    <Card>
      <BlockStack gap="300">
        <div style={{ maxWidth: 420, margin: "0 auto", width: "100%" }}>
          <ProductImage src={main} alt={images.length > 1 ? `${title}, image ${current + 1} of ${images.length}` : title} priority />
        </div>
        {images.length > 1 ? (
          <InlineStack gap="200" align="center">
            {images.map((src, i) => (
              <button
                key={src}
                type="button"
                onClick={() => setCurrent(i)}
                aria-label={`Show image ${i + 1}`}
                aria-pressed={i === current}
                style={{
                  padding: 0,
                  border: i === current ? "2px solid var(--p-color-border-emphasis)" : "2px solid transparent",
                  borderRadius: "var(--p-border-radius-200)",
                  background: "none",
                  cursor: "pointer",
                }}
              >
                <ProductImage src={src} alt="" size={56} />
              </button>
            ))}
          </InlineStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function EstimateBadge() {
  return <Badge tone="info">Estimate</Badge>;
}

/** Every figure with the date it was last updated. */
export function ProductMetrics({ product }: { product: ProductDetail }) {
  const updated = formatDay(product.lastUpdatedAt);
  const insightsDate = formatDay(product.insightsAt);
  if (product.noSalesData !== null) return <ProductMetricsWithoutSales product={product} note={product.noSalesData} />;
  const e = product.engagement;
  const rows: [string, string, string][] = [
    ["Selling price", formatPrice(product.priceCents, product.priceCurrency), updated],
    ["Orders (30 days)", formatCount(product.orders), updated],
    ["Orders (7 days)", formatCount(product.orders7d), insightsDate],
    ["Orders (the 7 days before)", product.ordersPrev7d < 0 ? "—" : formatCount(product.ordersPrev7d), insightsDate],
    ["Orders growth (7 days)", formatGrowth(product), insightsDate],
    ["Revenue (30 days)", formatMoneyRounded(product.revenueCents), updated],
    ["Views (30 days)", formatCount(e.views), updated],
    ["Likes (30 days)", formatCount(e.likes), updated],
    ["Comments (30 days)", formatCount(e.comments), updated],
    ["Shares (30 days)", formatCount(e.shares), updated],
    ["Stores selling", formatCount(product.storesSelling), updated],
    ["First seen", formatDay(product.firstSeenAt), updated],
  ];
  return <FiguresCard rows={rows} note={`${INSIGHT_NOTES.totals.how} ${INSIGHT_NOTES.ordersGrowth7d.how}`} />;
}

/** A product added from a tracked store: its price and dates, and no sales figures (docs/decisions/026). */
/** The price as listed, and beside it its dollar figure at a dated reference rate when it is in another currency (decision 089). */
function sellingPrice(p: { priceCents: number; priceCurrency: string | null; priceUsdCents: number | null; priceRateDate: string | null }): string {
  const listed = formatPrice(p.priceCents, p.priceCurrency);
  return p.priceUsdCents !== null && p.priceRateDate ? `${listed} (${formatPrice(p.priceUsdCents, null)} at the rate of ${formatDay(`${p.priceRateDate}T00:00:00Z`)})` : listed;
}

function ProductMetricsWithoutSales({ product, note }: { product: ProductDetail; note: string }) {
  const updated = formatDay(product.lastUpdatedAt);
  const rows: [string, string, string][] = [
    ["Selling price", sellingPrice(product), updated],
    ["First seen", formatDay(product.firstSeenAt), updated],
  ];
  return <FiguresCard rows={rows} note={`${note}: only its price and dates are known.`} />;
}

const NO_SALES_DATA_HOW =
  "A store's public catalogue shows its products and prices, not its orders, so we have no orders, revenue, " +
  "views or stores selling for this product, and no growth, stage, saturation or winning score built on them. " +
  "The store's page has our weekly-orders estimate for the whole store, with its evidence.";

function Estimate({ label, value, how, updated }: { label: string; value: ReactNode; how: string; updated: string }) {
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center">
        <Text as="h3" variant="headingSm">
          {label}
        </Text>
        <EstimateBadge />
      </InlineStack>
      <div>{value}</div>
      <Text as="p" variant="bodySm" tone="subdued">
        {how}
      </Text>
      <Text as="p" variant="bodySm" tone="subdued">
        Last updated {updated}
      </Text>
    </BlockStack>
  );
}

/** Winning score, lifecycle stage and saturation (everyone), with reasons and trending score (paid). */
export function ProductInsights({ product }: { product: ProductDetail }) {
  const updated = formatDay(product.insightsAt);
  if (product.noSalesData !== null) {
    return (
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            No sales data
          </Text>
          <Text as="p">{product.noSalesData}.</Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {NO_SALES_DATA_HOW}
          </Text>
        </BlockStack>
      </Card>
    );
  }
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Why it scores {product.winningScore}
        </Text>
        {product.insights ? (
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              Top reasons
            </Text>
            <List type="number">
              {product.insights.reasons.slice(0, 3).map((r) => (
                <List.Item key={r}>{r}</List.Item>
              ))}
            </List>
            <Text as="p" variant="bodySm" tone="subdued">
              {INSIGHT_NOTES.reasons.how} Last updated {updated}.
            </Text>
          </BlockStack>
        ) : null}
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
          <Estimate
            label={INSIGHT_NOTES.winningScore.label}
            value={
              <Text as="p" variant="headingLg">
                {product.winningScore}/100
              </Text>
            }
            how={INSIGHT_NOTES.winningScore.how}
            updated={updated}
          />
          <Estimate
            label={INSIGHT_NOTES.lifecycleStage.label}
            value={<StageBadge stage={product.lifecycleStage} />}
            how={INSIGHT_NOTES.lifecycleStage.how}
            updated={updated}
          />
          <Estimate
            label={INSIGHT_NOTES.saturation.label}
            value={
              <Text as="p" variant="headingLg">
                {product.saturation}/100
              </Text>
            }
            how={INSIGHT_NOTES.saturation.how}
            updated={updated}
          />
          {product.insights ? (
            <Estimate
              label={INSIGHT_NOTES.trendingScore.label}
              value={
                <Text as="p" variant="headingLg">
                  {formatChange(product.insights.trendingScore ?? 0)} orders/week
                </Text>
              }
              how={INSIGHT_NOTES.trendingScore.how}
              updated={updated}
            />
          ) : null}
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}

/**
 * Supplier, cost, margin and the Amazon price with its glitch-mode note (paid only); a qualifying
 * product's note links to glitch mode on the page's surface.
 */
export function ProductSourcing({ product, glitchModeUrl }: { product: ProductDetail; glitchModeUrl: string }) {
  const insights = product.insights;
  if (!insights) return null;
  const amazon = insights.amazonPriceCents;
  const qualifies = glitchQualifies(amazon);
  const updated = formatDay(product.lastUpdatedAt);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Supplier and Amazon price
        </Text>
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm">
            Supplier
          </Text>
          {isDemoSupplier(product.supplier?.name) ? (
            // The demo catalogue is sample data: no supplier to contact (decision 028).
            <InlineStack gap="200" blockAlign="center">
              <Badge tone="attention">Demo data</Badge>
              <Text as="p" tone="subdued">
                This product is sample data: it has no real supplier.
              </Text>
            </InlineStack>
          ) : product.supplier?.name ? (
            product.supplier.url ? (
              <Link url={product.supplier.url} external>
                {product.supplier.name}
              </Link>
            ) : (
              <Text as="p">{product.supplier.name}</Text>
            )
          ) : (
            <Text as="p" tone="subdued">
              No supplier on record.
            </Text>
          )}
        </BlockStack>
        <DataTable
          columnContentTypes={["text", "numeric"]}
          headings={["", "Amount"]}
          rows={[
            ["Product cost", insights.costCents === null ? "Unknown" : formatMoney(insights.costCents)],
            ["Shipping", formatMoney(insights.shippingCents)],
            ["Gross margin", insights.marginBps === null ? "Add your cost" : formatBps(insights.marginBps)],
            ["Amazon price", amazon === null ? "Not on Amazon" : formatMoney(amazon)],
            ...(amazon !== null ? [["Amazon price minus our price", formatChange(amazon - product.priceCents, formatMoney)] as [string, string]] : []),
          ]}
        />
        <Text as="p" variant="bodySm" tone="subdued">
          {INSIGHT_NOTES.marginBps.how} Last updated {updated}.
        </Text>
        <Box background="bg-surface-secondary" padding="300" borderRadius="200">
          <BlockStack gap="100">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h3" variant="headingSm">
                Glitch mode
              </Text>
              {qualifies ? (
                <Badge tone="success">Qualifies</Badge>
              ) : (
                <Badge>Does not qualify</Badge>
              )}
            </InlineStack>
            <Text as="p" variant="bodySm">
              Glitch mode only takes products with an Amazon price of {formatMoney(GLITCH_MIN_AMAZON_PRICE_CENTS)} or more.
              {amazon === null
                ? " This product has no Amazon price."
                : qualifies
                  ? ` Its Amazon price is ${formatMoney(amazon)}.`
                  : ` Its Amazon price is ${formatMoney(amazon)}, below that.`}
            </Text>
            {qualifies ? <Link url={glitchModeUrl}>Find its spread in Glitch mode</Link> : null}
          </BlockStack>
        </Box>
      </BlockStack>
    </Card>
  );
}

/** null: a figure the product has no data for (no sales data, docs/decisions/026). */
export interface SinceTracking {
  trackedAt: string;
  orders: number | null;
  revenueCents: number | null;
  priceCents: number;
  /** ISO 4217 of the price change (null: the stores publish none), and the change in dollars at a dated rate (decision 089). */
  priceCurrency?: string | null;
  priceChangeConverted?: { cents: number; rateDate: string } | null;
  storesSelling: number | null;
  winningScore: number | null;
}

/** The price change in the product's own currency (never dollars for another), with its dollar figure and the rate's day. */
function priceChangeWords(since: SinceTracking): string {
  const currency = since.priceCurrency === undefined ? "USD" : since.priceCurrency;
  if (currency === "USD") return formatChange(since.priceCents, formatMoney);
  const listed = formatChange(since.priceCents, (n) => formatPrice(n, currency ?? "XXX"));
  const c = since.priceChangeConverted;
  return c ? `${listed} (${formatChange(c.cents, formatMoney)} at the rate of ${formatDay(`${c.rateDate}T00:00:00Z`)})` : listed;
}

function changeOrNoData(n: number | null, format?: (n: number) => string): string {
  return n === null ? "No sales data" : formatChange(n, format);
}

/** The change of each tracked figure since tracking started. */
export function TrackingChange({ since, compact = false }: { since: SinceTracking; compact?: boolean }) {
  const items: [string, string][] = [
    ["Orders (30 days)", changeOrNoData(since.orders)],
    ["Revenue (30 days)", changeOrNoData(since.revenueCents, formatMoneyRounded)],
    ["Price", priceChangeWords(since)],
    ["Stores selling", changeOrNoData(since.storesSelling)],
    ["Winning score", changeOrNoData(since.winningScore)],
  ];
  const body = (
    <BlockStack gap="200">
      <Text as={compact ? "h3" : "h2"} variant={compact ? "headingSm" : "headingMd"}>
        Since you started tracking on {formatDay(since.trackedAt)}
      </Text>
      <InlineGrid columns={{ xs: 2, md: 5 }} gap="200">
        {items.map(([label, value]) => (
          <BlockStack gap="050" key={label}>
            <Text as="span" variant="bodySm" tone="subdued">
              {label}
            </Text>
            <Text as="span" fontWeight="semibold">
              {value}
            </Text>
          </BlockStack>
        ))}
      </InlineGrid>
    </BlockStack>
  );
  return compact ? body : <Card>{body}</Card>;
}
