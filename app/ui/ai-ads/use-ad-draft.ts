// The storyboard's edits of one ad before they are saved: its title, each scene's text and seconds, its brand kit,
// shape and sound. "dirty" says an edit was made since the ad was last saved: the saved script is what the preview
// and the render show, so they wait for a save.
import { useEffect, useState } from "react";
import type { AiAdView } from "~/services/ai-ads.server";

export interface AdDraft {
  title: string;
  /** Each scene's text, in order. */
  texts: string[];
  /** Each scene's length in seconds, as typed. */
  secs: string[];
  /** The brand kit's id, "" for the default kit. */
  kit: string;
  format: string;
  voice: boolean;
  music: string;
  voiceName: string;
}

/** The saved ad as the storyboard's fields show it; with no voice of its own, the server's default voice. */
function savedScript(ad: AiAdView, defaultVoice: string): Omit<AdDraft, "kit"> {
  return {
    title: ad.title,
    texts: ad.scenes.map((s) => s.text),
    secs: ad.scenes.map((s) => String(s.durationMs / 1000)),
    format: ad.format,
    voice: ad.voiceOver,
    music: ad.musicTrack ?? "",
    voiceName: ad.voice ?? defaultVoice,
  };
}

export function useAdDraft(ad: AiAdView, defaultVoice: string) {
  const [draft, setDraft] = useState<AdDraft>(() => ({
    ...savedScript(ad, defaultVoice),
    kit: ad.brandKitId === null ? "" : String(ad.brandKitId),
  }));
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    // The kit is left as picked: a save sends it, so it is what was saved.
    setDraft((d) => ({ ...savedScript(ad, defaultVoice), kit: d.kit }));
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the saved ad changes
  }, [ad.updatedAt]);

  function set<K extends keyof AdDraft>(field: K, value: AdDraft[K]) {
    setDraft((d) => ({ ...d, [field]: value }));
    setDirty(true);
  }
  function setScene(field: "texts" | "secs", index: number, value: string) {
    setDraft((d) => ({ ...d, [field]: d[field].map((x, j) => (j === index ? value : x)) }));
    setDirty(true);
  }
  return { draft, dirty, set, setScene };
}

export type AdDraftEditor = ReturnType<typeof useAdDraft>;
