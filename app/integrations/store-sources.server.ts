// The discovery sources (decision 101), adapters of the StoreSource port (app/domain/crawl/discovery.ts), read
// through the SSRF-safe fetcher with our User-Agent and a cap on each answer:
// - Common Crawl's URL index (a pywb CDX server): `{cdx-api}?url=*.myshopify.com&output=json&filter=status:200&limit=N`.
//   The base URL may name a collection (".../CC-MAIN-2026-49-index"); otherwise it is the index server's root and the
//   newest collection is read from its collinfo.json (kept on the same origin).
// - Certificate transparency through crt.sh: `{base}/?q=%25.myshopify.com&output=json`.
// An answer that is HTML, not JSON, too large or unreachable is the source's one skip with a sentence, never a throw.
import { newestCdxApi, readCdxLines, readCrtShJson, type SourceAnswer, type StoreSource } from "~/domain/crawl/discovery";
import { SafeFetchError, type SafeFetcher, type SafeResponse } from "./safe-fetch.server";

export const STORE_SOURCE_DEFAULTS = {
  /** Cap on one source answer (decompressed). */
  maxBytes: 8 * 1024 * 1024,
  timeoutMs: 60_000,
} as const;

export interface StoreSourceOptions {
  fetcher: SafeFetcher;
  baseUrl: string;
  maxBytes?: number;
  timeoutMs?: number;
}

const failed = (name: string, reason: string): SourceAnswer => ({ hosts: [], skipped: [{ what: name, reason }] });

/** GETs a URL and hands back its text, or the sentence why the answer cannot be used. */
async function getText(options: StoreSourceOptions, url: string, accept: string): Promise<{ ok: true; text: string; res: SafeResponse } | { ok: false; reason: string }> {
  let res: SafeResponse;
  try {
    res = await options.fetcher.fetch(url, {
      headers: { accept },
      maxBytes: options.maxBytes ?? STORE_SOURCE_DEFAULTS.maxBytes,
      timeoutMs: options.timeoutMs ?? STORE_SOURCE_DEFAULTS.timeoutMs,
    });
  } catch (error) {
    if (error instanceof SafeFetchError) {
      if (error.kind === "too-large") return { ok: false, reason: `its answer was larger than ${Math.round((options.maxBytes ?? STORE_SOURCE_DEFAULTS.maxBytes) / 1024 / 1024)} MB, so we stopped reading it` };
      return { ok: false, reason: `we could not read it: ${error.message}` };
    }
    throw error;
  }
  if (res.status !== 200) return { ok: false, reason: `it answered HTTP ${res.status}` };
  const text = res.text();
  const type = res.headers["content-type"] ?? "";
  if (/html/i.test(type) || /^\s*</.test(text)) return { ok: false, reason: "it answered with an HTML page, not JSON" };
  return { ok: true, text, res };
}

/** Common Crawl's URL index: captures on *.myshopify.com hosts. */
export function createCommonCrawlSource(options: StoreSourceOptions): StoreSource {
  const name = "common-crawl";
  const base = new URL(options.baseUrl);
  async function endpoint(): Promise<{ ok: true; url: string } | { ok: false; reason: string }> {
    if (/-index\/?$/.test(base.pathname)) return { ok: true, url: base.toString() };
    const info = await getText(options, new URL("collinfo.json", base.toString().replace(/\/?$/, "/")).toString(), "application/json");
    if (!info.ok) return { ok: false, reason: `its list of collections: ${info.reason}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(info.text);
    } catch {
      return { ok: false, reason: "its list of collections is not JSON" };
    }
    const api = newestCdxApi(parsed);
    if (!api) return { ok: false, reason: "its list of collections names no CDX endpoint" };
    // Kept on the configured origin: a list that points elsewhere is read on ours.
    const u = new URL(api);
    return { ok: true, url: new URL(u.pathname, base.origin).toString() };
  }
  return {
    name,
    async candidates(limit) {
      const at = await endpoint();
      if (!at.ok) return failed(name, at.reason);
      const url = new URL(at.url);
      url.searchParams.set("url", "*.myshopify.com");
      url.searchParams.set("output", "json");
      url.searchParams.set("fl", "url,status,mime");
      url.searchParams.set("filter", "status:200");
      // Captures repeat a host many times: ask for more lines than hosts.
      url.searchParams.set("limit", String(Math.min(100_000, limit * 20)));
      const answer = await getText(options, url.toString(), "application/json, text/plain");
      if (!answer.ok) return failed(name, answer.reason);
      const read = readCdxLines(answer.text, limit);
      if (read.hosts.length === 0 && read.skipped.length > 0 && read.skipped.every((s) => s.reason === "a line that is not JSON")) {
        return failed(name, "its answer is not JSON lines");
      }
      return read;
    },
  };
}

/** crt.sh: certificates issued for *.myshopify.com names. */
export function createCrtShSource(options: StoreSourceOptions): StoreSource {
  const name = "certificate-transparency";
  return {
    name,
    async candidates(limit) {
      const url = new URL(options.baseUrl);
      url.searchParams.set("q", "%.myshopify.com");
      url.searchParams.set("output", "json");
      const answer = await getText(options, url.toString(), "application/json");
      if (!answer.ok) return failed(name, answer.reason);
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        return failed(name, "its answer is not JSON");
      }
      return readCrtShJson(parsed, limit);
    },
  };
}

/** The configured sources, in the order a run asks them; a URL of "off" leaves its source out. */
export function createStoreSources(options: { fetcher: SafeFetcher; cdxUrl: string; ctUrl: string }): StoreSource[] {
  const sources: StoreSource[] = [];
  if (options.ctUrl !== "off") sources.push(createCrtShSource({ fetcher: options.fetcher, baseUrl: options.ctUrl }));
  if (options.cdxUrl !== "off") sources.push(createCommonCrawlSource({ fetcher: options.fetcher, baseUrl: options.cdxUrl }));
  return sources;
}
