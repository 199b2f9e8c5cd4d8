// AI video ad rules (seed ai-ads; docs/decisions/019): what a script is (4-6 scenes: hook, problem,
// product, social proof, call to action; 12-20 s in all), how an edit is checked, how a writer's
// scenes are fitted into those bounds, and how scene text is broken into lines on a 9:16 frame.
// Pure: no I/O.
import { squish, truncateAtWord } from "~/domain/product-pages/product-page";

export const AI_ADS_FEATURE = "ai-ads";

export const AI_AD_STATUSES = ["preview", "rendering", "completed", "failed"] as const;
export type AiAdStatus = (typeof AI_AD_STATUSES)[number];

/** The beats of a short product ad, in the order they are shown. */
export const SCENE_KINDS = ["hook", "problem", "product", "proof", "cta"] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export const SCENE_LABELS: Record<SceneKind, string> = {
  hook: "Hook",
  problem: "Problem",
  product: "Product and benefits",
  proof: "Social proof",
  cta: "Call to action",
};

export interface AdScene {
  kind: SceneKind;
  /** The on-screen text. */
  text: string;
  durationMs: number;
}

export interface AdScript {
  title: string;
  scenes: AdScene[];
  /** Hooks the seller may pick for the first scene instead of its text (the first is the scene's own). */
  hooks?: string[];
}

export const AD_LIMITS = {
  titleMax: 80,
  scenesMin: 4,
  scenesMax: 6,
  textMin: 3,
  /** Read in about two seconds on a phone: at most ~5 short lines on the frame. */
  textMax: 90,
  sceneMinMs: 1500,
  sceneMaxMs: 6000,
  totalMinMs: 12_000,
  totalMaxMs: 20_000,
} as const;

/** Per-field messages: "title", "scenes", "scenes.{i}.text", "scenes.{i}.durationMs". */
export type AdErrors = Record<string, string>;

