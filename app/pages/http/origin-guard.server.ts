// State-changing requests must come from our own pages (docs/decisions/021). A browser attaches the site
// cookie to a request another website makes it send; the Origin header (or, without one, Sec-Fetch-Site)
// says which site that was. One check, used at three places: the server before Remix (which would
// otherwise answer a foreign form POST with a bare 500), the site guards (cookie-authenticated JSON APIs),
// and readForm/readJson (every form and JSON body).
import { getEnv } from "~/env.server";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const CROSS_SITE_MESSAGE =
  "This request was sent by another website, so it was refused and nothing was changed. Use Winning Products from its own pages.";

function originOf(url: string | undefined | null): string | null {
  return url && URL.canParse(url) ? new URL(url).origin : null;
}

/** Our origin: the request's own, APP_URL and SHOPIFY_APP_URL; or the Host a proxy forwarded (as Remix compares). */
function isOurOrigin(origin: string, request: Request): boolean {
  if (origin === "null" || !URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  const env = getEnv();
  const ours = [new URL(request.url).origin, originOf(env.APP_URL), originOf(env.SHOPIFY_APP_URL)];
  if (ours.includes(parsed.origin)) return true;
  // Remix's own check compares the Origin's host with X-Forwarded-Host, else Host. A page of another
  // site cannot choose these headers for the browser it borrows, so they may vouch for our host.
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || request.headers.get("host");
  return Boolean(host) && parsed.host === host;
}

/**
 * True when a state-changing request was sent by a page of another site. Exempt: safe methods, and
 * requests carrying an Authorization bearer token (the embedded app's Shopify session token: a foreign
 * page cannot make a browser send it). A request with neither Origin nor Sec-Fetch-Site comes from a
 * program, not a browser: it is let through, since no program holds a victim's cookie unless given it.
 */
export function isCrossSite(request: Request): boolean {
  if (!STATE_CHANGING.has(request.method.toUpperCase())) return false;
  if (/^Bearer\s/i.test(request.headers.get("authorization") ?? "")) return false;
  const origin = request.headers.get("origin");
  if (origin !== null) return !isOurOrigin(origin.trim(), request);
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  return false;
}

function crossSiteResponse(): Response {
  return Response.json({ error: CROSS_SITE_MESSAGE }, { status: 403 });
}

/** Throws the 403 answer when the request was sent by another site. */
export function refuseCrossSite(request: Request): void {
  if (isCrossSite(request)) throw crossSiteResponse();
}

/**
 * The server's check before Remix handles a request (server/index.mjs, through app/entry.server.tsx):
 * the 403 answer, or null to go on. Webhooks are signed by their sender, never by a browser.
 */
export function crossSiteRefusal(request: Request): Response | null {
  if (new URL(request.url).pathname.startsWith("/webhooks/")) return null;
  return isCrossSite(request) ? crossSiteResponse() : null;
}
