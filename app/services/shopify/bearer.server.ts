// A Shopify session token sent by the embedded app as a bearer token to our JSON APIs: the shop it was
// issued for, and the site user that shop is linked to (docs/decisions/014). Reading the header is the
// page layer's (app/pages/http/site-session.server.ts); this module only judges the token.
import { jwtVerify } from "jose";
import { AppError } from "~/domain/errors";
import type { Db } from "~/db.server";
import { getEnv } from "~/env.server";
import { findLinkedUserId } from "~/services/shopify/stores.server";
import { UNLINKED } from "~/domain/shopify/handoff";

/** The shop a valid Shopify session token (HS256 with our secret, our client id as aud, not expired) was issued for. */
async function verifyShopifySessionToken(token: string): Promise<{ shop: string } | null> {
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

export { UNLINKED };

/** The id of the user the token's shop is linked to; AppError 401 for a bad or expired token or an unlinked shop. */
export async function shopifyTokenUserId(db: Db, token: string): Promise<string> {
  const verified = await verifyShopifySessionToken(token);
  if (!verified) {
    throw new AppError(
      401,
      "The bearer token is not a valid Shopify session token (or it expired). Reload the app in Shopify admin.",
    );
  }
  const userId = await findLinkedUserId(db, verified.shop);
  if (!userId) throw new AppError(401, UNLINKED(verified.shop));
  return userId;
}