export function totalDurationMs(scenes: Pick<AdScene, "durationMs">[]): number {
  return scenes.reduce((sum, s) => sum + s.durationMs, 0);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** The field's name as the editor shows it ("Scene 2 text"), for messages that name fields. */
export function adFieldLabel(field: string): string {
  const m = /^scenes\.(\d+)\.(text|durationMs)$/.exec(field);
  if (m) return `Scene ${Number(m[1]) + 1} ${m[2] === "text" ? "text" : "duration"}`;
  const names: Record<string, string> = { title: "Title", scenes: "Scenes", voiceOver: "Voice-over", musicTrack: "Music", format: "Video shape" };
  return names[field] ?? field;
}

/** Checks a whole script (after an edit, or from a writer): texts squished, lengths and durations in bounds. */
export function validateAdScript(input: AdScript): { ok: true; script: AdScript } | { ok: false; errors: AdErrors } {
  const L = AD_LIMITS;
  const errors: AdErrors = {};
  const title = squish(input.title);
  if (title.length === 0) errors.title = "Enter a title.";
  else if (title.length > L.titleMax) errors.title = `Use at most ${L.titleMax} characters (now ${title.length}).`;
  const scenes = input.scenes.map((s) => ({ kind: s.kind, text: squish(s.text), durationMs: s.durationMs }));
  if (scenes.length < L.scenesMin || scenes.length > L.scenesMax)
    errors.scenes = `An ad has ${L.scenesMin} to ${L.scenesMax} scenes (this one has ${scenes.length}).`;
  scenes.forEach((s, i) => {
    if (!SCENE_KINDS.includes(s.kind)) errors[`scenes.${i}.kind`] = `Unknown scene kind "${s.kind}".`;
    if (s.text.length < L.textMin) errors[`scenes.${i}.text`] = `Write at least ${L.textMin} characters.`;
    else if (s.text.length > L.textMax)
      errors[`scenes.${i}.text`] = `Use at most ${L.textMax} characters so it can be read in time (now ${s.text.length}).`;
    if (!Number.isInteger(s.durationMs) || s.durationMs < L.sceneMinMs || s.durationMs > L.sceneMaxMs)
      errors[`scenes.${i}.durationMs`] = `A scene lasts ${seconds(L.sceneMinMs)} to ${seconds(L.sceneMaxMs)}.`;
  });
  const total = totalDurationMs(scenes);
  if (!errors.scenes && (total < L.totalMinMs || total > L.totalMaxMs))
    errors.scenes = `The ad lasts ${seconds(total)}; it must last ${seconds(L.totalMinMs)} to ${seconds(L.totalMaxMs)}.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, script: { title, scenes } };
}

/**
 * A text that fits `max` characters by saying less, never by cutting mid-sentence: the text itself, else its
 * leading sentences, else its first clause (before a comma, semicolon, colon or dash); null when even that is
 * too long (the caller words it another way).
 */
export function shortenToFit(text: string, max: number): string | null {
  const t = squish(text);
  if (t.length <= max) return t;
  const sentences = t.match(/[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$/g)?.map(squish) ?? [t];
  let lead = "";
  for (const s of sentences) {
    const next = lead ? `${lead} ${s}` : s;
    if (next.length > max) break;
    lead = next;
  }
  if (lead) return lead;
  // The first clause; failing that, the words before its first "with" or "and" (a phrase that still says something).
  const clause = squish(sentences[0].split(/\s*[,;:]\s+|\s+[–—-]\s+/)[0]).replace(/[.!?]+$/, "");
  for (const candidate of [clause, squish(clause.split(/\s+(?:with|and)\s+/i)[0])])
    if (candidate.length >= AD_LIMITS.textMin && candidate.length <= max) return candidate;
  return null;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/**
 * A writer's scenes made valid where that can be done without changing what they say: a text too long
 * is shortened to its leading sentences or first clause (never cut mid-sentence with "..."; one that cannot be
 * is kept, for the editor to ask for a shorter one), durations rounded to 100 ms, held per scene and scaled so the total is in bounds, extra
 * scenes dropped (keeping the call to action last). Too few scenes or empty texts stay invalid.
 */
export function fitAdScript(script: AdScript): AdScript {
  const L = AD_LIMITS;
  let scenes = script.scenes
    .map((s) => ({ kind: s.kind, text: shortenToFit(s.text, L.textMax) ?? squish(s.text), durationMs: s.durationMs }))
    .filter((s) => s.text.length > 0);
  if (scenes.length > L.scenesMax) {
    const last = scenes[scenes.length - 1];
    scenes = [...scenes.slice(0, L.scenesMax - 1), last];
  }
  const round = (ms: number) => clamp(Math.round(ms / 100) * 100, L.sceneMinMs, L.sceneMaxMs);
  scenes = scenes.map((s) => ({ ...s, durationMs: round(Number.isFinite(s.durationMs) ? s.durationMs : 3000) }));
  const total = totalDurationMs(scenes);
  const target = clamp(total, L.totalMinMs, L.totalMaxMs);
  if (scenes.length > 0 && total !== target) {
    // Scale, then settle the rounding remainder on the scenes that still have room.
    scenes = scenes.map((s) => ({ ...s, durationMs: round((s.durationMs * target) / total) }));
    let diff = target - totalDurationMs(scenes);
    for (let guard = 0; diff !== 0 && guard < 200; guard++) {
      const step = diff > 0 ? 100 : -100;
      const i = scenes.findIndex((s) => round(s.durationMs + step) === s.durationMs + step);
      if (i < 0) break;
      scenes[i] = { ...scenes[i], durationMs: scenes[i].durationMs + step };
      diff -= step;
    }
  }
  return { title: truncateAtWord(squish(script.title), L.titleMax), scenes, ...(script.hooks ? { hooks: script.hooks } : {}) };
}

/** Greedy word wrap into lines of at most maxChars (a longer word is cut). */
export function wrapLines(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const raw of squish(text).split(" ")) {
    let word = raw;
    while (word.length > maxChars) {
      if (line) {
        lines.push(line);
        line = "";
      }
      lines.push(word.slice(0, maxChars));
      word = word.slice(maxChars);
    }
    if (!word) continue;
    const next = line ? `${line} ${word}` : word;
    if (next.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A caption laid out to fit its panel: the size chosen, its lines and each line's measured width. */
export interface CaptionFit {
  fontSize: number;
  lines: string[];
  widths: number[];
  /** True when even the smallest size needed more height than the panel has (the lines still fit its width). */
  overflowsHeight: boolean;
  /** A word wider than a whole line at the size chosen (it would be drawn split between two lines), or null. */
  splitWord: string | null;
}

/** Greedy word wrap by measured width; a word wider than a line is split between characters. */
export function wrapByWidth(text: string, maxWidth: number, width: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const raw of squish(text).split(" ")) {
    if (!raw) continue;
    let word = raw;
    while (width(word) > maxWidth) {
      // The longest head of the word that fits (at least one character).
      let cut = 1;
      while (cut < word.length && width(word.slice(0, cut + 1)) <= maxWidth) cut++;
      if (line) {
        lines.push(line);
        line = "";
      }
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    if (!word) continue;
    const next = line ? `${line} ${word}` : word;
    if (line && width(next) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The largest of `sizes` (largest first) at which the text, wrapped to maxWidth, fits maxHeight (lines x size
 * x lineHeight) with every word whole on its line; the smallest size otherwise (then overflowsHeight or
 * splitWord says what does not fit). `measure(line, size)` is the line's width in the caption font. Every
 * returned line is at most maxWidth wide.
 */
export function fitCaption(
  text: string,
  box: { maxWidth: number; maxHeight: number; sizes: number[]; lineHeight: number },
  measure: (line: string, size: number) => number,
): CaptionFit {
  const sizes = [...box.sizes].sort((a, b) => b - a);
  let last: CaptionFit | null = null;
  for (const fontSize of sizes) {
    const lines = wrapByWidth(text, box.maxWidth, (l) => measure(l, fontSize));
    const widths = lines.map((l) => measure(l, fontSize));
    const fits = lines.length * fontSize * box.lineHeight <= box.maxHeight;
    const splitWord = squish(text).split(" ").find((w) => w && measure(w, fontSize) > box.maxWidth) ?? null;
    last = { fontSize, lines, widths, overflowsHeight: !fits, splitWord };
    if (fits && !splitWord) return last;
  }
  return last ?? { fontSize: 0, lines: [], widths: [], overflowsHeight: false, splitWord: null };
}

/**
 * Why a scene's text cannot be shown whole on the video, in a sentence for its field, or null when it fits.
 * A render is refused with these before any credit is spent: text is never cut to fit.
 */
export function captionProblem(fit: CaptionFit): string | null {
  if (fit.splitWord)
    return `"${fit.splitWord}" is too wide for one line of the video: shorten it or break it into two words.`;
  if (fit.overflowsHeight)
    return `Too long to show whole on the video, even at the smallest text size (${fit.lines.length} lines): shorten it.`;
  return null;
}

/** A voice-over clip placed on the ad: when it starts, and how much faster it is read to fit its scene. */
export interface VoicePlacement {
  atMs: number;
  /** 1 = as spoken; up to VOICE_MAX_TEMPO when the clip is a little longer than its scene allows. */
  tempo: number;
}

/** The fastest a voice clip is sped up to fit its scene (beyond it speech sounds hurried). */
export const VOICE_MAX_TEMPO = 1.35;
const VOICE_LEAD_MS = 150;
const VOICE_TAIL_MS = 150;

/**
 * Each scene's voice clip placed at the scene's start (+150 ms) and read faster (at most 1.35x) when it would run
 * past the scene's end (-150 ms); a clip that would need more names its scene in a sentence, for the seller to
 * lengthen the scene or shorten its text. Never cut: a clip is always heard whole.
 */
export function placeVoice(scenes: Pick<AdScene, "durationMs">[], clipMs: number[]): { ok: true; clips: VoicePlacement[] } | { ok: false; scene: number; problem: string } {
  const clips: VoicePlacement[] = [];
  let start = 0;
  for (let i = 0; i < scenes.length; i++) {
    const room = Math.max(1, scenes[i].durationMs - VOICE_LEAD_MS - VOICE_TAIL_MS);
    const tempo = clipMs[i] > room ? clipMs[i] / room : 1;
    if (tempo > VOICE_MAX_TEMPO)
      return {
        ok: false,
        scene: i,
        problem: `scene ${i + 1}'s voice-over lasts ${seconds(clipMs[i])}, longer than its ${seconds(scenes[i].durationMs)} allow: lengthen the scene or shorten its text.`,
      };
    clips.push({ atMs: start + VOICE_LEAD_MS, tempo: Math.round(tempo * 1000) / 1000 });
    start += scenes[i].durationMs;
  }
  return { ok: true, clips };
}

