// The site's session over HTTP: the signed, httpOnly cookie that carries a UserSession row's id, and the
// guards routes call. Pages: an anonymous visitor is redirected; JSON APIs: 401 with a sentence. The rows
// and accounts themselves are app/services/accounts/auth.server.ts (docs/decisions/004).
import { createCookie, redirect } from "@remix-run/node";
import { landingPathFor } from "~/domain/accounts/redirect-to";
import { getEnv, sessionSecret } from "~/env.server";
import { handleServiceErrors } from "~/pages/http/http.server";
import { refuseCrossSite } from "~/pages/http/origin-guard.server";
import type { User } from "~/services/accounts/auth.server";
import { clientIp } from "~/pages/http/client-address.server";
import { auth } from "~/services/index.server";

/** The page a request is for, as a path: Remix's own data parameters (_data, index) are not part of it. */
function pageAskedFor(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  url.searchParams.delete("index");
  const pathname = url.pathname.replace(/\.data$/, "");
  return `${pathname}${url.search}`;
}

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  const env = getEnv();
  return (cookie ??= createCookie("__session", {
    secrets: [sessionSecret(env)],
    httpOnly: true,
    sameSite: "lax",
    secure: env.NODE_ENV === "production",
    path: "/",
    maxAge: env.SESSION_TTL_DAYS * 24 * 3600,
  }));
}

/** The id of the session the request's cookie points to (signature checked), or null. */
export async function currentSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" ? value : null;
}

/** The signed-in user, or null. Expired or revoked sessions count as signed out. */
export async function getUser(request: Request): Promise<User | null> {
  const sessionId = await currentSessionId(request);
  return sessionId ? auth.sessionUser(sessionId) : null;
}

/**
 * Pages: an anonymous visitor is sent to the landing page (seed §2), which carries the page they asked for
 * to the login form (?redirectTo=, app/domain/accounts/redirect-to.ts) so they land there once signed in. A state-changing request must come from our own pages
 * (403 otherwise).
 */
export async function requireUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (!user) throw redirect(landingPathFor(pageAskedFor(request)));
  refuseCrossSite(request);
  return user;
}

/** Sign-up and log-in pages: a signed-in user goes straight to the dashboard. */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/dashboard?location=dashboard");
}

/**
 * JSON APIs: 401 instead of a redirect. The session cookie (and then, for a state-changing request,
 * our own origin: 403 otherwise), or (from the embedded app) a Shopify session token as a bearer
 * token, whose shop's linked user is the caller.
 */
export async function requireApiUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user) {
    refuseCrossSite(request);
    return user;
  }
  const token = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (token) return handleServiceErrors(async () => auth.loadUser(await auth.shopifyTokenUserId(token)));
  throw Response.json({ error: "Sign in to use this." }, { status: 401 });
}

/**
 * The seed's calls carry ?uid={uid}. It is never trusted: it must be the signed-in user's id.
 * Missing uid is accepted (the session says who it is); a different uid is 403.
 */
export async function requireUidMatch(request: Request): Promise<User> {
  const user = await requireApiUser(request);
  const uid = new URL(request.url).searchParams.get("uid");
  if (uid !== null && uid !== user.id) {
    throw Response.json({ error: "That uid is not the signed-in user." }, { status: 403 });
  }
  return user;
}

/** A new session for the user; returns the Set-Cookie header value that hands it to the browser. */
export async function createUserSession(userId: string, request: Request): Promise<string> {
  const sessionId = await auth.createSession(userId, {
    userAgent: request.headers.get("user-agent"),
    ip: clientIp(request),
  });
  return sessionCookie().serialize(sessionId);
}

/**
 * Ends the request's session (a state-changing request must come from our own pages: 403 otherwise)
 * and returns a Set-Cookie that clears the cookie.
 */
export async function logout(request: Request): Promise<string> {
  refuseCrossSite(request);
  const sessionId = await currentSessionId(request);
  if (sessionId) await auth.endSession(sessionId);
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}
