// Real audio bytes for the sound tests: a PCM WAV file (RIFF/WAVE, 16-bit) of a sine tone, and a reader of the
// 16-bit PCM ffmpeg decodes an MP4's sound to, to check where the sound is loud.
export function sineWav(ms: number, options: { hz?: number; rate?: number; channels?: number; amplitude?: number } = {}): Uint8Array {
  const hz = options.hz ?? 440;
  const rate = options.rate ?? 24_000;
  const channels = options.channels ?? 1;
  const amplitude = options.amplitude ?? 0.5;
  const frames = Math.round((rate * ms) / 1000);
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * amplitude * 32767);
    for (let c = 0; c < channels; c++) data.writeInt16LE(v, (i * channels + c) * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "latin1");
  header.write("fmt ", 12, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

/** The loudness (RMS, 0-1) of 16-bit little-endian PCM between two times, at `rate` samples a second per channel. */
export function rmsBetween(pcm: Buffer, rate: number, channels: number, fromMs: number, toMs: number): number {
  const from = Math.floor((fromMs / 1000) * rate) * channels;
  const to = Math.min(pcm.length / 2, Math.floor((toMs / 1000) * rate) * channels);
  let sum = 0;
  let n = 0;
  for (let i = from; i < to; i++) {
    const v = pcm.readInt16LE(i * 2) / 32768;
    sum += v * v;
    n++;
  }
  return n > 0 ? Math.sqrt(sum / n) : 0;
}
