// The Competitors page, the same on the site (/dashboard/competitors) and in Shopify admin (/app/competitors):
// the rival stores the user follows (name, status, products, last and next read, the weekly-orders estimate
// comes on each store's page), the "Add a competitor" form, rename, remove (confirmed) and "Check now". Without
// a paid state it says what the feature is and how to get it. Its loader and action are
// app/pages/competitors/competitors.server.ts; inside the admin every link stays under /app.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Layout,
  Link,
  List,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { sitePathOn, type Surface } from "~/domain/shopify/embedded-paths";
import type { CompetitorActionResult, loadCompetitorsPage } from "~/pages/competitors/competitors.server";
import type { CompetitorStatus, CompetitorSummary, EstimateView } from "~/services/competitors.server";
import { ChoosePlanBanner } from "~/ui/shared/page-banners";
import { researchPaths } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";
import { useRevalidateEvery } from "~/ui/shared/use-poll";

export type CompetitorsPageData = SerializeFrom<typeof loadCompetitorsPage>;

/** How often a page asks again while a read is queued or running. */
export const POLL_MS = 3000;

export function competitorPaths(surface: Surface) {
  const list = sitePathOn(surface, "/dashboard/competitors");
  return { list, store: (id: number) => `${list}/${id}` };
}

/** "3 h ago", "in 20 min", against the server's clock (`now`), so both renders agree. */
export function relativeTime(iso: string | null, now: string): string {
  if (!iso) return "never";
  const diff = Date.parse(iso) - Date.parse(now);
  const abs = Math.abs(diff);
  const unit =
    abs < 60_000
      ? null
      : abs < 3_600_000
        ? `${Math.round(abs / 60_000)} min`
        : abs < 172_800_000
          ? `${Math.round(abs / 3_600_000)} h`
          : `${Math.round(abs / 86_400_000)} days`;
  if (unit === null) return "just now";
  return diff < 0 ? `${unit} ago` : `in ${unit}`;
}

export function StatusBadge({ status, checking = false }: { status: CompetitorStatus; checking?: boolean }) {
  if (checking) return <Badge tone="attention">Checking…</Badge>;
  if (status === "ok") return <Badge tone="success">Up to date</Badge>;
  if (status === "failing") return <Badge tone="critical">Read failed</Badge>;
  if (status === "parked") return <Badge tone="critical">Parked</Badge>;
  if (status === "blocked") return <Badge tone="warning">Blocked</Badge>;
  if (status === "robots") return <Badge tone="info">Not read: robots.txt</Badge>;
  return <Badge tone="attention">First read pending</Badge>;
}