/** The video shapes an ad renders in: vertical for TikTok, Reels and Stories; 4:5 and square for feeds. */
export const AD_FORMATS = ["9:16", "4:5", "1:1"] as const;
export type AdFormat = (typeof AD_FORMATS)[number];
export const AD_FORMAT_LABELS: Record<AdFormat, string> = {
  "9:16": "9:16 vertical (TikTok, Reels, Stories)",
  "4:5": "4:5 portrait (Instagram and Facebook feed)",
  "1:1": "1:1 square (feeds)",
};

export function isAdFormat(value: unknown): value is AdFormat {
  return typeof value === "string" && (AD_FORMATS as readonly string[]).includes(value);
}

/** A render size in another shape: the same width and rate, the height from the shape, rounded up to even. */
export function sizeInFormat<T extends { width: number; height: number; fps: number }>(size: T, format: AdFormat): T {
  const [w, h] = format.split(":").map(Number);
  const height = Math.ceil((size.width * h) / w / 2) * 2;
  return { ...size, height };
}

/** Frames a scene gets at `fps` (at least one). */
export function sceneFrames(durationMs: number, fps: number): number {
  return Math.max(1, Math.round((durationMs * fps) / 1000));
}

/** The deterministic idempotency key of an ad's nth render: asking twice charges once. */
export function renderIdempotencyKey(adId: number, attempt: number): string {
  return `ai-ad-render:${adId}:${attempt}`;
}

