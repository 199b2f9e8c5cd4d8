// Product cards and the small pieces every product screen shares (formatting, the stage badge, the
// upgrade prompt). Both surfaces render these; the caller says where a product's page lives.
// Dates and numbers are formatted in UTC and en-US, so the server's HTML and the browser agree.
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Link,
  List,
  Text,
  UnstyledLink,
} from "@shopify/polaris";
import type { ReactNode } from "react";
import { formatCount, growthShown } from "~/domain/products/insights";
import { storesLine } from "~/domain/catalogue/measured-product";
import type { SourceFilter, Sort, Stage } from "~/domain/products/product-query";
import type { ProductCard as ProductCardData } from "~/services/products.server";
import { LandedMarginLine, type LandedMarginData } from "~/ui/landed-cost/landed-cost-breakdown";
import { ProductSaveButton } from "~/ui/research/product-save-button";

export type { ProductCardData };

// ---------- formatting ----------

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const day = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });

/** 1999 -> "$19.99". */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

/**
 * A price in its own currency: dollars as "$19.99"; another currency with its code ("€24.95 EUR"), never as
 * dollars; "XXX" (a store that publishes no currency) as the bare amount saying so (docs/decisions/059).
 */
export function formatPrice(cents: number, currency: string | null): string {
  if (currency === null || currency === "USD") return formatMoney(cents);
  const amount = (cents / 100).toFixed(2);
  if (currency === "XXX") return `${amount} (currency unknown)`;
  try {
    return `${new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100)} ${currency}`;
  } catch {
    return `${amount} ${currency}`;
  }
}

/** Whole dollars for large sums: 1234567 cents -> "$12,346". */
export function formatMoneyRounded(cents: number): string {
  return `${cents < 0 ? "-" : ""}$${formatCount(Math.round(Math.abs(cents) / 100))}`;
}

/** Basis points as a percentage: 6240 -> "62.4%", 6200 -> "62%". */
export function formatBps(bps: number): string {
  return `${(bps / 100).toFixed(1).replace(/\.0$/, "")}%`;
}

/**
 * The 7-day growth of a product as every screen shows it (growthShown, docs/decisions/025): "+127%" on
 * a base of at least 20 orders the week before, otherwise the counts, "2 → 14 orders".
 */
export function formatGrowth(p: { ordersPrev7d: number; orders7d: number; ordersGrowth7d: number | null }): string {
  return growthShown(p.ordersPrev7d, p.orders7d, p.ordersGrowth7d);
}

/** A signed change: +12, -3, 0. */
export function formatChange(n: number, format: (n: number) => string = formatCount): string {
  if (n === 0) return "no change";
  return n > 0 ? `+${format(n)}` : `-${format(-n)}`;
}

export function formatDay(iso: string | Date): string {
  return day.format(typeof iso === "string" ? new Date(iso) : iso);
}

/** "about 12,300 products" for an estimate (rounded so it does not look exact), "12,345 products" otherwise. */
export function formatTotal(total: number, isEstimate: boolean): string {
  if (!isEstimate) return `${formatCount(total)} ${total === 1 ? "product" : "products"}`;
  const step = total >= 10_000 ? 100 : total >= 1000 ? 10 : 1;
  return `about ${formatCount(Math.round(total / step) * step)} products`;
}

/** "home-decor" -> "Home decor". */
export function nicheLabel(slug: string): string {
  const words = slug.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const STAGE_LABELS: Record<Stage, string> = {
  emerging: "Emerging",
  rising: "Rising",
  peak: "Peak",
  declining: "Declining",
};

export const SORT_LABELS: Record<Sort, string> = {
  "winning-score": "Winning score",
  orders: "Most orders (30 days)",
  revenue: "Most revenue (30 days)",
  margin: "Highest margin after duty and fees",
  price: "Price: high to low",
  "price-asc": "Price: low to high",
  newest: "Newest first",
  trending: "Trending now",
  random: "Shuffle (random)",
  relevance: "Best match",
  storesAdded7d: "Stores added this week",
  storesSelling: "Most stores selling",
};

export const SOURCE_LABELS: Record<SourceFilter, string> = {
  all: "All products",
  measured: "Measured (real stores)",
  sample: "Sample data",
};

const STAGE_TONES: Record<Stage, "info" | "success" | "attention" | "warning"> = {
  emerging: "info",
  rising: "success",
  peak: "attention",
  declining: "warning",
};

export function StageBadge({ stage }: { stage: string }) {
  const known = (stage in STAGE_LABELS ? stage : null) as Stage | null;
  return <Badge tone={known ? STAGE_TONES[known] : undefined}>{known ? STAGE_LABELS[known] : stage}</Badge>;
}

// ---------- upgrade prompt ----------

export function UpgradePrompt({
  reason,
  upgradeUrl,
  compact = false,
}: {
  reason: string | null;
  upgradeUrl: string;
  compact?: boolean;
}) {
  if (compact) {
    return (
      <Box background="bg-surface-secondary" padding="200" borderRadius="200">
        <BlockStack gap="100">
          <Text as="p" variant="bodySm" tone="subdued">
            Reasons, cost and margin are part of every plan.
          </Text>
          <Link url={upgradeUrl}>Unlock insights</Link>
        </BlockStack>
      </Box>
    );
  }
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Unlock the evidence
        </Text>
        <Text as="p" tone="subdued">
          {reason ??
            "Choose a plan to see the reasons behind every score, trend charts, supplier cost, margin and Amazon price."}
        </Text>
        <div>
          <Button url={upgradeUrl} variant="primary">
            Choose a plan
          </Button>
        </div>
      </BlockStack>
    </Card>
  );
}

