// How the competitor tracker behaves on a rival's store (docs/decisions/088): at most one request a second per
// store (or the store's crawl-delay), Retry-After honoured, conditional requests, robots.txt obeyed, and an answer
// that is a wall for bots rather than the catalogue read as "blocked", never as an empty catalogue. Pure: the
// numbers, what a kept crawl memory looks like, how an answer is classified, and the sentences a seller reads.
import { ROBOTS_RULES, type RobotsRecord } from "~/domain/crawl/robots";

export const CRAWL_RULES = {
  /** Least time between two requests to one store, whichever process sends them. */
  minGapMs: 1_000,
  /** A Retry-After up to this long is waited out inside the read; a longer one ends the read and sets the next try. */
  maxWaitInReadMs: 60_000,
  /** A Retry-After longer than this is read as this (a store cannot switch us off for a month with one header). */
  maxRetryAfterMs: 24 * 60 * 60_000,
  /** At most this many hosts' robots.txt and this many URLs' validators are kept per store. */
  maxHostsKept: 4,
  maxValidatorsKept: 60,
  robotsCacheMs: ROBOTS_RULES.cacheMs,
} as const;

/** What a catalogue URL answered last time, sent back as If-None-Match / If-Modified-Since. */
export interface Validator {
  etag: string | null;
  lastModified: string | null;
}

/** What the tracker remembers of a store between reads, per host and per URL (JSON columns of the store row). */
export interface CrawlMemory {
  /** host -> its robots.txt as last fetched. */
  robots: Record<string, RobotsRecord>;
  /** "host/path?query" -> the validators of its last 200 answer. */
  validators: Record<string, Validator>;
  /** No request to the store before this moment (epoch ms): the last request plus the gap, or a Retry-After. */
  notBeforeMs: number | null;
}

export const emptyCrawlMemory = (): CrawlMemory => ({ robots: {}, validators: {}, notBeforeMs: null });

/** Keeps the newest entries only, so a store's memory stays a few kilobytes whatever it sends. */
export function trimCrawlMemory(memory: CrawlMemory): CrawlMemory {
  const hosts = Object.entries(memory.robots)
    .sort((a, b) => Date.parse(b[1].fetchedAt) - Date.parse(a[1].fetchedAt))
    .slice(0, CRAWL_RULES.maxHostsKept);
  const validators = Object.entries(memory.validators).slice(-CRAWL_RULES.maxValidatorsKept);
  return { robots: Object.fromEntries(hosts), validators: Object.fromEntries(validators), notBeforeMs: memory.notBeforeMs };
}

