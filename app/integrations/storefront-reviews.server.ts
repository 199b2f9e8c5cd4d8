// Reads catalogue listings' product pages (https://{store}/products/{handle}) for the review count their structured
// data publishes (issue 37 item 6, docs/decisions/094), through the same polite session as the catalogue
// (storefront-politeness.server.ts, decision 088): robots.txt first and honoured per page, one request a second per
// store shared with every other reader in this process and after the store's kept "not before", 429/503 backoff with
// Retry-After (a long one ends the run with the moment to come back). A page is an HTML document any visitor's
// browser gets; only its first PAGE_MAX_BYTES are read (structured data sits in the head or high in the body).
// What the page says is decided by the pure reader in ~/domain/catalogue/review-count. A wall for bots (401/403, a
// password page, a captcha page without structured data) ends the run: the store is not asked again that day.
import { looksLikeBotCheck, type BlockedHow, type CrawlMemory } from "~/domain/crawl/politeness";
import type { RobotsRecord } from "~/domain/crawl/robots";
import { jsonLdBlocks, readReviewCount, type ReviewReading } from "~/domain/catalogue/review-count";
import { SafeFetchError, type SafeFetcher } from "./safe-fetch.server";
import { createPoliteSession, realClock, sharedHostRateLimiter, type Clock, type HostRateLimiter } from "./storefront-politeness.server";

/** Bytes of a product page read (the rest is cut, not refused). */
export const PAGE_MAX_BYTES = 3 * 1024 * 1024;

export type ReviewPageOutcome =
  /** The page answered: what its structured data says. */
  | { kind: "read"; reading: ReviewReading }
  /** 404 / 410: the page is gone (the next catalogue read will say whether the listing is). */
  | { kind: "gone"; status: number }
  /** robots.txt asks us not to read this page (or could not be read): not requested. */
  | { kind: "robots" }
  /** The page could not be read (5xx after retries, a network failure, an answer that is not a page), with why. */
  | { kind: "failed"; reason: string };

/** Why a run ended before its last page: the store asked for a pause, or put up a wall for bots. */
export type ReviewRunStop = { kind: "slow-down"; retryAtMs: number } | { kind: "blocked"; how: BlockedHow | "password" };

export interface ReviewPagesRead {
  pages: Array<{ handle: string; outcome: ReviewPageOutcome }>;
  /** null: every handle asked for was tried (or `keepGoing` said stop). */
  stopped: ReviewRunStop | null;
  memory: CrawlMemory;
}

export interface StorefrontReviews {
  /**
   * Reads the product pages of `handles` on `domain`, one after another, starting from the store's kept memory.
   * `keepGoing` is asked before each page (the caller stops when another read of the store begins, or time is up).
   */
  read(domain: string, handles: string[], memory: CrawlMemory, keepGoing?: () => Promise<boolean>): Promise<ReviewPagesRead>;
}

export interface StorefrontReviewsOptions {
  fetcher: SafeFetcher;
  protocol?: "https:" | "http:";
  clock?: Clock;
  limiter?: HostRateLimiter;
  maxRetries?: number;
  maxRetryAfterMs?: number;
  backoffMs?: number;
}

const FETCH_REASONS: Record<string, string> = {
  timeout: "the page took too long to answer",
  unreachable: "the store could not be reached",
  "too-many-redirects": "the page redirected too many times",
  "bad-response": "the answer was not a readable web page",
  "too-large": "the page was too large",
};

export function createStorefrontReviews(options: StorefrontReviewsOptions): StorefrontReviews {
  const clock = options.clock ?? realClock;
  const limiter = options.limiter ?? sharedHostRateLimiter;
  return {
    async read(domain, handles, memory, keepGoing) {
      const session = createPoliteSession(
        {
          fetcher: options.fetcher,
          protocol: options.protocol ?? "https:",
          clock,
          limiter,
          robotsCache: new Map<string, RobotsRecord>(),
          maxRetries: options.maxRetries ?? 2,
          maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
          backoffMs: options.backoffMs ?? 1_000,
        },
        memory,
      );
      const pages: ReviewPagesRead["pages"] = [];
      for (const handle of handles) {
        if (keepGoing && !(await keepGoing())) break;
        let answer;
        try {
          answer = await session.get(domain, `/products/${encodeURIComponent(handle)}`, { accept: "text/html,application/xhtml+xml", maxBytes: PAGE_MAX_BYTES, truncate: true });
        } catch (error) {
          if (!(error instanceof SafeFetchError)) throw error;
          // A store we may not reach at all (a private address) is not asked again in this run.
          if (error.kind === "refused" || error.kind === "invalid-url") return { pages, stopped: { kind: "blocked", how: "forbidden" }, memory: session.memory() };
          pages.push({ handle, outcome: { kind: "failed", reason: FETCH_REASONS[error.kind] ?? error.message } });
          continue;
        }
        if (answer.kind === "slow-down") return { pages, stopped: { kind: "slow-down", retryAtMs: answer.retryAtMs }, memory: session.memory() };
        if (answer.kind === "robots") {
          pages.push({ handle, outcome: { kind: "robots" } });
          continue;
        }
        if (answer.kind === "not-modified") {
          pages.push({ handle, outcome: { kind: "failed", reason: "the store answered 304 to a request that asked for no validators" } });
          continue;
        }
        const res = answer.res;
        const passwordPage = res.hops.some((hop) => new URL(hop).pathname.replace(/\/+$/, "") === "/password");
        if (passwordPage) return { pages, stopped: { kind: "blocked", how: "password" }, memory: session.memory() };
        if (res.status === 401) return { pages, stopped: { kind: "blocked", how: "unauthorized" }, memory: session.memory() };
        if (res.status === 403) return { pages, stopped: { kind: "blocked", how: looksLikeBotCheck(res.body.subarray(0, 4096).toString("utf8")) ? "captcha" : "forbidden" }, memory: session.memory() };
        if (res.status === 404 || res.status === 410) {
          pages.push({ handle, outcome: { kind: "gone", status: res.status } });
          continue;
        }
        if (res.status !== 200) {
          pages.push({ handle, outcome: { kind: "failed", reason: `the page answered ${res.status}` } });
          continue;
        }
        const html = res.text();
        // A challenge page answering 200 carries no structured data; a real page that loads a bot-detection script does.
        if (jsonLdBlocks(html).length === 0 && looksLikeBotCheck(html.slice(0, 8192))) return { pages, stopped: { kind: "blocked", how: "captcha" }, memory: session.memory() };
        pages.push({ handle, outcome: { kind: "read", reading: readReviewCount(html, handle) } });
      }
      return { pages, stopped: null, memory: session.memory() };
    },
  };
}
