// How every /api/v1 call is answered (docs/decisions/053): only `Authorization: Bearer KEY` authenticates (cookies
// are ignored, so there is no CSRF to guard against and any origin may call: CORS is open), the key's scope is
// checked, the call is counted per key and per user (RateLimit-* headers on the answer, 429 with Retry-After and
// a sentence over the limit), then the operation runs. An expected failure is `{ error, ...details }` with its
// status; the key itself never appears in an answer or a log line.
import { AppError } from "~/domain/errors";
import type { ApiScope } from "~/domain/api-keys";
import { childLogger } from "~/logger.server";
import type { Operation } from "~/pages/api-v1/answers.server";
import type { ApiCaller } from "~/services/api-keys.server";
import type { RateLimitStatus } from "~/services/rate-limits.server";
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
  return request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? null;
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

/** An expected failure as the API answers it: JSON, its status, CORS, and Retry-After / WWW-Authenticate / RateLimit-*. */
export function apiErrorResponse(error: AppError, counts: CallCounts | null = null): Response {
  const headers: Record<string, string> = { ...CORS_HEADERS, ...limitHeaders(counts), "Cache-Control": "no-store" };
  if (typeof error.details.retryAfterSeconds === "number") headers["Retry-After"] = String(error.details.retryAfterSeconds);
  const rateLimit = error.details.rateLimit as RateLimitStatus | undefined;
  if (error.status === 429 && rateLimit) {
    headers["RateLimit-Limit"] = String(rateLimit.limit);
    headers["RateLimit-Remaining"] = "0";
    headers["RateLimit-Reset"] = String(rateLimit.resetSeconds);
  }
  if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="api", error="invalid_token"';
  return Response.json(error.toJSON(), { status: error.status, headers });
}

/** A thrown Response from a shared page helper (a 400 it wrote in its own words) with the API's headers added. */
function withApiHeaders(response: Response, counts: CallCounts | null): Response {
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries({ ...CORS_HEADERS, ...limitHeaders(counts) })) headers.set(k, v);
  return new Response(response.body, { status: response.status, headers });
}

/** Answers one API operation. */
export async function answerOperation(op: Operation, request: Request, params: Record<string, string | undefined>): Promise<Response> {
  if (request.method === "OPTIONS") return preflight();
  if (request.method !== "GET" && request.method !== "HEAD") {
    return Response.json({ error: "Use GET." }, { status: 405, headers: { ...CORS_HEADERS, Allow: "GET, OPTIONS" } });
  }
  let counts: CallCounts | null = null;
  try {
    const done = await authenticateAndCount(request, "read");
    counts = done.counts;
    const body = await op.run({ user: done.caller.user, request, params, query: new URL(request.url).searchParams });
    return Response.json(body, { headers: { ...CORS_HEADERS, ...limitHeaders(counts), "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof AppError) {
      if (error.status >= 500) log.warn({ operation: op.operationId, status: error.status, err: error.details.cause }, error.message);
      return apiErrorResponse(error, counts);
    }
    if (error instanceof Response) return withApiHeaders(error, counts);
    throw error;
  }
}

/** A browser's CORS preflight: any origin may call with a key. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
