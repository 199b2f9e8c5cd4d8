// The Saved page (saved products, tracked products with the change since tracking, saved searches),
// the same on the site (/dashboard/saved) and in Shopify admin (/app/saved). Removing posts to the
// page's own action; its loader and action are app/pages/research/research.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import { BlockStack, Box, Button, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import type { loadSaved, savedAction } from "~/pages/research/research.server";
import { ExportButtons } from "~/ui/research/export-buttons";
import { SavedProductList, SavedSearchList, TrackedProductList, type SavedSearchView } from "~/ui/research/product-lists";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

export type SavedPageData = SerializeFrom<typeof loadSaved>;

function RowAction({ fields, label }: { fields: Record<string, string>; label: string }) {
  const fetcher = useFetcher<typeof savedAction>();
  return (
    <fetcher.Form method="post">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button submit variant="tertiary" loading={fetcher.state !== "idle"}>
        {label}
      </Button>
    </fetcher.Form>
  );
}

/** A saved search's new-product alerts (at most one a day), on or off (docs/decisions/030). */
function AlertsToggle({ id, on, name }: { id: number; on: boolean; name: string }) {
  const fetcher = useFetcher<typeof savedAction>();
  // Shown as it will be while the change is on its way.
  const pending = fetcher.formData?.get("alerts");
  const shown = pending === "on" ? true : pending === "off" ? false : on;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="search-alerts" />
      <input type="hidden" name="id" value={String(id)} />
      <input type="hidden" name="alerts" value={shown ? "off" : "on"} />
      <Button
        submit
        variant="tertiary"
        pressed={shown}
        accessibilityLabel={shown ? `Turn off new-product alerts for ${name}` : `Turn on new-product alerts for ${name}`}
      >
        {shown ? "Alerts on" : "Alerts off"}
      </Button>
    </fetcher.Form>
  );
}

export function SavedPage({ data, surface }: { data: SavedPageData; surface: Surface }) {
  const { saved, tracked, searches, exportLinks } = data;
  const paths = researchPaths(surface);
  const alertsOn = new Map(searches.map((s) => [s.id, s.alertsEnabled]));
  const openSearchUrl = (s: SavedSearchView) => `${paths.products}?${s.query ? `${s.query}&` : ""}savedSearch=${s.id}`;
  return (
    <Page title="Saved" subtitle="Products you saved or track, and searches you come back to." primaryAction={{ content: "Find products", url: paths.products }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {exportLinks && (saved.length > 0 || tracked.length > 0) ? (
              // Cards reach the screen's edges on a phone (Polaris); this line keeps the page's margin.
              <Box paddingInline={{ xs: "400", sm: "0" }}>
                <InlineStack gap="400" blockAlign="center">
                  {saved.length > 0 ? (
                    <InlineStack gap="200" blockAlign="center" wrap={false}>
                      <Text as="span" tone="subdued">
                        Saved products
                      </Text>
                      <ExportButtons links={exportLinks.saved} what="your saved products" />
                    </InlineStack>
                  ) : null}
                  {tracked.length > 0 ? (
                    <InlineStack gap="200" blockAlign="center" wrap={false}>
                      <Text as="span" tone="subdued">
                        Tracked products
                      </Text>
                      <ExportButtons links={exportLinks.tracked} what="your tracked products" />
                    </InlineStack>
                  ) : null}
                </InlineStack>
              </Box>
            ) : null}
            <SavedProductList
              products={saved}
              productUrl={paths.product}
              actions={(p) => <RowAction fields={{ intent: "unsave", objectID: p.objectID }} label="Remove" />}
            />
            <TrackedProductList
              products={tracked}
              productUrl={paths.product}
              actions={(p) => <RowAction fields={{ intent: "untrack", objectID: p.objectID }} label="Stop tracking" />}
            />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SavedSearchList
            searches={searches}
            openUrl={openSearchUrl}
            actions={(s) => (
              <InlineStack gap="100" blockAlign="center" wrap={false}>
                <AlertsToggle id={s.id} name={s.name} on={alertsOn.get(s.id) ?? true} />
                <RowAction fields={{ intent: "delete-search", id: String(s.id) }} label="Delete" />
              </InlineStack>
            )}
          />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
