// One followed store's page, the same on the site (/dashboard/competitors/{id}) and in Shopify admin
// (/app/competitors/{id}): the weekly-orders estimate (marked an estimate, with its evidence and method), when
// it was read and will be again, "Check now" with the read's progress, the catalogue's size and activity
// over time, its launches, the changes we measured (newest first), and its products with Follow (price-drop
// alerts) and "Add to product database". Loader and action: app/pages/competitors/competitors.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher, useLocation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Collapsible,
  InlineStack,
  Layout,
  Link,
  Page,
  Text,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { ESTIMATE_METHOD } from "~/domain/competitors/insights";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { productPriceCurrency, UNKNOWN_CURRENCY } from "~/domain/catalogue/measured-product";
import type { CompetitorActionResult, loadCompetitorStorePage } from "~/pages/competitors/competitors.server";
import type { ExportLinks } from "~/pages/research/export.server";
import type { CompetitorProductView } from "~/services/competitors.server";
import {
  ActionMessage,
  competitorPaths,
  estimateText,
  POLL_MS,
  relativeTime,
  StatusBadge,
} from "~/ui/competitors/competitors-page";
import { ExportButtons } from "~/ui/research/export-buttons";
import { LineChart } from "~/ui/shared/line-chart";
import { ChoosePlanBanner } from "~/ui/shared/page-banners";
import { formatDay, formatPrice } from "~/ui/research/product-card";
import { researchPaths } from "~/ui/research/research-paths";
import { RivalPicture } from "~/ui/research/rival-picture";
import { TitledCard } from "~/ui/shared/titled-card";
import { useRevalidateEvery } from "~/ui/shared/use-poll";

export type CompetitorStorePageData = SerializeFrom<typeof loadCompetitorStorePage>;
type Detail = CompetitorStorePageData["detail"];
type Product = SerializeFrom<CompetitorProductView>;

const PRODUCTS_PAGE = 24;
const CHANGES_PAGE = 20;

/**
 * A product's price in the store's own currency, as the grid writes prices ("€24.95 EUR", "$19.99"); a store that
 * publishes no currency shows the amounts with "(currency unknown)", never as dollars (issue 35).
 */
export function priceRange(p: Pick<Product, "priceMinCents" | "priceMaxCents" | "currency">): string {
  if (p.priceMinCents === null) return "No price listed";
  const same = p.priceMaxCents === null || p.priceMaxCents === p.priceMinCents;
  const currency = productPriceCurrency(p.currency);
  if (currency === UNKNOWN_CURRENCY) {
    const amount = (cents: number) => (cents / 100).toFixed(2);
    return `${same ? amount(p.priceMinCents) : `${amount(p.priceMinCents)} – ${amount(p.priceMaxCents!)}`} (currency unknown)`;
  }
  if (same) return formatPrice(p.priceMinCents, currency);
  return `${formatPrice(p.priceMinCents, currency)} – ${formatPrice(p.priceMaxCents!, currency)}`;
}

/** Which currency the store's prices are in, said once above its products. */
export function storeCurrencyNote(currency: string | null): string {
  return currency ? `Prices as the store lists them, in ${currency}.` : "The store publishes no currency: its prices show without one, never as dollars.";
}

