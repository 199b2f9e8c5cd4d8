// The AI ads page, the same on the site (/dashboard/ai-ads) and in Shopify admin (/app/ai-ads): a
// product picker (or the product a "Create AI video ad" button sent), the user's ads with their status,
// and ?ad={id} opening one: its storyboard with editable scene texts and durations, "Preview video
// (free)" (a small render marked "Preview", decision 036), "Render video" (5 credits, full HD) with a
// progress bar while either renders (the page re-reads every second, only then), and the finished video
// with a download link. Loader and action: app/pages/ai-ads/ai-ads.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { Form, useFetcher, useRevalidator, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  List,
  Page,
  ProgressBar,
  Select,
  Checkbox,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState, type ReactNode } from "react";
import { AD_TONE_HINT } from "~/domain/ai-ads/ad-writing";
import { AD_FORMAT_LABELS, AD_FORMATS, AD_LIMITS, SCENE_LABELS, totalDurationMs, type AdErrors, type AiAdStatus } from "~/domain/ai-ads/ai-ads";
import { BUILT_IN_WRITER } from "~/domain/product-pages/product-page";
import { isUnlimited } from "~/domain/billing/credits";
import { formatCount } from "~/domain/products/insights";
import type { AdProductSummary, AiAdView } from "~/services/ai-ads.server";
import type { AiAdsActionResult, loadAiAdsPage } from "~/pages/ai-ads/ai-ads.server";
import { aiAdsPath } from "~/ui/ai-ads/ai-ad-button";
import { formatPrice, ProductImage } from "~/ui/research/product-card";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

export type AiAdsPageData = SerializeFrom<typeof loadAiAdsPage>;

const STATUS_TONE = { preview: undefined, rendering: "attention", completed: "success", failed: "critical" } as const;
const STATUS_LABEL: Record<AiAdStatus, string> = {
  preview: "Preview",
  rendering: "Rendering…",
  completed: "Completed",
  failed: "Failed",
};
const POLL_MS = 1000;

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function StatusBadge({ status }: { status: AiAdStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}

function writerLabel(writer: string) {
  return writer === BUILT_IN_WRITER ? "built-in writer" : `AI: ${writer}`;
}

/** Re-reads the page every second while an ad renders, and only then. */
function usePollWhileRendering(rendering: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!rendering) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [rendering, revalidator]);
}

export function AiAdsPage({ data, surface }: { data: AiAdsPageData; surface: Surface }) {
  const { ads, balance, cost, access, writer, picker } = data;
  const base = aiAdsPath(surface);
  const paths = researchPaths(surface);
  const [params] = useSearchParams();
  const selected = ads.find((a) => a.id === Number(params.get("ad"))) ?? null;
  const [upsell, setUpsell] = useState(data.upsellOpen);
  usePollWhileRendering(ads.some((a) => a.status === "rendering" || a.previewVideo?.status === "rendering"));
  const unlimited = isUnlimited(balance);

  return (
    <Page
      title="AI ads"
      subtitle="Short video ads (vertical, portrait or square) written from a product's own data, rendered on our servers."
      backAction={selected ? { content: "All AI ads", url: base } : undefined}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="300">
            <Banner tone="info">
              <p>
                Scripts are written by{" "}
                {writer === BUILT_IN_WRITER
                  ? "the built-in writer (templates filled with the product's own data and figures)"
                  : `the AI model ${writer}`}{" "}
                and are free to edit. A small preview video is free ({data.previews.limit} a day); the full HD video
                costs {cost} AI ad credits ({unlimited ? "unlimited" : `${balance} left`}); a failed render is refunded.
              </p>
            </Banner>
            {!access.create ? (
              <Banner tone="warning" title="Upgrade to make AI ads" action={{ content: "See plans", url: paths.upgrade }}>
                <p>{access.lockedReason}</p>
              </Banner>
            ) : null}
            {upsell && access.create ? (
              <Banner
                tone="warning"
                title="Get credits for AI video ads"
                action={{ content: "Get credits", url: paths.credits }}
                onDismiss={() => setUpsell(false)}
              >
                <p>
                  You have no AI ad credits yet. Writing and editing scripts is free; each video costs {cost} credits.
                </p>
              </Banner>
            ) : null}
          </BlockStack>
        </Layout.Section>
        {selected ? (
          <AdEditor
            key={selected.id}
            ad={selected}
            cost={cost}
            canRender={access.create}
            onUpsell={() => setUpsell(true)}
            kits={data.brandKits}
            previews={data.previews}
            fullSize={`${data.sizes.video.width}x${data.sizes.video.height}`}
            sound={data.sound}
          />
        ) : (
          <>
            <Layout.Section>
              <ProductPicker picker={picker} canCreate={access.create} base={base} kits={data.brandKits} />
            </Layout.Section>
            <Layout.Section>
              <AdList ads={ads} base={base} />
            </Layout.Section>
          </>
        )}
      </Layout>
    </Page>
  );
}

