// The weekly product drops page, the same on the site (/dashboard/drops) and in Shopify admin (/app/drops):
// the countdown to the next drop, the drops so far (newest first) with a reveal button each, and a revealed
// drop's products as cards that open the product's page, each with the reason it was picked. Without a paid
// state the list is shown with an upgrade prompt. Its loader and action are app/pages/research/drops.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { countdownText } from "~/domain/products/product-drops";
import type { dropsPageAction, loadDropsPage } from "~/pages/research/drops.server";
import type { ExportLinks } from "~/pages/research/export.server";
import type { DropProduct, RevealedDrop } from "~/services/products/drops.server";
import { ExportButtons } from "~/ui/research/export-buttons";
import { LandedMarginLine, CardsDutyNotice, type LandedMarginData } from "~/ui/landed-cost/landed-cost-breakdown";
import { ChoosePlanBanner, NoticeSection } from "~/ui/shared/page-banners";
import { formatMoney, nicheLabel, ProductImage, StageBadge } from "~/ui/research/product-card";
import { researchPaths, type ResearchPaths, type Surface } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";

export type DropsPageData = SerializeFrom<typeof loadDropsPage>;

const longDay = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "Monday 30 November 2026" for a YYYY-MM-DD drop date. */
export function formatDropDate(date: string): string {
  return longDay.format(new Date(`${date}T00:00:00Z`)).replace(",", "");
}

/** The time left until the next drop, kept current in the browser (server time on the first render). */
export function useCountdown(nextDropDate: string, serverNow: string): string {
  const [now, setNow] = useState(() => new Date(serverNow));
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return countdownText(nextDropDate, now);
}

