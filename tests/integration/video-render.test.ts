// The built-in renderer for real: a two-scene ad rasterised by resvg with the packaged DejaVu fonts and
// encoded by the WebAssembly H.264 encoder; the MP4 is read back box by box.
import { describe, expect, it } from "vitest";
import { createBuiltInRenderer, VideoRenderError, type RenderSpec } from "~/integrations/video-render.server";
import { renderProductSvg } from "~/services/product-images.server";
import { readMp4 } from "../helpers/mp4";

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

describe("the built-in video renderer", () => {
  it("renders a tiny two-scene ad into a valid MP4 with one frame per 1/fps and rising progress", async () => {
    const progress: number[] = [];
    const result = await createBuiltInRenderer().render(spec, { onProgress: (f) => progress.push(f) });
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
    const rendering = createBuiltInRenderer().render(spec, {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(rendering).rejects.toThrow(new VideoRenderError("The render was stopped."));
    await expect(createBuiltInRenderer().render({ ...spec, width: 181 })).rejects.toThrow(/must be even/);
  });
});