// ---------- card ----------

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="bodyMd" fontWeight="semibold">
        {children}
      </Text>
    </BlockStack>
  );
}

/**
 * A route's meta entry asking the browser for the page's largest picture from the <head>, with the
 * stylesheets, rather than once the body is parsed (docs/decisions/027).
 */
export function imagePreload(src: string | null | undefined) {
  return src ? [{ tagName: "link" as const, rel: "preload", as: "image", href: src, fetchpriority: "high" }] : [];
}

/** The drawn pictures are 400 x 400 (app/services/products/images.server.ts): the size the browser reserves before they load. */
const IMAGE_SIZE = 400;

/**
 * A product picture. Pictures below the first screen load lazily; `priority` marks the one that is
 * likely the page's largest paint (the first cards, a product's main image): fetched at once, first.
 */
export function ProductImage({
  src,
  alt,
  size,
  priority = false,
}: {
  src: string | null;
  alt: string;
  size?: number;
  priority?: boolean;
}) {
  const style = {
    display: "block",
    width: size ? `${size}px` : "100%",
    // The width/height attributes reserve the space before the picture loads (no layout shift), but the height
    // attribute alone would also fix it at 400 px: a narrow card then showed a tall strip of a square picture.
    height: "auto",
    aspectRatio: "1 / 1",
    objectFit: "cover" as const,
    background: "var(--p-color-bg-surface-secondary)",
    borderRadius: "var(--p-border-radius-200)",
  };
  if (!src) return <div style={style} role="img" aria-label={`${alt} (no image)`} />;
  // React 18 knows no fetchPriority prop; the lowercase attribute goes through as it is.
  const fetchPriority = priority ? { fetchpriority: "high" } : {};
  return (
    <img
      src={src}
      alt={alt}
      loading={priority ? "eager" : "lazy"}
      {...fetchPriority}
      width={size ?? IMAGE_SIZE}
      height={size ?? IMAGE_SIZE}
      style={style}
    />
  );
}

