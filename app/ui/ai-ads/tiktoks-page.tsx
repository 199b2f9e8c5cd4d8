// The TikToks page (/dashboard/tiktoks, /app/tiktoks: the videos a seller saved against products, with
// their note and TikTok's title, author and thumbnail, or why those could not be fetched yet) and the
// "Seen on TikTok" card of a product's page, which lists that product's videos and adds one. Both post to
// the TikToks page's action (app/pages/ai-ads/tiktoks.server.ts).
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher, useRevalidator } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Layout,
  Link,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { sitePathOn, type Surface } from "~/domain/shopify/embedded-paths";
import { TIKTOK_LIMITS } from "~/domain/ai-ads/tiktoks";
import type { loadTikToksPage, TikTokActionResult } from "~/pages/ai-ads/tiktoks.server";
import type { TikTokView } from "~/services/ai-ads/tiktoks.server";
import { researchPaths } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";
import { usePageIdle } from "~/ui/shared/use-poll";

export type TikToksPageData = SerializeFrom<typeof loadTikToksPage>;
type TikTok = SerializeFrom<TikTokView>;

export function tiktoksPath(surface: Surface): string {
  return sitePathOn(surface, "/dashboard/tiktoks");
}

/** Re-reads the page every 2 s for a while when a video's title is still being fetched. */
function usePollWhilePending(pending: boolean) {
  const revalidator = useRevalidator();
  const idle = usePageIdle();
  const [polls, setPolls] = useState(0);
  useEffect(() => {
    if (!pending || !idle || polls >= 15) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
      setPolls((n) => n + 1);
    }, 2000);
    return () => clearTimeout(timer);
  }, [pending, idle, polls, revalidator]);
}

/** A saved link's name until TikTok's title comes: "TikTok video by @user", or the short link without https. */
function linkLabel(url: string): string {
  const user = /tiktok\.com\/@([^/]+)\/video\//.exec(url)?.[1];
  return user ? `TikTok video by @${user}` : url.replace(/^https:\/\//, "").replace(/\/$/, "");
}

function MetaBadge({ status }: { status: TikTok["metaStatus"] }) {
  if (status === "fetched") return null;
  return status === "pending" ? (
    <Badge tone="attention">Fetching title…</Badge>
  ) : (
    <Badge tone="warning">Not fetched</Badge>
  );
}

function TikTokRow({ video, surface, showProduct }: { video: TikTok; surface: Surface; showProduct: boolean }) {
  const fetcher = useFetcher<TikTokActionResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const busy = fetcher.state !== "idle";
  return (
    <Box paddingBlock="200" borderBlockEndWidth="025" borderColor="border-secondary">
      <InlineStack gap="300" wrap={false} blockAlign="start">
        <div
          style={{ width: 64, height: 86, flex: "none", borderRadius: 6, overflow: "hidden", background: "#111827" }}
        >
          {video.thumbnailUrl ? (
            <img
              src={video.thumbnailUrl}
              alt=""
              referrerPolicy="no-referrer"
              loading="lazy"
              style={{ width: "100%", height: "100%", objectFit: "cover" }}
            />
          ) : (
            <div aria-hidden style={{ color: "#fff", fontSize: 24, textAlign: "center", lineHeight: "86px" }}>
              ♪
            </div>
          )}
        </div>
        <div style={{ minWidth: 0, flex: 1, overflowWrap: "anywhere" }}>
          <BlockStack gap="100">
            <InlineStack gap="200" blockAlign="center">
              <Link url={video.url} target="_blank" removeUnderline>
                <Text as="span" fontWeight="semibold">
                  {video.title || (video.metaStatus === "fetched" ? "(no caption)" : linkLabel(video.url))}
                </Text>
              </Link>
              <MetaBadge status={video.metaStatus} />
            </InlineStack>
            {video.authorName ? (
              <Text as="p" variant="bodySm" tone="subdued">
                by {video.authorName}
              </Text>
            ) : null}
            {showProduct && video.product ? (
              <Text as="p" variant="bodySm">
                For <Link url={researchPaths(surface).product(video.product.objectID)}>{video.product.title}</Link>
              </Text>
            ) : null}
            {video.note ? (
              <Text as="p" variant="bodySm">
                Note: {video.note}
              </Text>
            ) : null}
            {video.metaStatus === "not-fetched" && video.fetchError ? (
              <Text as="p" variant="bodySm" tone="caution">
                {video.fetchError} The link is saved either way.
              </Text>
            ) : null}
            <InlineStack gap="200">
              {video.metaStatus === "not-fetched" ? (
                <fetcher.Form method="post" action={tiktoksPath(surface)}>
                  <input type="hidden" name="intent" value="refetch" />
                  <input type="hidden" name="id" value={video.id} />
                  <Button submit size="slim" disabled={busy}>
                    Fetch again
                  </Button>
                </fetcher.Form>
              ) : null}
              <fetcher.Form method="post" action={tiktoksPath(surface)}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={video.id} />
                <Button
                  submit
                  size="slim"
                  tone="critical"
                  variant="plain"
                  disabled={busy}
                  accessibilityLabel={`Remove ${video.title || video.url}`}
                >
                  Remove
                </Button>
              </fetcher.Form>
            </InlineStack>
            {result && !result.ok ? (
              <Text as="p" variant="bodySm" tone="critical">
                {result.message}
              </Text>
            ) : null}
          </BlockStack>
        </div>
      </InlineStack>
    </Box>
  );
}

/** The add form: a link, a note, and the product (fixed on a product's page, chosen on the TikToks page). */
function AddTikTokForm({
  surface,
  objectID,
  products,
}: {
  surface: Surface;
  objectID?: string;
  products?: { objectID: string; title: string }[];
}) {
  const fetcher = useFetcher<TikTokActionResult>();
  const form = useRef<HTMLFormElement>(null);
  const [url, setUrl] = useState("");
  const [note, setNote] = useState("");
  const [product, setProduct] = useState(objectID ?? products?.[0]?.objectID ?? "");
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && result.intent === "add") {
      setUrl("");
      setNote("");
    }
  }, [result]);
  const failed = result && !result.ok && result.intent === "add" ? result : undefined;
  return (
    <fetcher.Form method="post" action={tiktoksPath(surface)} ref={form}>
      <input type="hidden" name="intent" value="add" />
      {objectID ? <input type="hidden" name="objectID" value={objectID} /> : null}
      <BlockStack gap="200">
        <TextField
          label="TikTok video link"
          name="url"
          value={url}
          onChange={setUrl}
          autoComplete="off"
          placeholder="https://www.tiktok.com/@user/video/7234567890123456789"
          helpText="A video's link, or a short vm.tiktok.com link from the app's Share button."
          error={
            failed?.fieldErrors.url ??
            (failed && !failed.fieldErrors.note && !failed.fieldErrors.objectID ? failed.message : undefined)
          }
        />
        {!objectID ? (
          products && products.length > 0 ? (
            <Select
              label="Product"
              name="objectID"
              options={products.map((p) => ({ label: p.title, value: p.objectID }))}
              value={product}
              onChange={setProduct}
              error={failed?.fieldErrors.objectID}
            />
          ) : (
            <Text as="p" tone="subdued">
              Save a product first (or add videos from a product&apos;s page): every video belongs to a product.
            </Text>
          )
        ) : null}
        <TextField
          label="Note (optional)"
          name="note"
          value={note}
          onChange={setNote}
          autoComplete="off"
          maxLength={TIKTOK_LIMITS.noteMax}
          helpText="What works in it: the hook, the angle, the offer."
          error={failed?.fieldErrors.note}
        />
        {result?.ok && result.intent === "add" ? (
          <Text as="p" variant="bodySm" tone="success">
            {result.message}
          </Text>
        ) : null}
        <InlineStack>
          <Button
            submit
            variant="primary"
            loading={fetcher.state !== "idle"}
            disabled={!objectID && !(products && products.length > 0)}
          >
            Save video
          </Button>
        </InlineStack>
      </BlockStack>
    </fetcher.Form>
  );
}

