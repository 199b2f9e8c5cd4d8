// Which standalone-site requests are sent elsewhere before they render (seed §2).
import { landingPathFor } from "~/domain/accounts/redirect-to";

export interface GuardInput {
  pathname: string;
  searchParams: URLSearchParams;
  signedIn: boolean;
  hasSubscriptionId: boolean;
}

const PROTECTED_PREFIXES = ["/dashboard", "/pay"];

function underPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** Paths of the standalone site the guard applies to; the embedded app, webhooks and APIs have their own auth. */
export function isSitePath(pathname: string): boolean {
  return !["/app", "/auth", "/webhooks", "/api", "/healthz"].some((p) => underPrefix(pathname, p));
}

/**
 * Returns where to redirect, or null to render.
 * - Anonymous on /dashboard…, /pay… -> "/?redirectTo={the page}" (seed §2), back there once signed in.
 * - Anonymous on any other URL with location=checkout -> "/".
 * - Signed in with a subscription_id and location=checkout -> "/dashboard?location=dashboard".
 */
export function siteGuardRedirect(input: GuardInput): string | null {
  if (!isSitePath(input.pathname)) return null;
  const checkout = input.searchParams.get("location") === "checkout";
  if (!input.signedIn) {
    const protectedPath = PROTECTED_PREFIXES.some((p) => underPrefix(input.pathname, p));
    if (protectedPath) return landingPathFor(`${input.pathname}${input.searchParams.size ? `?${input.searchParams}` : ""}`);
    return checkout ? "/" : null;
  }
  if (checkout && input.hasSubscriptionId) return "/dashboard?location=dashboard";
  return null;
}
