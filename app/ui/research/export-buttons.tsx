// "Export CSV" / "JSON" on the grid, Saved, a competitor's page and a drop (decision 057). Plain <a download>
// links styled as Polaris buttons: Polaris' Button with a url navigates on the client (Remix's <Link>) instead of
// downloading. The links come from the page's loader: plain on the site, signed inside Shopify admin, where the
// browser's download request carries neither our cookie nor a session token (as ad videos do).
import { InlineStack, Text } from "@shopify/polaris";
import type { ExportLinks } from "~/pages/research/export.server";

const BUTTON = "Polaris-Button Polaris-Button--pressable Polaris-Button--variantSecondary Polaris-Button--sizeSlim Polaris-Button--textAlignCenter";

export function ExportButtons({ links, what }: { links: ExportLinks | null; what: string }) {
  if (!links) return null;
  return (
    <InlineStack gap="100" blockAlign="center" wrap={false}>
      <a href={links.csv} download className={BUTTON} aria-label={`Export ${what} as CSV, with landed cost`} title="A spreadsheet with every figure and the landed-cost parts (UTF-8, opens in Excel)">
        <Text as="span" variant="bodySm" fontWeight="medium">
          Export CSV
        </Text>
      </a>
      <a href={links.json} download className={BUTTON} aria-label={`Export ${what} as JSON`}>
        <Text as="span" variant="bodySm" fontWeight="medium">
          JSON
        </Text>
      </a>
    </InlineStack>
  );
}
