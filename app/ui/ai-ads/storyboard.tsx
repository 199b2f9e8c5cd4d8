// The editor's storyboard: one form that saves the script (title and scenes) with how the video looks and sounds,
// the script's length against the limits, and each field's error from the last save, preview or render.
import { Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { AD_LIMITS, totalDurationMs, type AdErrors } from "~/domain/ai-ads/ai-ads";
import type { AiAdView } from "~/services/ai-ads.server";
import type { AdFetcher, AiAdsPageData, KitChoice } from "~/ui/ai-ads/ai-ads-data";
import { seconds } from "~/ui/ai-ads/ad-status";
import { SceneFields } from "~/ui/ai-ads/scene-fields";
import type { AdDraftEditor } from "~/ui/ai-ads/use-ad-draft";
import { VideoSettings } from "~/ui/ai-ads/video-settings";

export function Storyboard({
  ad,
  kits,
  sound,
  editor,
  editable,
  save,
  fieldErrors,
}: {
  ad: AiAdView;
  kits: KitChoice[];
  sound: AiAdsPageData["sound"];
  editor: AdDraftEditor;
  editable: boolean;
  save: AdFetcher;
  fieldErrors: AdErrors;
}) {
  const { draft, set } = editor;
  const totalMs = totalDurationMs(draft.secs.map((s) => ({ durationMs: Number(s) * 1000 || 0 })));
  return (
    <Card>
      <save.Form method="post">
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="id" value={ad.id} />
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Storyboard
            </Text>
            <Text
              as="span"
              tone={totalMs < AD_LIMITS.totalMinMs || totalMs > AD_LIMITS.totalMaxMs ? "critical" : "subdued"}
            >
              {seconds(totalMs)} of {AD_LIMITS.totalMinMs / 1000}-{AD_LIMITS.totalMaxMs / 1000} s
            </Text>
          </InlineStack>
          {save.data ? (
            <Banner tone={save.data.ok ? "success" : "critical"}>
              <p>{save.data.message}</p>
            </Banner>
          ) : null}
          {!editable ? (
            <Text as="p" tone="subdued">
              {ad.status === "rendering"
                ? "The script can be edited again if this render fails."
                : "This ad is rendered; its script stays as it is. Create a new ad to change it."}
            </Text>
          ) : null}
          <VideoSettings kits={kits} sound={sound} editor={editor} editable={editable} fieldErrors={fieldErrors} />
          <TextField
            label="Title"
            name="title"
            value={draft.title}
            onChange={(v) => set("title", v)}
            autoComplete="off"
            maxLength={AD_LIMITS.titleMax}
            disabled={!editable}
            error={fieldErrors.title}
          />
          {fieldErrors.scenes ? (
            <Text as="p" tone="critical">
              {fieldErrors.scenes}
            </Text>
          ) : null}
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
            {ad.scenes.map((scene, i) => (
              <SceneFields
                key={i}
                ad={ad}
                scene={scene}
                index={i}
                editor={editor}
                editable={editable}
                fieldErrors={fieldErrors}
              />
            ))}
          </InlineGrid>
          {editable ? (
            <InlineStack>
              <Button submit loading={save.state !== "idle"}>
                Save script
              </Button>
            </InlineStack>
          ) : null}
        </BlockStack>
      </save.Form>
    </Card>
  );
}
