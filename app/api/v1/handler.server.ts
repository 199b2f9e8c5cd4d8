// How every /api/v1 call is answered (docs/decisions/053): only `Authorization: Bearer KEY` authenticates (cookies
// are ignored, so there is no CSRF to guard against and any origin may call: CORS is open), the key's scope is
// checked, the call is counted per key and per user (RateLimit-* headers on the answer, 429 with Retry-After and
// a sentence over the limit), then the operation runs. An expected failure is `{ error, ...details }` with its
// status; the key itself never appears in an answer or a log line.
import { AppError } from "~/domain/errors";
import type { ApiScope } from "~/domain/accounts/api-keys";
import { childLogger } from "~/logger.server";
import type { Operation } from "~/api/v1/answers.server";
import type { ApiCaller } from "~/services/api-access/api-keys.server";
import type { RateLimitStatus } from "~/services/api-access/rate-limits.server";
import { apiKeys } from "~/services/index.server";

const log = childLogger("api-v1");

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Expose-Headers": "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, X-Allowance-Remaining, Mcp-Session-Id, WWW-Authenticate",
  "Access-Control-Max-Age": "600",
};

/** The bearer token of the request, or null (a cookie is never looked at). */
export function bearerToken(request: Request): string | null {
  return bearerTokenOf(request.headers.get("authorization"));
}

function bearerTokenOf(authorization: string | null): string | null {
  return authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
}

export interface CallCounts {
  minute: RateLimitStatus;
  month: RateLimitStatus;
}

export function limitHeaders(counts: CallCounts | null): Record<string, string> {
  if (!counts) return {};
  return {
    "RateLimit-Limit": String(counts.minute.limit),
    "RateLimit-Remaining": String(counts.minute.remaining),
    "RateLimit-Reset": String(counts.minute.resetSeconds),
    "RateLimit-Policy": `${counts.minute.limit};w=60`,
    "X-Allowance-Remaining": String(counts.month.remaining),
  };
}

/** The caller and the call counted; AppError 401/403/429 otherwise. */
export async function authenticateAndCount(request: Request, scope: ApiScope): Promise<{ caller: ApiCaller; counts: CallCounts }> {
  const caller = await apiKeys.authenticate(bearerToken(request), scope);
  const counts = await apiKeys.countCall(caller);
  return { caller, counts };
}

/** One /api/v1 call as the handler needs it: a Fetch Request has it, and so does the server's lean path (lean.server.ts). */
export interface ApiCall {
  method: string;
  /** The absolute URL the caller asked for (answers link to the same origin). */
  url: string;
  /** The Authorization header, or null. */
  authorization: string | null;
}

/** An answer before it is sent: a Fetch Response (apiResponse) or written straight to a socket (server/index.mjs). */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or null for no body. */
  body: string | null;
}

const json = (status: number, body: unknown, headers: Record<string, string>): ApiAnswer => ({
  status,
  headers: { ...headers, "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/** The Fetch Response of an answer, as the routes return it. */
export function apiResponse(answer: ApiAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The parts of a Request the handler reads. */
export function apiCallOf(request: Request): ApiCall {
  return { method: request.method, url: request.url, authorization: request.headers.get("authorization") };
}

/**
 * The challenge of a 401 (RFC 6750 3.1): a request that sent no bearer token at all (none, or another scheme) is told
 * only that a Bearer key is needed, with no error code (the client did not know it needed one); a token that is
 * malformed, unknown or revoked is `error="invalid_token"`.
 */
export function bearerChallenge(authorization: string | null): string {
  return bearerTokenOf(authorization) === null ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"';
}

/**
 * An expected failure as the API answers it: JSON, its status, CORS, and Retry-After / WWW-Authenticate / RateLimit-*.
 * @param authorization the request's Authorization header (a 401's challenge depends on it)
 */
export function apiErrorAnswer(error: AppError, authorization: string | null, counts: CallCounts | null = null): ApiAnswer {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...limitHeaders(counts), "Cache-Control": "no-store" };
  if (typeof error.details.retryAfterSeconds === "number") headers["Retry-After"] = String(error.details.retryAfterSeconds);
  const rateLimit = error.details.rateLimit as RateLimitStatus | undefined;
  if (error.status === 429 && rateLimit) {
    headers["RateLimit-Limit"] = String(rateLimit.limit);
    headers["RateLimit-Remaining"] = "0";
    headers["RateLimit-Reset"] = String(rateLimit.resetSeconds);
  }
  if (error.status === 401) headers["WWW-Authenticate"] = bearerChallenge(authorization);
  return json(error.status, error.toJSON(), headers);
}

/** A thrown Response from a shared page helper (a 400 it wrote in its own words) with the API's headers added. */
async function withApiHeaders(response: Response, counts: CallCounts | null): Promise<ApiAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  for (const [k, v] of Object.entries({ ...CORS_HEADERS, ...limitHeaders(counts) })) {
    delete headers[k.toLowerCase()];
    headers[k] = v;
  }
  return { status: response.status, headers, body: response.body ? await response.text() : null };
}

/** Answers one API operation (the routes, and the server's lean path for the search: one implementation). */
export async function answerApiCall(op: Operation, call: ApiCall, params: Record<string, string | undefined>): Promise<ApiAnswer> {
  if (call.method === "OPTIONS") return { status: 204, headers: { ...CORS_HEADERS }, body: null };
  if (call.method !== "GET" && call.method !== "HEAD") {
    return json(405, { error: "Use GET." }, { ...CORS_HEADERS, Allow: "GET, OPTIONS" });
  }
  let counts: CallCounts | null = null;
  try {
    const caller = await apiKeys.authenticate(bearerTokenOf(call.authorization), "read");
    counts = await apiKeys.countCall(caller);
    const body = await op.run({ user: caller.user, request: call, params, query: new URL(call.url).searchParams });
    return json(200, body, { ...CORS_HEADERS, ...limitHeaders(counts), "Cache-Control": "private, no-store" });
  } catch (error) {
    if (error instanceof AppError) {
      if (error.status >= 500) log.warn({ operation: op.operationId, status: error.status, err: error.details.cause }, error.message);
      return apiErrorAnswer(error, call.authorization, counts);
    }
    if (error instanceof Response) return withApiHeaders(error, counts);
    throw error;
  }
}

/** Answers one API operation as a route does. */
export async function answerOperation(op: Operation, request: Request, params: Record<string, string | undefined>): Promise<Response> {
  return apiResponse(await answerApiCall(op, apiCallOf(request), params));
}

/** A browser's CORS preflight: any origin may call with a key. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
