// What can be done with an ad from the editor: make the free preview (decision 036), render the video for credits,
// delete the ad; each offered only when it can be done, with the sentence that says why not (unsaved edits, no
// previews left today) and the free previews left.
import { useFetcher } from "@remix-run/react";
import { Banner, Button, InlineStack, Text } from "@shopify/polaris";
import type { AiAdsActionResult } from "~/pages/ai-ads/ai-ads.server";
import type { AiAdView } from "~/services/ai-ads.server";
import type { AdFetcher, AiAdsPageData } from "~/ui/ai-ads/ai-ads-data";

export interface AdActionsProps {
  ad: AiAdView;
  cost: number;
  canRender: boolean;
  previews: AiAdsPageData["previews"];
  /** The script may still change: the ad is a preview or its render failed. */
  editable: boolean;
  /** The storyboard has unsaved edits. */
  dirty: boolean;
  render: AdFetcher;
  preview: AdFetcher;
}

export function AdActions({ ad, cost, canRender, previews, editable, dirty, render, preview }: AdActionsProps) {
  const del = useFetcher<AiAdsActionResult>();
  const rendering = ad.status === "rendering" || render.state !== "idle";
  const previewing = ad.previewVideo?.status === "rendering" || preview.state !== "idle";
  const previewShowsScript = ad.previewVideo?.status === "completed" && ad.previewVideo.current;
  return (
    <>
      <InlineStack gap="200" blockAlign="center">
        {editable ? (
          <preview.Form method="post">
            <input type="hidden" name="intent" value="preview" />
            <input type="hidden" name="id" value={ad.id} />
            <Button
              submit
              loading={previewing}
              disabled={previewing || dirty || !canRender || previewShowsScript || previews.left === 0}
            >
              Preview video (free)
            </Button>
          </preview.Form>
        ) : null}
        {ad.status !== "completed" ? (
          <render.Form method="post">
            <input type="hidden" name="intent" value="render" />
            <input type="hidden" name="id" value={ad.id} />
            <Button submit variant="primary" loading={rendering} disabled={rendering || dirty || !canRender}>
              {`Render video (${cost} credits)`}
            </Button>
          </render.Form>
        ) : null}
        {dirty ? (
          <Text as="span" tone="caution">
            Save your changes first: the saved script is what gets rendered.
          </Text>
        ) : null}
        {editable && !dirty ? (
          <Text as="span" tone="subdued" variant="bodySm">
            {previewShowsScript ? "The preview shows the saved script. " : ""}
            {previews.left} of {previews.limit} free previews left today
            {previews.left === 0 && previews.nextAt ? ` (the next from ${previews.nextAt.slice(11, 16)} UTC)` : ""}
          </Text>
        ) : null}
        <Button
          tone="critical"
          variant="plain"
          disabled={ad.status === "rendering"}
          onClick={() => {
            if (window.confirm("Delete this ad and its video?"))
              del.submit({ intent: "delete", id: String(ad.id) }, { method: "post" });
          }}
        >
          Delete
        </Button>
      </InlineStack>
      {del.data && !del.data.ok ? (
        <Banner tone="critical">
          <p>{del.data.message}</p>
        </Banner>
      ) : null}
    </>
  );
}