/** Reads a kept memory back; anything unreadable is forgotten (then robots.txt is simply fetched again). */
export function parseCrawlMemory(robots: string | null, validators: string | null, notBefore: Date | null): CrawlMemory {
  const read = (text: string | null): Record<string, unknown> => {
    if (!text) return {};
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const robotsOut: Record<string, RobotsRecord> = {};
  for (const [host, record] of Object.entries(read(robots))) {
    const r = record as Partial<RobotsRecord> | null;
    if (r && typeof r.fetchedAt === "string" && (r.kind === "parsed" || r.kind === "missing" || r.kind === "unreachable")) {
      if (r.kind === "parsed" && !Array.isArray((r as { policy?: { rules?: unknown } }).policy?.rules)) continue;
      robotsOut[host] = r as RobotsRecord;
    }
  }
  const validatorsOut: Record<string, Validator> = {};
  for (const [url, v] of Object.entries(read(validators))) {
    const val = v as Partial<Validator> | null;
    const etag = typeof val?.etag === "string" ? val.etag : null;
    const lastModified = typeof val?.lastModified === "string" ? val.lastModified : null;
    if (etag || lastModified) validatorsOut[url] = { etag, lastModified };
  }
  return { robots: robotsOut, validators: validatorsOut, notBeforeMs: notBefore ? notBefore.getTime() : null };
}

/** Why a catalogue answer is not the catalogue: a wall for bots in its several forms. */
export type BlockedHow = "forbidden" | "unauthorized" | "captcha" | "html";

const CAPTCHA = /captcha|cf-chl|challenge-platform|cf_chl_|__cf_bm|px-captcha|perimeterx|datadome|are you a (?:human|robot)|verify (?:you are|that you are) (?:a )?human|unusual traffic|bot detection/i;

/** Whether the first part of an answer reads as a captcha or "are you human?" check (a wall for bots). */
export const looksLikeBotCheck = (bodyHead: string): boolean => CAPTCHA.test(bodyHead);

/**
 * What a catalogue URL (where JSON is expected) answered: "json" when it may be the catalogue; "blocked" with how
 * when it is a wall for bots (403, 401 without a password page, a captcha or challenge page, or an HTML page for
 * people); "other" for anything else (the caller's usual handling: 404, 5xx, ...).
 */
export function classifyCatalogueAnswer(answer: { status: number; contentType: string; bodyHead: string }): { kind: "json" } | { kind: "blocked"; how: BlockedHow } | { kind: "other" } {
  const { status, contentType, bodyHead } = answer;
  if (status === 403) return { kind: "blocked", how: CAPTCHA.test(bodyHead) ? "captcha" : "forbidden" };
  if (status === 401) return { kind: "blocked", how: "unauthorized" };
  if (status === 200 || status === 202) {
    const head = bodyHead.trimStart();
    // An HTML page by its type, or by its first tag when the type does not claim JSON (a JSON type with a broken
    // body is a broken page, not a wall).
    const html = /text\/html|application\/xhtml/i.test(contentType) || (!/json/i.test(contentType) && /^<(?:!doctype|html|head|body|script|div|meta)\b/i.test(head));
    if (CAPTCHA.test(head) && (html || !head.startsWith("{"))) return { kind: "blocked", how: "captcha" };
    if (html) return { kind: "blocked", how: "html" };
    // A 202 is a challenge page's usual answer (some walls answer 202 with a script that sets a cookie).
    if (status === 202) return { kind: "blocked", how: "html" };
    return { kind: "json" };
  }
  if (status === 429 || status === 503) {
    if (CAPTCHA.test(bodyHead)) return { kind: "blocked", how: "captcha" };
  }
  return { kind: "other" };
}

/** "on 7 Dec 2026 at 14:05 UTC": a moment as a seller reads it in a sentence. */
export function whenSentence(at: Date): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const hh = String(at.getUTCHours()).padStart(2, "0");
  const mm = String(at.getUTCMinutes()).padStart(2, "0");
  return `on ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()} at ${hh}:${mm} UTC`;
}

const KEPT = "Its products stay as they were at the last read, and none is counted as removed";

const BLOCKED_HOW: Record<BlockedHow, string> = {
  forbidden: "refused it (403 Forbidden), the way a wall for bots does",
  unauthorized: "asked for a log-in (401)",
  captcha: "answered with a captcha or a \"are you a robot?\" check instead of its catalogue",
  html: "answered with a web page for people instead of its catalogue's data (a wall for bots)",
};

/** The store page's sentence for a store whose catalogue answer was a wall for bots. */
export function blockedSentence(domain: string, how: BlockedHow, nextTryAt: Date | null): string {
  const next = nextTryAt ? ` We will try again ${whenSentence(nextTryAt)}.` : " We will not try again until you press Check now.";
  return `${domain} ${BLOCKED_HOW[how]}, so we could not read it. ${KEPT}.${next}`;
}

/** The store page's sentence for a store whose robots.txt forbids what we read (or could not be read). */
export function robotsSentence(domain: string, why: { kind: "disallowed"; path: string; rule: string } | { kind: "unreachable"; status: number | null }, nextTryAt: Date): string {
  const head =
    why.kind === "disallowed"
      ? `${domain}'s robots.txt asks crawlers like ours not to read ${why.path} (its rule "Disallow: ${why.rule.slice(0, 80)}"), so we do not read its catalogue.`
      : `${domain}'s robots.txt could not be read (${why.status === null ? "the site did not answer" : `it answered ${why.status}`}), and until it can be we read nothing there.`;
  return `${head} ${KEPT}. We will look at its robots.txt again ${whenSentence(nextTryAt)}.`;
}

/** The sentence for a store that asked us to slow down for longer than one read waits. */
export function slowDownSentence(domain: string, retryAt: Date): string {
  return `${domain} asked us to slow down (it answered 429 or 503 with Retry-After). ${KEPT}; we will try again ${whenSentence(retryAt)}.`;
}
