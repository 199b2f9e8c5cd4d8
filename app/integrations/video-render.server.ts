// The built-in video renderer (docs/decisions/019, 035): each frame of an ad is an SVG (the product's
// picture, the scene's text with a simple enter animation, a brand-colour bar that fills as the ad
// plays), rasterised by resvg (@resvg/resvg-js, prebuilt N-API binary) with the DejaVu fonts of the
// dejavu-fonts-ttf package (system fonts are never loaded, so a bare machine renders the same
// pixels), converted to I420 and handed to a frame sink that encodes H.264 into an MP4: native ffmpeg
// with libx264 as a child process (the static binary of @ffmpeg-installer/ffmpeg, a few times faster
// than real time at full HD) or, as the fallback, h264-mp4-encoder (x264 compiled to WebAssembly, in
// process). No network. A hosted provider would implement the same VideoRenderer interface.
import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import { once } from "node:events";
import { accessSync, constants as fsConstants } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import type { ResvgRenderOptions } from "@resvg/resvg-js";
import { DEFAULT_VIDEO, PREVIEW_VIDEO } from "~/domain/ai-ads/ai-ads";
import type { RenderAudio, VideoRenderer } from "~/domain/ai-ads/render-spec";
import { brandFontFiles, frameSvg, frameTimeline, progressWidth, sceneCaptionFits } from "~/integrations/video-frames.server";
import { childLogger } from "~/logger.server";

// All three are CommonJS (a native addon, a WebAssembly bundle, a path finder): loaded with require so
// neither Vite nor Node's ESM named-export detection has to understand them; they stay outside the server build.
const require = createRequire(import.meta.url);
const { renderAsync } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
// Loaded on first use only: a server encoding with ffmpeg never loads the WebAssembly bundle (nor the
// process-wide error handlers its Emscripten runtime installs).
let wasmEncoder: typeof import("h264-mp4-encoder") | undefined;
const loadWasmEncoder = () => (wasmEncoder ??= require("h264-mp4-encoder") as typeof import("h264-mp4-encoder"));

// The port's input and output live in ~/domain/ai-ads/render-spec (the frames module and this one both use them).
export type { RenderAudio, RenderBrand, RenderOptions, RenderResult, RenderSpec, VideoRenderer } from "~/domain/ai-ads/render-spec";

export class VideoRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VideoRenderError";
  }
}

export { DEFAULT_VIDEO, PREVIEW_VIDEO };
// The frames themselves are drawn in video-frames.server.ts; callers may keep importing them from here.
export {
  boldFontFile,
  brandFontFiles,
  dejavuFontFiles,
  footerLines,
  frameBoxes,
  frameLayout,
  frameSvg,
  frameTimeline,
  nestSvg,
  progressWidth,
  sceneCaptionFits,
  textLayout,
} from "~/integrations/video-frames.server";
export type { FrameBox } from "~/integrations/video-frames.server";

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

// ---- YUV (BT.601 limited range, as the encoder's own RGBA path) ---------------------------------------------

const clamp8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** A colour "#rrggbb" as Y, U, V. */
export function yuvOf(hex: string): [number, number, number] {
  const h = /^#[0-9a-f]{6}$/i.test(hex) ? hex : "#000000";
  const r = parseInt(h.slice(1, 3), 16);
  const g = parseInt(h.slice(3, 5), 16);
  const b = parseInt(h.slice(5, 7), 16);
  return [
    clamp8(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16),
    clamp8(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128),
    clamp8(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128),
  ];
}