/** The countdown card: the dashboard's home shows it too. */
export function DropCountdown({ nextDropDate, now, dropsUrl }: { nextDropDate: string; now: string; dropsUrl?: string }) {
  const left = useCountdown(nextDropDate, now);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Next product drop
        </Text>
        <InlineStack gap="200" blockAlign="baseline" wrap>
          <Text as="p" variant="headingLg">
            <span data-testid="drop-countdown">{left === "today" ? "Today" : left.replace(/^in /, "In ")}</span>
          </Text>
          <Text as="p" tone="subdued">
            {formatDropDate(nextDropDate)} (00:00 UTC)
          </Text>
        </InlineStack>
        <Text as="p" variant="bodySm" tone="subdued">
          Every week, 8 to 20 products picked by our rules, not by hand: strong winning scores mixed anew each week, at most
          two a niche, never the grid&apos;s first page, each with the reason from its own numbers.
        </Text>
        {dropsUrl ? (
          <div>
            <Button url={dropsUrl}>See the drops</Button>
          </div>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function DropProductCard({ product, paths, landedMargin }: { product: DropProduct; paths: ResearchPaths; landedMargin?: LandedMarginData }) {
  return (
    <Card padding="300">
      <BlockStack gap="200">
        <InlineStack gap="300" blockAlign="start" wrap={false}>
          <ProductImage src={product.image} alt="" size={64} />
          <BlockStack gap="100">
            <Link url={paths.product(product.objectID)} removeUnderline>
              <Text as="span" variant="headingSm">
                {product.title}
              </Text>
            </Link>
            <InlineStack gap="100" wrap>
              {product.sampleData ? <Badge tone="attention">Sample data</Badge> : null}
              <StageBadge stage={product.lifecycleStage} />
              <Badge>{`Score ${product.winningScore}`}</Badge>
            </InlineStack>
          </BlockStack>
        </InlineStack>
        <Text as="p" variant="bodySm">
          {product.reason}
        </Text>
        {landedMargin ? <LandedMarginLine margin={landedMargin} /> : null}
        <Text as="p" variant="bodySm" tone="subdued">
          {[formatMoney(product.priceCents), ...product.niches.slice(0, 2).map(nicheLabel)].join(" · ")}
        </Text>
      </BlockStack>
    </Card>
  );
}

function RevealedProducts({
  drop,
  paths,
  exportLinks,
  landed,
}: {
  drop: RevealedDrop;
  paths: ResearchPaths;
  exportLinks: ExportLinks | null;
  landed: Record<string, LandedMarginData>;
}) {
  return (
    <TitledCard title={`The ${formatDropDate(drop.date)} drop: ${drop.productCount} products`}>
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="p" tone="subdued">
          Picked by our rules, not by hand: strong winning scores mixed anew each week, at most two a niche, none from the
          grid&apos;s first page. Each reason is the product&apos;s own numbers on the day of the drop.
        </Text>
        <ExportButtons links={exportLinks} what={`the ${drop.date} drop`} />
      </InlineStack>
      <CardsDutyNotice margins={Object.values(landed)} />
      <div className="drop-grid" style={{ display: "grid", gap: "12px", gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 260px), 1fr))" }}>
        {drop.products.map((p) => (
          <DropProductCard key={p.objectID} product={p} paths={paths} landedMargin={landed[p.objectID]} />
        ))}
      </div>
    </TitledCard>
  );
}

function RevealButton({ date }: { date: string }) {
  // A post to ?date=: once revealed, the page lands on that drop's products.
  const navigation = useNavigation();
  const result = useActionData<typeof dropsPageAction>();
  const busy = navigation.state !== "idle" && navigation.formData?.get("date") === date;
  const failed = result && !result.ok && result.date === date ? result : null;
  return (
    <BlockStack gap="100" inlineAlign="end">
      <Form method="post" action={`?date=${date}`}>
        <input type="hidden" name="intent" value="reveal" />
        <input type="hidden" name="date" value={date} />
        <Button submit variant="primary" loading={busy} accessibilityLabel={`Reveal the ${date} drop`}>
          Reveal
        </Button>
      </Form>
      {failed ? (
        <Text as="p" variant="bodySm" tone="critical">
          {failed.message}
        </Text>
      ) : null}
    </BlockStack>
  );
}

export function ProductDropsPage({ data, surface }: { data: DropsPageData; surface: Surface }) {
  const { nextDropDate, now, drops, shown, notice, access, exportLinks, landed } = data;
  const paths = researchPaths(surface);
  return (
    <Page title="Product drops" subtitle="A short list of this week's best products, every week.">
      <Layout>
        <NoticeSection notice={notice} />
        {!access.reveal ? (
          <Layout.Section variant="fullWidth">
            <ChoosePlanBanner title="Drops are revealed on every plan" reason={access.lockedReason} upgradeUrl={paths.upgrade} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <DropCountdown nextDropDate={nextDropDate} now={now} />
            {shown ? <RevealedProducts drop={shown} paths={paths} exportLinks={exportLinks} landed={landed} /> : null}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <TitledCard title={`Drops (${drops.length})`}>
            {drops.length === 0 ? (
              <Text as="p" tone="subdued">
                The first drop is on its way: see the countdown.
              </Text>
            ) : (
              <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {drops.map((d) => (
                  <li key={d.date} style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }}>
                    <Box paddingBlock="300">
                      <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
                        <BlockStack gap="050">
                          <Text as="span" variant="headingSm">
                            {formatDropDate(d.date)}
                          </Text>
                          <Text as="span" variant="bodySm" tone="subdued">
                            {`${d.productCount} products`}
                          </Text>
                        </BlockStack>
                        {d.revealed ? (
                          shown?.date === d.date ? (
                            <Badge tone="success">Showing</Badge>
                          ) : (
                            <Link url={`?date=${d.date}`}>Show</Link>
                          )
                        ) : access.reveal ? (
                          <RevealButton date={d.date} />
                        ) : (
                          <Badge>Paid plans</Badge>
                        )}
                      </InlineStack>
                    </Box>
                  </li>
                ))}
              </ul>
            )}
          </TitledCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
