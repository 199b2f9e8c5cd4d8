// Where a visitor goes after signing in: the page they asked for, carried as ?redirectTo= by the guard's
// redirect to the landing page (seed §2: anonymous visitors of /dashboard and /pay are sent to "/"), by the
// landing page's "Log in" links, and by the login form. Only a path on this site is accepted, so the parameter can
// never send a user to another origin (an "open redirect"): "//evil.com", "/\evil", "https://..." and
// anything else that is not a single "/" followed by a path are refused.

/** The query parameter that carries the page asked for. */
export const REDIRECT_TO_PARAM = "redirectTo";

const BASE = "http://same.invalid";

/** `value` if it is a same-origin path ("/dashboard/x?y=1"), else null. */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  // Browsers read "\" as "/" in a URL ("/\evil.com" is "//evil.com"); control characters and spaces
  // are stripped or rejected inconsistently: none of them belongs in a path we produce.
  if (value.includes("\\") || /\s/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page's URL for a visitor who asked for `path` ("/login" alone when there is nothing to return to). */
export function loginPathFor(path: string | null): string {
  const safe = safeRedirectPath(path);
  return safe && safe !== "/" ? `/login?${REDIRECT_TO_PARAM}=${encodeURIComponent(safe)}` : "/login";
}

/** The landing page for an anonymous visitor who asked for `path` (seed §2), carrying it for the "Log in" links. */
export function landingPathFor(path: string | null): string {
  const safe = safeRedirectPath(path);
  return safe && safe !== "/" ? `/?${REDIRECT_TO_PARAM}=${encodeURIComponent(safe)}` : "/";
}
