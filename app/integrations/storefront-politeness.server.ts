// How the storefront reader sends each request to a rival store (docs/decisions/088): robots.txt first (fetched
// once a day per host, cut at 500 KiB, RFC 9309 read by app/domain/crawl/robots.ts), at most one request a second
// per host (or the store's crawl-delay) through a limiter every reader in this process shares, the store's own
// "not before" moment from earlier reads in any process, 429/503 backoff with Retry-After honoured (a short wait
// inside the read, a long one ends it with the moment to try again), and If-None-Match / If-Modified-Since from the
// validators the last 200 answer carried. A session lives for one read; its memory goes back to the store row.
import { CRAWL_RULES, type CrawlMemory } from "~/domain/crawl/politeness";
import { ROBOTS_RULES, recordAllows, robotsFresh, robotsRecordOf, type RobotsRecord, type RobotsVerdict } from "~/domain/crawl/robots";
import { SafeFetchError, type SafeFetcher, type SafeResponse } from "./safe-fetch.server";

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface HostRateLimiter {
  /** The least time between two requests to one host (CRAWL_RULES.minGapMs unless a test or bench sets another). */
  readonly intervalMs: number;
  /** Resolves when this host may be sent one more request; the next waits at least `gapMs` (default: the limiter's). */
  acquire(host: string, gapMs?: number): Promise<void>;
  /** No request to this host before `untilMs` (after a 429 or a 5xx, or a store's "not before"). */
  pushBack(host: string, untilMs: number): void;
}

/** Spaces requests to one host at least 1000/requestsPerSecond ms apart (default 1 a second), across every caller sharing it. */
export function createHostRateLimiter(options: { requestsPerSecond?: number; clock?: Clock } = {}): HostRateLimiter {
  const clock = options.clock ?? realClock;
  const interval = options.requestsPerSecond ? 1000 / options.requestsPerSecond : CRAWL_RULES.minGapMs;
  const nextSlot = new Map<string, number>();
  const prune = (now: number) => {
    if (nextSlot.size < 1000) return;
    for (const [host, slot] of nextSlot) if (slot < now) nextSlot.delete(host);
  };
  return {
    intervalMs: interval,
    async acquire(host, gapMs) {
      const now = clock.now();
      prune(now);
      const slot = Math.max(now, nextSlot.get(host) ?? 0);
      nextSlot.set(host, slot + Math.max(interval, gapMs ?? 0));
      if (slot > now) await clock.sleep(slot - now);
    },
    pushBack(host, untilMs) {
      nextSlot.set(host, Math.max(nextSlot.get(host) ?? 0, untilMs));
    },
  };
}

/** The one limiter every storefront reader in this process shares unless given another: one request a second a host. */
export const sharedHostRateLimiter = createHostRateLimiter();

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

export type PoliteAnswer =
  | { kind: "answer"; res: SafeResponse }
  /** 304 to a conditional request: the URL's answer has not changed since its validators. */
  | { kind: "not-modified" }
  /** robots.txt forbids this path (or could not be read, which forbids everything for now). */
  | { kind: "robots"; host: string; path: string; record: RobotsRecord; verdict: RobotsVerdict }
  /** 429/503 with a Retry-After longer than a read waits: no request before retryAtMs. */
  | { kind: "slow-down"; retryAtMs: number };

export interface PoliteRequest {
  accept: string;
  maxBytes: number;
  /** At maxBytes, answer with the first maxBytes bytes instead of failing (a product page read for its structured data). */
  truncate?: boolean;
  /**
   * "send": send the URL's kept validators (If-None-Match / If-Modified-Since) and answer not-modified on a 304, and
   * keep the new ones of a 200; "keep": only keep a 200's validators; "none" (default): neither.
   */
  validators?: "send" | "keep" | "none";
}

export interface PoliteSettings {
  fetcher: SafeFetcher;
  protocol: "https:" | "http:";
  clock: Clock;
  limiter: HostRateLimiter;
  /** robots.txt kept by this process (host -> record), so reads without a stored memory do not fetch it each time. */
  robotsCache: Map<string, RobotsRecord>;
  maxRetries: number;
  /** A Retry-After up to this long is waited out inside the read. */
  maxRetryAfterMs: number;
  backoffMs: number;
}

export interface PoliteSession {
  get(host: string, pathAndQuery: string, request: PoliteRequest): Promise<PoliteAnswer>;
  /** The memory to keep for the next read: robots.txt per host, validators per URL, the next allowed moment. */
  memory(): CrawlMemory;
}

/** The product token robots.txt groups are matched against: our User-Agent's first word ("WinningProductsStoreTracker"). */
export const productToken = (userAgent: string) => userAgent.split("/")[0].trim();

