// What a video renderer is asked to draw and what it answers: the port's input and output (docs/decisions/019,
// 033, 062). The built-in renderer (app/integrations/video-render.server.ts) and its frames
// (video-frames.server.ts) both read it, so neither imports the other for it. Types only.
import type { AdScene, CaptionFit } from "~/domain/ai-ads/ai-ads";

export interface RenderSpec {
  /** Even numbers (H.264 works on 2x2 chroma blocks); 1080x1920 (9:16) by default. */
  width: number;
  height: number;
  fps: number;
  /** e.g. "#0b6e4f": the top bar and the call-to-action button. */
  brandColour: string;
  product: {
    title: string;
    /** A standalone SVG document (the product's generated picture), drawn above the text. */
    imageSvg: string | null;
  };
  scenes: AdScene[];
  /** The brand kit applied (docs/decisions/033): colours on panels and buttons, font on captions, logo and tagline on the end card. */
  brand?: RenderBrand | null;
  /** A label drawn on every frame, top right under the brand bar (e.g. "Preview" on a free small render). */
  watermark?: string | null;
  /** Sound (decision 062): voice clips (WAV) placed on the timeline and a music bed, mixed into an AAC track. */
  audio?: RenderAudio | null;
}

export interface RenderAudio {
  /** One WAV file per voiced scene, started at atMs and read at `tempo` (1 = as spoken). */
  voice: { wav: Uint8Array; atMs: number; tempo: number }[];
  /** A music file from the operator's folder, looped under the voice and faded out at the end. */
  musicPath: string | null;
}

export interface RenderBrand {
  /** Caption panels and the progress bar. */
  primaryColour: string;
  /** The call-to-action button. */
  accentColour: string;
  /** Captions drawn on the two colours. */
  textColour: string;
  /** A family of BRAND_FONTS ("DejaVu Serif"); bold is used for captions. */
  fontFamily: string;
  tagline: string;
  /** PNG bytes (a kit's logo is always stored as PNG), drawn on the end card. */
  logoPng: Uint8Array | null;
}

export interface RenderResult {
  bytes: Uint8Array;
  durationMs: number;
  width: number;
  height: number;
  frames: number;
}

export interface RenderOptions {
  /** Called after each frame with the share done, 0 < fraction <= 1 (1 once the MP4 is complete). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface VideoRenderer {
  /** Who renders, for logs and the decision record ("built-in renderer"). */
  readonly name: string;
  render(spec: RenderSpec, options?: RenderOptions): Promise<RenderResult>;
  /** Each scene's caption as it would be laid out on this spec's frame (checked before a render is paid for). */
  captionFits(spec: Pick<RenderSpec, "width" | "height" | "scenes" | "brand">): CaptionFit[];
}