/** RGBA pixels (opaque frames) into an I420 buffer: a full-size Y plane, then U and V at half size each way. */
export function rgbaToI420(px: Uint8Array, w: number, h: number, out: Uint8Array): void {
  const uOff = w * h;
  const vOff = uOff + (w * h) / 4;
  for (let y = 0; y < h; y++) {
    let i = y * w * 4;
    let o = y * w;
    for (let x = 0; x < w; x++, i += 4) out[o++] = ((66 * px[i] + 129 * px[i + 1] + 25 * px[i + 2] + 128) >> 8) + 16;
  }
  const cw = w / 2;
  for (let y = 0; y < h; y += 2) {
    const row = (y / 2) * cw;
    for (let x = 0; x < w; x += 2) {
      // The average of the 2x2 block.
      const a = (y * w + x) * 4;
      const b = a + w * 4;
      const r = (px[a] + px[a + 4] + px[b] + px[b + 4]) >> 2;
      const g = (px[a + 1] + px[a + 5] + px[b + 1] + px[b + 5]) >> 2;
      const bl = (px[a + 2] + px[a + 6] + px[b + 2] + px[b + 6]) >> 2;
      const j = row + x / 2;
      out[uOff + j] = clamp8(((-38 * r - 74 * g + 112 * bl + 128) >> 8) + 128);
      out[vOff + j] = clamp8(((112 * r - 94 * g - 18 * bl + 128) >> 8) + 128);
    }
  }
}

/** Paints the filled part of the progress bar (top `barH` rows, `filled` px wide) into an I420 frame. */
export function paintBarI420(out: Uint8Array, w: number, h: number, filled: number, barH: number, [Y, U, V]: [number, number, number]): void {
  const fw = Math.min(w, Math.round(filled));
  if (fw <= 0 || barH <= 0) return;
  for (let y = 0; y < barH; y++) out.fill(Y, y * w, y * w + fw);
  const uOff = w * h;
  const vOff = uOff + (w * h) / 4;
  const cw = w / 2;
  const cf = Math.floor(fw / 2);
  for (let y = 0; y < Math.floor(barH / 2); y++) {
    out.fill(U, uOff + y * cw, uOff + y * cw + cf);
    out.fill(V, vOff + y * cw, vOff + y * cw + cf);
  }
}

// ---- Frame sinks: where the I420 frames go to become an MP4 -------------------------------------------------

interface FrameSink {
  /** Encodes one I420 frame; resolves once `frame` may be painted over (the sink keeps no reference to it). */
  addFrame(frame: Uint8Array): Promise<void>;
  /** Ends the stream and returns the MP4's bytes. */
  finish(): Promise<Uint8Array>;
  /** Stops the encoder and frees what it holds (idempotent; safe after finish). */
  abort(): Promise<void>;
}

interface FrameFormat {
  width: number;
  height: number;
  fps: number;
}

/** Thrown when the ffmpeg binary cannot be started at all (missing, not executable): the render falls back to WebAssembly. */
class EncoderStartError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * libx264 settings of the native encoder. veryfast at CRF 22 matched the WebAssembly encoder's QP 28 on a 15 s
 * full HD ad (SSIM 0.9966 against 0.9960, PSNR 47.4 dB against 47.2) in a third of the bytes, and encodes 450
 * full HD frames in 2-4 s on two cores (decision 035).
 */
const FFMPEG_X264 = { preset: "veryfast", crf: 22 } as const;

/** ffmpeg's arguments: raw I420 frames on stdin, an MP4 with H.264 (and its index first, to play while it downloads) in `out`. */
function ffmpegArguments(format: FrameFormat, out: string): string[] {
  return [
    ...["-hide_banner", "-nostdin", "-loglevel", "error"],
    ...["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", `${format.width}x${format.height}`, "-r", String(format.fps), "-i", "pipe:0"],
    ...["-an", "-c:v", "libx264", "-preset", FFMPEG_X264.preset, "-crf", String(FFMPEG_X264.crf), "-pix_fmt", "yuv420p"],
    // The frames are BT.601 limited range (rgbaToI420): say so, or players assume BT.709 for HD sizes and shift the colours.
    ...["-colorspace", "smpte170m", "-color_range", "tv"],
    ...["-movflags", "+faststart", "-f", "mp4", "-y", out],
  ];
}

/** The last lines ffmpeg wrote to stderr, as one short sentence part. */
function stderrTail(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const tail = lines.slice(-3).join(" / ");
  return tail.length > 400 ? `…${tail.slice(-400)}` : tail;
}

/**
 * ffmpeg (libx264) as a child process, started with an argument array (never a shell), at a lower CPU priority
 * so page requests stay quick while it encodes. It only ever reads the raw frames written to its stdin (never a
 * user's file) and writes the MP4 to a temporary folder, read back and always removed.
 */