/** "12–40 orders/week (low confidence)", or why there is no range. */
export function estimateText(estimate: EstimateView | null, reason: string | null): string {
  if (!estimate) return reason ? capitalise(reason) : "Not enough evidence yet.";
  return `${estimate.low}–${estimate.high} orders/week (${estimate.confidence} confidence)`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What the feature does and what it never does: the empty state and the locked page say it. */
export function WhatWeRead() {
  return (
    <BlockStack gap="200">
      <Text as="p">
        Follow a rival Shopify store and we read its public catalogue every few hours: you see what it launches, what
        sells out, restocks and changes price, how its catalogue grows, and an estimate of its weekly orders with the
        evidence behind it. You get a notification when it launches products or drops the price of one you follow.
      </Text>
      <List>
        <List.Item>We only read the public catalogue anyone can see (its products.json).</List.Item>
        <List.Item>We never add to its cart, probe its stock or place orders, and never log in.</List.Item>
        <List.Item>Password-protected stores and stores that refuse us are not read.</List.Item>
      </List>
    </BlockStack>
  );
}

/** A failed form's sentence, with the upgrade link when the answer was 402 or 403. */
export function ActionMessage({
  result,
  upgradeUrl,
}: {
  result: CompetitorActionResult | undefined;
  upgradeUrl: string;
}) {
  if (!result) return null;
  return (
    <Text as="p" variant="bodySm" tone={result.ok ? "success" : "critical"}>
      {result.message} {!result.ok && result.upgradeUrl ? <Link url={upgradeUrl}>Upgrade your plan</Link> : null}
    </Text>
  );
}

function AddForm({ upgradeUrl }: { upgradeUrl: string }) {
  const fetcher = useFetcher<CompetitorActionResult>();
  const [url, setUrl] = useState("");
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && result.intent === "add") setUrl("");
  }, [result]);
  const failed = result && !result.ok ? result : undefined;
  return (
    <TitledCard title="Add a competitor">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="add" />
        <BlockStack gap="200">
          <TextField
            label="The store's address"
            name="url"
            value={url}
            onChange={setUrl}
            autoComplete="off"
            placeholder="rivalstore.com or https://rivalstore.com/products/..."
            helpText="A Shopify store's domain or any of its URLs."
            error={failed?.message}
          />
          {failed?.upgradeUrl ? (
            <Text as="p" variant="bodySm">
              <Link url={upgradeUrl}>See the plans that follow more stores</Link>
            </Text>
          ) : null}
          {result?.ok ? <ActionMessage result={result} upgradeUrl={upgradeUrl} /> : null}
          <InlineStack>
            <Button submit variant="primary" loading={fetcher.state !== "idle"}>
              Follow this store
            </Button>
          </InlineStack>
        </BlockStack>
      </fetcher.Form>
    </TitledCard>
  );
}

function StoreRow({
  store,
  estimate,
  now,
  surface,
}: {
  store: SerializeFrom<CompetitorSummary>;
  estimate: CompetitorsPageData["estimates"][number] | undefined;
  now: string;
  surface: Surface;
}) {
  const paths = competitorPaths(surface);
  const upgrade = researchPaths(surface).upgrade;
  const fetcher = useFetcher<CompetitorActionResult>();
  const [mode, setMode] = useState<"view" | "rename" | "remove">("view");
  const [name, setName] = useState(store.name);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.ok && (result.intent === "rename" || result.intent === "remove")) setMode("view");
  }, [result]);
  const busy = fetcher.state !== "idle";
  return (
    <li style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }} aria-label={store.name}>
      <Box padding="400">
        <BlockStack gap="200">
          <InlineStack align="space-between" blockAlign="start" gap="200">
            <BlockStack gap="050">
              <Link url={paths.store(store.id)} removeUnderline>
                <Text as="h3" variant="headingSm" breakWord>
                  {store.name}
                </Text>
              </Link>
              <Text as="span" variant="bodySm" tone="subdued" breakWord>
                {store.domain}
              </Text>
            </BlockStack>
            <StatusBadge status={store.status} />
          </InlineStack>
          <Text as="p" variant="bodySm">
            {`${store.productCount} ${store.productCount === 1 ? "product" : "products"} · last checked ${relativeTime(store.lastCheckedAt, now)} · next check ${
              store.nextCheckAt ? relativeTime(store.nextCheckAt, now) : "not scheduled"
            }`}
          </Text>
          <InlineStack gap="200" blockAlign="center">
            <Badge tone="info">Estimate</Badge>
            <Text as="span" variant="bodySm">
              {estimateText(estimate?.estimate ?? null, estimate?.estimateReason ?? null)}
            </Text>
          </InlineStack>
          {store.lastError ? (
            <Text as="p" variant="bodySm" tone="critical">
              {store.lastError}
            </Text>
          ) : null}
          {store.readNote ? (
            <Text as="p" variant="bodySm" tone="caution">
              {store.readNote}
            </Text>
          ) : null}
          {mode === "rename" ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="rename" />
              <input type="hidden" name="id" value={store.id} />
              <BlockStack gap="200">
                <TextField
                  label="Name"
                  name="name"
                  value={name}
                  onChange={setName}
                  autoComplete="off"
                  maxLength={100}
                />
                <InlineStack gap="200">
                  <Button submit variant="primary" loading={busy}>
                    Save name
                  </Button>
                  <Button onClick={() => setMode("view")}>Cancel</Button>
                </InlineStack>
              </BlockStack>
            </fetcher.Form>
          ) : mode === "remove" ? (
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="id" value={store.id} />
              <BlockStack gap="200">
                <Text as="p">{`Stop following ${store.name}? Its alerts stop and it leaves your list.`}</Text>
                <InlineStack gap="200">
                  <Button submit tone="critical" variant="primary" loading={busy}>
                    Stop following
                  </Button>
                  <Button onClick={() => setMode("view")}>Cancel</Button>
                </InlineStack>
              </BlockStack>
            </fetcher.Form>
          ) : (
            <InlineStack gap="200">
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="check" />
                <input type="hidden" name="id" value={store.id} />
                <Button submit loading={busy && fetcher.formData?.get("intent") === "check"}>
                  Check now
                </Button>
              </fetcher.Form>
              <Button onClick={() => setMode("rename")}>Rename</Button>
              <Button tone="critical" variant="plain" onClick={() => setMode("remove")}>
                Remove
              </Button>
            </InlineStack>
          )}
          {result && result.intent === "check" && result.ok ? (
            <Text as="p" variant="bodySm" tone="success">
              {result.message}{" "}
              <Link url={`${paths.store(store.id)}?check=${result.jobId}`}>Follow it on the store&apos;s page</Link>
            </Text>
          ) : (
            <ActionMessage result={result && !result.ok ? result : undefined} upgradeUrl={upgrade} />
          )}
        </BlockStack>
      </Box>
    </li>
  );
}

