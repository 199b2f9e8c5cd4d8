// One product's page (images, figures, trend chart, reasons, supplier and Amazon price, profit
// calculator, save / track, and selling it through a product page), the same on the site
// (/dashboard/products/{objectID}) and in Shopify admin (/app/products/{objectID}). Save and track post
// to the page's own action; its loader and action are app/pages/research/research.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { loadProductDetail, productDetailAction } from "~/pages/research/research.server";
import { formatDay, imagePreload, nicheLabel, UpgradePrompt } from "~/ui/research/product-card";
import { ProductGallery, ProductInsights, ProductMetrics, ProductSourcing, TrackingChange } from "~/ui/research/product-detail";
import { useLastSearchUrl } from "~/ui/research/product-filters";
import { ProductPageActions } from "~/ui/product-pages/product-page-actions";
import { AiAdButton } from "~/ui/ai-ads/ai-ad-button";
import { SeenOnTikTok } from "~/ui/ai-ads/tiktoks-page";
import { ProfitCalculator } from "~/ui/landed-cost/profit-calculator";
import { researchPaths, type Surface } from "~/ui/research/research-paths";
import { TrendChart } from "~/ui/shared/trend-chart";
import {
  MatchEvidenceCard,
  MeasuredChart,
  MeasuredFigures,
  MeasuredInsights,
  MeasuredListings,
} from "~/ui/research/product-measured";
import { SourceBadge } from "~/ui/research/product-card";

