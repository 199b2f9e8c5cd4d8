// The embedded Shopify app: configured once here, as in Shopify's Remix template. Merchants are
// authenticated by Shopify session tokens (token exchange); offline tokens expire and are refreshed by
// the library; sessions live in our one database through PrismaSessionStorage, wrapped so their tokens
// are encrypted at rest (EncryptedSessionStorage, docs/decisions/014).
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { normaliseShopDomain, signedShopOf, type ShopifyWebhookTopic } from "~/domain/shopify/webhooks";
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

/**
 * What the library's own calls to Shopify met during one authenticate.admin (the token exchange, the
 * refresh of an expired offline token). The library answers any failure there with a bare 500 and keeps
 * the cause to itself; its fetch is wrapped so the cause is known, per request.
 */
interface ShopifyCallTrace {
  unreachable?: unknown;
  failedStatus?: number;
}
const callTrace = new AsyncLocalStorage<ShopifyCallTrace>();
const libraryFetch = abstractFetch;
setAbstractFetchFunc(async (...args) => {
  const trace = callTrace.getStore();
  try {
    const response = await libraryFetch(...args);
    if (trace && !response.ok) trace.failedStatus = response.status;
    return response;
  } catch (error) {
    if (trace) trace.unreachable = error;
    throw error;
  }
});

/**
 * authenticate.admin, with Shopify failing told apart from a defect: when the library's call to Shopify
 * met a network error (Shopify cannot be reached) it throws AppError 503, when Shopify answered with an
 * error it throws AppError 502, each with a sentence, instead of the library's bare 500. Everything else
 * the library throws (the bounce page, 401 with the retry header, redirects) passes through unchanged.
 */
export async function authenticateAdmin(request: Request) {
  const trace: ShopifyCallTrace = {};
  try {
    return await callTrace.run(trace, () => shopify.authenticate.admin(request));
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status !== 500) throw thrown;
    const path = new URL(request.url).pathname;
    if (trace.unreachable) {
      log.warn({ err: trace.unreachable, path }, "embedded request failed: Shopify could not be reached");
      throw new AppError(503, "Shopify could not be reached, so Winning Products cannot open right now. Try again in a minute.");
    }
    if (trace.failedStatus) {
      log.warn({ status: trace.failedStatus, path }, "embedded request failed: Shopify answered with an error");
      throw new AppError(502, "Shopify did not give Winning Products access to your store just now. Try again in a minute.");
    }
    throw thrown;
  }
}

export default shopify;
export const apiVersion = SHOPIFY_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;

export interface VerifiedWebhook {
  /**
   * The shop to act on: the one the signed body names (the header must agree), or for the billing
   * topics, whose body names only the shop's GID, the header's, tied by the charge (docs/decisions/041).
   */
  shop: string;
  topic: ShopifyWebhookTopic;
  webhookId: string;
  /** X-Shopify-Event-Id, when sent: the same for every delivery of one event. */
  eventId: string | null;
  apiVersion: string;
  payload: Record<string, unknown>;
  /** Hex SHA-256 of the raw signed body: what a replay under a new webhook id is recognised by. */
  bodySha256: string;
}

const NOTHING_CHANGED = "nothing was changed.";

/**
 * Verifies a Shopify webhook for the route of `topic`: X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256 of the
 * raw body with the app's secret (compared in constant time), Shopify's headers, the topic header naming
 * this route's topic, a JSON object body, and the shop: the HMAC covers the body only, so the shop is
 * the one the body names and an X-Shopify-Shop-Domain that disagrees is refused (docs/decisions/041).
 * Throws AppError: 401 (HMAC missing or wrong, header shop not the signed one), 400 (headers, body).
 *
 * Why not authenticate.webhook: with expiring offline tokens it first loads the shop's offline session
 * and refreshes the token when it has expired. After an uninstall Shopify refuses that refresh, and the
 * library answers 500 before our handler runs, so app/uninstalled and the compliance webhooks fail on
 * every retry and the shop's tokens are never deleted (Shopify/shopify-app-js#3360). It also acts on
 * the header's shop. None of our webhooks calls the Admin API through it.
 */
export async function verifyWebhook(request: Request, topic: ShopifyWebhookTopic): Promise<VerifiedWebhook> {
  if (request.method !== "POST") throw new AppError(405, "Use POST.");
  const rawBody = await request.text();
  const hmac = request.headers.get("x-shopify-hmac-sha256");
  if (!hmac || !hmacMatches(rawBody, hmac)) {
    throw new AppError(401, `The webhook's signature (X-Shopify-Hmac-Sha256) is missing or wrong; ${NOTHING_CHANGED}`);
  }
  const shopHeader = request.headers.get("x-shopify-shop-domain");
  const topicHeader = request.headers.get("x-shopify-topic");
  const webhookId = request.headers.get("x-shopify-webhook-id");
  const apiVersion = request.headers.get("x-shopify-api-version");
  if (!shopHeader || !topicHeader || !webhookId || !apiVersion) {
    throw new AppError(
      400,
      `Shopify's webhook headers (X-Shopify-Shop-Domain, X-Shopify-Topic, X-Shopify-Webhook-Id, X-Shopify-API-Version) are missing; ${NOTHING_CHANGED}`,
    );
  }
  if (topicHeader.trim().toLowerCase() !== topic) {
    throw new AppError(400, `This address takes ${topic} webhooks, not ${topicHeader.slice(0, 80)}; ${NOTHING_CHANGED}`);
  }
  const headerShop = normaliseShopDomain(shopHeader);
  if (!headerShop) throw new AppError(400, `X-Shopify-Shop-Domain is not a shop's domain; ${NOTHING_CHANGED}`);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new AppError(400, `The webhook's body is not JSON; ${NOTHING_CHANGED}`);
  }
  const named = signedShopOf(topic, payload);
  if (named.kind === "domain" && named.domain !== headerShop) {
    throw new AppError(401, `The signed body does not name the shop in X-Shopify-Shop-Domain; ${NOTHING_CHANGED}`, {
      cause: `X-Shopify-Shop-Domain ${headerShop}, signed body ${named.domain}`,
    });
  }
  return {
    shop: named.kind === "domain" ? named.domain : headerShop,
    topic,
    webhookId,
    eventId: request.headers.get("x-shopify-event-id"),
    apiVersion,
    payload: payload as Record<string, unknown>,
    bodySha256: createHash("sha256").update(rawBody, "utf8").digest("hex"),
  };
}

function hmacMatches(rawBody: string, header: string): boolean {
  const expected = createHmac("sha256", env.SHOPIFY_API_SECRET).update(rawBody, "utf8").digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