export function CompetitorsPage({ data, surface }: { data: CompetitorsPageData; surface: Surface }) {
  const { access, items, estimates, now } = data;
  const estimateOf = new Map(estimates.map((e) => [e.id, e]));
  const upgrade = researchPaths(surface).upgrade;
  const pending = items.some((s) => s.status === "pending");
  useRevalidateEvery(pending, POLL_MS);

  return (
    <Page
      title="Competitors"
      subtitle="Rival Shopify stores you follow: their launches, changes and an estimate of their orders."
    >
      <Layout>
        {!access.follow ? (
          <Layout.Section>
            <BlockStack gap="400">
              <TitledCard title="Follow your competitors">
                <WhatWeRead />
              </TitledCard>
              <ChoosePlanBanner title="Part of every plan" reason={access.lockedReason} upgradeUrl={upgrade} />
            </BlockStack>
          </Layout.Section>
        ) : (
          <>
            <Layout.Section>
              <BlockStack gap="400">
                <AddForm upgradeUrl={upgrade} />
                {items.length === 0 ? (
                  <TitledCard title="You follow no store yet">
                    <WhatWeRead />
                  </TitledCard>
                ) : (
                  <Card padding="0">
                    <Box padding="400" paddingBlockEnd="0">
                      <Text as="h2" variant="headingMd">
                        {`Stores you follow (${items.length} of ${access.limit})`}
                      </Text>
                    </Box>
                    <ul aria-label="Stores you follow" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                      {items.map((store) => (
                        <StoreRow
                          key={store.id}
                          store={store}
                          estimate={estimateOf.get(store.id)}
                          now={now}
                          surface={surface}
                        />
                      ))}
                    </ul>
                  </Card>
                )}
              </BlockStack>
            </Layout.Section>
            {items.length > 0 ? (
              <Layout.Section variant="oneThird">
                <TitledCard title="What we read">
                  <WhatWeRead />
                  {access.upgradeUrl ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      {`The ${access.planName} plan follows up to ${access.limit} stores. `}
                      <Link url={upgrade}>Plans that follow more</Link>
                    </Text>
                  ) : null}
                </TitledCard>
              </Layout.Section>
            ) : null}
          </>
        )}
      </Layout>
    </Page>
  );
}
