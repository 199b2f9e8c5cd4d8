// The editor's first card: the ad (title, status, writer, the product it was written from, and a warning while that
// product is sample data), where its videos stand (the render's progress or why it failed, the finished video, the
// free preview), the preview's and render's refusals, and what can be done with it.
import { Badge, Banner, BlockStack, Card, InlineStack, List, Text } from "@shopify/polaris";
import { BUILT_IN_WRITER } from "~/domain/product-pages/product-page";
import { AdActions, type AdActionsProps } from "~/ui/ai-ads/ad-actions";
import { RenderProgress, StatusBadge, writerLabel } from "~/ui/ai-ads/ad-status";
import { PreviewVideo, RenderedVideo } from "~/ui/ai-ads/ad-videos";

export function RenderPanel({ fullSize, ...actions }: AdActionsProps & { fullSize: string }) {
  const { ad, render, preview } = actions;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {ad.title}
          </Text>
          <InlineStack gap="200">
            <StatusBadge status={ad.status} />
            <Badge tone={ad.writer === BUILT_IN_WRITER ? undefined : "info"}>{writerLabel(ad.writer)}</Badge>
          </InlineStack>
        </InlineStack>
        {ad.product ? (
          <InlineStack gap="200" blockAlign="center">
            <Text as="p" tone="subdued">
              From {ad.product.title}
            </Text>
            {ad.product.sample ? <Badge tone="attention">Sample data</Badge> : null}
          </InlineStack>
        ) : null}
        {ad.product?.sample && ad.status !== "completed" ? (
          <Banner tone="warning">
            <p>
              This product is sample data: its figures (such as the orders quoted in the social-proof scene) are not
              real sales. Check every figure before you post the video.
            </p>
          </Banner>
        ) : null}
        {ad.status === "rendering" ? <RenderProgress ad={ad} /> : null}
        {ad.status === "failed" && ad.errors.length > 0 ? (
          <Banner tone="critical" title="The last render failed">
            <List>
              {ad.errors.map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Banner>
        ) : null}
        {ad.status === "completed" && ad.storageUrl ? <RenderedVideo ad={ad} url={ad.storageUrl} /> : null}
        {ad.status !== "completed" && ad.status !== "rendering" && ad.previewVideo ? (
          <PreviewVideo ad={ad} preview={ad.previewVideo} fullSize={fullSize} />
        ) : null}
        {[render.data, preview.data].map((answer, i) =>
          answer && !answer.ok ? (
            <Banner key={i} tone="critical">
              <p>{answer.message}</p>
            </Banner>
          ) : null,
        )}
        <AdActions {...actions} />
      </BlockStack>
    </Card>
  );
}
