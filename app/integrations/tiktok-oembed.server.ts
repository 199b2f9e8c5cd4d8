// TikTok's public oEmbed endpoint (https://developers.tiktok.com/doc/embed-videos: GET
// https://www.tiktok.com/oembed?url={video URL} -> { title, author_name, author_url, thumbnail_url, html, … }),
// read through the SSRF-safe fetcher the competitor tracker uses (app/integrations/safe-fetch.server.ts):
// the base URL is configurable (TIKTOK_OEMBED_URL) so tests and development point it at a local server.
// No key, no cookies. Failures are TikTokOEmbedErrors saying whether trying again later can help.
import { OEmbedSchema, readOEmbed, type TikTokMeta } from "~/domain/ai-ads/tiktoks";
import { SafeFetchError, type SafeFetcher } from "~/integrations/safe-fetch.server";

export const DEFAULT_TIKTOK_OEMBED_URL = "https://www.tiktok.com/oembed";

export class TikTokOEmbedError extends Error {
  constructor(
    /** "gone": TikTok says there is no such public video (do not retry); "unavailable": try again later. */
    readonly kind: "gone" | "unavailable",
    message: string,
  ) {
    super(message);
    this.name = "TikTokOEmbedError";
  }
}

export interface TikTokOEmbed {
  /** The video's title, author and thumbnail, and the video it names (short links resolve here). */
  lookup(videoUrl: string): Promise<TikTokMeta>;
}

export function createTikTokOEmbed(options: { baseUrl?: string; fetcher: SafeFetcher; timeoutMs?: number }): TikTokOEmbed {
  const base = options.baseUrl ?? DEFAULT_TIKTOK_OEMBED_URL;
  const timeoutMs = options.timeoutMs ?? 8_000;
  return {
    async lookup(videoUrl) {
      const url = new URL(base);
      url.searchParams.set("url", videoUrl);
      let res;
      try {
        res = await options.fetcher.fetch(url.toString(), { headers: { accept: "application/json" }, timeoutMs, maxBytes: 256 * 1024 });
      } catch (error) {
        if (error instanceof SafeFetchError) {
          const why =
            error.kind === "timeout"
              ? `TikTok did not answer within ${Math.round(timeoutMs / 1000)} s`
              : error.kind === "unreachable"
                ? "TikTok could not be reached (no network?)"
                : `TikTok's answer could not be read (${error.kind})`;
          throw new TikTokOEmbedError("unavailable", `${why}; we will try again later.`);
        }
        throw error;
      }
      if (res.status === 400 || res.status === 404 || res.status === 410)
        throw new TikTokOEmbedError("gone", "TikTok has no public video at this link (removed, private, or never there).");
      if (res.status !== 200)
        throw new TikTokOEmbedError("unavailable", `TikTok answered with an error (${res.status}); we will try again later.`);
      let json: unknown;
      try {
        json = JSON.parse(res.text());
      } catch {
        throw new TikTokOEmbedError("unavailable", "TikTok's answer was not JSON; we will try again later.");
      }
      const parsed = OEmbedSchema.safeParse(json);
      if (!parsed.success) throw new TikTokOEmbedError("unavailable", "TikTok's answer did not have the expected fields; we will try again later.");
      return readOEmbed(parsed.data);
    },
  };
}
