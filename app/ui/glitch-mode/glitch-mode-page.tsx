// The Glitch mode page, the same on the site (/dashboard/glitch-mode) and in Shopify admin
// (/app/glitch-mode): how many products qualify (Amazon price of $19.00 or more and a spread after duty and
// fees of at least 20%), the ranked list, 12 a page, with a reveal button per product, the credit balance
// (unless unlimited) with the upsell at 0, the user's revealed glitches with how each spread was computed, and last
// the products that no longer qualify after duty, counted with their list closed (no-longer-qualifies.tsx; decisions
// 066, 092). What the duty assumes (its day, its table, the layers that ended and are not counted) is said once, at
// the top (decision 081), never per row; a row ranked before duty carries a badge, explained once. Without paid access the lists show titles only, with an upgrade
// prompt. Its loader and action are app/pages/glitch-mode/glitch-mode.server.ts; inside the admin every link stays under /app.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, DataTable, InlineStack, Layout, Link, Page, Pagination, Text } from "@shopify/polaris";
import { formatCount } from "~/domain/products/insights";
import { GLITCH_NOTES } from "~/domain/glitch-mode/glitch";
import { withoutShopifyAdminParams } from "~/domain/shopify/admin-params";
import type { GlitchLandedView, GlitchView, RankedGlitch } from "~/services/glitch-mode.server";
import type { glitchModePageAction, loadGlitchModePage } from "~/pages/glitch-mode/glitch-mode.server";
import { NoLongerQualifies, LandedSpreadLines } from "~/ui/glitch-mode/no-longer-qualifies";
import { DutyNotice } from "~/ui/landed-cost/landed-cost-breakdown";
import { formatDay, formatMoney, ProductImage, UpgradePrompt } from "~/ui/research/product-card";
import { researchPaths, type ResearchPaths, type Surface } from "~/ui/research/research-paths";
import { TitledCard } from "~/ui/shared/titled-card";

export type GlitchModePageData = SerializeFrom<typeof loadGlitchModePage>;

function signedMoney(cents: number): string {
  return cents < 0 ? `−${formatMoney(-cents)}` : formatMoney(cents);
}

/** How the spread was computed, in one line, marked an estimate. */
function SpreadLine({ glitch }: { glitch: GlitchView }) {
  return (
    <InlineStack gap="200" blockAlign="center">
      <Badge tone="info">Estimate</Badge>
      <Text as="p" variant="bodySm">
        {glitch.explanation}
      </Text>
    </InlineStack>
  );
}

type Landed = GlitchLandedView;

/** A revealed glitch's numbers, as they were when it was revealed, and where they come from. */
export function GlitchNumbers({ glitch }: { glitch: GlitchView }) {
  const landed = glitch.landed as Landed | null;
  return (
    <BlockStack gap="200">
      <DataTable
        columnContentTypes={["text", "numeric"]}
        headings={["", "Amount"]}
        rows={[
          ["Amazon price", formatMoney(glitch.amazonPriceCents)],
          ["Supplier cost", formatMoney(glitch.costCents)],
          ["Shipping (estimate)", formatMoney(glitch.shippingCents)],
          ["Spread before duty (estimate)", `${signedMoney(glitch.spreadCents)} (${glitch.spreadPercent}%)`],
          ...(landed
            ? [
                ["Duty", formatMoney(landed.dutyCents)],
                ["Payment fees (Shopify Payments)", formatMoney(landed.feesCents)],
                ["Refund and chargeback reserves", formatMoney(landed.refundCents + landed.chargebackCents)],
                ["Spread after duty and fees (estimate)", `${signedMoney(landed.spreadCents)} (${landed.spreadPercentText})`],
              ]
            : []),
        ]}
      />
      <SpreadLine glitch={glitch} />
      {landed ? <LandedSpreadLines landed={landed} /> : (
        <Text as="p" variant="bodySm" tone="caution">
          Duty not included: no duty rate is loaded for this product&apos;s code.
        </Text>
      )}
      {landed?.reason ? (
        <Text as="p" variant="bodySm" tone="critical">
          {`${landed.reason} You revealed it when it qualified; it is kept.`}
        </Text>
      ) : null}
      {glitch.hasSpread ? null : (
        <Text as="p" variant="bodySm" tone="critical">
          No spread at these numbers: the supplier cost and shipping come to the Amazon price or more.
        </Text>
      )}
      <Text as="p" variant="bodySm" tone="subdued">
        {GLITCH_NOTES.spread} {GLITCH_NOTES.shipping}
      </Text>
      <InlineStack gap="300" blockAlign="center">
        {glitch.supplier.name ? (
          glitch.supplier.url ? (
            <Link url={glitch.supplier.url} external>
              {`Supplier: ${glitch.supplier.name}`}
            </Link>
          ) : (
            <Text as="span">{`Supplier: ${glitch.supplier.name}`}</Text>
          )
        ) : (
          <Text as="span" tone="subdued">
            No supplier on record.
          </Text>
        )}
        <Link url={glitch.amazonSearchUrl} external>
          Check it on Amazon
        </Link>
      </InlineStack>
      <Text as="p" variant="bodySm" tone="subdued">
        Numbers last updated {formatDay(glitch.numbersUpdatedAt)} · revealed {formatDay(glitch.revealedAt)}
      </Text>
    </BlockStack>
  );
}