async function openFfmpegSink(ffmpegPath: string, format: FrameFormat, signal?: AbortSignal): Promise<FrameSink> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ad-render-"));
  const out = path.join(dir, "ad.mp4");
  const removeDir = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  let child: ChildProcessByStdio<Writable, null, Readable>;
  try {
    child = spawn(ffmpegPath, ffmpegArguments(format, out), { stdio: ["pipe", "ignore", "pipe"], windowsHide: true });
  } catch (error) {
    await removeDir();
    const code = (error as NodeJS.ErrnoException).code ?? "EINVAL";
    throw new EncoderStartError(code, `ffmpeg could not be started (${code}): ${(error as Error).message}`);
  }
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  // A write to a pipe ffmpeg has closed fails with EPIPE; the exit code and stderr explain it better.
  child.stdin.on("error", () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, exitSignal) => resolve({ code, signal: exitSignal }));
  });
  // Rejects when ffmpeg is gone, so a write it will never read does not wait forever.
  const gone = exited.then(() => Promise.reject(new Error("ffmpeg exited")));
  gone.catch(() => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
  } catch (error) {
    await removeDir();
    const code = (error as NodeJS.ErrnoException).code ?? "ESPAWN";
    throw new EncoderStartError(code, `ffmpeg could not be started (${code}): ${(error as Error).message}`);
  }
  // Any later error (a kill that failed) shows up as the exit code.
  child.on("error", () => undefined);
  try {
    // Niceness 10: the renderer's encoding gives way to the web server on the same cores.
    os.setPriority(child.pid!, 10);
  } catch {
    // Not allowed here (some containers): it still encodes, at normal priority.
  }
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  signal?.addEventListener("abort", kill, { once: true });
  let done = false;
  const cleanUp = async () => {
    signal?.removeEventListener("abort", kill);
    kill();
    await exited;
    await removeDir();
  };
  const failure = async () => {
    const { code, signal: exitSignal } = await exited;
    const tail = stderrTail(stderr);
    const how = code !== null ? `exit code ${code}` : `signal ${exitSignal}`;
    return new VideoRenderError(`The video encoder (ffmpeg) stopped with ${how}${tail ? `: ${tail}` : "."}`);
  };
  return {
    async addFrame(frame) {
      if (child.exitCode !== null || child.signalCode !== null || !child.stdin.writable) throw await failure();
      try {
        let full = false;
        // The write's callback: the bytes were handed to the pipe, so the caller may paint the next frame into
        // the same buffer. A write that fills the pipe (any full frame does) also waits for 'drain', ffmpeg's pace.
        const flushed = new Promise<void>((resolve, reject) => {
          full = !child.stdin.write(frame, (error) => (error ? reject(error) : resolve()));
        });
        await Promise.race([Promise.all([flushed, full ? once(child.stdin, "drain") : null]), gone]);
      } catch {
        kill();
        throw await failure();
      }
    },
    async finish() {
      try {
        child.stdin.end();
        const { code } = await exited;
        if (code !== 0) throw await failure();
        return new Uint8Array(await readFile(out));
      } finally {
        done = true;
        await cleanUp();
      }
    },
    async abort() {
      if (done) return;
      done = true;
      await cleanUp();
    },
  };
}

/** h264-mp4-encoder: x264 compiled to WebAssembly, in this process, single-threaded (the fallback). */
async function openWasmSink(format: FrameFormat, quantizationParameter: number): Promise<FrameSink> {
  let encoder: Awaited<ReturnType<typeof import("h264-mp4-encoder").createH264MP4Encoder>>;
  try {
    encoder = await loadWasmEncoder().createH264MP4Encoder();
  } catch (error) {
    throw new VideoRenderError(`The video encoder could not start: ${(error as Error).message}`);
  }
  let freed = false;
  const free = () => {
    if (freed) return;
    freed = true;
    try {
      encoder.delete();
    } catch {
      // An encoder stopped before finalize() cannot always be freed cleanly; it is dropped with its memory.
    }
  };
  try {
    encoder.width = format.width;
    encoder.height = format.height;
    encoder.frameRate = format.fps;
    encoder.quantizationParameter = quantizationParameter;
    encoder.speed = 10;
    encoder.initialize();
  } catch (error) {
    free();
    throw error;
  }
  return {
    async addFrame(frame) {
      encoder.addFrameYuv(frame);
    },
    async finish() {
      try {
        encoder.finalize();
        return encoder.FS.readFile(encoder.outputFilename);
      } finally {
        free();
      }
    },
    async abort() {
      free();
    },
  };
}

