// The server's lean path for the API's busiest call (docs/decisions/068): server/index.mjs answers
// `GET /api/v1/products` before Express and without a Fetch Request/Response, through this function, which the
// build exports from app/entry.server.tsx. It runs the very code the route runs (handler.server.ts's
// answerApiCall with the same operation), so the key check, limits, RateLimit-* headers, CORS, the query's
// checks, the search and the JSON are one implementation.
import { operation } from "~/pages/api-v1/answers.server";
import { answerApiCall, type ApiAnswer } from "~/pages/api-v1/handler.server";

/** Paths answered on the lean path, and the operation each runs (its route: app/routes/api.v1.products.tsx). */
const LEAN_OPERATIONS = new Map([["/api/v1/products", operation("searchProducts")]]);

/** Whether the lean path answers this path (the server asks before it reads anything else). */
export function leanApiPath(pathname: string): boolean {
  return LEAN_OPERATIONS.has(pathname);
}

/**
 * The answer to a GET or HEAD of a lean path, as the route would give it; null for any other path.
 * @param url the absolute URL, made as the server makes it for Remix (server/remix-request.mjs)
 */
export async function leanApiAnswer(method: string, url: string, authorization: string | null): Promise<ApiAnswer | null> {
  const op = LEAN_OPERATIONS.get(new URL(url).pathname);
  if (!op) return null;
  return answerApiCall(op, { method, url, authorization }, {});
}
