// The Brand kits page, the same on the site (/dashboard/brand-kits) and in Shopify admin (/app/brand-kits):
// the seller's kits (logo, colours with a contrast warning, font, tagline, tone of voice, which is the
// default), a form to make one (with a logo upload: PNG, JPEG or SVG) and the same form to edit each.
// Loader and action: app/pages/ai-ads/brand-kits.server.ts; the rules: app/services/ai-ads/brand-kits.server.ts.
import type { SerializeFrom } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { contrastWarnings, KIT_LIMITS, parseHexColour } from "~/domain/ai-ads/brand-kits";
import type { Surface } from "~/domain/shopify/embedded-paths";
import type { BrandKitsActionResult, loadBrandKitsPage } from "~/pages/ai-ads/brand-kits.server";
import { TitledCard } from "~/ui/shared/titled-card";

export type BrandKitsPageData = SerializeFrom<typeof loadBrandKitsPage>;
type Kit = BrandKitsPageData["kits"][number];
type Font = BrandKitsPageData["fonts"][number];

function Swatch({ colour, label }: { colour: string; label: string }) {
  return (
    <InlineStack gap="100" blockAlign="center" wrap={false}>
      <span
        aria-hidden
        style={{ display: "inline-block", width: 20, height: 20, borderRadius: 4, background: colour, border: "1px solid rgba(0,0,0,.2)" }}
      />
      <Text as="span" variant="bodySm">
        {label} {colour}
      </Text>
    </InlineStack>
  );
}

function ColourField({ label, name, value, onChange, error }: { label: string; name: string; value: string; onChange: (v: string) => void; error?: string }) {
  const valid = parseHexColour(value);
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      onChange={onChange}
      autoComplete="off"
      error={error}
      prefix={
        <input
          type="color"
          aria-label={`${label}: pick`}
          value={valid ?? "#000000"}
          onChange={(e) => onChange(e.currentTarget.value)}
          style={{ width: 28, height: 24, padding: 0, border: "none", background: "none", cursor: "pointer" }}
        />
      }
    />
  );
}

/** What the kit looks like on an ad's end card: a panel, a button, the logo and the tagline. */
function KitPreview({ kit, fontFamily, logoUrl }: { kit: { name: string; primaryColour: string; accentColour: string; textColour: string; tagline: string }; fontFamily: string; logoUrl: string | null }) {
  return (
    <div
      aria-label={`Preview of ${kit.name || "the kit"}`}
      style={{ background: "#111827", borderRadius: 12, padding: 12, display: "flex", flexDirection: "column", alignItems: "center", gap: 8, fontFamily: `"${fontFamily}", sans-serif` }}
    >
      {logoUrl ? <img src={logoUrl} alt={`${kit.name} logo`} style={{ maxWidth: 96, maxHeight: 64, objectFit: "contain" }} /> : null}
      <div style={{ background: kit.primaryColour, color: kit.textColour, borderRadius: 8, padding: "6px 12px", fontWeight: 700, textAlign: "center", maxWidth: "100%", overflowWrap: "anywhere" }}>
        {kit.tagline || kit.name || "Your tagline"}
      </div>
      <div style={{ background: kit.accentColour, color: kit.textColour, borderRadius: 999, padding: "4px 14px", fontWeight: 700 }}>Shop now</div>
    </div>
  );
}

function Result({ result }: { result: BrandKitsActionResult | undefined }) {
  if (!result) return null;
  return (
    <BlockStack gap="100">
      <div role={result.ok ? "status" : "alert"}>
        <Text as="p" variant="bodySm" tone={result.ok ? "success" : "critical"}>
          {result.message}
        </Text>
      </div>
      {result.warnings.map((w) => (
        <Text key={w} as="p" variant="bodySm" tone="caution">
          {w}
        </Text>
      ))}
    </BlockStack>
  );
}

