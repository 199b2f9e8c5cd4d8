// A voice-over for AI ads (docs/decisions/062-ads-worth-posting.md): any OpenAI-compatible speech endpoint,
// POST {AI_BASE_URL}/audio/speech { model: AI_SPEECH_MODEL, input, voice: AI_SPEECH_VOICE, response_format: "wav" }
// with the AI key as Bearer, answers the spoken text as WAV bytes. Without AI_BASE_URL and AI_SPEECH_MODEL there is
// no voice (null), and the ads page says how to get one. The answer is checked to be a WAV file of bounded size.

export interface AiSpeech {
  /** The model and voice, for logs and the ads page ("tts-1, voice alloy"). */
  readonly name: string;
  /** The text spoken, as a WAV file (RIFF/WAVE, PCM), and how long it lasts. */
  speak(text: string, options?: { signal?: AbortSignal }): Promise<{ wav: Uint8Array; durationMs: number }>;
}

export class AiSpeechError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AiSpeechError";
  }
}

export interface AiSpeechConfig {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  voice?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** At most 20 MB of audio for one scene's few seconds (a minute of 48 kHz stereo WAV is ~11 MB). */
const MAX_BYTES = 20 * 1024 * 1024;

/** The length of a PCM WAV file in milliseconds, from its header (fmt byte rate, data size); null when it is not one. */
export function wavDurationMs(bytes: Uint8Array): number | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 44 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WAVE") return null;
  let at = 12;
  let byteRate = 0;
  while (at + 8 <= b.length) {
    const id = b.toString("latin1", at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === "fmt " && at + 20 <= b.length) byteRate = b.readUInt32LE(at + 16);
    if (id === "data") {
      // A streamed WAV may say 0 or 0xFFFFFFFF for its data size: then the rest of the file is the data.
      const data = size === 0 || at + 8 + size > b.length ? b.length - at - 8 : size;
      return byteRate > 0 ? Math.round((data / byteRate) * 1000) : null;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

export function createAiSpeech(config: AiSpeechConfig): AiSpeech | null {
  if (!config.baseUrl || !config.model) return null;
  const base = config.baseUrl.replace(/\/+$/, "");
  const host = new URL(base).host;
  const model = config.model;
  const voice = config.voice || "alloy";
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 30_000;
  return {
    name: `${model}, voice ${voice}`,
    async speak(text, options = {}) {
      let res: Response;
      try {
        res = await doFetch(`${base}/audio/speech`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "audio/wav",
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({ model, input: text, voice, response_format: "wav" }),
          signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        throw new AiSpeechError(
          timedOut ? `the speech endpoint (${host}) did not answer within ${timeoutMs / 1000} s.` : `the speech endpoint (${host}) could not be reached.`,
        );
      }
      if (!res.ok) {
        let detail = "";
        try {
          const body = (await res.json()) as { error?: { message?: unknown } };
          if (typeof body?.error?.message === "string") detail = `: ${body.error.message.slice(0, 200)}`;
        } catch {
          // no JSON error body
        }
        throw new AiSpeechError(`the speech endpoint (${host}) answered ${res.status}${detail}.`);
      }
      const declared = Number(res.headers.get("content-length") ?? 0);
      if (declared > MAX_BYTES) throw new AiSpeechError(`the speech endpoint (${host}) sent more than 20 MB of audio.`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.length > MAX_BYTES) throw new AiSpeechError(`the speech endpoint (${host}) sent more than 20 MB of audio.`);
      const durationMs = wavDurationMs(bytes);
      if (durationMs === null) throw new AiSpeechError(`the speech endpoint (${host}) did not answer with a WAV file.`);
      return { wav: bytes, durationMs };
    },
  };
}
