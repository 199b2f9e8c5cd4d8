// Why a listing's picture could not be read, and when it is tried again (docs/decisions/091).
// A failure is either permanent (the address answers 404/410 or another refusal, the file is not an image, it
// is too large or has too many pixels, the address is not one we fetch): said once, not tried again until the
// listing's main picture URL changes; or transient (a timeout, a reset or unreachable server, a 5xx, 408/425/429):
// tried again with a doubling backoff, honouring Retry-After, and never given up on. Either way the listing is in
// the catalogue already, placed on its other evidence (decision 091): a picture only adds evidence.
// Pure: no I/O, no clock (times are passed in).

/** What went wrong, as the picture fetcher saw it. */
export type PictureFailureCode =
  | "not-found"
  | "refused-status"
  | "not-an-image"
  | "too-large"
  | "not-fetchable"
  | "unreadable"
  | "timeout"
  | "unreachable"
  | "server-error"
  | "rate-limited";

export type PictureFailureKind = "permanent" | "transient";

/** The facts a failed fetch carries (the adapter fills them in; classifyPictureFailure decides). */
export interface PictureFetchFailure {
  /** The fetcher's kind: a SafeFetchError kind, "status" for an HTTP answer other than 200, or an image check. */
  kind: "invalid-url" | "refused" | "unreachable" | "timeout" | "too-large" | "too-many-redirects" | "bad-response" | "status" | "not-an-image" | "too-many-pixels" | "undecodable";
  status?: number;
  /** The Retry-After header as sent (seconds or an HTTP date). */
  retryAfter?: string;
}

export interface PictureFailure {
  code: PictureFailureCode;
  kind: PictureFailureKind;
  /** Milliseconds the server asked us to wait (Retry-After), when it did. */
  retryAfterMs: number | null;
}

export const PICTURE_RETRY = {
  /** The first retry of a transient failure comes this long after it. */
  firstMs: 5 * 60_000,
  /** Each further failure doubles the wait, up to this. */
  maxMs: 6 * 3_600_000,
  /** A Retry-After longer than this is capped (a server asking for a week is retried daily). */
  maxRetryAfterMs: 24 * 3_600_000,
} as const;

/** Retry-After in milliseconds from its value (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

export function classifyPictureFailure(failure: PictureFetchFailure, nowMs: number): PictureFailure {
  const permanent = (code: PictureFailureCode): PictureFailure => ({ code, kind: "permanent", retryAfterMs: null });
  const transient = (code: PictureFailureCode, retryAfterMs: number | null = null): PictureFailure => ({ code, kind: "transient", retryAfterMs });
  switch (failure.kind) {
    case "timeout":
      return transient("timeout");
    case "unreachable":
    case "bad-response":
      return transient("unreachable");
    case "too-large":
    case "too-many-pixels":
      return permanent("too-large");
    case "not-an-image":
      return permanent("not-an-image");
    case "undecodable":
      return permanent("unreadable");
    case "invalid-url":
    case "refused":
    case "too-many-redirects":
      return permanent("not-fetchable");
    case "status": {
      const status = failure.status ?? 0;
      if (status === 429) return transient("rate-limited", parseRetryAfter(failure.retryAfter, nowMs));
      if (status === 408 || status === 425) return transient("timeout");
      if (status >= 500) return transient("server-error", parseRetryAfter(failure.retryAfter, nowMs));
      if (status === 404 || status === 410) return permanent("not-found");
      return permanent("refused-status");
    }
  }
}

/**
 * When a transient failure is tried again: 5 minutes after the first failure, doubling with each failure in a row
 * up to 6 hours, and never sooner than the server's Retry-After (capped at a day). Never null: it never gives up.
 */
export function nextPictureTry(failuresInARow: number, atMs: number, retryAfterMs: number | null): Date {
  const exponent = Math.min(Math.max(failuresInARow, 1) - 1, 20);
  const backoff = Math.min(PICTURE_RETRY.firstMs * 2 ** exponent, PICTURE_RETRY.maxMs);
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, PICTURE_RETRY.maxRetryAfterMs);
  return new Date(atMs + Math.max(backoff, asked));
}

const WHY: Record<PictureFailureCode, string> = {
  "not-found": "the picture is not there any more",
  "refused-status": "the picture's server refuses to send it",
  "not-an-image": "the picture's address does not hold an image",
  "too-large": "the picture is too large to read",
  "not-fetchable": "the picture's address is not one we fetch",
  unreadable: "the picture could not be decoded",
  timeout: "the picture's server was too slow to answer",
  unreachable: "the picture's server could not be reached",
  "server-error": "the picture's server had an error",
  "rate-limited": "the picture's server asked us to slow down",
};

/** A short phrase for a failure code ("the picture's server could not be reached"). */
export function pictureFailurePhrase(code: string | null): string {
  return code !== null && code in WHY ? WHY[code as PictureFailureCode] : "the picture could not be read";
}

/** A listing's picture as the product page and the operator see it. */
export interface PictureState {
  /** "ok", "pending" (waiting or retrying), "failed" (permanent), or "none" (the store shows no picture). */
  status: "ok" | "pending" | "failed" | "none";
  failure: string | null;
  retryAt: Date | null;
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * What a listing placed without its picture says about it: "no picture: the store shows none", "no picture yet:
 * the picture's server could not be reached; tried again at 2026-12-07 14:05 UTC", "no picture: the picture is not
 * there any more". Null when the picture is in.
 */
export function noPictureSentence(state: PictureState): string | null {
  if (state.status === "ok") return null;
  if (state.status === "none") return "no picture: the store shows none; placed on its title, vendor and price";
  if (state.status === "failed") return `no picture: ${pictureFailurePhrase(state.failure)}; placed on its title, vendor and price`;
  if (state.failure === null) return "no picture yet: it is waiting to be read; placed on its title, vendor and price for now";
  const when = state.retryAt ? `; tried again at ${utc(state.retryAt)}` : "";
  return `no picture yet: ${pictureFailurePhrase(state.failure)}${when}; placed on its title, vendor and price for now`;
}