type KitChoice = AiAdsPageData["brandKits"][number];

/** "Brand kit" for an ad: the default kit, or one of the user's kits (decision 033). */
function KitSelect({ kits, value, onChange, disabled }: { kits: KitChoice[]; value: string; onChange: (v: string) => void; disabled?: boolean }) {
  if (kits.length === 0) return null;
  const fallback = kits.find((k) => k.isDefault);
  return (
    <Select
      label="Brand kit"
      name="brandKitId"
      disabled={disabled}
      options={[
        { label: fallback ? `Default kit (${fallback.name})` : "Default kit", value: "" },
        ...kits.map((k) => ({ label: k.name, value: String(k.id) })),
      ]}
      value={value}
      onChange={onChange}
      helpText={`Its logo, colours and font go on the video; its tone of voice into the script (the built-in writer reads ${AD_TONE_HINT}; an AI model reads it as written).`}
    />
  );
}

function ProductPicker({
  picker,
  canCreate,
  base,
  kits,
}: {
  picker: AiAdsPageData["picker"];
  canCreate: boolean;
  base: string;
  kits: KitChoice[];
}) {
  const [kit, setKit] = useState("");
  const create = useFetcher<AiAdsActionResult>();
  const [, setParams] = useSearchParams();
  const [q, setQ] = useState(picker.q);
  const done = create.data;
  useEffect(() => {
    if (done?.ok && done.adId) setParams({ ad: String(done.adId) });
  }, [done, setParams]);
  const product = picker.selected;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          New ad
        </Text>
        <Form method="get" action={base}>
          <InlineStack gap="200" blockAlign="end" wrap={false}>
            <div style={{ flexGrow: 1 }}>
              <TextField
                label="Find a product"
                name="q"
                value={q}
                onChange={setQ}
                autoComplete="off"
                placeholder="Search the product database"
              />
            </div>
            <Button submit>Search</Button>
          </InlineStack>
        </Form>
        {picker.q && picker.results.length === 0 ? (
          <Text as="p" tone="subdued">
            No products match “{picker.q}”.
          </Text>
        ) : null}
        {picker.results.length > 0 ? (
          <ul aria-label="Matching products" style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {picker.results.map((p) => (
              <li key={p.objectID}>
                <Box paddingBlock="100">
                  <InlineStack gap="300" blockAlign="center">
                    <ProductImage src={p.image} alt="" size={40} />
                    <Link url={`${base}?product=${encodeURIComponent(p.objectID)}`}>{p.title}</Link>
                    {p.sample ? <Badge tone="attention">Sample data</Badge> : null}
                  </InlineStack>
                </Box>
              </li>
            ))}
          </ul>
        ) : null}
        {picker.missing ? (
          <Banner tone="critical">
            <p>No product with objectID {picker.missing}.</p>
          </Banner>
        ) : null}
        {product ? (
          <SelectedProduct product={product}>
            <create.Form method="post">
              <input type="hidden" name="intent" value="create" />
              <input type="hidden" name="objectID" value={product.objectID} />
              <BlockStack gap="200">
                <KitSelect kits={kits} value={kit} onChange={setKit} />
                {/* A plain checkbox, not Polaris's controlled one: a tick made before the page's scripts run is kept. */}
                <BlockStack gap="050">
                  <label>
                    <input type="checkbox" name="freeShipping" defaultChecked={false} /> My store ships this product free
                  </label>
                  <Text as="p" variant="bodySm" tone="subdued">
                    Only then does the ad promise free shipping. A supplier&apos;s “free shipping” says nothing about your store&apos;s shipping.
                  </Text>
                </BlockStack>
                <InlineStack>
                  <Button submit variant="primary" loading={create.state !== "idle"} disabled={!canCreate}>
                    Write the ad script
                  </Button>
                </InlineStack>
              </BlockStack>
            </create.Form>
          </SelectedProduct>
        ) : null}
        {done && !done.ok ? (
          <Banner tone="critical">
            <p>{done.message}</p>
          </Banner>
        ) : null}
      </BlockStack>
    </Card>
  );
}

