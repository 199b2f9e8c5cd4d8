// An ad's videos in the editor: the rendered one, to play and download, and the newest free preview (decision 036):
// its progress, the small video marked "Preview", or why it failed.
import { Banner, BlockStack, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { AiAdView } from "~/services/ai-ads.server";
import { seconds } from "~/ui/ai-ads/ad-status";

/** A phone-sized player in the video's shape (9:16 until its size is known) that loads only the metadata until played. */
function Player({
  src,
  label,
  width,
  height,
}: {
  src: string;
  label: string;
  width: number | null;
  height: number | null;
}) {
  return (
    <video
      src={src}
      controls
      playsInline
      preload="metadata"
      aria-label={label}
      style={{
        width: 270,
        maxWidth: "100%",
        aspectRatio: `${width ?? 9} / ${height ?? 16}`,
        background: "#000",
        borderRadius: 8,
      }}
    />
  );
}

/** The finished video with its download link, size, length and weight. */
export function RenderedVideo({ ad, url }: { ad: AiAdView; url: string }) {
  return (
    <BlockStack gap="200">
      <Player src={url} label={`Video of ${ad.title}`} width={ad.width} height={ad.height} />
      <InlineStack gap="300" blockAlign="center">
        {ad.downloadUrl ? (
          <DownloadLink url={ad.downloadUrl} fileName={`ai-ad-${ad.id}.mp4`}>
            Download MP4
          </DownloadLink>
        ) : null}
        <Text as="span" tone="subdued" variant="bodySm">
          {ad.width}x{ad.height} · {seconds(ad.durationMs ?? 0)} ·{" "}
          {ad.bytes ? `${Math.max(1, Math.round(ad.bytes / 1024))} KB` : ""}
        </Text>
      </InlineStack>
    </BlockStack>
  );
}

/** The newest free preview: its progress, the small video marked "Preview", or why it failed (decision 036). */
export function PreviewVideo({
  ad,
  preview,
  fullSize,
}: {
  ad: AiAdView;
  preview: NonNullable<AiAdView["previewVideo"]>;
  fullSize: string;
}) {
  if (preview.status === "rendering") {
    return (
      <BlockStack gap="100">
        <Text as="p" variant="bodySm">
          Making the free preview {preview.progress}%
        </Text>
        <ProgressBar progress={preview.progress} size="small" tone="primary" animated />
      </BlockStack>
    );
  }
  if (preview.status === "failed") {
    return (
      <Banner tone="critical" title="The preview could not be made">
        <p>{preview.error ?? "The renderer stopped."} Previews are free: try again.</p>
      </Banner>
    );
  }
  if (!preview.url) return null;
  return (
    <BlockStack gap="200">
      <Player src={preview.url} label={`Free preview of ${ad.title}`} width={preview.width} height={preview.height} />
      <Text as="p" tone="subdued" variant="bodySm">
        Free preview: {preview.width}x{preview.height}, marked “Preview”. The rendered video ({fullSize}) without the
        mark is what you post.
        {ad.voiceOver ? " The preview reads only the hook aloud; the rendered video reads every scene." : ""}
      </Text>
      {!preview.current ? (
        <Text as="p" tone="caution" variant="bodySm">
          This preview shows an earlier version of the script: make a new one to see your changes.
        </Text>
      ) : null}
    </BlockStack>
  );
}

/**
 * A file download styled as a Polaris button. Polaris' Button with a url renders the surface's link
 * component (Remix's <Link>), which navigates on the client and fetched "{id}.mp4.data" instead of the
 * file; a plain <a download> leaves it to the browser, which saves the attachment the route sends.
 */
function DownloadLink({ url, fileName, children }: { url: string; fileName: string; children: ReactNode }) {
  return (
    <a
      href={url}
      download={fileName}
      className="Polaris-Button Polaris-Button--pressable Polaris-Button--variantSecondary Polaris-Button--sizeMedium Polaris-Button--textAlignCenter"
    >
      <span className="Polaris-Text--root Polaris-Text--bodySm Polaris-Text--medium">{children}</span>
    </a>
  );
}
