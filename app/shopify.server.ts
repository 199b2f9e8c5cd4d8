// The embedded Shopify app: configured once here, as in Shopify's Remix template. Merchants are
// authenticated by Shopify session tokens (token exchange); offline tokens expire and are refreshed by
// the library; sessions live in our one database through PrismaSessionStorage.
import "@shopify/shopify-app-remix/adapters/node";
import {
  ApiVersion,
  AppDistribution,
  shopifyApp,
} from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";

const env = getEnv();

export const SHOPIFY_API_VERSION = ApiVersion.October26;

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: SHOPIFY_API_VERSION,
  scopes: env.SCOPES.split(",").map((s) => s.trim()).filter(Boolean),
  appUrl: env.SHOPIFY_APP_URL ?? env.APP_URL ?? `http://localhost:${env.PORT}`,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(db),
  distribution: AppDistribution.AppStore,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const apiVersion = SHOPIFY_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
