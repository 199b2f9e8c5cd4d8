// What Shopify sends us, made for real with the test app's credentials: session tokens (HS256 JWTs
// signed with the API secret, as App Bridge gets them from Shopify admin), webhook HMACs, and the
// offline session row the library stores after a token exchange. Used by the integration and the
// end-to-end tests, so it imports nothing from the app.
import { createHmac, randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { TEST_SHOPIFY_API_KEY, TEST_SHOPIFY_API_SECRET } from "./test-env";

export const TEST_SCOPES = "write_products,read_themes";

export interface SessionTokenOptions {
  shop: string;
  /** The app's client id (the token's aud). */
  apiKey?: string;
  /** The secret that signs the token; anything but the app's secret makes a forgery. */
  secret?: string;
  /** Seconds since the epoch when the token was issued; now by default. */
  issuedAt?: number;
  /** Lifetime in seconds (Shopify issues one-minute tokens). */
  ttlSeconds?: number;
  /** The staff member's user id. */
  userId?: string;
}

/** A Shopify session token, as App Bridge receives it from Shopify admin. */
export async function signSessionToken(options: SessionTokenOptions): Promise<string> {
  const iat = options.issuedAt ?? Math.floor(Date.now() / 1000);
  const secret = new TextEncoder().encode(options.secret ?? TEST_SHOPIFY_API_SECRET);
  return new SignJWT({ dest: `https://${options.shop}`, sid: randomUUID() })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(`https://${options.shop}/admin`)
    .setAudience(options.apiKey ?? TEST_SHOPIFY_API_KEY)
    .setSubject(options.userId ?? "42")
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + (options.ttlSeconds ?? 60))
    .setJti(randomUUID())
    .sign(secret);
}

/** The X-Shopify-Hmac-Sha256 header: base64 HMAC-SHA256 of the raw body with the app's secret. */
export function webhookHmac(rawBody: string, secret: string = TEST_SHOPIFY_API_SECRET): string {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest("base64");
}

/** A random, valid shop domain, so tests never share a shop. */
export function uniqueShop(prefix = "shop"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}.myshopify.com`;
}

/**
 * The Session row an installed shop has: an offline token that expires (expiringOfflineAccessTokens)
 * and its refresh token. Column names are those of prisma/schema.prisma's Session model.
 */
export function offlineSessionRow(shop: string, overrides: { expires?: Date; scope?: string } = {}) {
  const now = Date.now();
  return {
    id: `offline_${shop}`,
    shop,
    state: "",
    isOnline: false,
    scope: overrides.scope ?? TEST_SCOPES,
    accessToken: `shpat_test_${randomUUID().replace(/-/g, "")}`,
    expires: overrides.expires ?? new Date(now + 3600_000),
    refreshToken: `shprt_test_${randomUUID().replace(/-/g, "")}`,
    refreshTokenExpires: new Date(now + 90 * 24 * 3600_000),
  };
}

/** A base64 `host` parameter, as Shopify admin adds it to the app's URL. */
export function adminHostParam(shop: string): string {
  return Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, "")}`).toString("base64");
}
