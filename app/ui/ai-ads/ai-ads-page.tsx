// The AI ads page, the same on the site (/dashboard/ai-ads) and in Shopify admin (/app/ai-ads): a
// product picker (or the product a "Create AI video ad" button sent), the user's ads with their status,
// and ?ad={id} opening one: its storyboard with editable scene texts and durations, "Preview video
// (free)" (a small render marked "Preview", decision 036), "Render video" (5 credits, full HD) with a
// progress bar while either renders (the page re-reads every second, only then), and the finished video
// with a download link. Loader and action: app/pages/ai-ads/ai-ads.server.ts. The open ad is app/ui/ai-ads/ad-editor.tsx.
import { Form, useFetcher, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, EmptyState, InlineStack, Layout, Link, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { BUILT_IN_WRITER } from "~/domain/product-pages/product-page";
import { isUnlimited } from "~/domain/billing/credits";
import { formatCount } from "~/domain/products/insights";
import type { AdProductSummary, AiAdView } from "~/services/ai-ads.server";
import type { AiAdsActionResult } from "~/pages/ai-ads/ai-ads.server";
import { aiAdsPath } from "~/ui/ai-ads/ai-ad-button";
import { AdEditor } from "~/ui/ai-ads/ad-editor";
import { RenderProgress, seconds, StatusBadge, writerLabel } from "~/ui/ai-ads/ad-status";
import type { AiAdsPageData, KitChoice } from "~/ui/ai-ads/ai-ads-data";
import { KitSelect } from "~/ui/ai-ads/video-settings";
import { formatPrice, ProductImage } from "~/ui/research/product-card";
import { researchPaths, type Surface } from "~/ui/research/research-paths";
import { useRevalidateEvery } from "~/ui/shared/use-poll";

export type { AiAdsPageData };

const POLL_MS = 1000;

export function AiAdsPage({ data, surface }: { data: AiAdsPageData; surface: Surface }) {
  const { ads, balance, cost, access, writer, picker } = data;
  const base = aiAdsPath(surface);
  const paths = researchPaths(surface);
  const [params] = useSearchParams();
  const selected = ads.find((a) => a.id === Number(params.get("ad"))) ?? null;
  const [upsell, setUpsell] = useState(data.upsellOpen);
  // Re-reads the page every second while an ad renders, and only then.
  useRevalidateEvery(ads.some((a) => a.status === "rendering" || a.previewVideo?.status === "rendering"), POLL_MS);
  const unlimited = isUnlimited(balance);

  return (
    <Page
      title="AI ads"
      subtitle="Short video ads (vertical, portrait or square) written from a product's own data, rendered on our servers."
      backAction={selected ? { content: "All AI ads", url: base } : undefined}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="300">
            <Banner tone="info">
              <p>
                Scripts are written by{" "}
                {writer === BUILT_IN_WRITER
                  ? "the built-in writer (templates filled with the product's own data and figures)"
                  : `the AI model ${writer}`}{" "}
                and are free to edit. A small preview video is free ({data.previews.limit} a day); the full HD video
                costs {cost} AI ad credits ({unlimited ? "unlimited" : `${balance} left`}); a failed render is refunded.
              </p>
            </Banner>
            {!access.create ? (
              <Banner tone="warning" title="Upgrade to make AI ads" action={{ content: "See plans", url: paths.upgrade }}>
                <p>{access.lockedReason}</p>
              </Banner>
            ) : null}
            {upsell && access.create ? (
              <Banner
                tone="warning"
                title="Get credits for AI video ads"
                action={{ content: "Get credits", url: paths.credits }}
                onDismiss={() => setUpsell(false)}
              >
                <p>
                  You have no AI ad credits yet. Writing and editing scripts is free; each video costs {cost} credits.
                </p>
              </Banner>
            ) : null}
          </BlockStack>
        </Layout.Section>
        {selected ? (
          <AdEditor
            key={selected.id}
            ad={selected}
            cost={cost}
            canRender={access.create}
            onUpsell={() => setUpsell(true)}
            kits={data.brandKits}
            previews={data.previews}
            fullSize={`${data.sizes.video.width}x${data.sizes.video.height}`}
            sound={data.sound}
          />
        ) : (
          <>
            <Layout.Section>
              <ProductPicker picker={picker} canCreate={access.create} base={base} kits={data.brandKits} />
            </Layout.Section>
            <Layout.Section>
              <AdList ads={ads} base={base} />
            </Layout.Section>
          </>
        )}
      </Layout>
    </Page>
  );
}

function ProductPicker({
  picker,
  canCreate,
  base,
  kits,
}: {
  picker: AiAdsPageData["picker"];
  canCreate: boolean;
  base: string;
  kits: KitChoice[];
}) {
  const [kit, setKit] = useState("");
  const create = useFetcher<AiAdsActionResult>();
  const [, setParams] = useSearchParams();
  const [q, setQ] = useState(picker.q);
  const done = create.data;
  useEffect(() => {
    if (done?.ok && done.adId) setParams({ ad: String(done.adId) });
  }, [done, setParams]);
  const product = picker.selected;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          New ad
        </Text>
        <Form method="get" action={base}>
          <InlineStack gap="200" blockAlign="end" wrap={false}>
            <div style={{ flexGrow: 1 }}>
              <TextField
                label="Find a product"
                name="q"
                value={q}
                onChange={setQ}
                autoComplete="off"
                placeholder="Search the product database"
              />
            </div>
            <Button submit>Search</Button>
          </InlineStack>
        </Form>
        {picker.q && picker.results.length === 0 ? (
          <Text as="p" tone="subdued">
            No products match “{picker.q}”.
          </Text>
        ) : null}
        {picker.results.length > 0 ? (
          <ul aria-label="Matching products" style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {picker.results.map((p) => (
              <li key={p.objectID}>
                <Box paddingBlock="100">
                  <InlineStack gap="300" blockAlign="center">
                    <ProductImage src={p.image} alt="" size={40} />
                    <Link url={`${base}?product=${encodeURIComponent(p.objectID)}`}>{p.title}</Link>
                    {p.sample ? <Badge tone="attention">Sample data</Badge> : null}
                  </InlineStack>
                </Box>
              </li>
            ))}
          </ul>
        ) : null}
        {picker.missing ? (
          <Banner tone="critical">
            <p>No product with objectID {picker.missing}.</p>
          </Banner>
        ) : null}
        {product ? (
          <SelectedProduct product={product}>
            <create.Form method="post">
              <input type="hidden" name="intent" value="create" />
              <input type="hidden" name="objectID" value={product.objectID} />
              <BlockStack gap="200">
                <KitSelect kits={kits} value={kit} onChange={setKit} />
                {/* A plain checkbox, not Polaris's controlled one: a tick made before the page's scripts run is kept. */}
                <BlockStack gap="050">
                  <label>
                    <input type="checkbox" name="freeShipping" defaultChecked={false} /> My store ships this product free
                  </label>
                  <Text as="p" variant="bodySm" tone="subdued">
                    Only then does the ad promise free shipping. A supplier&apos;s “free shipping” says nothing about your store&apos;s shipping.
                  </Text>
                </BlockStack>
                <InlineStack>
                  <Button submit variant="primary" loading={create.state !== "idle"} disabled={!canCreate}>
                    Write the ad script
                  </Button>
                </InlineStack>
              </BlockStack>
            </create.Form>
          </SelectedProduct>
        ) : null}
        {done && !done.ok ? (
          <Banner tone="critical">
            <p>{done.message}</p>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function SelectedProduct({ product, children }: { product: AdProductSummary; children: React.ReactNode }) {
  return (
    <Box background="bg-surface-secondary" padding="300" borderRadius="200">
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        <ProductImage src={product.image} alt="" size={64} />
        <BlockStack gap="100">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h3" variant="headingSm">
              {product.title}
            </Text>
            {product.sample ? <Badge tone="attention">Sample data</Badge> : null}
          </InlineStack>
          <Text as="p" tone="subdued" variant="bodySm">
            {formatPrice(product.priceCents, product.priceCurrency)} · {product.orders === null ? "no sales data" : `${formatCount(product.orders)} orders in 30 days`}
          </Text>
          {children}
        </BlockStack>
      </InlineStack>
    </Box>
  );
}

function AdList({ ads, base }: { ads: AiAdView[]; base: string }) {
  if (ads.length === 0) {
    return (
      <Card>
        <EmptyState heading="No AI ads yet" image="">
          <p>Pick a product above, or open a product and choose “Create AI video ad”.</p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card padding="0">
      <ul aria-label="AI ads" style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {ads.map((ad) => (
          <li key={ad.id} style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }}>
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center" gap="300">
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Link url={`${base}?ad=${ad.id}`} removeUnderline>
                      <Text as="span" variant="headingSm">
                        {ad.title}
                      </Text>
                    </Link>
                    <StatusBadge status={ad.status} />
                    {ad.product?.sample ? <Badge tone="attention">Sample data</Badge> : null}
                  </InlineStack>
                  <Text as="p" tone="subdued" variant="bodySm">
                    {ad.scenes.length} scenes · {seconds(ad.scriptMs)} · {writerLabel(ad.writer)}
                    {ad.product ? ` · ${ad.product.title}` : ""}
                  </Text>
                  {ad.status === "rendering" ? <RenderProgress ad={ad} /> : null}
                  {ad.status === "failed" && ad.errors.length > 0 ? (
                    <Text as="p" tone="critical" variant="bodySm">
                      {ad.errors.join(" ")}
                    </Text>
                  ) : null}
                </BlockStack>
                <Button url={`${base}?ad=${ad.id}`}>Open</Button>
              </InlineStack>
            </Box>
          </li>
        ))}
      </ul>
    </Card>
  );
}
