// AI ads: how long the built-in renderer takes for a 15 s ad with a brand kit, at the paid full HD size
// (1080x1920, 30 fps: 450 frames) and at 540x960, 15 fps (225 frames): SVG -> resvg -> YUV -> H.264 in
// WebAssembly. Prints ms per ad, frames per second and the ratio to the ad's own length; asserts nothing.
import { writeBuiltInAdScript } from "~/integrations/ai-text.server";
import os from "node:os";
import { createBuiltInRenderer, DEFAULT_VIDEO, PREVIEW_VIDEO } from "~/integrations/video-render.server";
import { brandColour, totalDurationMs } from "~/domain/ai-ads";
import { renderProductSvg } from "~/services/product-images.server";

const script = writeBuiltInAdScript({
  title: "Self-Cleaning Slicker Brush for Dogs and Cats",
  description: "Lifts loose fur in a few strokes. One click retracts the bristles.",
  niches: ["pet-care"],
  tags: ["Free shipping"],
  reasons: [],
  orders: 12840,
  storesSelling: 40,
  priceCents: 2499,
});
// Stretch the script to exactly 15 s.
const scale = 15_000 / totalDurationMs(script.scenes);
const scenes = script.scenes.map((s) => ({ ...s, durationMs: Math.round((s.durationMs * scale) / 100) * 100 }));
scenes[scenes.length - 1].durationMs += 15_000 - totalDurationMs(scenes);

const renderer = createBuiltInRenderer();
const runs = Number(process.env.BENCH_RUNS ?? 3);
const adMs = totalDurationMs(scenes);
// A brand kit applied, as a seller's paid render has it (colours, serif captions, tagline).
const brand = { primaryColour: "#123a7a", accentColour: "#c2185b", textColour: "#ffffff", fontFamily: "DejaVu Serif", tagline: "Brushed with love", logoPng: null };
for (const [label, size] of [
  ["full HD (paid render)", DEFAULT_VIDEO],
  ["540x960 (small)", PREVIEW_VIDEO],
] as const) {
  const spec = {
    ...size,
    brandColour: brandColour("pet-care"),
    product: { title: script.title, imageSvg: renderProductSvg({ objectID: "bench-1", n: 1, title: script.title, niche: "pet-care" }) },
    scenes,
    brand,
  };
  const times: number[] = [];
  let frames = 0;
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await renderer.render(spec);
    times.push(performance.now() - start);
    frames = result.frames;
    bytes = result.bytes.length;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${label}: 15 s ad at ${spec.width}x${spec.height}, ${spec.fps} fps: ${frames} frames, ${Math.round(bytes / 1024)} KB`);
  console.log(
    `  render: median ${Math.round(median)} ms per ad (min ${Math.round(times[0])}, max ${Math.round(times.at(-1)!)}), ${(frames / (median / 1000)).toFixed(1)} frames/s over ${runs} runs; ` +
      `${(median / adMs).toFixed(2)}x the ad's length (target for full HD: 1.00x or less on two cores)`,
  );
}
console.log(`load average while measuring (1 min): ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`);
console.log(`RSS at the end ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