/** The currency most of a measured product's listings are priced in (its price figures are in it). */
function mainCurrency(offers: { currency: string | null }[]): string | null {
  const counts = new Map<string, number>();
  for (const o of offers) if (o.currency) counts.set(o.currency, (counts.get(o.currency) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

export type ProductDetailData = SerializeFrom<typeof loadProductDetail>;

/** The page's title: the product's, or "Product not found". */
export function productMeta(data: ProductDetailData | undefined) {
  return [
    {
      title:
        data && "product" in data ? `${data.product.title} · Winning Products` : "Product not found · Winning Products",
    },
    ...imagePreload(data && "product" in data ? data.product.images[0] : null),
  ];
}

/** A button that posts one intent; it shows the state it will have, so a click feels instant. */
function ToggleButton({
  on,
  onLabel,
  offLabel,
  onIntent,
  offIntent,
}: {
  on: boolean;
  onLabel: string;
  offLabel: string;
  onIntent: string;
  offIntent: string;
}) {
  const fetcher = useFetcher<typeof productDetailAction>();
  const pending = fetcher.formData?.get("intent");
  const shownOn = pending ? pending === onIntent : on;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={shownOn ? offIntent : onIntent} />
      <Button submit pressed={shownOn} variant={shownOn ? "secondary" : "primary"}>
        {shownOn ? onLabel : offLabel}
      </Button>
    </fetcher.Form>
  );
}

export function ProductDetailPage({ data, surface }: { data: ProductDetailData; surface: Surface }) {
  const { product, access } = data;
  const paths = researchPaths(surface);
  const backAction = { content: "Products", url: useLastSearchUrl(paths.products) };
  const history = product.history;
  const measured = product.measured;

  return (
    <Page
      title={product.title}
      titleMetadata={
        <InlineStack gap="200" blockAlign="center">
          <SourceBadge product={product} />
          <Text as="span" tone="subdued">
            {product.niches.map(nicheLabel).join(" · ")}
          </Text>
        </InlineStack>
      }
      subtitle={`Last updated ${formatDay(product.lastUpdatedAt)} · First seen ${formatDay(product.firstSeenAt)}`}
      backAction={backAction}
    >
      <Layout>
        <Layout.Section variant="fullWidth">
          {/* On a phone Polaris's page has no side margin (its cards reach the edges): the buttons get their own. */}
          <div className="wp-page-actions">
            <InlineStack gap="200">
              <ToggleButton
                on={product.saved}
                onLabel="Saved"
                offLabel="Save product"
                onIntent="save"
                offIntent="unsave"
              />
              <ToggleButton
                on={product.tracked}
                onLabel="Tracking"
                offLabel="Track changes"
                onIntent="track"
                offIntent="untrack"
              />
              {product.saved ? (
                <Button url={paths.saved} variant="plain">
                  Open saved products
                </Button>
              ) : null}
            </InlineStack>
          </div>
        </Layout.Section>
        {product.sinceTracking ? (
          <Layout.Section variant="fullWidth">
            <TrackingChange since={product.sinceTracking} />
          </Layout.Section>
        ) : null}
        <Layout.Section variant="fullWidth">
          {/* A grid of three areas (app.css .wp-product-layout): on a wide page the pictures and the forms in
              the left column beside the evidence; on a phone the evidence ("Why it scores") comes right after
              the pictures, before the forms. */}
          <div className="wp-product-layout">
            <div className="wp-product-media">
              <BlockStack gap="400">
                <ProductGallery images={product.images} title={product.title} />
                <Card>
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      About this product
                    </Text>
                    <Text as="p">{product.description}</Text>
                    {product.tags.length > 0 ? (
                      <InlineStack gap="100">
                        {product.tags.map((t) => (
                          <Badge key={t}>{t}</Badge>
                        ))}
                      </InlineStack>
                    ) : null}
                  </BlockStack>
                </Card>
              </BlockStack>
            </div>
            <div className="wp-product-evidence">
              <BlockStack gap="400">
                {measured ? (
                  <MeasuredInsights product={product} figures={measured} />
                ) : (
                  <ProductInsights product={product} />
                )}
                {access.insights ? null : <UpgradePrompt reason={access.lockedReason} upgradeUrl={paths.upgrade} />}
                {measured ? <MeasuredListings offers={product.offers} /> : null}
                {measured && product.signals?.series ? <MeasuredChart series={product.signals.series} /> : null}
                {measured ? <MatchEvidenceCard evidence={product.matchEvidence} /> : null}
                {history ? (
                  <Card>
                    <BlockStack gap="300">
                      <Text as="h2" variant="headingMd">
                        Trend
                      </Text>
                      <TrendChart
                        startDay={history.startDay}
                        series={[
                          { label: "Orders per day", values: history.orders, color: "#0b6e4f" },
                          { label: "Views per day", values: history.views, color: "#2c6ecb" },
                        ]}
                      />
                    </BlockStack>
                  </Card>
                ) : null}
                {measured ? (
                  <MeasuredFigures
                    figures={measured}
                    signals={product.signals}
                    currency={mainCurrency(product.offers)}
                  />
                ) : (
                  <ProductMetrics product={product} />
                )}
                <ProductSourcing product={product} glitchModeUrl={researchPaths(surface).glitchMode} />
                {access.insights && product.insights ? (
                  <ProfitCalculator
                    defaults={{
                      priceCents: product.priceCents,
                      costCents: product.insights.costCents,
                      shippingCents: product.insights.shippingCents,
                      priceCurrency: product.priceCurrency,
                    }}
                    landed={data.landed}
                    objectID={product.objectID}
                  />
                ) : null}
              </BlockStack>
            </div>
            <div className="wp-product-actions">
              <BlockStack gap="400">
                <ProductPageActions objectID={product.objectID} surface={surface} />
                <AiAdButton objectID={product.objectID} surface={surface} />
                <SeenOnTikTok objectID={product.objectID} videos={data.seenOnTikTok} surface={surface} />
              </BlockStack>
            </div>
          </div>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** What a product page shows instead when the product is missing (404) or could not be loaded. */
export function ProductErrorPage({ missing, surface }: { missing: boolean; surface: Surface }) {
  const { products } = researchPaths(surface);
  return (
    <Page
      title={missing ? "Product not found" : "Something went wrong"}
      backAction={{ content: "Products", url: products }}
    >
      <Card>
        <BlockStack gap="300">
          <Text as="p">
            {missing
              ? "There is no product with that ID. It may have been removed from the database."
              : "This product could not be shown. It has been reported; please try again."}
          </Text>
          <div>
            <Button url={products} variant="primary">
              Search products
            </Button>
          </div>
        </BlockStack>
      </Card>
    </Page>
  );
}
