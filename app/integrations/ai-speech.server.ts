// A voice-over for AI ads (docs/decisions/062-ads-worth-posting.md): any OpenAI-compatible speech endpoint,
// POST {AI_BASE_URL}/audio/speech { model: AI_SPEECH_MODEL, input, voice, response_format: "wav" } with the AI key as
// Bearer, answers the spoken text as WAV bytes. The endpoint has no list of voices to ask for: the adapter offers
// OpenAI's documented ones, or the operator's AI_SPEECH_VOICES for another provider, with AI_SPEECH_VOICE as the
// default (decision 067: a seller picks one per ad). Without AI_BASE_URL and AI_SPEECH_MODEL there is no voice
// (null), and the ads page says how to get one. The answer is checked to be a WAV file of bounded size.

import { wavDurationMs } from "~/domain/ai-ads/wav";

export { wavDurationMs };

export interface AiSpeech {
  /** The model and default voice, for logs and the ads page ("tts-1, voice alloy"). */
  readonly name: string;
  /** The model alone (part of a cached clip's key: another model reads the same text differently). */
  readonly model: string;
  /** The voices a seller may pick, the default first. */
  readonly voices: readonly string[];
  /** The voice used when none is asked for. */
  readonly defaultVoice: string;
  /** The text spoken in `voice` (default: defaultVoice), as a WAV file (RIFF/WAVE, PCM), and how long it lasts. */
  speak(text: string, options?: { signal?: AbortSignal; voice?: string }): Promise<{ wav: Uint8Array; durationMs: number }>;
}

/** The voices of OpenAI's /audio/speech (platform.openai.com/docs/api-reference/audio/createSpeech). */
export const OPENAI_SPEECH_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"] as const;

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
  /** The default voice (AI_SPEECH_VOICE); "alloy" when absent. */
  voice?: string;
  /** The voices offered (AI_SPEECH_VOICES); OpenAI's when absent. The default voice is always among them. */
  voices?: readonly string[];
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** At most 20 MB of audio for one scene's few seconds (a minute of 48 kHz stereo WAV is ~11 MB). */
const MAX_BYTES = 20 * 1024 * 1024;

export function createAiSpeech(config: AiSpeechConfig): AiSpeech | null {
  if (!config.baseUrl || !config.model) return null;
  const base = config.baseUrl.replace(/\/+$/, "");
  const host = new URL(base).host;
  const model = config.model;
  const defaultVoice = config.voice || "alloy";
  const offered = config.voices && config.voices.length > 0 ? config.voices : OPENAI_SPEECH_VOICES;
  const voices = [defaultVoice, ...offered.filter((v) => v !== defaultVoice)];
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? 30_000;
  return {
    name: `${model}, voice ${defaultVoice}`,
    model,
    voices,
    defaultVoice,
    async speak(text, options = {}) {
      const voice = options.voice ?? defaultVoice;
      // The service checks the voice before a request (a seller's pick is one of `voices`); this is the last guard.
      if (!voices.includes(voice)) throw new AiSpeechError(`the voice "${voice}" is not one this server offers.`);
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
