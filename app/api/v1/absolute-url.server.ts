// The absolute URL of a path or URL against the request's URL, as `new URL(path, base).toString()` writes it, made
// without parsing two URLs for each of a search answer's links (24 a page: a tenth of the API's own CPU a call, by
// `BENCH_PROFILE=1 npm run bench -- api`). tests/unit/api/absolute-url.test.ts holds it to the WHATWG parser's answers.

/** A path the URL parser leaves as it is: a single leading slash, no dot segment, no character it would escape. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/;
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;
/** URLs with a scheme do not depend on the base: their parse is kept (bounded). */
const ABSOLUTE_URLS = new Map<string, string>();
const ABSOLUTE_URLS_KEPT = 10_000;

let lastBase = "";
let lastOrigin = "";

function originOf(base: string): string {
  if (base !== lastBase) {
    lastOrigin = new URL(base).origin;
    lastBase = base;
  }
  return lastOrigin;
}

export function absoluteUrl(base: string, path: string): string {
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) {
    const origin = originOf(base);
    // An opaque origin ("null": file:, data:) has no host to put a path on: the parser's way.
    if (origin !== "null") return origin + path;
  } else if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) {
    let known = ABSOLUTE_URLS.get(path);
    if (known === undefined) {
      known = new URL(path).toString();
      if (ABSOLUTE_URLS.size >= ABSOLUTE_URLS_KEPT) ABSOLUTE_URLS.clear();
      ABSOLUTE_URLS.set(path, known);
    }
    return known;
  }
  return new URL(path, base).toString();
}
