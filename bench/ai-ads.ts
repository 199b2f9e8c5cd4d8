// AI ads: how long the built-in renderer takes for a 15 s ad with a brand kit, at the paid full HD size
// (1080x1920, 30 fps: 450 frames) and at 540x960, 15 fps (225 frames): SVG -> resvg -> YUV -> H.264, once
// per encoder this machine has (native ffmpeg with libx264, and the WebAssembly x264 fallback; decision 035).
// Prints ms per ad, frames per second and the ratio to the ad's own length, and marks the encoder the server
// uses with this environment (VIDEO_ENCODER, FFMPEG_PATH); asserts nothing.
import { writeBuiltInAdScript } from "~/integrations/ai-text.server";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { getEnv } from "~/env.server";
import { createBuiltInRenderer, DEFAULT_VIDEO, PREVIEW_VIDEO, type VideoRenderer } from "~/integrations/video-render.server";
import { brandColour, PREVIEW_WATERMARK, totalDurationMs } from "~/domain/ai-ads/ai-ads";
import { renderProductSvg } from "~/services/products/images.server";

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

const env = getEnv();
const serverRenderer = createBuiltInRenderer({ encoder: env.VIDEO_ENCODER, ffmpegPath: env.FFMPEG_PATH });
// ffmpeg is measured only when one was found (auto falls back to WebAssembly without one).
const withFfmpeg = createBuiltInRenderer({ encoder: "auto", ffmpegPath: env.FFMPEG_PATH });
const renderers: VideoRenderer[] = [
  ...(withFfmpeg.name.includes("ffmpeg") ? [withFfmpeg] : []),
  createBuiltInRenderer({ encoder: "wasm" }),
];
const runs = Number(process.env.BENCH_RUNS ?? 3);
const adMs = totalDurationMs(scenes);
// A brand kit applied, as a seller's paid render has it (colours, serif captions, tagline).
const brand = { primaryColour: "#123a7a", accentColour: "#c2185b", textColour: "#ffffff", fontFamily: "DejaVu Serif", tagline: "Brushed with love", logoPng: null };
const loads: number[] = [];
console.log(`the server encodes with: ${serverRenderer.name} (VIDEO_ENCODER=${env.VIDEO_ENCODER})`);
for (const renderer of renderers) {
  console.log(`${renderer.name}${renderer.name === serverRenderer.name ? "  <- the server's default here" : ""}`);
  for (const [label, size, watermark] of [
    ["full HD (paid render)", DEFAULT_VIDEO, null],
    ["free preview (marked \"Preview\", decision 036)", PREVIEW_VIDEO, PREVIEW_WATERMARK],
  ] as const) {
    const spec = {
      ...size,
      watermark,
      brandColour: brandColour("pet-care"),
      product: { title: script.title, imageSvg: renderProductSvg({ objectID: "bench-1", n: 1, title: script.title, niche: "pet-care" }) },
      scenes,
      brand,
    };
    const times: number[] = [];
    let frames = 0;
    let bytes = 0;
    // How long a request arriving during a render would wait for the event loop (drawing and, in WebAssembly,
    // encoding are synchronous work in this process; ffmpeg encodes in its own).
    const delay = monitorEventLoopDelay({ resolution: 5 });
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      delay.enable();
      const result = await renderer.render(spec);
      delay.disable();
      times.push(performance.now() - start);
      loads.push(os.loadavg()[0]);
      frames = result.frames;
      bytes = result.bytes.length;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(`  ${label}: 15 s ad at ${spec.width}x${spec.height}, ${spec.fps} fps: ${frames} frames, ${Math.round(bytes / 1024)} KB`);
    console.log(
      `    render: median ${Math.round(median)} ms per ad (min ${Math.round(times[0])}, max ${Math.round(times.at(-1)!)}), ${(frames / (median / 1000)).toFixed(1)} frames/s over ${runs} runs; ` +
        `${(median / adMs).toFixed(2)}x the ad's length${size === DEFAULT_VIDEO ? " (target: 1.00x or less on two cores)" : ""}`,
    );
    console.log(
      `    event loop blocked while rendering: p50 ${(delay.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, max ${(delay.max / 1e6).toFixed(0)} ms`,
    );
  }
}
console.log(
  `load average while measuring (1 min, after each run): ${loads.map((l) => l.toFixed(2)).join(", ")} on ${os.cpus().length} cores`,
);
console.log(`RSS at the end ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
