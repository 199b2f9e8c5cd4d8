// Where the parts of an ad's frame go (app/integrations/video-frames.server.ts, issue 35 item 18, decision 085):
// the caption panel, the kit's tagline, the product's name, the watermark and the logo are laid out as boxes,
// and no two of them intersect, at rest or while the text slides in, for any caption, tagline, name and frame
// shape: the end card's tagline no longer runs into the product's name, and nothing runs off the frame's sides.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AD_FORMATS, sizeInFormat } from "~/domain/ai-ads/ai-ads";
import { frameBoxes, type FrameBox, type RenderSpec } from "~/integrations/video-render.server";

const intersects = (a: FrameBox, b: FrameBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

function overlaps(boxes: FrameBox[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      // A watermark sits over the picture on purpose; everything else keeps apart.
      if ([a.part, b.part].includes("watermark") && [a.part, b.part].includes("image")) continue;
      if (intersects(a, b)) out.push(`${a.part} and ${b.part}`);
    }
  return out;
}

const LOGO = new Uint8Array([137, 80, 78, 71]);
const kit = { primaryColour: "#0b6e4f", accentColour: "#b8325e", textColour: "#ffffff", fontFamily: "DejaVu Sans", tagline: "", logoPng: LOGO };
const IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

function spec(format: (typeof AD_FORMATS)[number], cta: string, tagline: string, title: string, watermark: string | null): RenderSpec {
  const { width, height } = sizeInFormat({ width: 540, height: 960, fps: 15 }, format);
  return {
    width,
    height,
    fps: 15,
    brandColour: "#b8325e",
    product: { title, imageSvg: IMAGE },
    scenes: [
      { kind: "hook", text: "Stop scrolling", durationMs: 3000 },
      { kind: "cta", text: cta, durationMs: 3000 },
    ],
    brand: { ...kit, tagline },
    watermark,
  };
}

const word = fc.constantFrom("Get", "yours", "today", "for", "$24.99", "with", "an", "Adjustable", "Harness", "Small", "Medium", "Dogs", "Reflective", "Breathable", "Comfort");
const text = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(" "));

describe("the frame's boxes", () => {
  it("the reported end card: a long call to action, a tagline and a two-line name do not touch", () => {
    const s = spec("9:16", "Get yours today for $24.99 and see why thousands of dog owners switched this year", "Adventures start with a comfortable harness", "Adjustable No Pull Dog Harness for Small Medium Large Dogs, Reflective Breathable Vest", "Preview");
    const boxes = frameBoxes(s, 1);
    expect(boxes.map((b) => b.part)).toEqual(expect.arrayContaining(["panel", "tagline", "watermark", "logo"]));
    expect(overlaps(boxes)).toEqual([]);
  });

  it("never intersect, for any caption, tagline, name and shape, at rest and while sliding in", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...AD_FORMATS),
        text(2, 16),
        text(0, 12),
        text(1, 14),
        fc.constantFrom(null, "Preview", "Preview - not for posting"),
        fc.constantFrom(0, 0.3, 0.7, 1),
        (format, cta, tagline, title, watermark, enter) => {
          const s = spec(format, cta, tagline.slice(0, 80), title, watermark);
          for (const index of [0, 1]) {
            const boxes = frameBoxes(s, index, enter);
            expect(overlaps(boxes), JSON.stringify({ format, cta, tagline, title, index })).toEqual([]);
            for (const b of boxes) {
              expect(b.x, `${b.part} off the left`).toBeGreaterThanOrEqual(0);
              expect(b.x + b.w, `${b.part} off the right`).toBeLessThanOrEqual(s.width + 0.5);
              expect(b.y + b.h, `${b.part} off the foot`).toBeLessThanOrEqual(s.height + 0.5);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
