// The embedded Shopify app: configured once here, as in Shopify's Remix template. Merchants are
// authenticated by Shopify session tokens (token exchange); offline tokens expire and are refreshed by
// the library; sessions live in our one database through PrismaSessionStorage, wrapped so their tokens
// are encrypted at rest (EncryptedSessionStorage, docs/decisions/014).
import { createHmac, timingSafeEqual } from "node:crypto";
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { db } from "~/db.server";
import { EncryptedSessionStorage } from "~/integrations/encrypted-session-storage.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { getEnv } from "~/env.server";
import { childLogger } from "~/logger.server";

const env = getEnv();
const log = childLogger("shopify");

export const SHOPIFY_API_VERSION = ApiVersion.October26;

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: SHOPIFY_API_VERSION,
  scopes: env.SCOPES.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
  appUrl: env.SHOPIFY_APP_URL ?? env.APP_URL ?? `http://localhost:${env.PORT}`,
  authPathPrefix: "/auth",
  sessionStorage: new EncryptedSessionStorage(new PrismaSessionStorage(db), getTokenCrypto()),
  distribution: AppDistribution.AppStore,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
  // The library prints to the console by default, past LOG_LEVEL; its lines go through our one logger
  // instead. Its debug lines carry session tokens, so they are only produced when LOG_LEVEL asks for them.
  logger: {
    level: ["debug", "trace"].includes(env.LOG_LEVEL) ? LogSeverity.Debug : LogSeverity.Info,
    log: (severity: LogSeverity, message: string) => {
      if (severity === LogSeverity.Error) log.error(message);
      else if (severity === LogSeverity.Warning) log.warn(message);
      else if (severity === LogSeverity.Info) log.info(message);
      else log.debug(message);
    },
  },
});

export default shopify;
export const apiVersion = SHOPIFY_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;

export interface VerifiedWebhook {
  shop: string;
  /** As Shopify sends it and as shopify.app.toml names it, e.g. "app/uninstalled". */
  topic: string;
  webhookId: string;
  apiVersion: string;
  payload: unknown;
}

/**
 * Verifies a Shopify webhook: POST, X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256 of the raw body with
 * the app's secret (compared in constant time), and Shopify's headers. Answers 405, 401 (HMAC missing
 * or wrong) or 400 by throwing a Response.
 *
 * Why not authenticate.webhook: with expiring offline tokens it first loads the shop's offline session
 * and refreshes the token when it has expired. After an uninstall Shopify refuses that refresh, and the
 * library answers 500 before our handler runs, so app/uninstalled and the compliance webhooks fail on
 * every retry and the shop's tokens are never deleted (Shopify/shopify-app-js#3360). None of our
 * webhooks calls the Admin API; one that needs to should use authenticate.webhook.
 */
export async function verifyWebhook(request: Request): Promise<VerifiedWebhook> {
  if (request.method !== "POST") throw new Response(null, { status: 405, statusText: "Method Not Allowed" });
  const rawBody = await request.text();
  const hmac = request.headers.get("x-shopify-hmac-sha256");
  if (!hmac || !hmacMatches(rawBody, hmac)) {
    log.warn({ url: request.url }, "webhook refused: HMAC missing or wrong");
    throw new Response(null, { status: 401, statusText: "Unauthorized" });
  }
  const shop = request.headers.get("x-shopify-shop-domain");
  const topic = request.headers.get("x-shopify-topic");
  const webhookId = request.headers.get("x-shopify-webhook-id");
  const apiVersion = request.headers.get("x-shopify-api-version");
  if (!shop || !topic || !webhookId || !apiVersion) {
    throw new Response("Missing Shopify webhook headers", { status: 400 });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new Response("The body is not JSON", { status: 400 });
  }
  return { shop, topic, webhookId, apiVersion, payload };
}

function hmacMatches(rawBody: string, header: string): boolean {
  const expected = createHmac("sha256", env.SHOPIFY_API_SECRET).update(rawBody, "utf8").digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
