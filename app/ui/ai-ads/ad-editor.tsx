// One ad opened on the AI ads page (?ad={id}): the render panel (the ad, its videos, preview, render and delete) above
// the storyboard (the script and how the video looks and sounds). It holds what both read: the unsaved edits, the
// save, preview and render forms, and which fields the last answer names.
import { useFetcher } from "@remix-run/react";
import { BlockStack, Layout } from "@shopify/polaris";
import { useEffect } from "react";
import type { AdErrors } from "~/domain/ai-ads/ai-ads";
import type { AiAdsActionResult } from "~/pages/ai-ads/ai-ads.server";
import type { AiAdView } from "~/services/ai-ads.server";
import type { AiAdsPageData, KitChoice } from "~/ui/ai-ads/ai-ads-data";
import { RenderPanel } from "~/ui/ai-ads/render-panel";
import { Storyboard } from "~/ui/ai-ads/storyboard";
import { useAdDraft } from "~/ui/ai-ads/use-ad-draft";

export function AdEditor({
  ad,
  cost,
  canRender,
  onUpsell,
  kits,
  previews,
  fullSize,
  sound,
}: {
  sound: AiAdsPageData["sound"];
  ad: AiAdView;
  cost: number;
  canRender: boolean;
  onUpsell: () => void;
  kits: KitChoice[];
  previews: AiAdsPageData["previews"];
  fullSize: string;
}) {
  const editor = useAdDraft(ad, sound.voices[0] ?? "");
  const save = useFetcher<AiAdsActionResult>();
  const render = useFetcher<AiAdsActionResult>();
  const preview = useFetcher<AiAdsActionResult>();
  useEffect(() => {
    if (render.data?.upsell) onUpsell();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [render.data]);

  const editable = ad.status === "preview" || ad.status === "failed";
  // A save's field errors, or a render's or preview's refusal naming the scenes whose text would not fit.
  const refused = [render.data, preview.data].find((d) => d && !d.ok && Object.keys(d.fieldErrors).length > 0);
  const fieldErrors: AdErrors =
    save.data && !save.data.ok ? save.data.fieldErrors : !editor.dirty && refused ? refused.fieldErrors : {};

  return (
    <Layout.Section>
      <BlockStack gap="400">
        <RenderPanel
          ad={ad}
          cost={cost}
          canRender={canRender}
          previews={previews}
          fullSize={fullSize}
          editable={editable}
          dirty={editor.dirty}
          render={render}
          preview={preview}
        />
        <Storyboard
          ad={ad}
          kits={kits}
          sound={sound}
          editor={editor}
          editable={editable}
          save={save}
          fieldErrors={fieldErrors}
        />
      </BlockStack>
    </Layout.Section>
  );
}