export function ProductCard({
  product,
  href,
  upgradeUrl,
  priorityImage = false,
  landedMargin,
}: {
  product: ProductCardData;
  href: string;
  upgradeUrl: string;
  /** Margin after duty and fees (decision 052); without it the card shows the gross margin. */
  landedMargin?: LandedMarginData;
  /** The first cards' pictures are on the first screen: fetched at once (ProductImage). */
  priorityImage?: boolean;
}) {
  return (
    <Card padding="300">
      <BlockStack gap="300">
        <UnstyledLink url={href} tabIndex={-1} aria-hidden="true">
          <ProductImage src={product.image} alt={product.title} priority={priorityImage} />
        </UnstyledLink>
        <BlockStack gap="100">
          <InlineStack align="space-between" blockAlign="start" gap="100" wrap={false}>
            <InlineStack gap="100">
              <SourceBadge product={product} />
              {product.isNew ? <Badge tone="success">New</Badge> : null}
              {product.tracked ? <Badge>Tracked</Badge> : null}
            </InlineStack>
            <ProductSaveButton objectID={product.objectID} title={product.title} saved={product.saved} />
          </InlineStack>
          <Link url={href} monochrome removeUnderline>
            <Text as="h3" variant="headingSm">
              {product.title}
            </Text>
          </Link>
          <Text as="p" variant="headingMd">
            {formatPrice(product.priceCents, product.priceCurrency)}
          </Text>
          {product.priceCurrency !== null ? (
            <Text as="p" variant="bodySm" tone="subdued">
              {product.priceUsdCents !== null && product.priceRateDate
                ? `${formatPrice(product.priceUsdCents, null)} at the reference rate of ${formatDay(`${product.priceRateDate}T00:00:00Z`)}: what the price filter and sorts use.`
                : `Priced in ${product.priceCurrency === "XXX" ? "an unknown currency" : `${product.priceCurrency}, with no reference rate`}: not in the dollar price filter or price sorts.`}
            </Text>
          ) : null}
        </BlockStack>
        {product.measured !== null ? (
          <MeasuredCardFigures figures={product.measured} />
        ) : product.noSalesData !== null ? (
          // No orders, growth, stage or score we never measured (docs/decisions/026).
          <Text as="p" variant="bodySm" tone="subdued">
            {product.noSalesData}
          </Text>
        ) : (
          <>
            <div className="wp-card-figures">
              <Figure label="Orders (30 days)">{formatCount(product.orders)}</Figure>
              <Figure label="7-day growth">{formatGrowth(product)}</Figure>
              <Figure label="Stores selling">{formatCount(product.storesSelling)}</Figure>
            </div>
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" variant="bodyMd">
                Winning score{" "}
                <Text as="span" fontWeight="bold">
                  {product.winningScore}
                </Text>
                /100
              </Text>
              <StageBadge stage={product.lifecycleStage} />
            </InlineStack>
          </>
        )}
        {product.insights ? (
          <BlockStack gap="200">
            {/* A narrow card (two a row on a phone) lists its first reason only (app.css). */}
            <div className="wp-card-reasons">
              <List type="bullet">
                {/* A measured card already says its thin evidence on its own line. */}
                {product.insights.reasons
                  .filter((r) => r !== product.measured?.thinEvidence)
                  .map((r) => (
                    <List.Item key={r}>{r}</List.Item>
                  ))}
              </List>
            </div>
            <InlineStack gap="400">
              <Text as="span" variant="bodySm" tone="subdued">
                {product.insights.costCents === null
                  ? "Cost unknown"
                  : `Cost ${formatMoney(product.insights.costCents)}`}
              </Text>
              {landedMargin ? (
                <LandedMarginLine margin={landedMargin} />
              ) : (
                <Text as="span" variant="bodySm" tone="subdued">
                  {product.insights.marginBps === null
                    ? "Margin: Add your cost"
                    : `Margin ${formatBps(product.insights.marginBps)}`}
                </Text>
              )}
            </InlineStack>
          </BlockStack>
        ) : (
          <UpgradePrompt reason={null} upgradeUrl={upgradeUrl} compact />
        )}
      </BlockStack>
    </Card>
  );
}

/**
 * Where a card's figures come from: "Measured" with its date (counted from real stores' listings), "Sample data"
 * (the generated or imported research database), nothing for a product added from a tracked store (its note says it).
 */
export function SourceBadge({ product }: { product: Pick<ProductCardData, "source" | "measured"> }) {
  if (product.measured !== null)
    return <Badge tone="info">{`Measured ${formatDay(`${product.measured.asOf}T00:00:00Z`)}`}</Badge>;
  if (product.source === "sample") return <Badge tone="attention">Sample data</Badge>;
  return null;
}

/** A measured product's card figures: stores (measured), then the derived score and stage, and thin evidence. */
function MeasuredCardFigures({ figures }: { figures: NonNullable<ProductCardData["measured"]> }) {
  return (
    <BlockStack gap="150">
      <Text as="p" variant="bodyMd" fontWeight="semibold">
        {storesLine(figures.storesSelling.value, figures.storesAdded7d.value)}
      </Text>
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" variant="bodyMd">
          Winning score{" "}
          <Text as="span" fontWeight="bold">
            {figures.winningScore.value}
          </Text>
          /100
        </Text>
        <StageBadge stage={figures.lifecycleStage.value} />
      </InlineStack>
      <Text as="p" variant="bodySm" tone="subdued">
        Score and stage estimated from store counts; orders are not measured.
      </Text>
      {figures.thinEvidence ? (
        <Text as="p" variant="bodySm" tone="subdued">
          {figures.thinEvidence.charAt(0).toUpperCase() + figures.thinEvidence.slice(1)}.
        </Text>
      ) : null}
    </BlockStack>
  );
}

/** Cards in the grid's first row at its widest (3 columns): their pictures are the first screen's. */
const FIRST_ROW = 3;

export function ProductGrid({
  products,
  productUrl,
  upgradeUrl,
  landedMargins,
}: {
  products: ProductCardData[];
  productUrl: (objectID: string) => string;
  upgradeUrl: string;
  landedMargins?: Record<string, LandedMarginData>;
}) {
  return (
    // Two cards a row on a phone, three where the results column is wide (app.css .wp-product-grid).
    <div className="wp-product-grid">
      {products.map((p, i) => (
        <div key={p.objectID} className="wp-product-cell">
          <ProductCard
            product={p}
            href={productUrl(p.objectID)}
            upgradeUrl={upgradeUrl}
            priorityImage={i < FIRST_ROW}
            landedMargin={landedMargins?.[p.objectID]}
          />
        </div>
      ))}
    </div>
  );
}
