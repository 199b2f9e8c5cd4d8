// A live preview of a product page as a shopper (and a search engine) will see it. The HTML shown is
// the HTML Shopify receives, rendered from the Markdown description by the safe renderer
// (composeProductBodyHtml, docs/decisions/029), so nothing unsafe is rendered.
import { BlockStack, Box, Card, InlineStack, Text } from "@shopify/polaris";
import { centsToDecimal, composeProductBodyHtml, PAGE_LIMITS } from "~/domain/product-pages/product-page";

export interface ProductPagePreviewProps {
  title: string;
  descriptionMarkdown: string;
  bullets: string[];
  seoTitle: string;
  seoDescription: string;
  priceCents: number | null;
  compareAtPriceCents: number | null;
  image?: string | null;
  shop?: string | null;
}

function money(cents: number | null): string {
  return cents === null ? "—" : `$${centsToDecimal(cents)}`;
}

export function ProductPagePreview(props: ProductPagePreviewProps) {
  const html = composeProductBodyHtml(props.descriptionMarkdown, props.bullets);
  const handle =
    props.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "product";
  return (
    <BlockStack gap="400">
      <Card>
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm" tone="subdued">
            Product page preview
          </Text>
          <InlineStack gap="400" wrap={false} blockAlign="start">
            {props.image ? (
              <img
                src={props.image}
                alt=""
                width={96}
                height={96}
                style={{ objectFit: "cover", borderRadius: 8, flex: "none" }}
              />
            ) : null}
            <BlockStack gap="100">
              <Text as="h2" variant="headingLg">
                {props.title || "Untitled product"}
              </Text>
              <InlineStack gap="200" blockAlign="center">
                <Text as="span" variant="headingMd">
                  {money(props.priceCents)}
                </Text>
                {props.compareAtPriceCents !== null ? (
                  <Text as="span" tone="subdued" textDecorationLine="line-through">
                    {money(props.compareAtPriceCents)}
                  </Text>
                ) : null}
              </InlineStack>
            </BlockStack>
          </InlineStack>
          {/* Only p, h2, h3, ul, ol, li, strong, em, br and http(s) links; all text escaped (app/domain/product-pages/description-markdown.ts). */}
          <div
            className="product-page-preview"
            data-testid="product-page-preview"
            dangerouslySetInnerHTML={{ __html: html }}
          />
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="100">
          <Text as="h3" variant="headingSm" tone="subdued">
            Search engine listing
          </Text>
          <Box>
            <Text as="p" variant="bodySm" tone="subdued">
              {props.shop ?? "your-store.myshopify.com"} › products › {handle}
            </Text>
            <Text
              as="p"
              variant="headingMd"
              tone={props.seoTitle.length > PAGE_LIMITS.seoTitleMax ? "critical" : undefined}
            >
              {props.seoTitle || props.title}
            </Text>
            <Text as="p" tone={props.seoDescription.length > PAGE_LIMITS.seoDescriptionMax ? "critical" : "subdued"}>
              {props.seoDescription}
            </Text>
          </Box>
          <Text as="p" variant="bodySm" tone="subdued">
            SEO title {props.seoTitle.length}/{PAGE_LIMITS.seoTitleMax} · description {props.seoDescription.length}/
            {PAGE_LIMITS.seoDescriptionMax} characters
          </Text>
        </BlockStack>
      </Card>
    </BlockStack>
  );
}
