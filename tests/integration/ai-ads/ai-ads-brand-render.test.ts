// Ads a seller would post (docs/decisions/033), on the real renderer: captions measured with the font's own
// metrics stay inside their panel (a pixel check on the frame with the longest, widest caption, in every
// font a kit may choose), the brand kit's colours, logo and tagline are on the end card's pixels, and the
// paid full HD render is 1080x1920 at 30 fps with the ad's own duration, read back from the MP4.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { AD_LIMITS } from "~/domain/ai-ads/ai-ads";
import { BRAND_FONTS } from "~/domain/ai-ads/brand-kits";
import { brandFontFiles, createBuiltInRenderer, DEFAULT_VIDEO, frameSvg, textLayout, type RenderSpec } from "~/integrations/video-render.server";
import { readMp4 } from "../../helpers/mp4";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

// The widest caption a script may hold: 90 characters of the widest capitals.
const LONGEST = "WWWWWWWWWWWWW MMMMMMMMMMMMM WWWWWWWWWWWWW MMMMMMMMMMMMM WWWWWWWWWWWWW MMMMMMMMMMMMM WWWWWW";

const logoPng = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><rect width="200" height="80" fill="#ff7a00"/></svg>`).render().asPng();

function spec(size: { width: number; height: number; fps: number }, fontFamily = "DejaVu Sans"): RenderSpec {
  return {
    ...size,
    brandColour: "#0b6e4f",
    product: { title: "Wombat Brush", imageSvg: null },
    scenes: [
      { kind: "hook", text: LONGEST, durationMs: 1000 },
      { kind: "cta", text: "Get yours today for $24.99", durationMs: 1000 },
    ],
    brand: { primaryColour: "#123a7a", accentColour: "#c2185b", textColour: "#ffff00", fontFamily, tagline: "Brushed with love since 2019", logoPng },
  };
}

function raster(svg: string) {
  const img = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false, fontFiles: brandFontFiles(), defaultFontFamily: "DejaVu Sans" } }).render();
  return { w: img.width, h: img.height, px: img.pixels };
}

const rectOf = (svg: string, cls: string) => {
  const m = new RegExp(`class="${cls}" x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)" height="([\\d.]+)"`).exec(svg);
  if (!m) throw new Error(`no ${cls}`);
  const [x, y, width, height] = m.slice(1).map(Number);
  return { x, y, right: x + width, bottom: y + height };
};

describe("captions never spill out of their panel", () => {
  it.each(BRAND_FONTS.map((f) => [f.family]))("keeps every pixel of the longest caption inside its panel in %s", (family) => {
    expect(LONGEST.length).toBeLessThanOrEqual(AD_LIMITS.textMax);
    const s = spec({ width: 540, height: 960, fps: 15 }, family);
    const svg = frameSvg(s, 0, 1000, 1000, 2000);
    const panel = rectOf(svg, "caption-panel");
    const { w, h, px } = raster(svg);
    let text = 0;
    let outside = 0;
    let minX = w;
    let maxX = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        // The caption's yellow (the panel is blue, the background dark grey).
        if (px[i] > 150 && px[i + 1] > 150 && px[i + 2] < 90) {
          text++;
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          if (x < panel.x || x >= panel.right || y < panel.y || y >= panel.bottom) outside++;
        }
      }
    expect(text).toBeGreaterThan(2000);
    expect(outside).toBe(0);
    // The text uses the panel's width (it was shrunk and wrapped, not cut short), with a margin each side.
    expect(minX).toBeGreaterThan(panel.x + 4);
    expect(maxX).toBeLessThan(panel.right - 4);
    expect(maxX - minX).toBeGreaterThan((panel.right - panel.x) * 0.6);
    // And the panel itself stays inside the frame, above the product's name.
    expect(panel.y).toBeGreaterThanOrEqual(0);
    expect(panel.bottom).toBeLessThan(h - 60);
  });

  it("shrinks a long caption rather than letting it run off, and keeps a short one big", () => {
    const long = textLayout(LONGEST, 540);
    const short = textLayout("Stop scrolling", 540);
    expect(short.fontSize).toBe(46);
    expect(long.fontSize).toBeLessThan(34);
    expect(long.overflowsHeight).toBe(false);
    for (const width of long.widths) expect(width).toBeLessThanOrEqual(540 - 48 - 52);
  });
});

