// The built-in renderer for real: a two-scene ad rasterised by resvg with the packaged DejaVu fonts and
// encoded by each encoder (native ffmpeg with libx264, and the WebAssembly x264 fallback); the MP4 is read
// back box by box. The watermark label is checked on the rasterised frame's pixels.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { brandFontFiles, createBuiltInRenderer, frameSvg, VideoRenderError, type RenderSpec } from "~/integrations/video-render.server";
import { renderProductSvg } from "~/services/products/images.server";
import { readMp4 } from "../../helpers/mp4";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

const spec: RenderSpec = {
  width: 180,
  height: 320,
  fps: 5,
  brandColour: "#0b6e4f",
  product: {
    title: "Wombat Brush",
    imageSvg: renderProductSvg({ objectID: "vr-1", n: 1, title: "Wombat Brush", niche: "pets" }),
  },
  scenes: [
    { kind: "hook", text: "Stop scrolling if you love pets", durationMs: 1000 },
    { kind: "cta", text: "Get yours today for $24.99", durationMs: 1400 },
  ],
};

describe.each([
  { encoder: "wasm" as const, name: "built-in renderer (WebAssembly x264)" },
  { encoder: "ffmpeg" as const, name: "built-in renderer (ffmpeg libx264)" },
])("the built-in video renderer with the $encoder encoder", ({ encoder, name }) => {
  const renderer = () => createBuiltInRenderer({ encoder });

  it("renders a tiny two-scene ad into a valid MP4 with one frame per 1/fps and rising progress", async () => {
    const progress: number[] = [];
    expect(renderer().name).toBe(name);
    const result = await renderer().render(spec, { onProgress: (f) => progress.push(f) });
    // 1.0 s and 1.4 s at 5 fps: 5 + 7 frames.
    expect(result).toMatchObject({ width: 180, height: 320, frames: 12, durationMs: 2400 });
    const mp4 = readMp4(result.bytes);
    expect(mp4.topLevel).toEqual(expect.arrayContaining(["ftyp", "moov", "mdat"]));
    expect(mp4.frames).toBe(12);
    expect(mp4.trackDurationMs).toBe(2400);
    expect(mp4.movieDurationMs).toBe(2400);
    expect([mp4.width, mp4.height]).toEqual([180, 320]);
    expect(progress.length).toBe(13);
    expect(progress.every((f, i) => i === 0 || f > progress[i - 1])).toBe(true);
    expect(progress.at(-1)).toBe(1);
  });

  it("stops when asked, and refuses an odd frame size before encoding anything", async () => {
    const controller = new AbortController();
    const rendering = renderer().render(spec, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(rendering).rejects.toThrow(new VideoRenderError("The render was stopped."));
    await expect(renderer().render({ ...spec, width: 181 })).rejects.toThrow(/must be even/);
  });
});

describe("the watermark", () => {
  const small: RenderSpec = { ...spec, width: 540, height: 960, fps: 15 };
  const raster = (svg: string) =>
    new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false, fontFiles: brandFontFiles() } }).render();
  /** Pixels in the frame's top-right corner under the brand bar that are near white (the label's letters). */
  const whiteInCorner = (svg: string) => {
    const img = raster(svg);
    const px = img.pixels;
    let white = 0;
    for (let y = 14; y < 90; y++)
      for (let x = img.width - 180; x < img.width; x++) {
        const i = (y * img.width + x) * 4;
        if (px[i] > 220 && px[i + 1] > 220 && px[i + 2] > 220) white++;
      }
    return white;
  };

  it("draws the label in white on a dark box in the top-right corner, under the brand bar, on every scene", () => {
    for (const [index, into] of [
      [0, 0],
      [0, 800],
      [1, 1000],
    ]) {
      const marked = frameSvg({ ...small, watermark: "Preview" }, index, into, into, 2400, { progress: false });
      const box = /class="watermark"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(marked);
      expect(box).not.toBeNull();
      const [x, y, w, h] = box!.slice(1).map(Number);
      expect(x + w).toBeCloseTo(540 - 16, 0);
      expect(y).toBeGreaterThanOrEqual(14);
      expect(h).toBeGreaterThan(24);
      expect(marked).toMatch(/font-weight="bold" font-size="18" fill="#ffffff">Preview<\/text><\/g><\/svg>$/);
      // The letters' pixels are there; without a watermark the same corner is the dark background.
      expect(whiteInCorner(marked)).toBeGreaterThan(80);
      expect(whiteInCorner(frameSvg(small, index, into, into, 2400, { progress: false }))).toBe(0);
      expect(whiteInCorner(frameSvg({ ...small, watermark: null }, index, into, into, 2400, { progress: false }))).toBe(0);
    }
  });

  it("scales with the frame and stays within a third of its width for a long label", () => {
    const full = frameSvg({ ...small, width: 1080, height: 1920, watermark: "Preview" }, 0, 900, 900, 2400);
    expect(full).toContain('font-size="36" fill="#ffffff">Preview');
    const boxWidth = (svg: string) => Number(/class="watermark"><rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"/.exec(svg)![1]);
    const longer = frameSvg({ ...small, watermark: "Preview <for> Ann" }, 0, 900, 900, 2400);
    expect(longer).toContain(">Preview &lt;for&gt; Ann</text>");
    const longest = frameSvg({ ...small, watermark: "A watermark far too long to fit in a third of the frame" }, 0, 900, 900, 2400);
    expect(longest).toMatch(/font-size="12" fill="#ffffff">A watermark [^<]*…<\/text>/);
    for (const svg of [longer, longest]) expect(boxWidth(svg)).toBeLessThanOrEqual(540 / 3 + 2 * 10 + 6);
  });
});
