// The composition root: services bound to the one database and the real adapters. Routes import
// from here; tests may build services with their own dependencies instead.
import { db, dbReady, sqlReader } from "~/db.server";
import { getEnv, paddleMode, paddleWebhookSecret } from "~/env.server";
import { createPaddleApi } from "~/integrations/paddle.server";
import { createBilling, type Billing } from "~/services/billing.server";
import * as creditFns from "~/services/credits.server";
import { createLocalPaddle } from "~/services/paddle-local.server";
import { createAnalytics } from "~/integrations/analytics.server";
import * as authFns from "~/services/auth.server";
import { bindDb } from "~/services/bind";
import { checkHealth } from "~/services/health.server";
import { describeMe } from "~/services/users.server";
import * as productFns from "~/services/products.server";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { createAlgoliaEngine, parseAlgoliaHosts } from "~/integrations/algolia.server";
import * as shopifyWebhookFns from "~/services/shopify-webhooks.server";

const env = getEnv();

export const analytics = createAnalytics({ db, env });

const prices = {
  basic: env.PADDLE_PRICE_BASIC,
  pro: env.PADDLE_PRICE_PRO,
  innerCircle: env.PADDLE_PRICE_INNER_CIRCLE,
  caseStudy: env.PADDLE_PRICE_CASE_STUDY,
};

export const billing: Billing = createBilling({
  db,
  prices,
  paddle:
    paddleMode(env) === "paddle"
      ? createPaddleApi({ apiKey: env.PADDLE_API_KEY!, environment: env.PADDLE_ENVIRONMENT, baseUrl: env.PADDLE_API_BASE_URL })
      : createLocalPaddle(() => billing, prices),
  webhookSecret: paddleWebhookSecret(env),
  retentionDiscountId: env.PADDLE_RETENTION_DISCOUNT_ID,
  localCheckout: paddleMode(env) === "local" && (env.NODE_ENV !== "production" || env.PADDLE_LOCAL_CHECKOUT === "true"),
});

export const credits = bindDb(db, {
  spend: creditFns.spend,
  refund: creditFns.refund,
  getBalance: creditFns.getBalance,
  getBalances: creditFns.getBalances,
  ledger: creditFns.ledger,
});

export const auth = bindDb(db, {
  getUser: authFns.getUser,
  requireUser: authFns.requireUser,
  requireApiUser: authFns.requireApiUser,
  requireUidMatch: authFns.requireUidMatch,
  requireAnonymous: authFns.requireAnonymous,
  createUserSession: authFns.createUserSession,
  logout: authFns.logout,
  revokeAllSessions: authFns.revokeAllSessions,
  signup: authFns.signup,
  login: authFns.login,
  googleAuth: authFns.googleAuth,
});

export const users = bindDb(db, { describeMe });

// ---------- Google sign-in (Firebase ID tokens; off without FIREBASE_PROJECT_ID) ----------
import { InvalidIdTokenError, verifyFirebaseIdToken } from "~/integrations/firebase.server";
import { createGoogleSignIn } from "~/services/google-sign-in.server";

export const googleSignIn = createGoogleSignIn({
  db,
  verify: env.FIREBASE_PROJECT_ID
    ? (idToken) => verifyFirebaseIdToken(idToken, { projectId: env.FIREBASE_PROJECT_ID!, jwksUrl: env.FIREBASE_JWKS_URL })
    : null,
  isInvalidToken: (error) => error instanceof InvalidIdTokenError,
});

export const shopifyWebhooks = bindDb(db, {
  applyOnce: shopifyWebhookFns.applyOnce,
  handleAppUninstalled: shopifyWebhookFns.handleAppUninstalled,
  handleShopRedact: shopifyWebhookFns.handleShopRedact,
  handleCustomerDataRequest: shopifyWebhookFns.handleCustomerDataRequest,
  handleCustomerRedact: shopifyWebhookFns.handleCustomerRedact,
});

export const health = { check: () => checkHealth(db, dbReady) };

// ---------- course, community, feedback (issue 6; docs/decisions/010) ----------
import * as courseFns from "~/services/course.server";
import { createCommunity } from "~/services/community.server";
import * as feedbackFns from "~/services/feedback.server";
import { createDiscordOAuth } from "~/integrations/discord.server";
import { sessionSecret } from "~/env.server";

export const course = bindDb(db, {
  getCourse: courseFns.getCourse,
  getCourseSummary: courseFns.getCourseSummary,
  getProgress: courseFns.getProgress,
  openLesson: courseFns.openLesson,
  completeLesson: courseFns.completeLesson,
});

export const community = createCommunity({
  db,
  inviteUrl: env.DISCORD_INVITE_URL ?? null,
  // OAuth only with both keys; one without the other leaves the invite link alone.
  discord:
    env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET
      ? createDiscordOAuth({
          clientId: env.DISCORD_CLIENT_ID,
          clientSecret: env.DISCORD_CLIENT_SECRET,
          redirectUri: new URL("/auth/discord/callback", env.APP_URL ?? `http://localhost:${env.PORT}`).toString(),
          baseUrl: env.DISCORD_API_BASE_URL,
        })
      : null,
  cookieSecret: sessionSecret(env),
  secureCookies: env.NODE_ENV === "production",
});

export const feedback = bindDb(db, {
  submitFeedback: feedbackFns.submitFeedback,
  submitBugReport: feedbackFns.submitBugReport,
  requireOperator: feedbackFns.requireOperator,
  isOperator: feedbackFns.isOperator,
  listInbox: feedbackFns.listInbox,
  setBugStatus: feedbackFns.setBugStatus,
  setFeedbackStatus: feedbackFns.setFeedbackStatus,
});

