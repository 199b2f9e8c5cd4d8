// Sound on AI ads (decision 062), through the AI ads service on the real database, the real renderer and ffmpeg: a
// voice-over read scene by scene by an OpenAI-compatible speech endpoint (a local stand-in that answers WAV bytes)
// and a music bed from the operator's folder, mixed into an AAC track as long as the video; the voice is heard at
// each scene's start. Without a speech endpoint or with a missing track, saving and rendering are refused with a
// sentence before any credit is spent; a speech failure fails the render with a sentence and refunds it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createAiSpeech, wavDurationMs } from "~/integrations/ai-speech.server";
import { builtInWriter } from "~/integrations/ai-text.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { createMusicLibrary } from "~/integrations/music-library.server";
import { createBuiltInRenderer } from "~/integrations/video-render.server";
import { createAiAds } from "~/services/ai-ads.server";
import * as credits from "~/services/billing/credits.server";
import { createJobs } from "~/services/jobs.server";
import { rmsBetween, sineWav } from "../../helpers/audio";
import { startFakeAi, type FakeAi } from "../../helpers/fake-ai";
import { readMp4 } from "../../helpers/mp4";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { createUser } from "../../helpers/site-users";

const [PRODUCT] = fixtureCatalogue(1, 92).map((p) => ({ ...p, objectID: "sound-ad-product", orders: 812 }));
const ffmpeg = (createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg") as { path: string }).path;

let ai: FakeAi;
let musicDir: string;
let storageDir: string;
beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
  // Each scene's speech: 200 ms a word, at least 700 ms.
  ai = await startFakeAi({ speechMs: (input) => Math.max(700, input.split(/\s+/).length * 200) });
  musicDir = mkdtempSync(path.join(tmpdir(), "ad-music-"));
  storageDir = mkdtempSync(path.join(tmpdir(), "ad-sound-videos-"));
  writeFileSync(path.join(musicDir, "calm-bed.wav"), sineWav(4000, { hz: 220, amplitude: 0.6 }));
  writeFileSync(path.join(musicDir, "notes.txt"), "not music");
});
afterAll(async () => {
  await ai.close();
  rmSync(musicDir, { recursive: true, force: true });
  rmSync(storageDir, { recursive: true, force: true });
});

function service(withSpeech = true) {
  const ads = createAiAds({
    db,
    ai: builtInWriter,
    renderer: createBuiltInRenderer(),
    storage: createFileStorage(storageDir),
    urlSecret: "test",
    jobs: createJobs({ db, ownerId: `sound-ads-${Math.random()}` }),
    video: { width: 180, height: 320, fps: 5 },
    speech: withSpeech ? createAiSpeech({ baseUrl: ai.url, apiKey: ai.apiKey, model: "tts-test", voice: "alloy" }) : null,
    music: createMusicLibrary(musicDir),
  });
  ads.registerJobs();
  return ads;
}

async function seller() {
  const user = await createUser({ userSubscribed: "yes" });
  await credits.applyAllowance(db, { userId: user.id, feature: "ai-ads", allowance: 10, idempotencyKey: `sound:${user.id}`, reason: "test", mode: "reset" });
  return { id: user.id, userSubscribed: "yes" as const, aiAdsFirstUse: false };
}

