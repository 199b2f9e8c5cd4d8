// The Product pages page, the same on the site (/dashboard/product-pages) and in Shopify admin
// (/app/product-pages): the user's product pages with their status, target store and Shopify product;
// ?page={id} opens one in the editor with a live preview, a push button (with its progress) and the
// errors Shopify gave. Its loader and action are app/pages/product-pages/product-pages.server.ts. Pages are
// created from a product ("Create product page", "Automatic mode") through
// app/ui/product-pages/product-page-actions.tsx. Inside the admin every link stays under /app.
import type { SerializeFrom } from "@remix-run/node";
import { Link as RemixLink, useFetcher, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Checkbox,
  EmptyState,
  InlineStack,
  Layout,
  Link,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { isUnlimited } from "~/domain/billing/credits";
import {
  BUILT_IN_WRITER,
  centsToDecimal,
  PAGE_LIMITS,
  parseDollarsToCents,
  type PageErrors,
} from "~/domain/product-pages/product-page";
import type { ProductPageView } from "~/services/product-pages.server";
import type { loadProductPagesPage, ProductPagesActionResult } from "~/pages/product-pages/product-pages.server";
import { ConnectStoreFirst } from "~/ui/shopify/connect-shopify";
import { MarkdownDescriptionField } from "~/ui/shared/markdown-editor";
import { storeOptions } from "~/ui/product-pages/product-page-actions";
import { ProductPagePreview } from "~/ui/product-pages/product-page-preview";
import { researchPaths, type ResearchPaths, type Surface } from "~/ui/research/research-paths";
import { formatPrice } from "~/ui/research/product-card";

export type ProductPagesPageData = SerializeFrom<typeof loadProductPagesPage>;

const STATUS_TONE = { draft: undefined, pushing: "attention", pushed: "success", failed: "critical" } as const;
const STATUS_LABEL = { draft: "Draft", pushing: "Pushing…", pushed: "Pushed", failed: "Failed" } as const;

function money(cents: number): string {
  return `$${centsToDecimal(cents)}`;
}

function StatusBadge({ page }: { page: ProductPageView }) {
  const edited = page.status === "draft" && page.shopifyProductId;
  return <Badge tone={STATUS_TONE[page.status]}>{edited ? "Edited since push" : STATUS_LABEL[page.status]}</Badge>;
}

function WriterLabel({ writer }: { writer: string }) {
  return writer === BUILT_IN_WRITER ? <Badge>Built-in writer</Badge> : <Badge tone="info">{`AI: ${writer}`}</Badge>;
}

export function ProductPagesPage({ data, surface }: { data: ProductPagesPageData; surface: Surface }) {
  const { pages, stores, writer, balances, install } = data;
  const paths = researchPaths(surface);
  const [params] = useSearchParams();
  const selectedId = Number(params.get("page"));
  const selected = pages.find((p) => p.id === selectedId) ?? null;

  return (
    <Page
      title="Product pages"
      subtitle="Pages for your store, written from research products. Edit them, then push them to Shopify as drafts."
      backAction={selected ? { content: "All product pages", url: paths.productPages } : undefined}
    >
      <Layout>
        <Layout.Section>
          <Banner tone="info">
            <p>
              Copy is written by{" "}
              {writer === BUILT_IN_WRITER
                ? "the built-in writer (templates filled with the product's own data)"
                : `the AI model ${writer}`}
              . A new page costs 1 product-page credit (
              {isUnlimited(balances.generate) ? "unlimited" : `${balances.generate} left`}); automatic mode writes and pushes
              in one step for 4 credits ({isUnlimited(balances.automatic) ? "unlimited" : `${balances.automatic} left`}),
              refunded if the push fails. Create pages from a product in{" "}
              <RemixLink to={paths.products}>the product database</RemixLink>.
            </p>
          </Banner>
        </Layout.Section>
        {selected ? (
          <PageEditor key={selected.id} page={selected} stores={stores} surface={surface} install={install} />
        ) : (
          <Layout.Section>
            <PageList pages={pages} paths={paths} />
          </Layout.Section>
        )}
      </Layout>
    </Page>
  );
}

function PageList({ pages, paths }: { pages: ProductPageView[]; paths: ResearchPaths }) {
  const editorUrl = (id: number) => `${paths.productPages}?page=${id}`;
  if (pages.length === 0) {
    return (
      <Card>
        <EmptyState heading="No product pages yet" image="" action={{ content: "Find a product", url: paths.products }}>
          <p>Open a product and choose “Create product page” or “Automatic mode”.</p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card padding="0">
      <ul className="product-page-list" aria-label="Product pages" style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {pages.map((p) => (
          <li key={p.id} style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }}>
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center" gap="300">
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Link url={editorUrl(p.id)} removeUnderline>
                      <Text as="span" variant="headingSm">
                        {p.title}
                      </Text>
                    </Link>
                    <StatusBadge page={p} />
                    {p.automatic ? <Badge tone="magic">Automatic mode</Badge> : null}
                  </InlineStack>
                  <Text as="p" tone="subdued" variant="bodySm">
                    {money(p.priceCents)}
                    {p.compareAtPriceCents !== null ? ` (compare at ${money(p.compareAtPriceCents)})` : ""} ·{" "}
                    {p.store ? `Store: ${p.store.storeName}` : "Not pushed yet"}
                    {p.shopifyProductId
                      ? ` · Shopify product ${p.shopifyProductId.replace("gid://shopify/Product/", "#")}`
                      : ""}{" "}
                    · {p.writer === BUILT_IN_WRITER ? "built-in writer" : `AI: ${p.writer}`}
                  </Text>
                  {p.status === "failed" && p.error ? (
                    <Text as="p" tone="critical" variant="bodySm">
                      {p.error}
                    </Text>
                  ) : null}
                </BlockStack>
                <InlineStack gap="200">
                  {p.shopifyAdminUrl ? (
                    <Button url={p.shopifyAdminUrl} external>
                      Open in Shopify
                    </Button>
                  ) : null}
                  <Button url={editorUrl(p.id)}>Edit</Button>
                </InlineStack>
              </InlineStack>
            </Box>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function PageEditor({
  page,
  stores,
  surface,
  install,
}: {
  page: ProductPageView;
  stores: { id: number; shop: string; storeName: string }[];
  surface: Surface;
  install: ProductPagesPageData["install"];
}) {
  const save = useFetcher<ProductPagesActionResult>();
  const push = useFetcher<ProductPagesActionResult>();
  const del = useFetcher<ProductPagesActionResult>();
  const [title, setTitle] = useState(page.title);
  const [description, setDescription] = useState(page.descriptionMarkdown);
  const [bullets, setBullets] = useState(page.bullets.join("\n"));
  const [seoTitle, setSeoTitle] = useState(page.seoTitle);
  const [seoDescription, setSeoDescription] = useState(page.seoDescription);
  const [price, setPrice] = useState(centsToDecimal(page.priceCents));
  const [compareAt, setCompareAt] = useState(
    page.compareAtPriceCents !== null ? centsToDecimal(page.compareAtPriceCents) : "",
  );
  const [shop, setShop] = useState(page.store?.shop ?? stores[0]?.shop ?? "");
  const [publish, setPublish] = useState(false);
  const [dirty, setDirty] = useState(false);

  const saved = save.data ?? null;
  const fieldErrors: PageErrors = saved && !saved.ok ? saved.fieldErrors : {};
  // After a save or a push, the form shows the server's copy (sanitised and normalised).
  useEffect(() => {
    setTitle(page.title);
    setDescription(page.descriptionMarkdown);
    setBullets(page.bullets.join("\n"));
    setSeoTitle(page.seoTitle);
    setSeoDescription(page.seoDescription);
    setPrice(centsToDecimal(page.priceCents));
    setCompareAt(page.compareAtPriceCents !== null ? centsToDecimal(page.compareAtPriceCents) : "");
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the saved page changes
  }, [page.updatedAt]);

  const pushing = push.state !== "idle" || page.status === "pushing";
  const pushed = push.data ?? null;
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setDirty(true);
    };

  const product = page.product;
  const bulletList = bullets.split("\n").filter((b) => b.trim() !== "");
  return (
    <>
      <Layout.Section variant="oneHalf">
        <BlockStack gap="400">
          <Card>
            <save.Form method="post">
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="id" value={page.id} />
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Edit the page
                  </Text>
                  <InlineStack gap="200">
                    <StatusBadge page={page} />
                    <WriterLabel writer={page.writer} />
                  </InlineStack>
                </InlineStack>
                {saved ? (
                  <Banner tone={saved.ok ? "success" : "critical"}>
                    <p>{saved.message}</p>
                  </Banner>
                ) : null}
                <TextField
                  label="Title"
                  name="title"
                  value={title}
                  onChange={edit(setTitle)}
                  autoComplete="off"
                  maxLength={PAGE_LIMITS.titleMax}
                  showCharacterCount
                  error={fieldErrors.title}
                />
                <MarkdownDescriptionField
                  label="Description"
                  name="descriptionMarkdown"
                  value={description}
                  onChange={edit(setDescription)}
                  helpText="Use the buttons, or type **bold**, *italic*, ## Heading, - list items and [links](https://…). The preview shows what your store gets."
                  error={fieldErrors.descriptionMarkdown ?? fieldErrors.descriptionHtml}
                />
                <TextField
                  label="Benefits (one per line)"
                  name="bullets"
                  value={bullets}
                  onChange={edit(setBullets)}
                  multiline={4}
                  autoComplete="off"
                  helpText={`${PAGE_LIMITS.bulletsMin}-${PAGE_LIMITS.bulletsMax} benefits, up to ${PAGE_LIMITS.bulletMax} characters each. Shown as a list under the description.`}
                  error={fieldErrors.bullets}
                />
                <TextField
                  label="SEO title"
                  name="seoTitle"
                  value={seoTitle}
                  onChange={edit(setSeoTitle)}
                  autoComplete="off"
                  maxLength={PAGE_LIMITS.seoTitleMax}
                  showCharacterCount
                  error={fieldErrors.seoTitle}
                />
                <TextField
                  label="SEO description"
                  name="seoDescription"
                  value={seoDescription}
                  onChange={edit(setSeoDescription)}
                  multiline={2}
                  autoComplete="off"
                  maxLength={PAGE_LIMITS.seoDescriptionMax}
                  showCharacterCount
                  error={fieldErrors.seoDescription}
                />
                <InlineStack gap="300" wrap={false}>
                  <TextField
                    label="Price"
                    name="price"
                    prefix="$"
                    value={price}
                    onChange={edit(setPrice)}
                    autoComplete="off"
                    inputMode="decimal"
                    error={fieldErrors.priceCents}
                    helpText={
                      product
                        ? `Cost ${product.costCents === null ? "unknown (add your cost)" : money(product.costCents)} + shipping ${money(product.shippingCents)}; others sell it at ${formatPrice(product.marketPriceCents, product.marketPriceCurrency)}.`
                        : undefined
                    }
                  />
                  <TextField
                    label="Compare-at price (optional)"
                    name="compareAt"
                    prefix="$"
                    value={compareAt}
                    onChange={edit(setCompareAt)}
                    autoComplete="off"
                    inputMode="decimal"
                    error={fieldErrors.compareAtPriceCents}
                    helpText="Only a price you really charged before."
                  />
                </InlineStack>
                <InlineStack gap="200">
                  <Button submit variant="primary" loading={save.state !== "idle"} disabled={pushing}>
                    Save
                  </Button>
                  <Button
                    tone="critical"
                    variant="plain"
                    disabled={pushing}
                    onClick={() => {
                      if (
                        window.confirm("Delete this page from your list? A product already in Shopify stays there.")
                      ) {
                        del.submit({ intent: "delete", id: String(page.id) }, { method: "post" });
                      }
                    }}
                  >
                    Delete
                  </Button>
                </InlineStack>
                {del.data && !del.data.ok ? (
                  <Banner tone="critical">
                    <p>{del.data.message}</p>
                  </Banner>
                ) : null}
              </BlockStack>
            </save.Form>
          </Card>
          <Card>
            <push.Form method="post">
              <input type="hidden" name="intent" value="push" />
              <input type="hidden" name="id" value={page.id} />
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Push to your store
                </Text>
                {stores.length === 0 ? (
                  <ConnectStoreFirst surface={surface} install={install} action="to push this page to it" />
                ) : (
                  <>
                    <Select label="Store" name="shop" options={storeOptions(stores)} value={shop} onChange={setShop} />
                    <Checkbox
                      label="Publish it right away (otherwise it arrives as a draft)"
                      name="publish"
                      checked={publish}
                      onChange={setPublish}
                    />
                    {dirty ? (
                      <Text as="p" tone="caution">
                        Save your changes first: the saved page is what gets pushed.
                      </Text>
                    ) : null}
                    <InlineStack gap="300" blockAlign="center">
                      <Button submit variant="primary" loading={pushing} disabled={pushing || dirty || !shop}>
                        {page.shopifyProductId && page.store?.shop === shop ? "Update in store" : "Push to store"}
                      </Button>
                      {pushing ? (
                        <Text as="span" tone="subdued">
                          pushing…
                        </Text>
                      ) : null}
                      {page.shopifyAdminUrl ? (
                        <Link url={page.shopifyAdminUrl} external>
                          Open in Shopify admin
                        </Link>
                      ) : null}
                    </InlineStack>
                  </>
                )}
                {pushed ? (
                  <Banner tone={pushed.ok ? "success" : "critical"}>
                    <p>{pushed.message}</p>
                  </Banner>
                ) : page.status === "failed" && page.error ? (
                  <Banner tone="critical" title="The last push failed">
                    <p>{page.error}</p>
                  </Banner>
                ) : null}
                <MediaNote page={page} />
              </BlockStack>
            </push.Form>
          </Card>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneHalf">
        <ProductPagePreview
          title={title}
          descriptionMarkdown={description}
          bullets={bulletList}
          seoTitle={seoTitle}
          seoDescription={seoDescription}
          priceCents={parseDollarsToCents(price)}
          compareAtPriceCents={compareAt.trim() === "" ? null : parseDollarsToCents(compareAt)}
          image={product?.image ?? null}
          shop={shop || null}
        />
      </Layout.Section>
    </>
  );
}

function MediaNote({ page }: { page: ProductPageView }) {
  const { send, skipped } = page.media;
  if (send.length === 0 && skipped.length === 0) return null;
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm" tone="subdued">
        Images: {send.length} will be sent to Shopify{skipped.length > 0 ? `, ${skipped.length} skipped` : ""}.
      </Text>
      {skipped.length > 0 ? (
        <ul style={{ margin: 0, paddingLeft: "1.25rem" }}>
          {[...new Set(skipped.map((s) => s.reason))].map((reason) => (
            <li key={reason}>
              <Text as="span" variant="bodySm" tone="subdued">
                {reason}
              </Text>
            </li>
          ))}
        </ul>
      ) : null}
    </BlockStack>
  );
}