function EstimateBox({ detail }: { detail: Detail }) {
  const [open, setOpen] = useState(false);
  const { estimate, estimateReason } = detail;
  return (
    <TitledCard title="Estimate">
      <InlineStack gap="200" blockAlign="center">
        <Badge tone="info">Estimate</Badge>
        <Text as="p" variant="headingLg">
          {estimate ? `${estimate.low}–${estimate.high} orders/week` : "Not enough evidence"}
        </Text>
      </InlineStack>
      {estimate ? (
        <>
          <Text as="p">{`Confidence: ${estimate.confidence}.`}</Text>
          <ul style={{ margin: 0, paddingInlineStart: "1.2em" }} aria-label="Evidence">
            {estimate.evidence.map((sentence) => (
              <li key={sentence}>
                <Text as="span" variant="bodySm">
                  {sentence}
                </Text>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Text as="p" tone="subdued">
          {estimateText(null, estimateReason?.replace(/^not enough evidence:\s*/i, "") || null)}
        </Text>
      )}
      <div>
        <Button
          variant="plain"
          onClick={() => setOpen((o) => !o)}
          ariaExpanded={open}
          ariaControls="how-we-estimate"
          disclosure={open ? "up" : "down"}
        >
          How we estimate
        </Button>
      </div>
      <Collapsible id="how-we-estimate" open={open}>
        <Text as="p" variant="bodySm" tone="subdued">
          {estimate?.method ?? ESTIMATE_METHOD}
        </Text>
      </Collapsible>
    </TitledCard>
  );
}

function ReadCard({ data, surface }: { data: CompetitorStorePageData; surface: Surface }) {
  const { detail, check, now } = data;
  const fetcher = useFetcher<CompetitorActionResult>();
  const [, setSearchParams] = useSearchParams();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && result.intent === "check" && result.jobId) {
      setSearchParams(
        (p) => {
          p.set("check", String(result.jobId));
          return p;
        },
        { replace: true, preventScrollReset: true },
      );
    }
  }, [result, setSearchParams]);
  const running = check === "queued" || check === "running";
  return (
    <TitledCard title="Reads">
      <InlineStack gap="200" blockAlign="center">
        <StatusBadge status={detail.status} checking={running} />
        {running ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {check === "queued" ? "Waiting for a free reader…" : "Reading the catalogue…"}
          </Text>
        ) : null}
      </InlineStack>
      <Text as="p" variant="bodySm">
        {`Last checked ${relativeTime(detail.lastCheckedAt, now)} · next check ${detail.nextCheckAt ? relativeTime(detail.nextCheckAt, now) : "not scheduled"}`}
      </Text>
      {detail.lastError ? (
        <Text as="p" variant="bodySm" tone={detail.status === "blocked" || detail.status === "robots" ? "caution" : "critical"}>
          {detail.lastError}
        </Text>
      ) : null}
      {detail.readNote ? (
        <Text as="p" variant="bodySm" tone="caution">
          {detail.readNote}
        </Text>
      ) : null}
      {/* Listings placed without pictures and pictures pending: how many, why and when (issue 37, decision 091). */}
      {data.picturesPending ? (
        <Text as="p" variant="bodySm" tone="subdued">
          {data.picturesPending}
        </Text>
      ) : null}
      {check === "done" && !detail.lastError ? (
        <Text as="p" variant="bodySm" tone="success">
          Read finished.
        </Text>
      ) : null}
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="check" />
        <input type="hidden" name="id" value={detail.id} />
        <Button submit loading={fetcher.state !== "idle" || running} disabled={!data.access.follow}>
          Check now
        </Button>
      </fetcher.Form>
      <ActionMessage result={result && !result.ok ? result : undefined} upgradeUrl={researchPaths(surface).upgrade} />
    </TitledCard>
  );
}

function ActivityChart({ detail }: { detail: Detail }) {
  const label = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ");
  const perRead = new Map<string, number>();
  for (const c of detail.changes) perRead.set(c.at, (perRead.get(c.at) ?? 0) + 1);
  return (
    <TitledCard title="Catalogue over time">
      <Text as="p" variant="bodySm" tone="subdued">
        Measured at each read.
      </Text>
      <LineChart
        label="Products in the catalogue at each read"
        points={detail.series.map((p) => ({ at: label(p.takenAt), value: p.products }))}
      />
      <Text as="h3" variant="headingSm">
        Changes seen at each read
      </Text>
      <LineChart
        label="Changes seen at each read"
        height={90}
        points={detail.series.map((p) => ({ at: label(p.takenAt), value: perRead.get(p.takenAt) ?? 0 }))}
      />
    </TitledCard>
  );
}