/** "Seen on TikTok" on a product's page: its saved videos and the add form. */
export function SeenOnTikTok({ objectID, videos, surface }: { objectID: string; videos: TikTok[]; surface: Surface }) {
  usePollWhilePending(videos.some((v) => v.metaStatus === "pending"));
  return (
    <TitledCard title="Seen on TikTok">
      <Text as="p" variant="bodySm" tone="subdued">
        Videos of this product that you saved. The AI ad writer takes their hooks as references.
      </Text>
      {videos.length > 0 ? (
        <BlockStack gap="0">
          {videos.map((v) => (
            <TikTokRow key={v.id} video={v} surface={surface} showProduct={false} />
          ))}
        </BlockStack>
      ) : null}
      <AddTikTokForm surface={surface} objectID={objectID} />
    </TitledCard>
  );
}

export function TikToksPage({ data, surface }: { data: TikToksPageData; surface: Surface }) {
  const { tiktoks, products, filter } = data;
  usePollWhilePending(tiktoks.some((v) => v.metaStatus === "pending"));
  return (
    <Page
      title="TikToks"
      subtitle="TikTok videos you saved against products: hooks that worked, offered to the AI ad writer."
      backAction={filter ? { content: filter.title, url: researchPaths(surface).product(filter.objectID) } : undefined}
    >
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {filter ? `Saved for ${filter.title}` : "Saved videos"} ({tiktoks.length})
              </Text>
              {tiktoks.length === 0 ? (
                <Text as="p" tone="subdued">
                  No videos saved yet. Paste a TikTok link below, or use “Seen on TikTok” on a product&apos;s page.
                </Text>
              ) : (
                tiktoks.map((v) => <TikTokRow key={v.id} video={v} surface={surface} showProduct={!filter} />)
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <TitledCard title="Save a TikTok video">
            <AddTikTokForm surface={surface} products={products} objectID={filter?.objectID} />
          </TitledCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
