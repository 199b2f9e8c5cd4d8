// The lists of the Saved page, shared by both surfaces: saved products, tracked products with the
// change since tracking, and saved searches. The caller supplies the URLs and the row actions.
import { BlockStack, Box, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { formatCount } from "~/domain/products/insights";
import { SORTS, type Sort } from "~/domain/products/product-query";
import { formatDay, formatMoney, nicheLabel, ProductImage, SORT_LABELS, StageBadge, type ProductCardData } from "~/ui/research/product-card";
import { TrackingChange, type SinceTracking } from "~/ui/research/product-detail";

function ProductRow({ product, href, actions, children }: { product: ProductCardData; href: string; actions: ReactNode; children?: ReactNode }) {
  return (
    <Box paddingBlock="300" borderBlockEndWidth="025" borderColor="border-secondary">
      <InlineStack gap="400" wrap={false} blockAlign="start">
        <div style={{ flexShrink: 0 }}>
          <ProductImage src={product.image} alt={product.title} size={64} />
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          <BlockStack gap="100">
            <Link url={href} monochrome removeUnderline>
              <Text as="h3" variant="headingSm">
                {product.title}
              </Text>
            </Link>
            <InlineStack gap="300" blockAlign="center">
              <Text as="span">{formatMoney(product.priceCents)}</Text>
              {product.noSalesData !== null ? (
                <Text as="span" tone="subdued">
                  {product.noSalesData}
                </Text>
              ) : (
                <>
                  <Text as="span" tone="subdued">
                    {formatCount(product.orders)} orders (30 days)
                  </Text>
                  <Text as="span" tone="subdued">
                    Score {product.winningScore}/100
                  </Text>
                  <StageBadge stage={product.lifecycleStage} />
                </>
              )}
            </InlineStack>
            {children}
          </BlockStack>
        </div>
        <div style={{ flexShrink: 0 }}>{actions}</div>
      </InlineStack>
    </Box>
  );
}

export function SavedProductList({
  products,
  productUrl,
  actions,
}: {
  products: ProductCardData[];
  productUrl: (objectID: string) => string;
  actions: (product: ProductCardData) => ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Saved products ({products.length})
        </Text>
        {products.length === 0 ? (
          <Text as="p" tone="subdued">
            Nothing saved yet. Open a product and press “Save product” to keep it here.
          </Text>
        ) : (
          <div>
            {products.map((p) => (
              <ProductRow key={p.objectID} product={p} href={productUrl(p.objectID)} actions={actions(p)} />
            ))}
          </div>
        )}
      </BlockStack>
    </Card>
  );
}

export function TrackedProductList({
  products,
  productUrl,
  actions,
}: {
  products: (ProductCardData & { sinceTracking: SinceTracking })[];
  productUrl: (objectID: string) => string;
  actions: (product: ProductCardData) => ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Tracked products ({products.length})
        </Text>
        {products.length === 0 ? (
          <Text as="p" tone="subdued">
            Track a product to see how its orders, price, stores and score change from that day on.
          </Text>
        ) : (
          <div>
            {products.map((p) => (
              <ProductRow key={p.objectID} product={p} href={productUrl(p.objectID)} actions={actions(p)}>
                <TrackingChange since={p.sinceTracking} compact />
              </ProductRow>
            ))}
          </div>
        )}
      </BlockStack>
    </Card>
  );
}

const money = (v: string) => `$${v}`;
const RANGE_WORDS: [string, string, string, (v: string) => string][] = [
  ["Price", "minPrice", "maxPrice", money],
  ["Cost", "minCost", "maxCost", money],
  ["Margin", "minMargin", "maxMargin", (v) => `${v}%`],
  ["Orders", "minOrders", "maxOrders", (v) => v],
  ["Revenue", "minRevenue", "maxRevenue", money],
  ["Engagement", "minEngagement", "", (v) => v],
  ["Views", "minViews", "", (v) => v],
  ["Stores", "minStores", "maxStores", (v) => v],
  ["Amazon price", "minAmazonPrice", "maxAmazonPrice", money],
];

/** A saved search's parameters in words: “lamp” · Pets, Kitchen · Price $10–$50 · Sorted by orders. */
export function describeQuery(query: string): string {
  const p = new URLSearchParams(query);
  const parts: string[] = [];
  const q = p.get("q");
  if (q) parts.push(`“${q}”`);
  const niches = p.getAll("niche").flatMap((v) => v.split(",")).filter(Boolean);
  if (niches.length) parts.push(niches.map(nicheLabel).join(", "));
  const stages = p.getAll("stage").flatMap((v) => v.split(",")).filter(Boolean);
  if (stages.length) parts.push(stages.map(nicheLabel).join(" or "));
  for (const [label, minKey, maxKey, fmt] of RANGE_WORDS) {
    const min = p.get(minKey);
    const max = maxKey ? p.get(maxKey) : null;
    if (min && max) parts.push(`${label} ${fmt(min)}–${fmt(max)}`);
    else if (min) parts.push(`${label} ≥ ${fmt(min)}`);
    else if (max) parts.push(`${label} ≤ ${fmt(max)}`);
  }
  if (p.get("hasAmazonPrice") === "true" || p.get("hasAmazonPrice") === "1") parts.push("On Amazon");
  if (p.get("firstSeenDays")) parts.push(`First seen in the last ${p.get("firstSeenDays")} days`);
  if (p.get("firstSeenAfter")) parts.push(`First seen after ${p.get("firstSeenAfter")}`);
  if (p.get("firstSeenBefore")) parts.push(`First seen before ${p.get("firstSeenBefore")}`);
  const sort = p.get("sort");
  if (sort && (SORTS as readonly string[]).includes(sort)) parts.push(`Sorted by ${SORT_LABELS[sort as Sort].toLowerCase()}`);
  return parts.length ? parts.join(" · ") : "All products";
}

export interface SavedSearchView {
  id: number;
  name: string;
  query: string;
  createdAt: string | Date;
  lastVisitedAt: string | Date;
}

export function SavedSearchList({
  searches,
  openUrl,
  actions,
}: {
  searches: SavedSearchView[];
  openUrl: (search: SavedSearchView) => string;
  actions: (search: SavedSearchView) => ReactNode;
}) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Saved searches ({searches.length})
        </Text>
        {searches.length === 0 ? (
          <Text as="p" tone="subdued">
            Search the products page and use “Save this search”. Opening it later marks what is new since your last visit.
          </Text>
        ) : (
          <div>
            {searches.map((s) => (
              <Box key={s.id} paddingBlock="300" borderBlockEndWidth="025" borderColor="border-secondary">
                <InlineStack align="space-between" blockAlign="center" gap="300" wrap={false}>
                  <BlockStack gap="100">
                    <Link url={openUrl(s)}>{s.name}</Link>
                    <Text as="p" tone="subdued">
                      {describeQuery(s.query)}
                    </Text>
                    <Text as="p" variant="bodySm" tone="subdued">
                      Last opened {formatDay(s.lastVisitedAt)}
                    </Text>
                  </BlockStack>
                  <div style={{ flexShrink: 0 }}>{actions(s)}</div>
                </InlineStack>
              </Box>
            ))}
          </div>
        )}
      </BlockStack>
    </Card>
  );
}
