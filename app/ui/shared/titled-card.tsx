// A card headed by its title (an h2), the shape of most cards on both surfaces' pages.
import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export function TitledCard({
  title,
  children,
  gap = "300",
  id,
}: {
  title: string;
  children: ReactNode;
  gap?: "200" | "300" | "400";
  /** An anchor a link can open the card at (#id). */
  id?: string;
}) {
  const card = (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
  return id ? <div id={id}>{card}</div> : card;
}