/** The MP4's sound decoded by ffmpeg to 16-bit mono PCM at 8 kHz, and what ffmpeg says its streams are. */
function decodeSound(mp4: Uint8Array) {
  const dir = mkdtempSync(path.join(tmpdir(), "ad-sound-check-"));
  try {
    writeFileSync(path.join(dir, "ad.mp4"), mp4);
    const probe = spawnSync(ffmpeg, ["-hide_banner", "-i", "ad.mp4"], { cwd: dir, encoding: "utf8" });
    const pcm = spawnSync(ffmpeg, ["-hide_banner", "-loglevel", "error", "-i", "ad.mp4", "-vn", "-ac", "1", "-ar", "8000", "-f", "s16le", "-"], { cwd: dir, maxBuffer: 64 << 20 });
    return { streams: probe.stderr, pcm: pcm.stdout as Buffer };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("sound on AI ads", () => {
  it("lists the operator's music files only, and reads a speech endpoint's WAV with its length", async () => {
    expect(await createMusicLibrary(musicDir).list()).toEqual(["calm-bed.wav"]);
    expect(await createMusicLibrary(path.join(musicDir, "missing")).list()).toEqual([]);
    expect(await createMusicLibrary(musicDir).pathOf("../calm-bed.wav")).toBeNull();
    const spoken = await createAiSpeech({ baseUrl: ai.url, apiKey: ai.apiKey, model: "tts-test" })!.speak("one two three four five");
    expect(spoken.durationMs).toBe(1000);
    expect(wavDurationMs(spoken.wav)).toBe(1000);
    const sent = ai.requests.at(-1)!;
    expect(sent).toMatchObject({ path: "/v1/audio/speech", body: { model: "tts-test", input: "one two three four five", voice: "alloy", response_format: "wav" } });
    expect(sent.headers.authorization).toBe(`Bearer ${ai.apiKey}`);
  });

  it("renders a voice-over on each scene and the music bed under it, as an AAC track as long as the video", async () => {
    const user = await seller();
    const ads = service();
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    const saved = await ads.update(user.id, ad.id, { voiceOver: true, musicTrack: "calm-bed.wav" });
    expect(saved).toMatchObject({ voiceOver: true, musicTrack: "calm-bed.wav" });
    const before = ai.requests.length;
    await ads.render(user, ad.id);
    await ads.idle();
    const done = await ads.get(user.id, ad.id);
    expect(done.status).toBe("completed");
    // One speech request per scene, each with the scene's own text.
    expect(ai.requests.slice(before).map((r) => r.body.input)).toEqual(done.scenes.map((s) => s.text));

    const row = await db.aiAd.findUniqueOrThrow({ where: { id: ad.id }, select: { storageKey: true } });
    const file = (await createFileStorage(storageDir).get(row.storageKey!))!;
    const bytes = new Uint8Array(file);
    expect(readMp4(bytes).frames).toBeGreaterThan(0);
    const { streams, pcm } = decodeSound(bytes);
    expect(streams).toMatch(/Audio: aac/);
    // The track lasts as long as the video (8,000 samples a second).
    expect(Math.abs(pcm.length / 2 / 8 - done.durationMs!)).toBeLessThan(120);
    // The voice (a loud 440 Hz tone in the stand-in) starts each scene; the music alone is quieter in the gaps.
    let start = 0;
    for (const scene of done.scenes) {
      const voiced = rmsBetween(pcm, 8000, 1, start + 250, start + 600);
      expect(voiced).toBeGreaterThan(0.2);
      start += scene.durationMs;
    }
    const lastScene = done.scenes.at(-1)!;
    // After the call to action's short line (about 1 s from 150 ms in) and before the music fades out (last 1.2 s).
    const lastStart = done.durationMs! - lastScene.durationMs;
    const gap = rmsBetween(pcm, 8000, 1, lastStart + 1350, done.durationMs! - 1250);
    expect(gap).toBeGreaterThan(0.01);
    expect(gap).toBeLessThan(0.15);
  }, 120_000);

  it("reads the ad's own voice: one the adapter offers, kept with the ad, sent on every scene's request", async () => {
    const user = await seller();
    const ads = service();
    expect((await ads.sound()).voices).toEqual(["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"]);
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    await expect(ads.update(user.id, ad.id, { voiceOver: true, voice: "darth" })).rejects.toMatchObject({
      status: 422,
      details: { fieldErrors: { voice: expect.stringMatching(/^There is no voice named "darth" here: choose one of alloy, ash/) } },
    });
    expect(await ads.update(user.id, ad.id, { voiceOver: true, voice: "nova" })).toMatchObject({ voiceOver: true, voice: "nova" });
    expect((await ads.get(user.id, ad.id)).voice).toBe("nova");
    const before = ai.requests.length;
    await ads.render(user, ad.id);
    await ads.idle();
    expect((await ads.get(user.id, ad.id)).status).toBe("completed");
    const sent = ai.requests.slice(before);
    expect(sent.length).toBe(ad.scenes.length);
    for (const r of sent) expect(r.body.voice).toBe("nova");
  }, 120_000);

  it("the free preview speaks the hook in the ad's voice, made once and kept; the voice makes the preview out of date", async () => {
    const user = await seller();
    const ads = service();
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    // A hook no earlier test had read, so the first preview must ask the endpoint.
    const hook = `Meet the one you have been waiting for ${user.id.slice(-6)}`;
    const edits = (first: object, second: object = {}) => ad.scenes.map((_, i) => (i === 0 ? first : i === 1 ? second : {}));
    await ads.update(user.id, ad.id, { voiceOver: true, voice: "coral", scenes: edits({ text: hook, durationMs: 4000 }) });
    const asked = () => ai.requests.slice(before).filter((r) => r.path === "/v1/audio/speech");
    let before = ai.requests.length;
    await ads.preview(user, ad.id);
    await ads.idle();
    const first = await ads.get(user.id, ad.id);
    expect(first.previewVideo).toMatchObject({ status: "completed", current: true });
    // Only the hook is read, in the ad's voice.
    expect(asked().map((r) => [r.body.input, r.body.voice])).toEqual([[hook, "coral"]]);
    const row = await db.aiAdPreview.findFirstOrThrow({ where: { adId: ad.id, status: "completed" }, select: { storageKey: true } });
    const { streams, pcm } = decodeSound(new Uint8Array((await createFileStorage(storageDir).get(row.storageKey!))!));
    expect(streams).toMatch(/Audio: aac/);
    expect(rmsBetween(pcm, 8000, 1, 250, 600)).toBeGreaterThan(0.2);
    // The second scene is silent in the preview (no music chosen).
    const scene2 = first.scenes[0].durationMs;
    expect(rmsBetween(pcm, 8000, 1, scene2 + 250, scene2 + 600)).toBeLessThan(0.01);

    // Another voice: the preview is out of date, and the new one asks for the hook in that voice.
    await ads.update(user.id, ad.id, { voice: "onyx" });
    expect((await ads.get(user.id, ad.id)).previewVideo).toMatchObject({ current: false });
    before = ai.requests.length;
    await ads.preview(user, ad.id);
    await ads.idle();
    expect(asked().map((r) => r.body.voice)).toEqual(["onyx"]);

    // Back to coral with another scene edited: the hook's coral reading is kept, no request.
    await ads.update(user.id, ad.id, { voice: "coral", scenes: edits({}, { text: "Made to last, every day" }) });
    before = ai.requests.length;
    await ads.preview(user, ad.id);
    await ads.idle();
    expect((await ads.get(user.id, ad.id)).previewVideo).toMatchObject({ status: "completed", current: true });
    expect(asked()).toEqual([]);
  }, 120_000);

  it("refuses sound this server cannot make, on save and before a render is charged, with a sentence", async () => {
    const user = await seller();
    const ads = service(false);
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    await expect(ads.update(user.id, ad.id, { voiceOver: true })).rejects.toMatchObject({
      status: 422,
      details: { fieldErrors: { voiceOver: expect.stringMatching(/^Voice-over is not set up on this server/) } },
    });
    await expect(ads.update(user.id, ad.id, { musicTrack: "../../etc/passwd" })).rejects.toMatchObject({
      status: 422,
      details: { fieldErrors: { musicTrack: 'There is no music track named "../../etc/passwd" on this server now: choose another, or none.' } },
    });
    // A track chosen, then removed by the operator: the render is refused before credits.
    writeFileSync(path.join(musicDir, "gone.wav"), sineWav(500));
    await ads.update(user.id, ad.id, { musicTrack: "gone.wav" });
    rmSync(path.join(musicDir, "gone.wav"));
    await expect(ads.render(user, ad.id)).rejects.toMatchObject({ status: 422, details: { fieldErrors: { musicTrack: expect.any(String) } } });
    expect(await credits.getBalance(db, user.id, "ai-ads")).toBe(10);
    expect((await ads.get(user.id, ad.id)).status).toBe("preview");
  });

  it("a speech endpoint failure fails the render with a sentence and refunds its credits", async () => {
    const user = await seller();
    const ads = service();
    const ad = await ads.create({ user, objectID: PRODUCT.objectID });
    await ads.update(user.id, ad.id, { voiceOver: true });
    ai.script({ kind: "error", status: 500, message: "speech backend down" });
    await ads.render(user, ad.id);
    await ads.idle();
    const failed = await ads.get(user.id, ad.id);
    expect(failed.status).toBe("failed");
    expect(failed.errors[0]).toBe("The video could not be rendered: the voice-over of scene 1 could not be made: the speech endpoint (" + new URL(ai.url).host + ") answered 500: speech backend down.");
    expect(await credits.getBalance(db, user.id, "ai-ads")).toBe(10);
  }, 60_000);
});