export function createPoliteSession(settings: PoliteSettings, start: CrawlMemory): PoliteSession {
  const { fetcher, protocol, clock, limiter } = settings;
  const token = productToken(fetcher.userAgent);
  const memory: CrawlMemory = { robots: { ...start.robots }, validators: { ...start.validators }, notBeforeMs: start.notBeforeMs };
  const started = new Set<string>();
  let slowDownUntil = 0;

  const gapFor = (host: string) => {
    const record = memory.robots[host];
    const delay = record?.kind === "parsed" ? (record.policy.crawlDelayMs ?? 0) : 0;
    return Math.max(limiter.intervalMs, delay);
  };

  /** One paced GET: waits for the host's slot and records when the next may go. */
  async function send(host: string, path: string, headers: Record<string, string>, init: { maxBytes: number; truncate?: boolean }): Promise<SafeResponse> {
    if (!started.has(host)) {
      started.add(host);
      // A read in another process (or before a restart) left a "not before" moment: honour it.
      if (memory.notBeforeMs !== null) limiter.pushBack(host, memory.notBeforeMs);
    }
    const gap = gapFor(host);
    await limiter.acquire(host, gap);
    memory.notBeforeMs = Math.max(slowDownUntil, clock.now() + gap);
    return fetcher.fetch(`${protocol}//${host}${path}`, { headers, maxBytes: init.maxBytes, truncate: init.truncate });
  }

  /** GET with 429/503/5xx backoff and one retry of a network error; a long Retry-After ends it with slow-down. */
  async function getWithRetries(host: string, path: string, headers: Record<string, string>, init: { maxBytes: number; truncate?: boolean }): Promise<SafeResponse | { slowDown: number }> {
    let networkRetried = false;
    for (let attempt = 0; ; attempt++) {
      let res: SafeResponse;
      try {
        res = await send(host, path, headers, init);
      } catch (error) {
        const transient = error instanceof SafeFetchError && (error.kind === "unreachable" || error.kind === "timeout");
        if (transient && !networkRetried) {
          networkRetried = true;
          limiter.pushBack(host, clock.now() + settings.backoffMs);
          continue;
        }
        throw error;
      }
      if (res.status === 429 || res.status === 503) {
        const told = parseRetryAfter(res.headers["retry-after"], clock.now());
        if (told !== null && told > settings.maxRetryAfterMs) {
          const until = clock.now() + Math.min(told, CRAWL_RULES.maxRetryAfterMs);
          slowDownUntil = until;
          memory.notBeforeMs = Math.max(memory.notBeforeMs ?? 0, until);
          limiter.pushBack(host, until);
          return { slowDown: until };
        }
        if (attempt >= settings.maxRetries) return res;
        const wait = told ?? settings.backoffMs * 2 ** attempt;
        limiter.pushBack(host, clock.now() + wait);
        continue;
      }
      if (attempt >= settings.maxRetries) return res;
      if (res.status >= 500) {
        limiter.pushBack(host, clock.now() + settings.backoffMs * 2 ** attempt);
        continue;
      }
      return res;
    }
  }

  /** The host's robots.txt: kept (within a day) or fetched now, before anything else on that host. */
  async function robotsOf(host: string): Promise<RobotsRecord | { slowDown: number }> {
    const now = clock.now();
    const kept = memory.robots[host];
    if (kept && robotsFresh(kept, now)) return kept;
    const cached = settings.robotsCache.get(host);
    if (cached && robotsFresh(cached, now)) {
      memory.robots[host] = cached;
      return cached;
    }
    let record: RobotsRecord;
    try {
      const res = await getWithRetries(host, "/robots.txt", { accept: "text/plain" }, { maxBytes: ROBOTS_RULES.maxBytes, truncate: true });
      if ("slowDown" in res) return res;
      record = robotsRecordOf({ status: res.status, text: res.text(), truncated: res.truncated === true }, token, new Date(clock.now()).toISOString());
    } catch (error) {
      // A host we cannot reach at all, or may not, fails the read as the catalogue request would (unreachable,
      // refused); endless redirects count as no robots.txt (RFC 9309 2.3.1.2); an answer we cannot read (a broken
      // encoding) as one that could not be fetched: nothing for now.
      if (!(error instanceof SafeFetchError) || ["refused", "unreachable", "timeout", "invalid-url"].includes(error.kind)) throw error;
      const fetchedAt = new Date(clock.now()).toISOString();
      record = error.kind === "too-many-redirects" ? robotsRecordOf({ status: 404, text: "", truncated: false }, token, fetchedAt) : robotsRecordOf({ status: null }, token, fetchedAt);
    }
    memory.robots[host] = record;
    settings.robotsCache.set(host, record);
    if (settings.robotsCache.size > 5000) settings.robotsCache.delete(settings.robotsCache.keys().next().value!);
    return record;
  }

  return {
    async get(host, pathAndQuery, request) {
      if (slowDownUntil > clock.now()) return { kind: "slow-down", retryAtMs: slowDownUntil };
      const record = await robotsOf(host);
      if ("slowDown" in record) return { kind: "slow-down", retryAtMs: record.slowDown };
      const verdict = recordAllows(record, pathAndQuery);
      if (!verdict.allowed) return { kind: "robots", host, path: pathAndQuery, record, verdict };
      const key = `${host}${pathAndQuery}`;
      const headers: Record<string, string> = { accept: request.accept };
      const mode = request.validators ?? "none";
      const known = mode === "send" ? memory.validators[key] : undefined;
      if (known?.etag) headers["if-none-match"] = known.etag;
      if (known?.lastModified) headers["if-modified-since"] = known.lastModified;
      const res = await getWithRetries(host, pathAndQuery, headers, { maxBytes: request.maxBytes, truncate: request.truncate });
      if ("slowDown" in res) return { kind: "slow-down", retryAtMs: res.slowDown };
      if (res.status === 304 && known) return { kind: "not-modified" };
      if (mode !== "none" && res.status === 200) {
        const etag = res.headers["etag"] ?? null;
        const lastModified = res.headers["last-modified"] ?? null;
        if (etag || lastModified) memory.validators[key] = { etag: etag?.slice(0, 200) ?? null, lastModified: lastModified?.slice(0, 100) ?? null };
        else delete memory.validators[key];
      }
      return { kind: "answer", res };
    },
    memory: () => ({ ...memory, robots: { ...memory.robots }, validators: { ...memory.validators } }),
  };
}
