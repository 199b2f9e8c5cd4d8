// Who is acting inside the embedded app. Shopify proves the shop (session token, authenticate.admin);
// the shop's link to a site user (shopify-stores.server.ts) says which user it acts as. Inside the
// admin iframe the link is the identity: no site cookie is set there (docs/decisions/014).
// Also: a Shopify session token sent as a bearer token to our JSON APIs resolves to the linked user.
import { redirect } from "@remix-run/node";
import { jwtVerify } from "jose";
import type { Db } from "~/db.server";
import { getEnv } from "~/env.server";
import type { User } from "~/services/auth.server";
import { findLinkedUserId, syncStoreToken } from "~/services/shopify-stores.server";

/** The shop a valid Shopify session token (HS256 with our secret, our client id as aud, not expired) was issued for. */
export async function verifyShopifySessionToken(token: string): Promise<{ shop: string } | null> {
  const env = getEnv();
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(env.SHOPIFY_API_SECRET), {
      algorithms: ["HS256"],
      audience: env.SHOPIFY_API_KEY,
      // Shopify's library allows the same few seconds of clock skew.
      clockTolerance: 10,
      requiredClaims: ["exp", "dest"],
    });
    if (typeof payload.dest !== "string" || !URL.canParse(payload.dest)) return null;
    const shop = new URL(payload.dest).hostname.toLowerCase();
    // The issuer is the same shop's admin.
    if (typeof payload.iss === "string" && URL.canParse(payload.iss) && new URL(payload.iss).hostname !== shop)
      return null;
    return { shop };
  } catch {
    return null;
  }
}

export const UNLINKED = (shop: string) =>
  `The store ${shop} is not linked to a Winning Products account yet. Open Winning Products in your Shopify admin and sign in to link the store.`;

/**
 * For JSON APIs (auth.requireApiUser): with `Authorization: Bearer <Shopify session token>`, the
 * user the token's shop is linked to. Null without such a header; 401 for a bad token or an
 * unlinked shop.
 */
export async function shopifyBearerUserId(db: Db, request: Request): Promise<string | null> {
  const token = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!token) return null;
  const verified = await verifyShopifySessionToken(token);
  if (!verified) {
    throw Response.json(
      {
        error:
          "The bearer token is not a valid Shopify session token (or it expired). Reload the app in Shopify admin.",
      },
      { status: 401 },
    );
  }
  const userId = await findLinkedUserId(db, verified.shop);
  if (!userId) throw Response.json({ error: UNLINKED(verified.shop) }, { status: 401 });
  return userId;
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

interface AdminContextLike {
  session: { shop: string };
  admin: unknown;
}

export interface EmbeddedAuthDeps<C extends AdminContextLike> {
  db: Db;
  /** authenticate.admin of app/shopify.server.ts */
  authenticateAdmin: (request: Request) => Promise<C>;
  loadUser: (db: Db, userId: string) => Promise<User>;
}

export function createEmbeddedAuth<C extends AdminContextLike>({
  db,
  authenticateAdmin,
  loadUser,
}: EmbeddedAuthDeps<C>) {
  return {
    /**
     * Every embedded page: the shop (authenticate.admin) and the user it is linked to. An unlinked
     * shop is sent to the linking screen.
     */
    async requireEmbeddedUser(request: Request): Promise<{ session: C["session"]; admin: C["admin"]; user: User }> {
      const context = await authenticateAdmin(request);
      const userId = await findLinkedUserId(db, context.session.shop);
      if (!userId) throw redirect(linkScreenUrl(request));
      await syncStoreToken(db, context.session.shop);
      const user = await loadUser(db, userId);
      return { session: context.session, admin: context.admin, user };
    },

    /** The embedded shell and the linking screen: the shop, and its linked user id (null = not linked yet). */
    async requireShop(request: Request): Promise<{ shop: string; linkedUserId: string | null }> {
      const { session } = await authenticateAdmin(request);
      return { shop: session.shop, linkedUserId: await findLinkedUserId(db, session.shop) };
    },
  };
}
export type EmbeddedAuth = ReturnType<typeof createEmbeddedAuth>;