// ---- Choosing the encoder ------------------------------------------------------------------------------------

export type VideoEncoder = "auto" | "ffmpeg" | "wasm";

type EncoderChoice = { kind: "ffmpeg"; path: string; source: string } | { kind: "wasm"; source: string };

interface RenderLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const isExecutable = (file: string) => {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The static ffmpeg of @ffmpeg-installer/ffmpeg for this platform, when it is installed and executable. */
function installerFfmpeg(): string | null {
  try {
    const found = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
    return found && isExecutable(found) ? found : null;
  } catch {
    // It throws (a string) on a platform it has no binary for.
    return null;
  }
}

/** `ffmpeg` on the PATH, when it answers `-version` and was built with libx264. */
function pathFfmpeg(): boolean {
  const probe = spawnSync("ffmpeg", ["-version"], { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] });
  return probe.status === 0 && /libx264/.test(probe.stdout ?? "");
}

function chooseEncoder(encoder: VideoEncoder, ffmpegPath: string | undefined, log: RenderLog): EncoderChoice {
  if (encoder === "wasm") return { kind: "wasm", source: "VIDEO_ENCODER=wasm" };
  if (ffmpegPath) {
    // "ffmpeg" takes the path as given (a render that cannot start it falls back and says so); auto checks it.
    if (encoder === "ffmpeg" || isExecutable(ffmpegPath)) return { kind: "ffmpeg", path: ffmpegPath, source: "FFMPEG_PATH" };
    log.warn({ ffmpegPath }, "FFMPEG_PATH is not an executable file; looking for another ffmpeg");
  }
  const installed = installerFfmpeg();
  if (installed) return { kind: "ffmpeg", path: installed, source: "@ffmpeg-installer/ffmpeg" };
  if (encoder === "ffmpeg" || pathFfmpeg()) return { kind: "ffmpeg", path: "ffmpeg", source: "PATH" };
  return { kind: "wasm", source: "no ffmpeg with libx264 found" };
}

const choices = new Map<string, EncoderChoice>();

/** The encoder for these settings, looked for once per process (and logged once). */
function resolveEncoder(encoder: VideoEncoder, ffmpegPath: string | undefined, log: RenderLog): EncoderChoice {
  const key = `${encoder}\0${ffmpegPath ?? ""}`;
  let choice = choices.get(key);
  if (!choice) {
    choice = chooseEncoder(encoder, ffmpegPath, log);
    choices.set(key, choice);
    log.info(
      { encoder: choice.kind, ffmpegPath: choice.kind === "ffmpeg" ? choice.path : undefined, source: choice.source },
      choice.kind === "ffmpeg" ? "videos are encoded by ffmpeg (libx264)" : "videos are encoded by the WebAssembly x264 encoder",
    );
  }
  return choice;
}

/**
 * The filter graph that mixes the sound of an ad of `totalMs`: a silent base as long as the video (so the track is
 * exactly the video's length), each voice clip resampled to 44.1 kHz stereo, sped up by its tempo and delayed to
 * its place, and the music bed (input `musicInput`) looped, quieter under a voice, faded in and out. amix divides by
 * its input count, so the sum is scaled back up. Inputs: 0 is the video, 1..n the clips, then the music.
 */
