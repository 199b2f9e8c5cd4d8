// The renderer's two encoders (docs/decisions/035), for real: the paid full HD render through native ffmpeg
// (libx264, the binary of @ffmpeg-installer/ffmpeg) read back from the MP4 and decoded to check the watermark
// on every frame; the fallback to WebAssembly when the binary cannot start; ffmpeg's own error in the render's
// failure; and a stopped render that leaves neither an ffmpeg process nor a temporary file behind.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltInRenderer, DEFAULT_VIDEO, frameSvg, VideoRenderError, type RenderSpec } from "~/integrations/video-render.server";
import { renderProductSvg } from "~/services/products/images.server";
import { readMp4 } from "../../helpers/mp4";

const require = createRequire(import.meta.url);
const ffmpeg = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;

const small: RenderSpec = {
  width: 180,
  height: 320,
  fps: 5,
  brandColour: "#0b6e4f",
  product: { title: "Wombat Brush", imageSvg: renderProductSvg({ objectID: "vr-2", n: 1, title: "Wombat Brush", niche: "pets" }) },
  scenes: [
    { kind: "hook", text: "Stop scrolling if you love pets", durationMs: 1000 },
    { kind: "cta", text: "Get yours today for $24.99", durationMs: 1400 },
  ],
};

// Scripts the tests run as "ffmpeg" live here; each test's own TMPDIR (where the renderer writes its MP4) beside it.
const scripts = mkdtempSync(path.join(os.tmpdir(), "vr-encoders-"));
afterAll(() => rmSync(scripts, { recursive: true, force: true }));
let tmp = "";
const realTmp = process.env.TMPDIR;
beforeEach(() => {
  tmp = mkdtempSync(path.join(scripts, "tmp-"));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (realTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = realTmp;
});

function script(name: string, body: string, mode = 0o755): string {
  const file = path.join(scripts, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, mode);
  return file;
}

function capturingLog() {
  const lines: { level: "info" | "warn"; details: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    info: (details: object, message: string) => lines.push({ level: "info", details: details as Record<string, unknown>, message }),
    warn: (details: object, message: string) => lines.push({ level: "warn", details: details as Record<string, unknown>, message }),
  };
}

/** Luma of a rectangle of every frame of an MP4, decoded by ffmpeg. */
function decodeCrop(mp4: Uint8Array, crop: { x: number; y: number; w: number; h: number }): Uint8Array[] {
  const file = path.join(scripts, `decode-${Date.now()}.mp4`);
  writeFileSync(file, mp4);
  const out = spawnSync(ffmpeg, ["-v", "error", "-i", file, "-vf", `crop=${crop.w}:${crop.h}:${crop.x}:${crop.y}`, "-pix_fmt", "gray", "-f", "rawvideo", "pipe:1"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(file, { force: true });
  expect(out.status, String(out.stderr)).toBe(0);
  const size = crop.w * crop.h;
  return Array.from({ length: out.stdout.length / size }, (_, i) => out.stdout.subarray(i * size, (i + 1) * size));
}

const isGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
};

describe("native ffmpeg (libx264)", () => {
  it("renders the paid full HD ad: 1080x1920, one frame per 1/30 s, the ad's duration, its index first, the watermark on every frame", async () => {
    const log = capturingLog();
    const renderer = createBuiltInRenderer({ encoder: "ffmpeg", ffmpegPath: ffmpeg, log });
    expect(renderer.name).toBe("built-in renderer (ffmpeg libx264)");
    expect(log.lines).toEqual([expect.objectContaining({ level: "info", details: expect.objectContaining({ encoder: "ffmpeg", ffmpegPath: ffmpeg }) })]);
    const spec = { ...small, ...DEFAULT_VIDEO, watermark: "Preview" };
    const result = await renderer.render(spec);
    // 1.0 s and 1.4 s at 30 fps: 30 + 42 frames.
    expect(result).toMatchObject({ width: 1080, height: 1920, frames: 72, durationMs: 2400 });
    const mp4 = readMp4(result.bytes);
    expect([mp4.width, mp4.height]).toEqual([1080, 1920]);
    expect(mp4.frames).toBe(72);
    expect(mp4.trackDurationMs).toBe(2400);
    expect(mp4.movieDurationMs).toBe(2400);
    // +faststart: the index (moov) before the media, so a browser starts playing before the download ends.
    expect(mp4.topLevel.indexOf("moov")).toBeLessThan(mp4.topLevel.indexOf("mdat"));
    expect(mp4.topLevel.indexOf("moov")).toBeGreaterThan(-1);
    // The label's letters are white on its dark box in every decoded frame (the stills reused too).
    const box = /class="watermark"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(frameSvg(spec, 0, 0, 0, 2400))!;
    const [x, y, w, h] = box.slice(1).map((v) => Math.round(Number(v)));
    const frames = decodeCrop(result.bytes, { x, y, w: w - (w % 2), h: h - (h % 2) });
    expect(frames).toHaveLength(72);
    for (const luma of frames) {
      expect(luma.filter((v) => v > 200).length).toBeGreaterThan(100);
      expect(luma.filter((v) => v < 40).length).toBeGreaterThan(luma.length / 4);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("falls back to the WebAssembly encoder, with a warning, when the binary is missing or cannot be run", async () => {
    for (const [ffmpegPath, code] of [
      [path.join(scripts, "no-such-ffmpeg"), "ENOENT"],
      [script("not-executable", "exit 0", 0o644), "EACCES"],
    ]) {
      const log = capturingLog();
      const renderer = createBuiltInRenderer({ encoder: "ffmpeg", ffmpegPath, log });
      const result = await renderer.render(small);
      const mp4 = readMp4(result.bytes);
      expect([mp4.width, mp4.height, mp4.frames, mp4.movieDurationMs]).toEqual([180, 320, 12, 2400]);
      expect(log.lines.filter((l) => l.level === "warn")).toEqual([
        expect.objectContaining({ details: expect.objectContaining({ ffmpegPath, code }), message: expect.stringMatching(/WebAssembly/) }),
      ]);
      expect(readdirSync(tmp)).toEqual([]);
    }
  });

  it("auto: an FFMPEG_PATH that is not there is reported, and the packaged ffmpeg is used; wasm never looks for ffmpeg", () => {
    const log = capturingLog();
    const missing = path.join(scripts, "missing-for-auto");
    expect(createBuiltInRenderer({ encoder: "auto", ffmpegPath: missing, log }).name).toBe("built-in renderer (ffmpeg libx264)");
    expect(log.lines).toEqual([
      expect.objectContaining({ level: "warn", details: { ffmpegPath: missing } }),
      expect.objectContaining({ level: "info", details: expect.objectContaining({ encoder: "ffmpeg", ffmpegPath: ffmpeg }) }),
    ]);
    expect(createBuiltInRenderer({ encoder: "wasm", ffmpegPath: ffmpeg }).name).toBe("built-in renderer (WebAssembly x264)");
  });

  it("fails the render with ffmpeg's own error line when it exits with an error", async () => {
    const failing = script("failing-ffmpeg", `echo "x264 [error]: broken encoder test 42" >&2\nexit 1`);
    const rendering = createBuiltInRenderer({ encoder: "ffmpeg", ffmpegPath: failing, log: capturingLog() }).render({ ...small, ...DEFAULT_VIDEO });
    await expect(rendering).rejects.toBeInstanceOf(VideoRenderError);
    await expect(rendering).rejects.toThrow(/The video encoder \(ffmpeg\) stopped with exit code 1: x264 \[error\]: broken encoder test 42/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("kills ffmpeg and removes its temporary file when the render is stopped", async () => {
    const pidFile = path.join(scripts, "ffmpeg.pid");
    // The same process as ffmpeg (exec), so its pid is the child's.
    const wrapper = script("pid-ffmpeg", `echo $$ > '${pidFile}'\nexec '${ffmpeg}' "$@"`);
    const controller = new AbortController();
    let seenTemp: string[] = [];
    const rendering = createBuiltInRenderer({ encoder: "ffmpeg", ffmpegPath: wrapper, log: capturingLog() }).render(
      { ...small, ...DEFAULT_VIDEO },
      {
        signal: controller.signal,
        onProgress: (fraction) => {
          if (fraction < 0.2 || controller.signal.aborted) return;
          seenTemp = readdirSync(tmp);
          controller.abort();
        },
      },
    );
    await expect(rendering).rejects.toThrow(new VideoRenderError("The render was stopped."));
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(isGone(pid)).toBe(true);
    // It was there while ffmpeg ran, and is gone now.
    expect(seenTemp).toEqual([expect.stringMatching(/^ad-render-/)]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
