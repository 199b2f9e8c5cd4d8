// The frame layout of the built-in renderer (frameSvg): what each frame shows, where, and how it moves.
import { describe, expect, it } from "vitest";
import { frameSvg, frameTimeline, nestSvg, textLayout, type RenderSpec } from "~/integrations/video-render.server";
import { renderProductSvg } from "~/services/products/images.server";

const spec: RenderSpec = {
  width: 540,
  height: 960,
  fps: 15,
  brandColour: "#b8325e",
  product: { title: "Wombat <Brush> & Co", imageSvg: renderProductSvg({ objectID: "f-1", n: 1, title: "Wombat Brush", niche: "pets" }) },
  scenes: [
    { kind: "hook", text: "Stop scrolling if you love pets", durationMs: 3000 },
    { kind: "cta", text: "Get yours today for $24.99", durationMs: 3000 },
  ],
};

const attr = (svg: string, cls: string, name: string) =>
  Number(new RegExp(`class="${cls}"[^>]*?${name}="([\\d.]+)"`).exec(svg)?.[1]);

describe("frameSvg", () => {
  it("fades and slides the text in over the first 450 ms of a scene", () => {
    const start = frameSvg(spec, 0, 0, 0, 6000);
    const later = frameSvg(spec, 0, 1000, 1000, 6000);
    expect(attr(start, "scene-text", "opacity")).toBe(0);
    expect(attr(later, "scene-text", "opacity")).toBe(1);
    const y = (svg: string) => Number(/class="scene-text"[^]*?<text x="[\d.]+" y="([\d.]+)"/.exec(svg)?.[1]);
    expect(y(start) - y(later)).toBeCloseTo(40, 0);
  });

  it("fills the brand bar with the ad's progress, in the brand colour", () => {
    const half = frameSvg(spec, 1, 0, 3000, 6000);
    expect(attr(half, "brand-bar-progress", "width")).toBe(270);
    expect(half).toContain('fill="#b8325e"');
  });

  it("escapes text and keeps every line inside the frame", () => {
    const svg = frameSvg(spec, 1, 1000, 4000, 6000);
    expect(svg).toContain("Wombat &lt;Brush&gt; &amp; Co");
    const long = textLayout("An unusually long scene text that has to wrap over several lines on a phone screen ok", 540);
    expect(long.lines.length).toBeGreaterThan(2);
    for (const line of long.lines) expect(line.length * long.fontSize * 0.62).toBeLessThanOrEqual(540 - 80);
    const small = textLayout("Short", 180);
    expect(small.fontSize).toBeCloseTo(46 / 3, 1);
  });

  it("nests the product picture with its own ids, and ignores something that is not an SVG", () => {
    const nested = nestSvg(spec.product.imageSvg!, { x: 10, y: 20, size: 100 }, "p-");
    expect(nested).toMatch(/^<svg x="10" y="20" width="100" height="100" viewBox="0 0 400 400">/);
    expect(nested).toContain('id="p-bg"');
    expect(nested).toContain("url(#p-bg)");
    expect(nestSvg("<html></html>", { x: 0, y: 0, size: 1 }, "p-")).toBe("");
    expect(frameSvg({ ...spec, product: { ...spec.product, imageSvg: null } }, 0, 0, 0, 6000)).not.toContain("product-image");
  });
});

describe("frameTimeline", () => {
  it("gives each scene round(duration x fps) frames, in order", () => {
    const { frames, totalMs } = frameTimeline({ fps: 15, scenes: spec.scenes });
    expect(frames).toHaveLength(90);
    expect(frames[45]).toEqual({ index: 1, intoMs: 0, atMs: 3000 });
    expect(totalMs).toBe(6000);
  });
});