describe("the brand kit on the end card", () => {
  it("draws the kit's accent button, its logo and its tagline on the last scene, and its primary colour on panels", () => {
    const s = spec({ width: 540, height: 960, fps: 15 });
    const endCard = frameSvg(s, 1, 800, 1800, 2000);
    expect(endCard).toContain('class="brand-logo"');
    expect(endCard).toContain("Brushed with love since 2019");
    const { w, h, px } = raster(endCard);
    const count = (r: number, g: number, b: number, box = { x0: 0, y0: 0, x1: w, y1: h }) => {
      let n = 0;
      for (let y = box.y0; y < box.y1; y++)
        for (let x = box.x0; x < box.x1; x++) {
          const i = (y * w + x) * 4;
          if (Math.abs(px[i] - r) < 8 && Math.abs(px[i + 1] - g) < 8 && Math.abs(px[i + 2] - b) < 8) n++;
        }
      return n;
    };
    // The button in the accent colour #c2185b, a large share of the panel.
    const panel = rectOf(endCard, "caption-panel");
    expect(count(0xc2, 0x18, 0x5b, { x0: Math.ceil(panel.x), y0: Math.ceil(panel.y), x1: Math.floor(panel.right), y1: Math.floor(panel.bottom) })).toBeGreaterThan(20_000);
    // The logo's orange in the logo's box at the top.
    const logo = rectOf(endCard, "brand-logo");
    expect(count(0xff, 0x7a, 0x00, { x0: Math.ceil(logo.x), y0: Math.ceil(logo.y), x1: Math.floor(logo.right), y1: Math.floor(logo.bottom) })).toBeGreaterThan(5_000);
    // The progress bar in the primary colour #123a7a.
    expect(count(0x12, 0x3a, 0x7a, { x0: 0, y0: 0, x1: w, y1: 10 })).toBeGreaterThan(1000);
    // Other scenes: the panel is the primary colour, and no logo.
    const hook = frameSvg(s, 0, 800, 800, 2000);
    expect(hook).not.toContain("brand-logo");
    expect(hook).toMatch(/class="caption-panel"[^>]*fill="#123a7a"/);
  });

  it("paints the end card's background in the kit's primary colour (the other scenes keep the dark one)", () => {
    const s = spec({ width: 540, height: 960, fps: 15 });
    const share = (svg: string) => {
      const { w, px } = raster(svg);
      // A strip at the left edge, under the bar and beside the logo: background only.
      let n = 0;
      let all = 0;
      for (let y = 30; y < 200; y++)
        for (let x = 0; x < 20; x++) {
          const i = (y * w + x) * 4;
          all++;
          if (Math.abs(px[i] - 0x12) < 10 && Math.abs(px[i + 1] - 0x3a) < 10 && Math.abs(px[i + 2] - 0x7a) < 10) n++;
        }
      return n / all;
    };
    expect(share(frameSvg(s, 1, 800, 1800, 2000))).toBeGreaterThan(0.9);
    expect(share(frameSvg(s, 0, 800, 800, 2000))).toBe(0);
    // The tagline is in the kit's text colour, readable on its primary colour.
    expect(frameSvg(s, 1, 800, 1800, 2000)).toMatch(/class="brand-tagline"[^>]*fill="#ffff00"/);
  });
});

describe("the 4:5 and 1:1 shapes", () => {
  for (const [label, height] of [["4:5", 676], ["1:1", 540]] as const) {
    it(`${label}: the picture, the caption panel, the tagline and the product's name do not overlap, inside the frame`, () => {
      const s = { ...spec({ width: 540, height, fps: 15 }), product: { title: "Wombat Brush", imageSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"><rect width="400" height="400" fill="#00ff00"/></svg>' } };
      for (const [index, kind] of [[0, "hook"], [1, "cta"]] as const) {
        const scenes = index === 0 ? [{ kind: "product" as const, text: "Meet the Wombat Brush: gentle on fur, tough on tangles", durationMs: 1000 }, s.scenes[1]] : s.scenes;
        const svg = frameSvg({ ...s, scenes }, index, 800, 800, 2000);
        const image = /class="product-image"[^>]*><svg x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/.exec(svg)!;
        const panel = rectOf(svg, "caption-panel");
        const nameY = Math.min(...[...svg.matchAll(/class="product-name" x="[\d.]+" y="([\d.]+)"[^>]*font-size="([\d.]+)"/g)].map((m) => Number(m[1]) - Number(m[2])));
        expect(Number(image[1]) + Number(image[2]), `${kind}: picture above the panel`).toBeLessThanOrEqual(panel.y + 0.5);
        expect(panel.bottom, `${kind}: panel above the name`).toBeLessThan(nameY);
        const tagline = /class="brand-tagline" x="[\d.]+" y="([\d.]+)"/.exec(svg);
        if (tagline) expect(Number(tagline[1]), "tagline above the name").toBeLessThan(nameY);
        if (kind === "cta") {
          const logo = rectOf(svg, "brand-logo");
          expect(logo.bottom, "logo above the picture").toBeLessThanOrEqual(Number(image[1]));
        }
      }
    });
  }
});

describe("the product's name at the foot of the frame", () => {
  it("is shown whole in one or two lines, or by its short name, never cut mid-word (today: the first 40 characters)", () => {
    const title = "Bladeless Neck Fan, Portable USB Rechargeable Hands-Free Wearable Cooling Fan for Travel and Sports Outdoor Camping 2026";
    const svg = frameSvg({ ...spec({ width: 540, height: 960, fps: 15 }), product: { title, imageSvg: null } }, 0, 800, 800, 2000);
    const lines = [...svg.matchAll(/class="product-name"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(lines.join(" ")).toBe("Bladeless Neck Fan");
    const medium = "Bladeless Neck Fan, Portable USB Rechargeable Hands-Free";
    const two = frameSvg({ ...spec({ width: 540, height: 960, fps: 15 }), product: { title: medium, imageSvg: null } }, 0, 800, 800, 2000);
    expect([...two.matchAll(/class="product-name"[^>]*>([^<]*)</g)].map((m) => m[1]).join(" ")).toBe(medium);
    expect(svg + two).not.toContain("…");
  });
});

describe("the paid render", () => {
  it("is full HD, 1080x1920 at 30 fps, as long as the ad, read back from the MP4", async () => {
    expect(DEFAULT_VIDEO).toEqual({ width: 1080, height: 1920, fps: 30 });
    const result = await createBuiltInRenderer().render(spec(DEFAULT_VIDEO));
    expect(result).toMatchObject({ width: 1080, height: 1920, frames: 60, durationMs: 2000 });
    const mp4 = readMp4(result.bytes);
    expect([mp4.width, mp4.height]).toEqual([1080, 1920]);
    expect(mp4.frames).toBe(60);
    expect(mp4.trackDurationMs).toBe(2000);
    expect(mp4.movieDurationMs).toBe(2000);
  }, 120_000);
});