function RevealButton({ objectID, disabled, billingUrl }: { objectID: string; disabled: boolean; billingUrl: string }) {
  const fetcher = useFetcher<typeof glitchModePageAction>();
  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  return (
    <BlockStack gap="100" inlineAlign="end">
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="reveal" />
        <input type="hidden" name="objectID" value={objectID} />
        <Button submit variant="primary" loading={fetcher.state !== "idle"} disabled={disabled}>
          Reveal (1 credit)
        </Button>
      </fetcher.Form>
      {failed ? (
        <Text as="p" variant="bodySm" tone="critical">
          {failed.message} {failed.upsell ? <Link url={billingUrl}>Get more credits</Link> : null}
        </Text>
      ) : null}
    </BlockStack>
  );
}

function RankedRow({
  item,
  glitch,
  canReveal,
  outOfCredits,
  paths,
}: {
  item: RankedGlitch;
  glitch: GlitchView | undefined;
  canReveal: boolean;
  outOfCredits: boolean;
  paths: ResearchPaths;
}) {
  return (
    <li style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }}>
      <Box padding="400">
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="300" wrap={false}>
            <InlineStack gap="300" blockAlign="center" wrap={false}>
              <Text as="span" variant="headingSm" tone="subdued">
                {`#${formatCount(item.rank)}`}
              </Text>
              <ProductImage src={item.image} alt="" size={48} />
              <BlockStack gap="050">
                <Link url={paths.product(item.objectID)} removeUnderline>
                  <Text as="span" variant="headingSm">
                    {item.title}
                  </Text>
                </Link>
                {item.sampleData ? (
                  <InlineStack>
                    <Badge tone="attention">Sample data</Badge>
                  </InlineStack>
                ) : null}
                {item.amazonPriceCents !== null ? (
                  <Text as="span" variant="bodySm" tone="subdued">
                    {`Amazon price ${formatMoney(item.amazonPriceCents)}`}
                  </Text>
                ) : null}
                {item.dutyIncluded ? null : (
                  <InlineStack>
                    <Badge tone="warning">Before duty</Badge>
                  </InlineStack>
                )}
              </BlockStack>
            </InlineStack>
            {glitch ? (
              <Badge tone="success">Revealed</Badge>
            ) : canReveal ? (
              <RevealButton objectID={item.objectID} disabled={outOfCredits} billingUrl={paths.credits} />
            ) : (
              <Badge>Paid plans</Badge>
            )}
          </InlineStack>
          {glitch ? <SpreadLine glitch={glitch} /> : null}
          {glitch?.landed ? (
            <InlineStack gap="200" blockAlign="center" wrap={false}>
              <Badge tone="info">Estimate</Badge>
              <Text as="p" variant="bodySm">
                {`After duty and fees: ${(glitch.landed as Landed).explanation} (duty as of ${(glitch.landed as Landed).asOf})`}
              </Text>
            </InlineStack>
          ) : null}
        </BlockStack>
      </Box>
    </li>
  );
}

