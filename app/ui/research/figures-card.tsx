// The "Figures" card of a product's page, on both surfaces: one row per figure with its value and how it is
// known (when it was last updated, or measured / estimated and its day), and a note on how they are read.
import { BlockStack, Card, DataTable, Text } from "@shopify/polaris";

export function FiguresCard({ rows, note, how = "Last updated" }: { rows: [string, string, string][]; note: string; how?: string }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Figures
        </Text>
        <DataTable columnContentTypes={["text", "numeric", "text"]} headings={["Figure", "Value", how]} rows={rows} />
        <Text as="p" variant="bodySm" tone="subdued">
          {note}
        </Text>
      </BlockStack>
    </Card>
  );
}