/**
 * The free preview render (docs/decisions/036): the saved script at 540x960, 15 fps, marked "Preview", for no
 * credits; at most FREE_PREVIEWS_PER_DAY a user in any 24 hours (each costs our servers a few seconds of CPU).
 */
export const FREE_PREVIEWS_PER_DAY = 30;
export const PREVIEW_STATUSES = ["rendering", "completed", "failed"] as const;
export type PreviewStatus = (typeof PREVIEW_STATUSES)[number];
export const PREVIEW_WATERMARK = "Preview";

/** Brand colours an ad's bar and buttons take, chosen by the product's niche. */
const BRAND_COLOURS = ["#0b6e4f", "#2c6ecb", "#b8325e", "#8a4fff", "#d9480f", "#087f8c"];

export function brandColour(niche: string): string {
  let h = 0;
  for (let i = 0; i < niche.length; i++) h = (h * 31 + niche.charCodeAt(i)) >>> 0;
  return BRAND_COLOURS[h % BRAND_COLOURS.length];
}

/** Why a user without a paid plan or trial cannot write or render ads (403, and the page's locked notice). */
export const AI_ADS_LOCKED_REASON =
  "AI video ads are part of every plan: start your free trial to write and render ads from products.";

/** The paid render: full HD 9:16 at 30 fps (docs/decisions/033). */
export const DEFAULT_VIDEO = { width: 1080, height: 1920, fps: 30 } as const;
/** The small size: 540x960 at 15 fps (about 8 times less work). */
export const PREVIEW_VIDEO = { width: 540, height: 960, fps: 15 } as const;