/** The product search engine: Algolia when its keys are set, else built in (FTS5 + in-memory catalogue index). */
export const productSearch: productFns.SearchEngine =
  env.ALGOLIA_APP_ID && env.ALGOLIA_SEARCH_KEY && env.ALGOLIA_INDEX
    ? createAlgoliaEngine({
        appId: env.ALGOLIA_APP_ID,
        apiKey: env.ALGOLIA_SEARCH_KEY,
        adminApiKey: env.ALGOLIA_ADMIN_KEY,
        indexName: env.ALGOLIA_INDEX,
        hosts: parseAlgoliaHosts(env.ALGOLIA_HOSTS),
        db,
      })
    : new CatalogSearch(sqlReader);

export const products = {
  ...bindDb(db, {
    getProduct: productFns.getProduct,
    saveProduct: productFns.saveProduct,
    unsaveProduct: productFns.unsaveProduct,
    trackProduct: productFns.trackProduct,
    untrackProduct: productFns.untrackProduct,
    listSaved: productFns.listSaved,
    listTracked: productFns.listTracked,
    saveSearch: productFns.saveSearch,
    listSavedSearches: productFns.listSavedSearches,
    visitSavedSearch: productFns.visitSavedSearch,
    deleteSavedSearch: productFns.deleteSavedSearch,
  }),
  search: (input: Parameters<typeof productFns.searchProducts>[2]) => productFns.searchProducts(db, productSearch, input),
  niches: () => productSearch.niches(),
};

// ---------- product pages and automatic mode (issue 5 part B; docs/decisions/015) ----------
import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import { createAiText } from "~/integrations/ai-text.server";
import { createProductPages, storeAccessFrom } from "~/services/product-pages.server";
import { getStoreAccessToken } from "~/services/shopify-stores.server";
import { SHOPIFY_API_VERSION, unauthenticated } from "~/shopify.server";

/** The AI text adapter product pages and AI ads write with: the configured model, or the built-in writer. */
const aiText = createAiText({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS });

export const productPages = createProductPages({
  db,
  ai: aiText,
  // The service has already checked the store is linked to the user and connected. Offline tokens
  // expire hourly: the library's offline session is refreshed on the way; without one (the app was
  // never opened on this server), the store row's sealed copy (docs/decisions/014).
  resolveStoreAccess: storeAccessFrom(async (store) => {
    try {
      const { session } = await unauthenticated.admin(store.shop);
      if (session.accessToken) return session.accessToken;
    } catch (error) {
      if (!(error instanceof SessionNotFoundError)) throw error;
    }
    return getStoreAccessToken(db, store.userId, store.shop);
  }),
  shopify: { apiVersion: SHOPIFY_API_VERSION },
  publicUrl: env.APP_URL ?? env.SHOPIFY_APP_URL ?? null,
});

// ---------- linked Shopify stores, theme tokens, embedded identity (issue 5 part A; docs/decisions/014) ----------
import * as storeFns from "~/services/shopify-stores.server";
import * as themeTokenFns from "~/services/theme-tokens.server";
import { createEmbeddedAuth } from "~/services/embedded-auth.server";
import { authenticate } from "~/shopify.server";

export const stores = bindDb(db, {
  listStores: storeFns.listStores,
  connectedShops: storeFns.connectedShops,
  findLinkedUserId: storeFns.findLinkedUserId,
  linkShop: storeFns.linkShop,
  disconnectStore: storeFns.disconnectStore,
  setZendropConnected: storeFns.setZendropConnected,
  getStoreAccessToken: storeFns.getStoreAccessToken,
});

export const themeTokens = bindDb(db, {
  createThemeToken: themeTokenFns.createThemeToken,
  listThemeTokens: themeTokenFns.listThemeTokens,
  revokeThemeToken: themeTokenFns.revokeThemeToken,
  checkLicence: themeTokenFns.checkLicence,
  preflightOrigin: themeTokenFns.preflightOrigin,
  appProxyLicence: themeTokenFns.appProxyLicence,
});

/** Embedded pages: `const { session, admin, user } = await embeddedAuth.requireEmbeddedUser(request)`. */
export const embeddedAuth = createEmbeddedAuth({ db, authenticateAdmin: authenticate.admin, loadUser: authFns.loadUser });

// ---------- generated product pictures (issue 4; /product-images/{objectID}-{n}.svg) ----------
import { getProductImage } from "~/services/product-images.server";

export const productImages = bindDb(db, { get: getProductImage });

// ---------- hand-off links from the embedded app to the site (issue 5; docs/decisions/016) ----------
import * as handoffFns from "~/services/handoff.server";

export const handoff = bindDb(db, { create: handoffFns.createHandoff, redeem: handoffFns.redeemHandoff });

// ---------- glitch mode (docs/decisions/018) ----------
import { createGlitchMode } from "~/services/glitch-mode.server";

export const glitchMode = createGlitchMode({ db });

// ---------- AI video ads (docs/decisions/019) ----------
import { createHmac } from "node:crypto";
import { createBuiltInRenderer } from "~/integrations/video-render.server";
import { createAiAds } from "~/services/ai-ads.server";

const [videoWidth, videoHeight] = env.VIDEO_SIZE.split("x").map(Number);

export const aiAds = createAiAds({
  db,
  ai: aiText,
  renderer: createBuiltInRenderer(),
  storageDir: env.VIDEO_STORAGE_DIR,
  video: { width: videoWidth, height: videoHeight, fps: env.VIDEO_FPS },
  // Its own key, derived from the session secret: a video link can never pass for a session cookie.
  urlSecret: createHmac("sha256", sessionSecret(env)).update("ai-ad-video-links").digest("hex"),
});