export function audioFilterGraph(audio: RenderAudio, totalMs: number): string {
  const T = (totalMs / 1000).toFixed(3);
  const fmt = "aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo";
  const graph = [`anullsrc=r=44100:cl=stereo,atrim=duration=${T}[base]`];
  const labels = ["[base]"];
  audio.voice.forEach((clip, i) => {
    const tempo = clip.tempo > 1.0005 ? `,atempo=${clip.tempo.toFixed(3)}` : "";
    const at = Math.max(0, Math.round(clip.atMs));
    graph.push(`[${i + 1}:a]${fmt}${tempo},adelay=${at}|${at},apad[v${i}]`);
    labels.push(`[v${i}]`);
  });
  if (audio.musicPath) {
    const level = audio.voice.length > 0 ? 0.18 : 0.5;
    const fadeAt = Math.max(0, totalMs / 1000 - 1.2).toFixed(3);
    graph.push(`[${audio.voice.length + 1}:a]${fmt},volume=${level},afade=t=in:st=0:d=0.4,afade=t=out:st=${fadeAt}:d=1.2,apad[music]`);
    labels.push("[music]");
  }
  graph.push(`${labels.join("")}amix=inputs=${labels.length}:duration=first:dropout_transition=0,volume=${labels.length}[aout]`);
  return graph.join(";");
}

/**
 * Adds the ad's sound to an encoded (silent) MP4 with ffmpeg: the video stream copied as it is, the mix encoded as
 * AAC 128 kb/s, the index first (+faststart). Runs in a folder made for it (removed after), killed on abort.
 */
