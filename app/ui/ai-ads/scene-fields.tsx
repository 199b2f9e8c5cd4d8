// One scene of the storyboard: its text and its seconds, and on the first scene (the hook) the hooks the writer
// offered, one click each (decision 062).
import { BlockStack, Box, Button, Text, TextField } from "@shopify/polaris";
import { AD_LIMITS, SCENE_LABELS, type AdErrors, type AdScene } from "~/domain/ai-ads/ai-ads";
import type { AiAdView } from "~/services/ai-ads.server";
import type { AdDraftEditor } from "~/ui/ai-ads/use-ad-draft";

export function SceneFields({
  ad,
  scene,
  index: i,
  editor: { draft, setScene },
  editable,
  fieldErrors,
}: {
  ad: AiAdView;
  scene: AdScene;
  index: number;
  editor: AdDraftEditor;
  editable: boolean;
  fieldErrors: AdErrors;
}) {
  const { texts, secs } = draft;
  return (
    <Box padding="300" borderWidth="025" borderColor="border" borderRadius="200">
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          Scene {i + 1}: {SCENE_LABELS[scene.kind]}
        </Text>
        <TextField
          label={`Scene ${i + 1} text`}
          name={`text${i}`}
          value={texts[i] ?? ""}
          onChange={(v) => setScene("texts", i, v)}
          multiline={2}
          autoComplete="off"
          maxLength={AD_LIMITS.textMax}
          showCharacterCount
          disabled={!editable}
          error={fieldErrors[`scenes.${i}.text`]}
        />
        {i === 0 && editable && ad.hookOptions.length > 1 ? (
          <BlockStack gap="100">
            <Text as="p" variant="bodySm" tone="subdued">
              Pick a hook:
            </Text>
            {ad.hookOptions.map((hook) => (
              <Button
                key={hook}
                variant="plain"
                textAlign="left"
                pressed={texts[0] === hook}
                disabled={texts[0] === hook}
                onClick={() => setScene("texts", 0, hook)}
              >
                {texts[0] === hook ? `${hook} (in use)` : hook}
              </Button>
            ))}
          </BlockStack>
        ) : null}
        <TextField
          label={`Scene ${i + 1} seconds`}
          name={`seconds${i}`}
          type="number"
          step={0.5}
          min={AD_LIMITS.sceneMinMs / 1000}
          max={AD_LIMITS.sceneMaxMs / 1000}
          value={secs[i] ?? ""}
          onChange={(v) => setScene("secs", i, v)}
          autoComplete="off"
          disabled={!editable}
          error={fieldErrors[`scenes.${i}.durationMs`]}
        />
      </BlockStack>
    </Box>
  );
}
