// A grid card's Save button: saves or unsaves the product through the grid page's own action (intent
// save | unsave, app/pages/research/research.server.ts) without leaving the page, on the site and inside
// Shopify admin alike. It shows the new state at once; if the server refuses, the card goes back to
// what the server holds and says why.
import { useFetcher } from "@remix-run/react";
import { BlockStack, Button, Text } from "@shopify/polaris";
import { StarFilledIcon, StarIcon } from "@shopify/polaris-icons";
import type { GridSaveResult } from "~/pages/research/research.server";

export function ProductSaveButton({ objectID, title, saved }: { objectID: string; title: string; saved: boolean }) {
  const fetcher = useFetcher<GridSaveResult>();
  // While the request (and the grid's reload after it) runs, show what was asked; then the loader's state.
  const pending = fetcher.formData?.get("intent");
  const shown = pending === "save" ? true : pending === "unsave" ? false : saved;
  const failure = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.message : null;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={shown ? "unsave" : "save"} />
      <input type="hidden" name="objectID" value={objectID} />
      <BlockStack gap="100" inlineAlign="end">
        <Button
          submit
          size="slim"
          icon={shown ? StarFilledIcon : StarIcon}
          accessibilityLabel={shown ? `Saved ${title}. Select to remove it from Saved.` : `Save ${title}`}
        >
          {shown ? "Saved" : "Save"}
        </Button>
        {failure ? (
          <span role="alert">
            <Text as="span" variant="bodySm" tone="critical">
              {failure}
            </Text>
          </span>
        ) : null}
      </BlockStack>
    </fetcher.Form>
  );
}
