// API keys for the public API (/api/v1) and the MCP server (/mcp), docs/decisions/053: what a key looks like,
// what it may do, how much it may be used, and the sentences its refusals say. Pure: the key's random bytes
// and its hash are made by app/services/api-access/api-keys.server.ts.
import { paidState, type PaidStateInput } from "~/domain/billing/billing";

/** "wpk_" and 32 letters or digits: about 190 bits, so a plain SHA-256 of it is a safe thing to store. */
export const API_KEY_PATTERN = /^wpk_[A-Za-z0-9]{32}$/;
export const API_KEY_BODY_LENGTH = 32;
export const API_KEY_PREFIX = "wpk_";

/** The part of a key its owner sees in the list afterwards ("wpk_AbC12345"): enough to tell keys apart. */
export function visiblePrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 8);
}

/** What a key may do. Only reading exists today; write scopes will be added beside it. */
export const API_SCOPES = ["read"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Keys a user may hold at once (revoked ones do not count). */
export const MAX_ACTIVE_KEYS = 10;
export const MAX_KEY_NAME = 60;

/** Calls a minute, per key and per user (every key of a user together). */
export const CALLS_PER_MINUTE = 120;

/** Calls in a 30-day window by plan: the monthly allowance shown on the account page. */
export const ALLOWANCE_WINDOW_DAYS = 30;
export function monthlyAllowance(user: PaidStateInput): number {
  const { reason } = paidState(user);
  if (reason === "inner-circle") return 200_000;
  return 50_000;
}

/** Who may hold and use keys: the paid states that see insights (docs/decisions/013). */
export function apiAccess(user: PaidStateInput): { allowed: boolean; lockedReason: string | null } {
  const { paid } = paidState(user);
  return {
    allowed: paid,
    lockedReason: paid ? null : "The API and the MCP server are part of every plan: start your free trial to create a key.",
  };
}

export const API_SENTENCES = {
  missingKey: "Send your API key as Authorization: Bearer KEY. Create one on your account page.",
  badKey: "That API key is not valid. Check it, or create a new one on your account page.",
  revokedKey: "That API key was revoked. Create a new one on your account page.",
  planEnded: "Your plan has ended, so your API keys no longer work. Choose a plan to use them again.",
  wrongScope: (scope: string) => `This API key may not do that: it needs the "${scope}" scope.`,
  keyNotFound: "There is no API key with that id on your account.",
  tooManyKeys: `You can keep up to ${MAX_ACTIVE_KEYS} API keys. Revoke one first.`,
  perMinute: (retryIn: string) => `Too many API calls: this key or account is over ${CALLS_PER_MINUTE} a minute. Try again ${retryIn}.`,
  monthly: (retryIn: string) => `This account has used its monthly API allowance. It renews ${retryIn}.`,
} as const;