/** The form that makes a kit (no kit) or edits one. */
function KitForm({ kit, fonts, onDone, onCancel }: { kit: Kit | null; fonts: Font[]; onDone?: () => void; onCancel?: () => void }) {
  const fetcher = useFetcher<BrandKitsActionResult>();
  const formRef = useRef<HTMLFormElement>(null);
  const [name, setName] = useState(kit?.name ?? "");
  const [primaryColour, setPrimary] = useState(kit?.primaryColour ?? "#0b6e4f");
  const [accentColour, setAccent] = useState(kit?.accentColour ?? "#b8325e");
  const [textColour, setText] = useState(kit?.textColour ?? "#ffffff");
  const [font, setFont] = useState(kit?.font ?? fonts[0]?.id ?? "dejavu-sans");
  const [tagline, setTagline] = useState(kit?.tagline ?? "");
  const [tone, setTone] = useState(kit?.tone ?? "");
  const [isDefault, setIsDefault] = useState(false);
  const [removeLogo, setRemoveLogo] = useState(false);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const errors = result && !result.ok ? result.fieldErrors : {};
  useEffect(() => {
    if (!result?.ok) return;
    if (!kit) {
      formRef.current?.reset();
      setName("");
      setTagline("");
      setTone("");
    }
    onDone?.();
  }, [result, kit, onDone]);
  const live = [parseHexColour(primaryColour), parseHexColour(accentColour), parseHexColour(textColour)];
  const warnings = live.every(Boolean) ? contrastWarnings({ primaryColour: live[0]!, accentColour: live[1]!, textColour: live[2]! }) : [];
  const fontFamily = fonts.find((f) => f.id === font)?.family ?? "DejaVu Sans";
  return (
    <fetcher.Form method="post" encType="multipart/form-data" ref={formRef}>
      <input type="hidden" name="intent" value={kit ? "update" : "create"} />
      {kit ? <input type="hidden" name="id" value={kit.id} /> : null}
      <BlockStack gap="300">
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField label="Name" name="name" value={name} onChange={setName} autoComplete="off" maxLength={KIT_LIMITS.nameMax} error={errors.name} />
          <Select label="Font (captions)" name="font" options={fonts.map((f) => ({ label: f.label, value: f.id }))} value={font} onChange={setFont} error={errors.font} />
          <ColourField label="Primary colour (panels)" name="primaryColour" value={primaryColour} onChange={setPrimary} error={errors.primaryColour} />
          <ColourField label="Accent colour (buttons)" name="accentColour" value={accentColour} onChange={setAccent} error={errors.accentColour} />
          <ColourField label="Text colour" name="textColour" value={textColour} onChange={setText} error={errors.textColour} />
          <TextField label="Tagline" name="tagline" value={tagline} onChange={setTagline} autoComplete="off" maxLength={KIT_LIMITS.taglineMax} helpText="Shown on the ad's end card." error={errors.tagline} />
        </InlineGrid>
        <TextField
          label="Tone of voice"
          name="tone"
          value={tone}
          onChange={setTone}
          autoComplete="off"
          multiline={2}
          maxLength={KIT_LIMITS.toneMax}
          helpText="How your ads and product pages should sound, e.g. “playful, short sentences, no hype”. Given to the AI writer."
          error={errors.tone}
        />
        {warnings.length > 0 ? (
          <Banner tone="warning" title="Text may be hard to read">
            <BlockStack gap="100">
              {warnings.map((w) => (
                <Text key={w.field} as="p">
                  {w.message}
                </Text>
              ))}
            </BlockStack>
          </Banner>
        ) : null}
        <BlockStack gap="100">
          <label htmlFor={`logo-${kit?.id ?? "new"}`}>
            <Text as="span" variant="bodyMd">
              {kit?.logo ? "Replace the logo" : "Logo"} (PNG, JPEG or SVG, at most {KIT_LIMITS.logoMaxBytes / 1024} KB, {KIT_LIMITS.logoMinPx}–{KIT_LIMITS.logoMaxPx} px)
            </Text>
          </label>
          <input id={`logo-${kit?.id ?? "new"}`} type="file" name="logo" accept="image/png,image/jpeg,image/svg+xml,.svg" />
          {errors.logo ? (
            <Text as="p" tone="critical" variant="bodySm">
              {errors.logo}
            </Text>
          ) : null}
          {kit?.logo ? (
            <label>
              <input type="checkbox" name="removeLogo" value="true" checked={removeLogo} onChange={(e) => setRemoveLogo(e.currentTarget.checked)} /> Remove the logo
            </label>
          ) : null}
        </BlockStack>
        {!kit ? (
          <label>
            <input type="checkbox" name="isDefault" value="true" checked={isDefault} onChange={(e) => setIsDefault(e.currentTarget.checked)} /> Make this my default kit
          </label>
        ) : null}
        <Box maxWidth="280px">
          <KitPreview kit={{ name, primaryColour: live[0] ?? "#000000", accentColour: live[1] ?? "#000000", textColour: live[2] ?? "#ffffff", tagline }} fontFamily={fontFamily} logoUrl={removeLogo ? null : (kit?.logoUrl ?? null)} />
        </Box>
        <Result result={result} />
        <InlineStack gap="200">
          <Button submit variant="primary" loading={fetcher.state !== "idle"}>
            {kit ? "Save kit" : "Create brand kit"}
          </Button>
          {kit && onDone ? <Button onClick={onDone}>Cancel</Button> : null}
          {!kit && onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        </InlineStack>
      </BlockStack>
    </fetcher.Form>
  );
}

function KitCard({ kit, fonts }: { kit: Kit; fonts: Font[] }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const fetcher = useFetcher<BrandKitsActionResult>();
  const fontLabel = fonts.find((f) => f.id === kit.font)?.label ?? kit.font;
  const fontFamily = fonts.find((f) => f.id === kit.font)?.family ?? "DejaVu Sans";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h3" variant="headingMd">
              {kit.name}
            </Text>
            {kit.isDefault ? <Badge tone="success">Default</Badge> : null}
          </InlineStack>
          <InlineStack gap="200">
            {!kit.isDefault ? (
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="default" />
                <input type="hidden" name="id" value={kit.id} />
                <Button submit size="slim">
                  Make default
                </Button>
              </fetcher.Form>
            ) : null}
            <Button size="slim" onClick={() => setEditing((e) => !e)} ariaExpanded={editing}>
              {editing ? "Close" : "Edit"}
            </Button>
            <Button size="slim" tone="critical" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </InlineStack>
        </InlineStack>
        {confirming ? (
          <Banner tone="critical" title={`Delete "${kit.name}"?`} onDismiss={() => setConfirming(false)}>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={kit.id} />
              <BlockStack gap="200">
                <Text as="p">Its logo goes with it. Ads that used it will use your default kit.</Text>
                <InlineStack gap="200">
                  <Button submit tone="critical" variant="primary">
                    Delete kit
                  </Button>
                  <Button onClick={() => setConfirming(false)}>Keep it</Button>
                </InlineStack>
              </BlockStack>
            </fetcher.Form>
          </Banner>
        ) : null}
        <Result result={result} />
        {editing ? (
          <KitForm kit={kit} fonts={fonts} onDone={() => setEditing(false)} />
        ) : (
          <InlineGrid columns={{ xs: 1, md: "2fr 1fr" }} gap="300">
            <BlockStack gap="150">
              <InlineStack gap="300" wrap>
                <Swatch colour={kit.primaryColour} label="Primary" />
                <Swatch colour={kit.accentColour} label="Accent" />
                <Swatch colour={kit.textColour} label="Text" />
              </InlineStack>
              <Text as="p" variant="bodySm">
                Font: {fontLabel}
              </Text>
              <Text as="p" variant="bodySm">
                Tagline: {kit.tagline || "none"}
              </Text>
              <Text as="p" variant="bodySm">
                Tone of voice: {kit.tone || "none (the writer's usual voice)"}
              </Text>
              <Text as="p" variant="bodySm" tone="subdued">
                {kit.logo ? `Logo: ${kit.logo.width}x${kit.logo.height} px (uploaded as ${kit.logo.source.toUpperCase()})` : "No logo"}
              </Text>
              {kit.warnings.map((w) => (
                <Text key={w.field} as="p" variant="bodySm" tone="caution">
                  {w.message}
                </Text>
              ))}
            </BlockStack>
            <Box maxWidth="240px">
              <KitPreview kit={kit} fontFamily={fontFamily} logoUrl={kit.logoUrl} />
            </Box>
          </InlineGrid>
        )}
      </BlockStack>
    </Card>
  );
}

