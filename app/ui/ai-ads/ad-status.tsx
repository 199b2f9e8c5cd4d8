// How an ad's state reads wherever the ad is shown (the list of ads and the editor): its status badge, who wrote
// its script, its render's progress bar, and lengths in seconds.
import { Badge, BlockStack, ProgressBar, Text } from "@shopify/polaris";
import type { AiAdStatus } from "~/domain/ai-ads/ai-ads";
import { BUILT_IN_WRITER } from "~/domain/product-pages/product-page";
import type { AiAdView } from "~/services/ai-ads.server";

const STATUS_TONE = { preview: undefined, rendering: "attention", completed: "success", failed: "critical" } as const;
const STATUS_LABEL: Record<AiAdStatus, string> = {
  preview: "Preview",
  rendering: "Rendering…",
  completed: "Completed",
  failed: "Failed",
};

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function StatusBadge({ status }: { status: AiAdStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}

export function writerLabel(writer: string) {
  return writer === BUILT_IN_WRITER ? "built-in writer" : `AI: ${writer}`;
}

export function RenderProgress({ ad }: { ad: AiAdView }) {
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm">
        Rendering {ad.progress}%
      </Text>
      <ProgressBar progress={ad.progress} size="small" tone="highlight" animated />
    </BlockStack>
  );
}
