// The `headers` export of a page whose action or loader can be refused by a rate limit. Remix builds a page's
// headers (a document, or a `.data` answer to a form sent with JavaScript) from the route's `headers` export and
// drops an action's own headers when there is none, so a 429 that errorHeaders gave a Retry-After
// (app/pages/http/http.server.ts) would reach the browser without it. Each such route exports one of these.
import type { HeadersFunction } from "@remix-run/node";

const RETRY_AFTER = "Retry-After";

/** The Retry-After an action, loader or boundary answer carried, passed on; the page's own headers besides. */
export function pageHeaders(own: Record<string, string> = {}): HeadersFunction {
  return ({ actionHeaders, loaderHeaders, errorHeaders }) => {
    const headers = new Headers(own);
    const retryAfter = [actionHeaders, loaderHeaders, errorHeaders].map((h) => h?.get(RETRY_AFTER)).find(Boolean);
    if (retryAfter) headers.set(RETRY_AFTER, retryAfter);
    return headers;
  };
}

/** For a page with no headers of its own: only a refusal's Retry-After. */
export const retryAfterHeaders: HeadersFunction = pageHeaders();