export function BrandKitsPage({ data }: { data: BrandKitsPageData; surface: Surface }) {
  const { kits, fonts, limits } = data;
  // With no kit the form is open; once there is one, another is made from a button, and the form closes when it is
  // saved (issue 35: no empty "New brand kit" form left under the kit just saved).
  const [adding, setAdding] = useState(false);
  const formOpen = kits.length === 0 || adding;
  return (
    <Page title="Brand kits" subtitle="Your logo, colours, font and voice, applied to AI ads and product pages.">
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {kits.length === 0 ? (
              <Card>
                <Text as="p">No brand kits yet. Make one below: your AI ads will carry its logo, colours and font, and the writer its tone of voice.</Text>
              </Card>
            ) : (
              kits.map((kit) => <KitCard key={`${kit.id}-${kit.updatedAt}`} kit={kit} fonts={fonts} />)
            )}
            {kits.length >= limits.kitsMax ? null : formOpen ? (
              <TitledCard title="New brand kit">
                <KitForm kit={null} fonts={fonts} onDone={() => setAdding(false)} onCancel={kits.length > 0 ? () => setAdding(false) : undefined} />
              </TitledCard>
            ) : (
              <div className="wp-page-actions">
                <InlineStack>
                  <Button onClick={() => setAdding(true)}>Add another brand kit</Button>
                </InlineStack>
              </div>
            )}
            {kits.length < limits.kitsMax ? null : (
              <Banner tone="info">You have {limits.kitsMax} brand kits, the most one account keeps: delete one to add another.</Banner>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