function Launches({ detail, now }: { detail: Detail; now: string }) {
  return (
    <TitledCard title="Launches" id="launches">
      {detail.launches.length === 0 ? (
        <Text as="p" tone="subdued">
          No launch seen yet. Products that appear between two reads show here.
        </Text>
      ) : (
        <ol aria-label="Launches" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {detail.launches.map((l) => (
            <li
              key={l.id}
              style={{ paddingBlock: "var(--p-space-150)", borderBottom: "1px solid var(--p-color-border-secondary)" }}
            >
              <BlockStack gap="050">
                <Text as="span" fontWeight="semibold" breakWord>
                  {l.title}
                </Text>
                <Text as="span" variant="bodySm" tone="subdued">
                  {`Seen ${relativeTime(l.at, now)} (${formatDay(l.at)})`}
                </Text>
              </BlockStack>
            </li>
          ))}
        </ol>
      )}
    </TitledCard>
  );
}

function Changes({ detail, now }: { detail: Detail; now: string }) {
  const [shown, setShown] = useState(CHANGES_PAGE);
  return (
    <TitledCard title="Changes">
      {detail.changes.length === 0 ? (
        <Text as="p" tone="subdued">
          No change seen yet. After the second read, launches, sell-outs, restocks and price changes show here.
        </Text>
      ) : (
        <ol aria-label="Changes, newest first" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {detail.changes.slice(0, shown).map((c) => (
            <li
              key={c.id}
              style={{ paddingBlock: "var(--p-space-150)", borderBottom: "1px solid var(--p-color-border-secondary)" }}
            >
              <BlockStack gap="050">
                <InlineStack gap="200" blockAlign="center">
                  <Badge tone="success">Measured</Badge>
                  <Text as="span" variant="bodySm" tone="subdued">
                    {relativeTime(c.at, now)}
                  </Text>
                </InlineStack>
                <Text as="p" breakWord>
                  {c.sentence}
                </Text>
              </BlockStack>
            </li>
          ))}
        </ol>
      )}
      {detail.changes.length > shown ? (
        <div>
          <Button
            onClick={() => setShown((n) => n + CHANGES_PAGE)}
          >{`Show more (${detail.changes.length - shown} left)`}</Button>
        </div>
      ) : null}
    </TitledCard>
  );
}

function ProductRow({ product, detail, surface }: { product: Product; detail: Detail; surface: Surface }) {
  const fetcher = useFetcher<CompetitorActionResult>();
  const paths = researchPaths(surface);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const pendingIntent = fetcher.formData?.get("intent");
  const followed = pendingIntent === "follow" ? true : pendingIntent === "unfollow" ? false : product.followed;
  // Added by this click, or already in the product database (by anyone): a link to its page, never a second "Add".
  const imported = result?.ok && result.intent === "import" ? result.objectID : product.objectID;
  return (
    <li id={`product-${product.productId}`} style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }} aria-label={product.title}>
      <Box padding="300">
        <InlineStack gap="300" blockAlign="start" wrap={false}>
          <div style={{ flex: "0 0 56px" }}>
            <RivalPicture src={product.images[0] ?? null} title={product.title} />
          </div>
          <div style={{ flex: "1 1 auto", minWidth: 0 }}>
            <BlockStack gap="100">
              <Link url={product.url} external removeUnderline>
                <Text as="span" fontWeight="semibold" breakWord>
                  {product.title}
                </Text>
              </Link>
              <Text as="span" variant="bodySm">
                {priceRange(product)}
              </Text>
              <InlineStack gap="200" blockAlign="center">
                {product.available === true ? (
                  <Badge tone="success">In stock</Badge>
                ) : product.available === false ? (
                  <Badge tone="critical">Sold out</Badge>
                ) : (
                  <Badge>Stock not published</Badge>
                )}
                <Text as="span" variant="bodySm" tone="subdued">
                  {`First seen ${formatDay(product.firstSeenAt)}`}
                </Text>
              </InlineStack>
              <InlineStack gap="200" blockAlign="center">
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value={followed ? "unfollow" : "follow"} />
                  <input type="hidden" name="id" value={detail.id} />
                  <input type="hidden" name="productId" value={product.productId} />
                  <Button
                    submit
                    size="slim"
                    pressed={followed}
                    loading={pendingIntent === "follow" || pendingIntent === "unfollow"}
                  >
                    {followed ? "Following price" : "Follow price"}
                  </Button>
                </fetcher.Form>
                {imported ? (
                  <Link url={paths.product(imported)}>Open in product database</Link>
                ) : (
                  <fetcher.Form method="post">
                    <input type="hidden" name="intent" value="import" />
                    <input type="hidden" name="id" value={detail.id} />
                    <input type="hidden" name="productId" value={product.productId} />
                    <Button submit size="slim" variant="plain" loading={pendingIntent === "import"}>
                      Add to product database
                    </Button>
                  </fetcher.Form>
                )}
              </InlineStack>
              <ActionMessage result={result && !result.ok ? result : undefined} upgradeUrl={paths.upgrade} />
            </BlockStack>
          </div>
        </InlineStack>
      </Box>
    </li>
  );
}

