// How an ad's video looks and sounds, picked in the storyboard: its brand kit (decision 033), its shape, a voice-over
// and its voice (decisions 062, 067) and a music track, each offered only as far as this server can make it. The
// brand kit's picker is also the new-ad form's.
import { Checkbox, Select } from "@shopify/polaris";
import { AD_TONE_HINT } from "~/domain/ai-ads/ad-writing";
import { AD_FORMAT_LABELS, AD_FORMATS, type AdErrors } from "~/domain/ai-ads/ai-ads";
import type { AiAdsPageData, KitChoice } from "~/ui/ai-ads/ai-ads-data";
import type { AdDraftEditor } from "~/ui/ai-ads/use-ad-draft";

/** "Brand kit" for an ad: the default kit, or one of the user's kits (decision 033). */
export function KitSelect({
  kits,
  value,
  onChange,
  disabled,
}: {
  kits: KitChoice[];
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
}) {
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

export function VideoSettings({
  kits,
  sound,
  editor: { draft, set },
  editable,
  fieldErrors,
}: {
  kits: KitChoice[];
  sound: AiAdsPageData["sound"];
  editor: AdDraftEditor;
  editable: boolean;
  fieldErrors: AdErrors;
}) {
  return (
    <>
      <KitSelect kits={kits} value={draft.kit} disabled={!editable} onChange={(v) => set("kit", v)} />
      <Select
        label="Video shape"
        name="format"
        disabled={!editable}
        options={AD_FORMATS.map((f) => ({ label: AD_FORMAT_LABELS[f], value: f }))}
        value={draft.format}
        onChange={(v) => set("format", v)}
        helpText="The shorter shapes have room for fewer lines of text per scene."
      />
      <input type="hidden" name="sound" value="1" />
      <Checkbox
        label="Voice-over"
        name="voiceOver"
        value="on"
        checked={draft.voice}
        disabled={!editable || (!sound.voice && !draft.voice)}
        onChange={(v) => set("voice", v)}
        helpText={
          sound.voice
            ? "Each scene is read aloud on the rendered video. The free preview reads the hook (scene 1), so you can hear the voice before you pay."
            : "Voice-over is not available here yet: videos are made without a voice."
        }
        error={fieldErrors.voiceOver}
      />
      {draft.voice && sound.voices.length > 0 ? (
        <Select
          label="Voice"
          name="voice"
          disabled={!editable}
          options={[...new Set([...sound.voices, ...(draft.voiceName ? [draft.voiceName] : [])])].map((v, i) => ({
            label: i === 0 ? `${v} (default)` : v,
            value: v,
          }))}
          value={draft.voiceName}
          onChange={(v) => set("voiceName", v)}
          helpText="Save, then make the free preview to hear it read your hook."
          error={fieldErrors.voice}
        />
      ) : null}
      <Select
        label="Music"
        name="musicTrack"
        disabled={!editable || (sound.musicTracks.length === 0 && !draft.music)}
        options={[
          { label: "No music", value: "" },
          ...[...new Set([...sound.musicTracks, ...(draft.music ? [draft.music] : [])])].map((t) => ({
            label: t,
            value: t,
          })),
        ]}
        value={draft.music}
        onChange={(v) => set("music", v)}
        helpText={
          sound.musicTracks.length > 0
            ? "Played quietly under the voice, faded out at the end, on the rendered video."
            : `No music tracks on this server: the operator can put audio files whose licence allows use in ads in ${sound.musicDir ?? "the music folder"}.`
        }
        error={fieldErrors.musicTrack}
      />
    </>
  );
}
