// The embedded app's guards over HTTP: Shopify proves the shop (authenticate.admin: session token, or
// the library's bounce and exit-iframe pages); the shop's link says which site user it acts as
// (app/services/accounts/embedded-auth.server.ts). An unlinked shop is sent to the linking screen.
import { redirect } from "@remix-run/node";
import { AppError } from "~/domain/errors";
import { shopifyAppEnabled } from "~/env.server";
import { childLogger } from "~/logger.server";
import type { User } from "~/services/accounts/auth.server";
import { embeddedAuth } from "~/services/index.server";
import { toErrorResponse } from "~/pages/http/http.server";
import { authenticateAdmin } from "~/shopify.server";

type AdminContext = Awaited<ReturnType<typeof authenticateAdmin>>;

/**
 * Shopify proves the shop (authenticateAdmin). When Shopify cannot be reached or fails, the page answers
 * 503 (with Retry-After) or 502 and a sentence instead of a 500; the library's own answers pass through.
 */
export async function requireShopifyAdmin(request: Request): Promise<AdminContext> {
  try {
    return await authenticateAdmin(request);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const response = toErrorResponse(error);
    if (error.status === 503) response.headers.set("Retry-After", "60");
    throw response;
  }
}

/** /app/link with the request's query (embedded, shop, host, id_token), so the library can authenticate it too. */
export function linkScreenUrl(request: Request): string {
  return withEmbeddedParams(request, "/app/link");
}

export function withEmbeddedParams(request: Request, path: string): string {
  const params = new URLSearchParams(new URL(request.url).search);
  for (const internal of ["_data", "_routes", "index"]) params.delete(internal);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Shopify admin's `host` parameter is base64 of the admin's host and path (admin.shopify.com/store/x).
 * One that is not (a typo, a probe) is refused with 400 before the library reads it.
 */
export function refuseMalformedHost(request: Request): void {
  refuseWhenShopifyOff(request);
  const host = new URL(request.url).searchParams.get("host");
  if (host === null) return;
  const base64 = /^[A-Za-z0-9+/_-]+={0,2}$/.test(host) ? Buffer.from(host, "base64").toString("utf8") : "";
  if (!/^[a-z0-9.-]+(:\d+)?(\/[\w.-]+)*\/?$/i.test(base64)) {
    throw Response.json(
      { error: "The host parameter is not one Shopify admin sends. Open Winning Products from your Shopify admin." },
      { status: 400 },
    );
  }
}

/**
 * With SHOPIFY_APP=off (no Shopify keys, decision 020) there is no embedded app: its pages answer 404
 * with a sentence instead of running Shopify's authentication with a secret nobody has.
 */
function refuseWhenShopifyOff(request: Request): void {
  if (!shopifyAppEnabled()) {
    // The merchant reads a sentence; the operator reads why in the log.
    childLogger("embedded").info({ path: new URL(request.url).pathname }, "embedded page refused: SHOPIFY_APP=off");
    throw Response.json(
      { error: "The Shopify app is not set up on this server. Use the Winning Products website instead." },
      { status: 404 },
    );
  }
}

/** Every embedded page: the shop (authenticate.admin) and the user it is linked to. */
export async function requireEmbeddedUser(
  request: Request,
): Promise<{ session: AdminContext["session"]; admin: AdminContext["admin"]; user: User }> {
  refuseMalformedHost(request);
  const context = await requireShopifyAdmin(request);
  const user = await embeddedAuth.linkedUser(context.session.shop);
  if (!user) throw redirect(linkScreenUrl(request));
  return { session: context.session, admin: context.admin, user };
}

/** The embedded shell and the linking screen: the shop, and its linked user id (null = not linked yet). */
export async function requireShop(request: Request): Promise<{ shop: string; linkedUserId: string | null }> {
  refuseMalformedHost(request);
  const { session } = await requireShopifyAdmin(request);
  return { shop: session.shop, linkedUserId: await embeddedAuth.linkedUserId(session.shop) };
}