function Products({ detail, surface, exportLinks }: { detail: Detail; surface: Surface; exportLinks: ExportLinks | null }) {
  const products = detail.products;
  // A price-drop notification opens #product-{id}: that product is listed even when it is further down.
  const { hash } = useLocation();
  const linked = products.findIndex((p) => `#product-${p.productId}` === hash);
  const [shown, setShown] = useState(Math.max(PRODUCTS_PAGE, linked + 1));
  return (
    <TitledCard title={`Products (${detail.productCount})`}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="p" variant="bodySm" tone="subdued">
          {`Follow a product's price to be told when it drops. Newest first. ${storeCurrencyNote(detail.currency)}`}
        </Text>
        {detail.productCount > 0 ? <ExportButtons links={exportLinks} what={`${detail.domain}'s products`} /> : null}
      </InlineStack>
      {products.length === 0 ? (
        <Text as="p" tone="subdued">
          No product read yet.
        </Text>
      ) : (
        <ul aria-label="The store's products" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {products.slice(0, shown).map((p) => (
            <ProductRow key={p.productId} product={p} detail={detail} surface={surface} />
          ))}
        </ul>
      )}
      {products.length > shown ? (
        <div>
          <Button
            onClick={() => setShown((n) => n + PRODUCTS_PAGE)}
          >{`Show more (${products.length - shown} left)`}</Button>
        </div>
      ) : null}
    </TitledCard>
  );
}

export function CompetitorStorePage({ data, surface }: { data: CompetitorStorePageData; surface: Surface }) {
  const { detail, check, now, access } = data;
  const waiting = check === "queued" || check === "running" || (detail.status === "pending" && check === null);
  useRevalidateEvery(waiting, POLL_MS);
  const paths = competitorPaths(surface);

  return (
    <Page
      backAction={{ content: "Competitors", url: paths.list }}
      title={detail.name}
      subtitle={detail.domain}
      titleMetadata={<StatusBadge status={detail.status} checking={check === "queued" || check === "running"} />}
    >
      <Layout>
        {!access.follow ? (
          <Layout.Section variant="fullWidth">
            <ChoosePlanBanner title="Your plan has ended" reason={access.lockedReason} upgradeUrl={researchPaths(surface).upgrade} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <EstimateBox detail={detail} />
            <ActivityChart detail={detail} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <ReadCard data={data} surface={surface} />
            <Launches detail={detail} now={now} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <Products detail={detail} surface={surface} exportLinks={data.exportLinks} />
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Changes detail={detail} now={now} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