async function addAudio(ffmpegPath: string, video: Uint8Array, audio: RenderAudio, totalMs: number, signal?: AbortSignal): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ad-audio-"));
  try {
    await writeFile(path.join(dir, "video.mp4"), video);
    const args = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", "video.mp4"];
    for (let i = 0; i < audio.voice.length; i++) {
      await writeFile(path.join(dir, `voice-${i}.wav`), audio.voice[i].wav);
      args.push("-i", `voice-${i}.wav`);
    }
    if (audio.musicPath) args.push("-stream_loop", "-1", "-i", audio.musicPath);
    args.push(
      "-filter_complex", audioFilterGraph(audio, totalMs),
      "-map", "0:v", "-map", "[aout]",
      "-c:v", "copy", "-c:a", "aac", "-b:a", "128k",
      "-t", (totalMs / 1000).toFixed(3),
      "-movflags", "+faststart",
      "out.mp4",
    );
    const child = spawn(ffmpegPath, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"], windowsHide: true });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    signal?.addEventListener("abort", kill, { once: true });
    try {
      const [code] = (await Promise.race([once(child, "exit"), once(child, "error").then(([e]) => Promise.reject(e))])) as [number | null];
      if (signal?.aborted) throw new VideoRenderError("The render was stopped.");
      if (code !== 0) throw new VideoRenderError(`the sound could not be added (ffmpeg: ${stderrTail(stderr) || `exit ${code}`}).`);
    } catch (error) {
      if (error instanceof VideoRenderError) throw error;
      throw new VideoRenderError(`the sound could not be added: ffmpeg could not start (${(error as Error).message}).`);
    } finally {
      signal?.removeEventListener("abort", kill);
    }
    return new Uint8Array(await readFile(path.join(dir, "out.mp4")));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ENCODER_NAMES = { ffmpeg: "built-in renderer (ffmpeg libx264)", wasm: "built-in renderer (WebAssembly x264)" } as const;

export interface BuiltInRendererOptions {
  fontFiles?: string[];
  /** The WebAssembly encoder's constant quantiser (28 by default). */
  quantizationParameter?: number;
  /** auto (default): ffmpegPath, else @ffmpeg-installer's binary, else `ffmpeg` on the PATH, else WebAssembly. */
  encoder?: VideoEncoder;
  ffmpegPath?: string;
  log?: RenderLog;
}

export function createBuiltInRenderer(options: BuiltInRendererOptions = {}): VideoRenderer {
  // Every family a brand kit may choose (captions are drawn in the kit's font).
  const fontFiles = options.fontFiles ?? brandFontFiles();
  const resvgOptions: ResvgRenderOptions = {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false, fontFiles, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  };
  const log: RenderLog = options.log ?? childLogger("video-render");
  const choice = resolveEncoder(options.encoder ?? "auto", options.ffmpegPath, log);
  const quantizationParameter = options.quantizationParameter ?? 28;

  async function openSink(format: FrameFormat, signal?: AbortSignal): Promise<FrameSink> {
    if (choice.kind === "ffmpeg") {
      try {
        return await openFfmpegSink(choice.path, format, signal);
      } catch (error) {
        if (!(error instanceof EncoderStartError)) throw error;
        // Never fail a paid render because a binary is missing: this one is encoded in WebAssembly, slower.
        log.warn({ ffmpegPath: choice.path, code: error.code, err: error.message }, "ffmpeg could not start; this render uses the WebAssembly encoder");
      }
    }
    return openWasmSink(format, quantizationParameter);
  }

  return {
    name: ENCODER_NAMES[choice.kind],
    captionFits: sceneCaptionFits,
    async render(spec, { onProgress, signal } = {}) {
      if (spec.width % 2 !== 0 || spec.height % 2 !== 0 || spec.width < 16 || spec.height < 16)
        throw new VideoRenderError(`The video size must be even and at least 16x16 (was ${spec.width}x${spec.height}).`);
      if (spec.scenes.length === 0) throw new VideoRenderError("The ad has no scenes to render.");
      const stopped = () => new VideoRenderError("The render was stopped.");
      if (signal?.aborted) throw stopped();
      const { frames, totalMs } = frameTimeline(spec);
      const sink = await openSink(spec, signal);
      try {
        const yuv = new Uint8Array((spec.width * spec.height * 3) / 2);
        const barHeight = Math.min(spec.height, Math.round((14 * spec.width) / 540));
        const barYuv = yuvOf(spec.brand?.primaryColour ?? spec.brandColour);
        let baseKey = "";
        for (let i = 0; i < frames.length; i++) {
          if (signal?.aborted) throw stopped();
          const f = frames[i];
          // After a scene's 450 ms entrance its frames differ only in the progress bar: the scene is drawn
          // once (without the bar's filled part), converted to YUV once, and the bar is painted per frame.
          const key = f.intoMs < 450 ? `${f.index}:${f.intoMs}` : `${f.index}:still`;
          if (key !== baseKey) {
            // On libuv's thread pool: the event loop answers requests while resvg draws (~40 ms a full HD frame).
            const image = await renderAsync(frameSvg(spec, f.index, f.intoMs, f.atMs, totalMs, { progress: false }), resvgOptions);
            if (image.width !== spec.width || image.height !== spec.height)
              throw new VideoRenderError(`A frame came out ${image.width}x${image.height} instead of ${spec.width}x${spec.height}.`);
            rgbaToI420(image.pixels, spec.width, spec.height, yuv);
            baseKey = key;
          }
          paintBarI420(yuv, spec.width, spec.height, progressWidth(spec.width, f.atMs, totalMs), barHeight, barYuv);
          await sink.addFrame(yuv);
          // The last share is for finishing the file.
          onProgress?.(((i + 1) / frames.length) * 0.98);
          // Drawing is synchronous work: let the server answer requests between frames.
          await yieldToEventLoop();
        }
        if (signal?.aborted) throw stopped();
        let bytes = await sink.finish();
        if (spec.audio && (spec.audio.voice.length > 0 || spec.audio.musicPath)) {
          // Sound needs ffmpeg even when the frames were encoded in WebAssembly.
          const ffmpeg = choice.kind === "ffmpeg" ? choice.path : (options.ffmpegPath ?? installerFfmpeg());
          if (!ffmpeg) throw new VideoRenderError("this server has no ffmpeg to add sound with (see FFMPEG_PATH).");
          bytes = await addAudio(ffmpeg, bytes, spec.audio, totalMs, signal);
        }
        onProgress?.(1);
        return { bytes, durationMs: Math.round(totalMs), width: spec.width, height: spec.height, frames: frames.length };
      } catch (error) {
        await sink.abort();
        // ffmpeg killed by the signal reports its exit; the caller asked for a stop, so that is what it hears.
        if (signal?.aborted) throw stopped();
        throw error;
      }
    },
  };
}
