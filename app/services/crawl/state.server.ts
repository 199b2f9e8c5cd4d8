// What the polite crawler keeps on a store row between reads (docs/decisions/088) and what a failed read sets:
// - the crawl memory (robots.txt per host for a day, the catalogue pages' validators, the moment before which no
//   request may go to the store, from whichever process read it last) read from and written to its three columns;
// - a failed read's state: "robots" (robots.txt forbids the catalogue: not counted as a failure, looked at again
//   when the kept robots.txt expires), "blocked" (a wall for bots, 401/403, a captcha or a password page: counted,
//   parked after too many), a long Retry-After (the next try waits for it), or the ordinary "failing". Every state
//   comes with the sentence the store page shows and the moment of the next try. Products are never touched here:
//   a store we could not read keeps the catalogue of its last read, and nothing is counted as removed.
import type { Db } from "~/db.server";
import { COMPETITOR_RULES, failureBackoffMs, nextSlotMs, parkedSentence } from "~/domain/competitors/competitors";
import { blockedSentence, CRAWL_RULES, parseCrawlMemory, robotsSentence, slowDownSentence, trimCrawlMemory, whenSentence, type CrawlMemory } from "~/domain/crawl/politeness";
import { StorefrontError } from "~/integrations/shopify-storefront.server";

/** The three columns a crawl memory is kept in. */
export function memoryColumns(memory: CrawlMemory): { robots: string | null; validators: string | null; nextRequestAt: Date | null } {
  const kept = trimCrawlMemory(memory);
  return {
    robots: Object.keys(kept.robots).length > 0 ? JSON.stringify(kept.robots) : null,
    validators: Object.keys(kept.validators).length > 0 ? JSON.stringify(kept.validators) : null,
    nextRequestAt: kept.notBeforeMs !== null ? new Date(kept.notBeforeMs) : null,
  };
}

/**
 * The store's kept memory. A store never read successfully sends no validators: a 304 means "as at your last read",
 * and there is no last read to stand.
 */
export async function loadMemory(db: Db, storeId: number, everRead: boolean): Promise<CrawlMemory> {
  const row = await db.competitorStore.findUnique({ where: { id: storeId }, select: { robots: true, validators: true, nextRequestAt: true } });
  const memory = parseCrawlMemory(row?.robots ?? null, everRead ? (row?.validators ?? null) : null, row?.nextRequestAt ?? null);
  return memory;
}

export interface FailureState {
  status: "failing" | "blocked" | "robots" | "parked";
  sentence: string;
  /** The failures in a row after this one (a robots.txt refusal does not add one). */
  failures: number;
  /** null when parked. */
  nextCheckAt: Date | null;
  parked: boolean;
}

export interface FailureRules {
  operatorIntervalMs: number;
  parkAfterFailures?: number;
  backoff?: { baseMs?: number; maxMs?: number };
}

/** What a failed read makes of the store: its state, sentence, failure count and next try. */
export function failureState(
  rules: FailureRules,
  store: { id: number; domain: string; failures: number },
  failure: { sentence: string; error: StorefrontError | null },
  atMs: number,
  followed: boolean,
): FailureState {
  const error = failure.error;
  if (error?.reason === "robots") {
    // Not the store failing: it asked us not to. Looked at again when the kept robots.txt expires.
    const next = new Date(atMs + CRAWL_RULES.robotsCacheMs);
    const why = error.detail.robots ?? { kind: "disallowed" as const, path: "/products.json", rule: "/products.json" };
    return { status: "robots", sentence: robotsSentence(store.domain, why, next), failures: store.failures, nextCheckAt: next, parked: false };
  }
  const failures = store.failures + 1;
  const park = failures >= (rules.parkAfterFailures ?? COMPETITOR_RULES.parkAfterFailures);
  // An operator-only store waits at least until its next slot: a daily store is not retried every 30 minutes.
  const backoff = atMs + failureBackoffMs(failures, rules.backoff);
  let retryAt = followed ? backoff : Math.max(backoff, nextSlotMs(store.id, atMs, rules.operatorIntervalMs));
  let status: FailureState["status"] = "failing";
  let sentence = failure.sentence;
  if (error?.reason === "rate-limited" && error.detail.retryAtMs !== undefined) {
    retryAt = Math.max(retryAt, error.detail.retryAtMs);
    sentence = slowDownSentence(store.domain, new Date(retryAt));
  } else if (error?.reason === "blocked" && error.detail.blockedHow) {
    status = "blocked";
    sentence = blockedSentence(store.domain, error.detail.blockedHow, park ? null : new Date(retryAt));
  } else if (error?.reason === "password-protected") {
    status = "blocked";
    sentence = `${failure.sentence} Its products stay as they were at the last read, and none is counted as removed.${park ? "" : ` We will try again ${whenSentence(new Date(retryAt))}.`}`;
  }
  if (park) return { status: "parked", sentence: parkedSentence(failures, sentence), failures, nextCheckAt: null, parked: true };
  return { status, sentence, failures, nextCheckAt: new Date(retryAt), parked: false };
}