export function GlitchModePage({ data, surface }: { data: GlitchModePageData; surface: Surface }) {
  const { access, balance, items, revealed, total, page, pageCount, hasMore, minAmazonPriceCents, minSpreadPercent, noLonger, belowBeforeDuty, duty, error } = data;
  const paths = researchPaths(surface);
  // Shopify admin's parameters on the first load are left out of the links the page builds.
  const params = withoutShopifyAdminParams(useSearchParams()[0]);
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    if (n <= 1) next.delete("page");
    else next.set("page", String(n));
    return `?${next.toString()}`;
  };
  const byObjectID = new Map(revealed.map((g) => [g.objectID, g]));
  const outOfCredits = !balance.unlimited && balance.credits < balance.cost;
  // Said once for the page, not on every row (decision 092): each such row carries a Before duty badge.
  const beforeDuty = items.filter((item) => !item.dutyIncluded).length;

  return (
    <Page
      title="Glitch mode"
      subtitle="Products that sell on Amazon for far more than they cost to land, ranked by the spread after duty and fees."
    >
      <Layout>
        {error ? (
          <Layout.Section variant="fullWidth">
            <Banner tone="critical" title="That page of the list does not exist">
              <p>{error.message}. Showing the first page.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section variant="fullWidth">
          <DutyNotice asOf={duty.asOf} table={duty.table} notCounted={duty.notCounted} inset />
        </Layout.Section>
        {access.reveal && balance.upsell ? (
          <Layout.Section variant="fullWidth">
            <Banner tone="warning" title="You have no glitch-mode credits left" action={{ content: "Get more credits", url: paths.credits }}>
              <p>Each reveal costs 1 credit. Glitches you already revealed stay free to view below.</p>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <TitledCard title={`${formatCount(total)} ${total === 1 ? "product qualifies" : "products qualify"}`}>
              <Text as="p">
                A product qualifies when it sells on Amazon for {formatMoney(minAmazonPriceCents)} or more and its spread after
                duty and fees (Amazon price − supplier cost, shipping, duty, payment fees and the refund reserve) is at least{" "}
                {minSpreadPercent}% of the Amazon price. {GLITCH_NOTES.ranking} Revealing one shows its supplier, cost, shipping and
                spread for 1 glitch-mode credit; it stays in your glitches, free to view again.
              </Text>
              <Text as="p" tone="subdued" variant="bodySm">
                {`${formatCount(noLonger.total)} more ${noLonger.total === 1 ? "product reaches" : "products reach"} ${minSpreadPercent}% before duty but no longer after duty and fees (at the foot of the page, with why); ${formatCount(belowBeforeDuty)} more ${belowBeforeDuty === 1 ? "has" : "have"} a spread under ${minSpreadPercent}% before any duty.`}
              </Text>
              {beforeDuty > 0 ? (
                <Text as="p" tone="caution" variant="bodySm">
                  {`Marked Before duty (${formatCount(beforeDuty)} on this page): no duty rate is loaded for ${beforeDuty === 1 ? "its code, so it is" : "their codes, so they are"} ranked on the spread before duty.`}
                </Text>
              ) : null}
              {access.reveal ? (
                <Text as="p" fontWeight="semibold">
                  {balance.renderCredits ? `Glitch-mode credits: ${formatCount(balance.credits)} left` : "Unlimited glitch-mode reveals"}
                </Text>
              ) : null}
            </TitledCard>
            {access.reveal ? null : <UpgradePrompt reason={access.lockedReason} upgradeUrl={paths.upgrade} />}
            <Card padding="0">
              {items.length === 0 ? (
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    {total === 0 ? "No product qualifies right now." : "This page is past the end of the list."}
                  </Text>
                </Box>
              ) : (
                <ul aria-label="Qualifying products, ranked by spread" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                  {items.map((item) => (
                    <RankedRow
                      key={item.objectID}
                      item={item}
                      glitch={byObjectID.get(item.objectID)}
                      canReveal={access.reveal}
                      outOfCredits={outOfCredits}
                      paths={paths}
                    />
                  ))}
                </ul>
              )}
            </Card>
            <InlineStack align="center">
              <Pagination
                hasPrevious={page > 1}
                previousURL={pageUrl(page - 1)}
                hasNext={hasMore}
                nextURL={pageUrl(page + 1)}
                label={`Page ${page} of ${pageCount}`}
              />
            </InlineStack>
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <TitledCard title="Your glitches">
            {revealed.length === 0 ? (
              <Text as="p" tone="subdued">
                Glitches you reveal are kept here with their numbers as they were when you revealed them.
              </Text>
            ) : (
              <ul aria-label="Your revealed glitches" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {revealed.map((g) => (
                  <li key={g.objectID} style={{ paddingBlock: "var(--p-space-300)" }}>
                    <BlockStack gap="200">
                      <Link url={paths.product(g.objectID)} removeUnderline>
                        <Text as="h3" variant="headingSm">
                          {g.title}
                        </Text>
                      </Link>
                      <GlitchNumbers glitch={g} />
                    </BlockStack>
                  </li>
                ))}
              </ul>
            )}
          </TitledCard>
        </Layout.Section>
        <Layout.Section>
          <NoLongerQualifies noLonger={noLonger} minSpreadPercent={minSpreadPercent} reveal={access.reveal} paths={paths} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