function SelectedProduct({ product, children }: { product: AdProductSummary; children: React.ReactNode }) {
  return (
    <Box background="bg-surface-secondary" padding="300" borderRadius="200">
      <InlineStack gap="300" blockAlign="center" wrap={false}>
        <ProductImage src={product.image} alt="" size={64} />
        <BlockStack gap="100">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h3" variant="headingSm">
              {product.title}
            </Text>
            {product.sample ? <Badge tone="attention">Sample data</Badge> : null}
          </InlineStack>
          <Text as="p" tone="subdued" variant="bodySm">
            {formatPrice(product.priceCents, product.priceCurrency)} · {product.orders === null ? "no sales data" : `${formatCount(product.orders)} orders in 30 days`}
          </Text>
          {children}
        </BlockStack>
      </InlineStack>
    </Box>
  );
}

function RenderProgress({ ad }: { ad: AiAdView }) {
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm">
        Rendering {ad.progress}%
      </Text>
      <ProgressBar progress={ad.progress} size="small" tone="highlight" animated />
    </BlockStack>
  );
}

function AdList({ ads, base }: { ads: AiAdView[]; base: string }) {
  if (ads.length === 0) {
    return (
      <Card>
        <EmptyState heading="No AI ads yet" image="">
          <p>Pick a product above, or open a product and choose “Create AI video ad”.</p>
        </EmptyState>
      </Card>
    );
  }
  return (
    <Card padding="0">
      <ul aria-label="AI ads" style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {ads.map((ad) => (
          <li key={ad.id} style={{ borderBottom: "1px solid var(--p-color-border-secondary)" }}>
            <Box padding="400">
              <InlineStack align="space-between" blockAlign="center" gap="300">
                <BlockStack gap="100">
                  <InlineStack gap="200" blockAlign="center">
                    <Link url={`${base}?ad=${ad.id}`} removeUnderline>
                      <Text as="span" variant="headingSm">
                        {ad.title}
                      </Text>
                    </Link>
                    <StatusBadge status={ad.status} />
                    {ad.product?.sample ? <Badge tone="attention">Sample data</Badge> : null}
                  </InlineStack>
                  <Text as="p" tone="subdued" variant="bodySm">
                    {ad.scenes.length} scenes · {seconds(ad.scriptMs)} · {writerLabel(ad.writer)}
                    {ad.product ? ` · ${ad.product.title}` : ""}
                  </Text>
                  {ad.status === "rendering" ? <RenderProgress ad={ad} /> : null}
                  {ad.status === "failed" && ad.errors.length > 0 ? (
                    <Text as="p" tone="critical" variant="bodySm">
                      {ad.errors.join(" ")}
                    </Text>
                  ) : null}
                </BlockStack>
                <Button url={`${base}?ad=${ad.id}`}>Open</Button>
              </InlineStack>
            </Box>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function AdEditor({
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
  const [kit, setKit] = useState(ad.brandKitId === null ? "" : String(ad.brandKitId));
  const [format, setFormat] = useState<string>(ad.format);
  const [voice, setVoice] = useState(ad.voiceOver);
  const [music, setMusic] = useState(ad.musicTrack ?? "");
  const [voiceName, setVoiceName] = useState(ad.voice ?? sound.voices[0] ?? "");
  const save = useFetcher<AiAdsActionResult>();
  const render = useFetcher<AiAdsActionResult>();
  const preview = useFetcher<AiAdsActionResult>();
  const del = useFetcher<AiAdsActionResult>();
  const [title, setTitle] = useState(ad.title);
  const [texts, setTexts] = useState(ad.scenes.map((s) => s.text));
  const [secs, setSecs] = useState(ad.scenes.map((s) => String(s.durationMs / 1000)));
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    setTitle(ad.title);
    setTexts(ad.scenes.map((s) => s.text));
    setSecs(ad.scenes.map((s) => String(s.durationMs / 1000)));
    setFormat(ad.format);
    setVoice(ad.voiceOver);
    setMusic(ad.musicTrack ?? "");
    setVoiceName(ad.voice ?? sound.voices[0] ?? "");
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the saved ad changes
  }, [ad.updatedAt]);
  useEffect(() => {
    if (render.data?.upsell) onUpsell();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer
  }, [render.data]);

  const editable = ad.status === "preview" || ad.status === "failed";
  const rendering = ad.status === "rendering" || render.state !== "idle";
  const previewing = ad.previewVideo?.status === "rendering" || preview.state !== "idle";
  const previewShowsScript = ad.previewVideo?.status === "completed" && ad.previewVideo.current;
  // A save's field errors, or a render's or preview's refusal naming the scenes whose text would not fit.
  const refused = [render.data, preview.data].find((d) => d && !d.ok && Object.keys(d.fieldErrors).length > 0);
  const fieldErrors: AdErrors = save.data && !save.data.ok ? save.data.fieldErrors : !dirty && refused ? refused.fieldErrors : {};
  const totalMs = totalDurationMs(secs.map((s) => ({ durationMs: Number(s) * 1000 || 0 })));

  return (
    <>
      <Layout.Section>
        <BlockStack gap="400">
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {ad.title}
                </Text>
                <InlineStack gap="200">
                  <StatusBadge status={ad.status} />
                  <Badge tone={ad.writer === BUILT_IN_WRITER ? undefined : "info"}>{writerLabel(ad.writer)}</Badge>
                </InlineStack>
              </InlineStack>
              {ad.product ? (
                <InlineStack gap="200" blockAlign="center">
                  <Text as="p" tone="subdued">
                    From {ad.product.title}
                  </Text>
                  {ad.product.sample ? <Badge tone="attention">Sample data</Badge> : null}
                </InlineStack>
              ) : null}
              {ad.product?.sample && ad.status !== "completed" ? (
                <Banner tone="warning">
                  <p>
                    This product is sample data: its figures (such as the orders quoted in the social-proof scene) are not real
                    sales. Check every figure before you post the video.
                  </p>
                </Banner>
              ) : null}
              {ad.status === "rendering" ? <RenderProgress ad={ad} /> : null}
              {ad.status === "failed" && ad.errors.length > 0 ? (
                <Banner tone="critical" title="The last render failed">
                  <List>
                    {ad.errors.map((e) => (
                      <List.Item key={e}>{e}</List.Item>
                    ))}
                  </List>
                </Banner>
              ) : null}
              {ad.status === "completed" && ad.storageUrl ? (
                <BlockStack gap="200">
                  <video
                    src={ad.storageUrl}
                    controls
                    playsInline
                    preload="metadata"
                    aria-label={`Video of ${ad.title}`}
                    style={{ width: 270, maxWidth: "100%", aspectRatio: `${ad.width ?? 9} / ${ad.height ?? 16}`, background: "#000", borderRadius: 8 }}
                  />
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
              ) : null}
              {ad.status !== "completed" && ad.status !== "rendering" && ad.previewVideo ? (
                <PreviewVideo ad={ad} preview={ad.previewVideo} fullSize={fullSize} />
              ) : null}
              {[render.data, preview.data].map((answer, i) =>
                answer && !answer.ok ? (
                  <Banner key={i} tone="critical">
                    <p>{answer.message}</p>
                  </Banner>
                ) : null,
              )}
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
            </BlockStack>
          </Card>
          <Card>
            <save.Form method="post">
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="id" value={ad.id} />
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Storyboard
                  </Text>
                  <Text as="span" tone={totalMs < AD_LIMITS.totalMinMs || totalMs > AD_LIMITS.totalMaxMs ? "critical" : "subdued"}>
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
                <KitSelect
                  kits={kits}
                  value={kit}
                  disabled={!editable}
                  onChange={(v) => {
                    setKit(v);
                    setDirty(true);
                  }}
                />
                <Select
                  label="Video shape"
                  name="format"
                  disabled={!editable}
                  options={AD_FORMATS.map((f) => ({ label: AD_FORMAT_LABELS[f], value: f }))}
                  value={format}
                  onChange={(v) => {
                    setFormat(v);
                    setDirty(true);
                  }}
                  helpText="The shorter shapes have room for fewer lines of text per scene."
                />
                <input type="hidden" name="sound" value="1" />
                <Checkbox
                  label="Voice-over"
                  name="voiceOver"
                  value="on"
                  checked={voice}
                  disabled={!editable || (!sound.voice && !voice)}
                  onChange={(v) => {
                    setVoice(v);
                    setDirty(true);
                  }}
                  helpText={
                    sound.voice
                      ? "Each scene is read aloud on the rendered video. The free preview reads the hook (scene 1), so you can hear the voice before you pay."
                      : "Voice-over is not available here yet: videos are made without a voice."
                  }
                  error={fieldErrors.voiceOver}
                />
                {voice && sound.voices.length > 0 ? (
                  <Select
                    label="Voice"
                    name="voice"
                    disabled={!editable}
                    options={[...new Set([...sound.voices, ...(voiceName ? [voiceName] : [])])].map((v, i) => ({
                      label: i === 0 ? `${v} (default)` : v,
                      value: v,
                    }))}
                    value={voiceName}
                    onChange={(v) => {
                      setVoiceName(v);
                      setDirty(true);
                    }}
                    helpText="Save, then make the free preview to hear it read your hook."
                    error={fieldErrors.voice}
                  />
                ) : null}
                <Select
                  label="Music"
                  name="musicTrack"
                  disabled={!editable || (sound.musicTracks.length === 0 && !music)}
                  options={[
                    { label: "No music", value: "" },
                    ...[...new Set([...sound.musicTracks, ...(music ? [music] : [])])].map((t) => ({ label: t, value: t })),
                  ]}
                  value={music}
                  onChange={(v) => {
                    setMusic(v);
                    setDirty(true);
                  }}
                  helpText={
                    sound.musicTracks.length > 0
                      ? "Played quietly under the voice, faded out at the end, on the rendered video."
                      : `No music tracks on this server: the operator can put audio files whose licence allows use in ads in ${sound.musicDir ?? "the music folder"}.`
                  }
                  error={fieldErrors.musicTrack}
                />
                <TextField
                  label="Title"
                  name="title"
                  value={title}
                  onChange={(v) => {
                    setTitle(v);
                    setDirty(true);
                  }}
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
                    <Box key={i} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
                      <BlockStack gap="200">
                        <Text as="h3" variant="headingSm">
                          Scene {i + 1}: {SCENE_LABELS[scene.kind]}
                        </Text>
                        <TextField
                          label={`Scene ${i + 1} text`}
                          name={`text${i}`}
                          value={texts[i] ?? ""}
                          onChange={(v) => {
                            setTexts((t) => t.map((x, j) => (j === i ? v : x)));
                            setDirty(true);
                          }}
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
                                onClick={() => {
                                  setTexts((t) => t.map((x, j) => (j === 0 ? hook : x)));
                                  setDirty(true);
                                }}
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
                          onChange={(v) => {
                            setSecs((t) => t.map((x, j) => (j === i ? v : x)));
                            setDirty(true);
                          }}
                          autoComplete="off"
                          disabled={!editable}
                          error={fieldErrors[`scenes.${i}.durationMs`]}
                        />
                      </BlockStack>
                    </Box>
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
        </BlockStack>
      </Layout.Section>
    </>
  );
}

/** The newest free preview: its progress, the small video marked "Preview", or why it failed (decision 036). */
function PreviewVideo({ ad, preview, fullSize }: { ad: AiAdView; preview: NonNullable<AiAdView["previewVideo"]>; fullSize: string }) {
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
      <video
        src={preview.url}
        controls
        playsInline
        preload="metadata"
        aria-label={`Free preview of ${ad.title}`}
        style={{ width: 270, maxWidth: "100%", aspectRatio: `${preview.width ?? 9} / ${preview.height ?? 16}`, background: "#000", borderRadius: 8 }}
      />
      <Text as="p" tone="subdued" variant="bodySm">
        Free preview: {preview.width}x{preview.height}, marked “Preview”. The rendered video ({fullSize}) without the mark is what
        you post.{ad.voiceOver ? " The preview reads only the hook aloud; the rendered video reads every scene." : ""}
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
