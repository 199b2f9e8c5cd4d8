// The composition root: every service bound to the one database and the configured adapters. Routes and
// page controllers import services from here; tests may build services with their own dependencies.
//
// One wiring style: each export is `lazy(() => …)`, built on first use (importing this file, as every
// route does, builds nothing), from its factory (`createX({ db, … })`) or, for modules of plain functions
// that take the database first, `bindDb(db, module.useCases)`: the module lists its own use cases, so one
// added there is available here without relisting names. Configuration comes from env.server.ts only;
// sentences a person reads belong to the services and domain/, not here.
import { createHmac } from "node:crypto";
import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import { db, dbReady, isPostgresUrl, sqlReader, type Db } from "~/db.server";
import { getEnv, localCheckoutEnabled, paddleMode, paddleWebhookSecret, sessionSecret, shopifyTestCharges } from "~/env.server";
import type { PictureFingerprinter } from "~/domain/catalogue/hash";
import type { SearchEngine } from "~/domain/products/product-query";
import { createAiSpeech } from "~/integrations/ai-speech.server";
import { createAiText } from "~/integrations/ai-text.server";
import { createAlgoliaEngine, parseAlgoliaHosts, type AlgoliaEngine } from "~/integrations/algolia.server";
import { createMarketingSenders } from "~/integrations/marketing.server";
import { createDiscordOAuth } from "~/integrations/discord.server";
import { InvalidIdTokenError, verifyFirebaseIdToken } from "~/integrations/firebase.server";
import { createPaddleApi, readPaddleNotification } from "~/integrations/paddle.server";
import { createLocalPaddle } from "~/integrations/paddle-local.server";
import { createShopifyAdmin, shopifyProductWriter } from "~/integrations/shopify-admin.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { shopifyBillingApi } from "~/integrations/shopify-billing.server";
import { createSafeFetcher, parseAllowHosts } from "~/integrations/safe-fetch.server";
import { createStoreSources } from "~/integrations/store-sources.server";
import { createTikTokOEmbed } from "~/integrations/tiktok-oembed.server";
import { createTrackerReads } from "~/integrations/tracker-storefront.server";
import { createMusicLibrary } from "~/integrations/music-library.server";
import { createBuiltInRenderer } from "~/integrations/video-render.server";
import { createFileStores } from "~/integrations/file-stores.server";
import { createImageFetcher } from "~/integrations/image-fetch.server";
import { createMailer, listOutbox } from "~/integrations/mailer.server";
import { inspectLogo } from "~/integrations/logo-image.server";
import { childLogger } from "~/logger.server";
import { createAccount } from "~/services/accounts/account.server";
import { createApiKeys } from "~/services/api-access/api-keys.server";
import { createAccountEmails } from "~/services/accounts/emails.server";
import { createAiAds } from "~/services/ai-ads.server";
import { createAssistant } from "~/services/assistant.server";
import { createAnalytics, recordPageEvent, type PageEvent } from "~/services/marketing/analytics.server";
import * as authFns from "~/services/accounts/auth.server";
import { createBrandKits } from "~/services/ai-ads/brand-kits.server";
import { createBilling } from "~/services/billing.server";
import { bindDb, bindDeps, lazy } from "~/services/bind";
import { algoliaRowSource } from "~/services/search/algolia-rows.server";
import { createCommunity } from "~/services/community.server";
import { createCatalogue } from "~/services/catalogue.server";
import { registerRateJobs } from "~/services/landed-cost/exchange-rates.server";
import { createCompetitors } from "~/services/competitors.server";
import { createDiscovery } from "~/services/crawl/discovery.server";
import * as courseFns from "~/services/course.server";
import * as creditFns from "~/services/billing/credits.server";
import { createEmbeddedAuth } from "~/services/accounts/embedded-auth.server";
import * as feedbackFns from "~/services/feedback.server";
import { createGlitchMode } from "~/services/glitch-mode.server";
import { createGoogleSignIn } from "~/services/accounts/google-sign-in.server";
import * as handoffFns from "~/services/accounts/handoff.server";
import { checkHealth } from "~/services/health.server";
import { createJobs, defaultOwnerId, registerJobKinds, registerJobMaintenance, type Jobs } from "~/services/jobs.server";
import { createPostgresJobs } from "~/services/jobs/postgres-engine.server";
import { createNotifications } from "~/services/notifications.server";
import { createMarketing } from "~/services/marketing.server";
import { createOutbox, outboxWritten } from "~/services/outbox.server";
import { createProductDrops } from "~/services/products/drops.server";
import { createLandedMargins } from "~/services/landed-cost/margins.server";
import { createProductExport } from "~/services/products/export.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";
import { createInboundLimits } from "~/services/api-access/inbound-limits.server";
import { getProductImage } from "~/services/products/images.server";
import { createStoredImages } from "~/services/stored-images.server";
import { createProductPages, storeAccessFrom } from "~/services/product-pages.server";
import * as productFns from "~/services/products.server";
import * as landedCostFns from "~/services/landed-cost.server";
import { createSavedSearchAlerts } from "~/services/products/saved-search-alerts.server";
import { CatalogSearch } from "~/services/search/catalog-search.server";
import { shopifyTokenUserId } from "~/services/shopify/bearer.server";
import { createShopifyBilling } from "~/services/shopify-billing.server";
import * as storeFns from "~/services/shopify/stores.server";
import * as shopifyWebhookFns from "~/services/shopify/webhooks.server";
import * as themeTokenFns from "~/services/shopify/theme-tokens.server";
import { createTikToks } from "~/services/ai-ads/tiktoks.server";
import * as userFns from "~/services/accounts/users.server";
import { SHOPIFY_API_VERSION, unauthenticated } from "~/shopify.server";

const env = getEnv();

/**
 * Who this server says it is when it reads other sites (rival stores, product images, TikTok's oEmbed): the
 * contact page and product token of its User-Agent, and the private "host:port" entries TRACKER_ALLOW_HOSTS
 * opens to local stand-ins. Every SSRF-safe fetcher below is built from these; the fetcher's own caps and
 * timeouts are its defaults (SAFE_FETCH_DEFAULTS).
 */
const outsideReads = {
  contactUrl: new URL("/", env.APP_URL ?? env.SHOPIFY_APP_URL ?? `http://localhost:${env.PORT}`).toString(),
  appName: env.TRACKER_USER_AGENT,
  allowHosts: parseAllowHosts(env.TRACKER_ALLOW_HOSTS),
} as const;

// ---------- accounts, sessions and identity (decisions 004, 014, 020, 021) ----------

/** Site identity: accounts and session rows. The cookie and the guards are in app/pages/http/site-session.server.ts. */
export const auth = lazy(() =>
  bindDb(db, {
    ...authFns.useCases,
    // Both surfaces' log-in and sign-up, behind the inbound limits (decision 064).
    login: (d: Db, input: { email: string; password: string }, client: { ip: string | null }) => authFns.login(d, input, client, inboundLimits),
    signup: (d: Db, input: { email: string; password: string }, client: { ip: string | null }) => authFns.signup(d, input, client, inboundLimits),
    /** The user a Shopify session token sent as a bearer token acts as (AppError 401 when it cannot). */
    shopifyTokenUserId,
  }),
);

export const users = lazy(() => bindDb(db, userFns.useCases));

/** Google sign-in (Firebase ID tokens); off without FIREBASE_PROJECT_ID. */
export const googleSignIn = lazy(() =>
  createGoogleSignIn({
    db,
    verify: env.FIREBASE_PROJECT_ID
      ? (idToken) => verifyFirebaseIdToken(idToken, { projectId: env.FIREBASE_PROJECT_ID!, jwksUrl: env.FIREBASE_JWKS_URL })
      : null,
    isInvalidToken: (error) => error instanceof InvalidIdTokenError,
  }),
);

/** The shop -> user link behind the embedded pages (the guards are in app/pages/http/embedded-session.server.ts). */
export const embeddedAuth = lazy(() => createEmbeddedAuth({ db, tokens: getTokenCrypto(), loadUser: authFns.loadUser }));

/** The account page: password, e-mail, data export, deletion. */
export const account = lazy(() =>
  createAccount({
    db,
    // Through the billing service's Paddle port (Paddle's API, or the local checkout): ended now, not at
    // the period end. The account service has already checked the subscription is this user's.
    cancelSubscription: (subscriptionId) => billing.cancelNow(subscriptionId),
    cancelShopifySubscription: (userId, subscriptionId) => shopifyBilling.cancel({ id: userId }, subscriptionId),
    removeVideo: async (storageKey) => {
      await videoStorage.remove(storageKey);
    },
    forgetRateLimits: (subjects) => rateLimits.forget(subjects),
    // A new address is confirmed through a link before it becomes the login (decision 079).
    requestEmailChange: (userId, email) => accountEmails.requestEmailChange(userId, email),
    pendingEmailChange: (userId) => accountEmails.pendingEmailChange(userId),
    maxFailures: env.LOGIN_MAX_FAILURES,
    windowMinutes: env.LOGIN_WINDOW_MINUTES,
  }),
);

/** Limits shared by every process (counters in the database, decisions 051 and 063): reset requests, confirmation e-mails, the API. */
export const rateLimits = lazy(() => createRateLimits({ db, databaseUrl: env.DATABASE_URL }));

/** Log-in, sign-up and the public calls per e-mail and client address (decision 064). */
export const inboundLimits = lazy(() =>
  createInboundLimits({
    limits: rateLimits,
    addressScale: env.INBOUND_LIMITS_SCALE,
    loginMaxFailures: env.LOGIN_MAX_FAILURES,
    loginWindowMinutes: env.LOGIN_WINDOW_MINUTES,
  }),
);

/** API keys for /api/v1 and /mcp, and their limits (decision 053). */
export const apiKeys = lazy(() => createApiKeys({ db, limits: rateLimits, callsPerMinute: env.API_CALLS_PER_MINUTE }));

/** Sending e-mail: SMTP with SMTP_URL, else .eml files under MAIL_OUTBOX_DIR (decision 051). */
const mailer = lazy(() => createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR }));

/** The built-in outbox's newest messages, for the operator page (empty when mail goes over SMTP). */
export const mailOutbox = lazy(() => ({
  mode: () => mailer.mode,
  dir: () => env.MAIL_OUTBOX_DIR,
  list: (limit?: number) => (mailer.mode === "outbox" ? listOutbox(env.MAIL_OUTBOX_DIR, limit) : Promise.resolve([])),
}));

/** Password reset by e-mail and confirming the account's address (decision 051), sent as jobs. */
export const accountEmails = lazy(() =>
  createAccountEmails({
    db,
    jobs,
    mailer,
    limits: rateLimits,
    addressScale: env.INBOUND_LIMITS_SCALE,
    // A new password from a reset link: the failed log-ins that led there no longer hold the account back.
    forgetLoginFailures: (email) => inboundLimits.loginSucceeded(email),
    appUrl: env.APP_URL ?? env.SHOPIFY_APP_URL ?? `http://localhost:${env.PORT}`,
    resetTtlMinutes: env.PASSWORD_RESET_TTL_MINUTES,
    verificationTtlHours: env.EMAIL_VERIFICATION_TTL_HOURS,
  }),
);

/** Hand-off links from the embedded app to the site (decision 016). */
export const handoff = lazy(() => bindDb(db, handoffFns.useCases));

export const health = lazy(() => ({ check: () => checkHealth(db, dbReady) }));

export const analytics = lazy(() => createAnalytics({ db, env, onRecorded: outboxWritten }));

/** Page views and leaves from both surfaces (POST /api/analytics). */
export const pageEvents = lazy(() => ({ record: (event: PageEvent, user: authFns.User | null) => recordPageEvent(analytics, event, user) }));

// ---------- billing and credits (decisions 006, 008, 009) ----------

/**
 * Billing: Paddle's notifications and the account's reads and actions (billing.server.ts composes them);
 * with no PADDLE_API_KEY, the local stand-in for Paddle delivers through the same handler.
 */
export const billing = lazy(() =>
  createBilling({
    db,
    prices: {
      basic: env.PADDLE_PRICE_BASIC,
      pro: env.PADDLE_PRICE_PRO,
      innerCircle: env.PADDLE_PRICE_INNER_CIRCLE,
      caseStudy: env.PADDLE_PRICE_CASE_STUDY,
      creditPacks: { "ai-ads-50": env.PADDLE_PRICE_CREDITS_AI_ADS_50, "product-pages-50": env.PADDLE_PRICE_CREDITS_PRODUCT_PAGES_50 },
    },
    paddle:
      paddleMode(env) === "paddle"
        ? createPaddleApi({ apiKey: env.PADDLE_API_KEY!, environment: env.PADDLE_ENVIRONMENT, baseUrl: env.PADDLE_API_BASE_URL })
        : { local: createLocalPaddle },
    readNotification: readPaddleNotification,
    webhookSecret: paddleWebhookSecret(env),
    retentionDiscountId: env.PADDLE_RETENTION_DISCOUNT_ID,
    localCheckout: localCheckoutEnabled(env),
  }),
);

/** The one path every credit movement takes. */
export const credits = lazy(() => bindDb(db, creditFns.useCases));

// ---------- product research (decisions 011-013, 017) ----------

let algolia: AlgoliaEngine | null | undefined;
/** Algolia when its keys are set (made once): the search engine, and where product records are pushed. */
function algoliaEngine(): AlgoliaEngine | null {
  if (algolia !== undefined) return algolia;
  const { ALGOLIA_APP_ID: appId, ALGOLIA_SEARCH_KEY: apiKey, ALGOLIA_INDEX: indexName } = env;
  algolia =
    appId && apiKey && indexName
      ? createAlgoliaEngine({ appId, apiKey, adminApiKey: env.ALGOLIA_ADMIN_KEY, indexName, hosts: parseAlgoliaHosts(env.ALGOLIA_HOSTS), rows: algoliaRowSource(db) })
      : null;
  return algolia;
}

/** The product search engine: Algolia when its keys are set, else built in (FTS5 + in-memory catalogue index). */
export const productSearch: SearchEngine = lazy(() => algoliaEngine() ?? new CatalogSearch(sqlReader));

export const products = lazy(() => ({
  ...bindDb(db, productFns.useCases),
  search: (input: Parameters<typeof productFns.searchProducts>[2]) => productFns.searchProducts(db, productSearch, input),
  niches: () => productSearch.niches(),
  knowsWord: (word: string): Promise<boolean | null> => productSearch.knowsWord?.(word) ?? Promise.resolve(null),
}));

/** Landed cost and profit per product, and the seller's own HTS code and origin (decision 052). */
export const landedCost = lazy(() => bindDb(db, { productProfit: landedCostFns.productProfit, setTariffChoice: landedCostFns.setTariffChoice, landedCostView: landedCostFns.landedCostView, landedMargins: landedCostFns.landedMargins }));

/**
 * Product pictures: the category drawings (/product-images/{objectID}-{n}.svg) and the images fetched from
 * the URLs imports give (/product-images/stored/{file}, decision 028).
 */
export const productImages = lazy(() => ({
  ...bindDb(db, { get: getProductImage }),
  getStored: (name: string) => storedImages.getFile(name),
}));

/**
 * Where files are kept (decision 097): an S3-compatible bucket when STORAGE_BUCKET is set, else VIDEO_STORAGE_DIR.
 * `check()` is the start-up check `npm start` runs (scripts/storage.ts).
 */
export const fileStores = lazy(() => createFileStores(env));

/** Fetched product images: the "images.fetch" job and their files, kept in an images folder beside the videos (or images/ in the bucket). */
export const storedImages = lazy(() =>
  createStoredImages({
    db,
    fetcher: createImageFetcher({
      fetcher: createSafeFetcher(outsideReads),
    }),
    storage: fileStores.images,
    // Algolia records carry the first image: push the fetched ones (decision 037). The built-in engine
    // reads cards from the Product table, so it shows them already.
    onImagesApplied: env.ALGOLIA_ADMIN_KEY ? async (objectIDs) => algoliaEngine()?.syncProducts(objectIDs) : undefined,
  }),
);

export const glitchMode = lazy(() => createGlitchMode({ db }));

// ---------- course, community, feedback (decision 010) ----------

export const course = lazy(() => bindDb(db, courseFns.useCases));

export const community = lazy(() =>
  createCommunity({
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
  }),
);

export const feedback = lazy(() => bindDb(db, feedbackFns.useCases));

// ---------- Shopify: linked stores, theme tokens, webhooks, product pages (decisions 014, 015) ----------

/** The stored Shopify tokens are sealed with the process's token crypto (decision 014). */
const storeTokens = lazy(() => ({ db, tokens: getTokenCrypto() }));

export const stores = lazy(() => ({ ...bindDb(db, storeFns.useCases), ...bindDeps(storeTokens, storeFns.tokenUseCases) }));

export const themeTokens = lazy(() => bindDb(db, themeTokenFns.useCases));

export const shopifyWebhooks = lazy(() => ({
  ...bindDb(db, shopifyWebhookFns.useCases),
  /** app/uninstalled, with the shop's Shopify Billing state ended in the same transaction. */
  appUninstalled: (delivery: shopifyWebhookFns.WebhookDelivery) =>
    shopifyWebhookFns.appUninstalled(db, delivery, (tx, shop) => shopifyBilling.endShop(shop, tx)),
}));

/** The AI text adapter product pages and AI ads write with: the configured model, or the built-in writer. */
const aiText = lazy(() =>
  createAiText({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS }),
);

export const productPages = lazy(() =>
  createProductPages({
    db,
    ai: aiText,
    // The service has already checked the store is linked to the user and connected. Offline tokens
    // expire hourly: the library's offline session is refreshed on the way; without one (the app was
    // never opened on this server), the store row's sealed copy (decision 014).
    resolveStoreAccess: storeAccessFrom(async (store) => {
      try {
        const { session } = await unauthenticated.admin(store.shop);
        if (session.accessToken) return session.accessToken;
      } catch (error) {
        if (!(error instanceof SessionNotFoundError)) throw error;
      }
      return storeFns.getStoreAccessToken(storeTokens, store.userId, store.shop);
    }),
    writeProduct: shopifyProductWriter({ apiVersion: SHOPIFY_API_VERSION }),
    publicUrl: env.APP_URL ?? env.SHOPIFY_APP_URL ?? null,
    // The default brand kit's tone of voice (decision 033).
    voiceFor: async (userId) => {
      const kit = await brandKits.applied(userId, null);
      return kit ? { tone: kit.style.tone, brandName: kit.style.name, tagline: kit.style.tagline } : null;
    },
  }),
);

// ---------- background work: the job system and what runs on it (decisions 019, 022, 024) ----------

/**
 * The durable job system of this process, with every kind the app runs registered on it: our own queue on a SQLite
 * file (decision 022), pg-boss on a PostgreSQL DATABASE_URL (decision 102), so workers on other hosts share the jobs.
 */
export const jobs = lazy((): Jobs => {
  let built: Jobs;
  if (isPostgresUrl(env.DATABASE_URL)) {
    built = createPostgresJobs({ url: env.DATABASE_URL, ownerId: defaultOwnerId(), log: childLogger("jobs") });
  } else {
    const queue = createJobs({ db, ownerId: defaultOwnerId() });
    registerJobMaintenance(queue);
    built = queue;
  }
  registerJobKinds(built);
  aiAds.registerJobs(built);
  competitors.registerJobs(built);
  discovery.registerJobs(built);
  catalogue.registerJobs(built);
  storedImages.registerJobs(built);
  tiktoks.registerJobs(built);
  productDrops.registerJobs(built);
  landedMargins.registerJobs(built);
  registerRateJobs(built, { db, fetcher: createSafeFetcher(outsideReads), url: env.EXCHANGE_RATES_URL, log: childLogger("exchange-rates") });
  savedSearchAlerts.registerJobs(built);
  outbox.registerJobs(built);
  accountEmails.registerJobs(built);
  return built;
});

/** The AI ads' videos and previews (decision 045): keys under VIDEO_STORAGE_DIR, or videos/ in the bucket (decision 097). */
const videoStorage = lazy(() => fileStores.videos);

export const aiAds = lazy(() => {
  const [width, height] = env.VIDEO_SIZE.split("x").map(Number);
  return createAiAds({
    db,
    ai: aiText,
    renderer: createBuiltInRenderer({ encoder: env.VIDEO_ENCODER, ffmpegPath: env.FFMPEG_PATH }),
    storage: videoStorage,
    jobs,
    video: { width, height, fps: env.VIDEO_FPS },
    // Its own key, derived from the session secret: a video link can never pass for a session cookie.
    urlSecret: createHmac("sha256", sessionSecret(env)).update("ai-ad-video-links").digest("hex"),
    brandKits,
    references: (userId, objectID) => tiktoks.references(userId, objectID),
    productPhotoSvg: (images) => storedImages.photoSvg(images),
    speech: createAiSpeech({ baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_SPEECH_MODEL, voice: env.AI_SPEECH_VOICE, voices: env.AI_SPEECH_VOICES }),
    music: createMusicLibrary(env.AD_MUSIC_DIR),
  });
});

/** Brand kits (decision 033): colours, font, logo, tagline and tone applied to AI ads and product page copy. */
export const brandKits = lazy(() =>
  createBrandKits({
    db,
    inspectLogo,
    urlSecret: createHmac("sha256", sessionSecret(env)).update("brand-kit-logo-links").digest("hex"),
  }),
);

/** The TikTok library (decision 033): video links saved against products, their oEmbed metadata fetched as jobs. */
export const tiktoks = lazy(() =>
  createTikToks({
    db,
    jobs,
    oembed: createTikTokOEmbed({
      baseUrl: env.TIKTOK_OEMBED_URL,
      fetcher: createSafeFetcher(outsideReads),
    }),
  }),
);

/** The in-app notifications list every alert kind shares. */
export const notifications = lazy(() => createNotifications({ db, appUrl: env.APP_URL ?? null }));

/**
 * The tracker's reads (made once): one SSRF-safe fetcher with TRACKER_RESOLVE / TRACKER_ALLOW_HOSTS behind the
 * store reader and the catalogue's picture fetcher, so stand-in stores' pictures resolve like their catalogues.
 */
const trackerReads = lazy(() =>
  createTrackerReads({
    ...outsideReads,
    resolve: env.TRACKER_RESOLVE,
    standInGapMs: env.TRACKER_STANDIN_GAP_MS,
    warn: (fields, message) => childLogger("competitors").warn(fields, message),
  }),
);

export const competitors = lazy(() =>
  createCompetitors({
    db,
    storefront: trackerReads.storefront,
    jobs,
    notifications,
    checkIntervalMs: env.TRACKER_CHECK_INTERVAL_MINUTES * 60_000,
    operatorIntervalMs: env.CATALOGUE_STORE_INTERVAL_HOURS * 60 * 60_000,
    onProductsAdded: () => savedSearchAlerts.enqueueCheck(),
    // The readers of every store read after the followers' alerts (decision 100): a read that changed something
    // refreshes the measured catalogue (decision 047); its failure is logged, the read stands. A store removed with
    // its listings refreshes it too.
    afterStoreRead: [{ name: "measured catalogue", onFailure: "log", read: async (r) => void (r.unchanged ? undefined : await catalogue.storeRead()) }],
    onStoreRemoved: () => catalogue.storeRead(),
  }),
);

/**
 * Store discovery (decision 101): public sources name candidate stores, the tracker's own polite probe verifies them,
 * and up to DISCOVERY_BUDGET a run join the operator's list as "discovered".
 */
export const discovery = lazy(() =>
  createDiscovery({
    db,
    jobs,
    sources: createStoreSources({ fetcher: createSafeFetcher(outsideReads), cdxUrl: env.DISCOVERY_CDX_URL, ctUrl: env.DISCOVERY_CT_URL }),
    storefront: trackerReads.storefront,
    now: () => new Date(),
    operatorIntervalMs: env.CATALOGUE_STORE_INTERVAL_HOURS * 60 * 60_000,
    budget: env.DISCOVERY_BUDGET,
    log: childLogger("discovery"),
  }),
);

let fingerprinterMade: Promise<PictureFingerprinter> | undefined;
const pictureFingerprinter = () =>
  (fingerprinterMade ??= import("~/integrations/picture-fingerprint.server").then((m) => m.createPictureFingerprinter()));

/** The measured catalogue (decisions 046, 047): listings' pictures, matching, measured products and signals. */
export const catalogue = lazy(() =>
  createCatalogue({
    db,
    sql: sqlReader,
    images: createImageFetcher({ fetcher: trackerReads.fetcher }),
    // Listings' product pages, read for their review counts over the tracker's fetcher and pacing (decision 094).
    pages: trackerReads.reviews,
    // sharp (a native library) is loaded by the first picture, not by every route importing this file.
    fingerprinter: {
      fingerprint: async (bytes) => (await pictureFingerprinter()).fingerprint(bytes),
    },
    jobs,
  }),
);

/** Weekly product drops (decision 030): publish, the weekly pick, reveals, the next-drop date. */
export const productDrops = lazy(() => createProductDrops({ db, notifications, log: childLogger("product-drops") }));

/**
 * The grid's margin after duty and fees (decision 065): Product.landedMarginBps figured again when the duty layers in
 * force change (at start, daily, after `npm run tariffs -- import`); moved products are pushed to Algolia.
 */
export const landedMargins = lazy(() =>
  createLandedMargins({
    db,
    onChanged: env.ALGOLIA_ADMIN_KEY ? async (objectIDs) => algoliaEngine()?.syncProducts(objectIDs) : undefined,
    log: childLogger("landed-margins"),
  }),
);

/** CSV and JSON exports of product lists, streamed, with their landed cost (decision 057). */
export const productExport = lazy(() =>
  createProductExport({
    db,
    engine: productSearch,
    drops: productDrops,
    // Its own key, derived from the session secret: an export link can never pass for a session cookie or a video link.
    linkSecret: createHmac("sha256", sessionSecret(env)).update("product-export-links").digest("hex"),
    linkTtlMs: 2 * 3600_000,
  }),
);

/**
 * Saved searches that alert (decision 030): new products in a saved search's results, through the built-in
 * engine (app/services/search), also when Algolia serves the grid: it alone can ask "which ids above N match".
 */
export const savedSearchAlerts = lazy(() =>
  createSavedSearchAlerts({
    db,
    engine: algoliaEngine() ? new CatalogSearch(sqlReader) : (productSearch as CatalogSearch),
    notifications,
    jobs,
  }),
);

// ---------- marketing and tracking: the outbox (decision 032) ----------

/** Delivers the outbox's rows to the services whose keys are set (the others' rows are kept, never sent). */
export const outbox = lazy(() =>
  createOutbox({
    db,
    jobs,
    appUrl: env.APP_URL ?? null,
    senders: createMarketingSenders(env),
  }),
);

/** The seed's Klaviyo, Hyros and AnyTrack calls: checked, then written to the outbox. */
export const marketing = lazy(() => createMarketing({ db, outbox }));

/** The research assistant (decision 031): threads of plain-words questions answered with products. */
export const assistant = lazy(() =>
  createAssistant({
    db,
    products: { search: products.search, productCards: products.productCards, niches: products.niches, knowsWord: products.knowsWord },
    ai: aiText,
    // A person is waiting: the built-in parser answers if the model has not within 8 s (or AI_TIMEOUT_MS).
    modelTimeoutMs: Math.min(env.AI_TIMEOUT_MS, 8000),
  }),
);

/**
 * The Shopify rail of billing (decision 034): charges on the shop's offline session (the library
 * refreshes the expiring token on the way), with the same entitlement rules as Paddle's.
 */
export const shopifyBilling = lazy(() =>
  createShopifyBilling({
    db,
    adminFor: async (shop) => {
      let accessToken: string | undefined;
      try {
        accessToken = (await unauthenticated.admin(shop)).session.accessToken;
      } catch (error) {
        if (!(error instanceof SessionNotFoundError)) throw error;
      }
      if (!accessToken) return null;
      if (env.SHOPIFY_ADMIN_API_URL && env.NODE_ENV === "production") warnAdminApiUrlOnce();
      return createShopifyAdmin({ shop, accessToken, apiVersion: SHOPIFY_API_VERSION, baseUrl: env.SHOPIFY_ADMIN_API_URL });
    },
    api: shopifyBillingApi,
    syncUserFlags: (tx, userId) => billing.syncUserFlags(tx, userId),
    returnUrlFor: (shop) => `${storeFns.adminUrlFor(shop)}/apps/${env.SHOPIFY_API_KEY}/app/billing`,
    test: shopifyTestCharges(env),
  }),
);

let adminApiUrlWarned = false;
/** SHOPIFY_ADMIN_API_URL sends billing calls to a stand-in instead of the shop: said in the log, once. */
function warnAdminApiUrlOnce(): void {
  if (adminApiUrlWarned) return;
  adminApiUrlWarned = true;
  childLogger("shopify-billing").warn(
    { url: env.SHOPIFY_ADMIN_API_URL },
    "SHOPIFY_ADMIN_API_URL is set in production: Shopify billing calls go to this stand-in, not to the shops (tests only)",
  );
}

let backgroundStarted = false;

/**
 * Starts this process's job worker (renders, store checks and their schedules). Called once by the
 * server entry (app/entry.server.tsx) unless JOBS_WORKER=off; never at import, so tests and scripts that
 * import services run no worker.
 */
export function startBackgroundWork(): void {
  if (backgroundStarted) return;
  backgroundStarted = true;
  aiAds.start().catch((error: unknown) =>
    childLogger("ai-ads").error({ err: error }, "ads left rendering were not queued again at start; their renders wait for a restart"),
  );
  Promise.resolve(jobs.start()).catch((error: unknown) =>
    childLogger("jobs").error({ err: error }, "the job worker did not start; background jobs wait for a restart"),
  );
  // A fresh install or a server down on the drop day shows this week's drop at once (keyed: one run).
  productDrops.queueCatchUp(jobs).catch((error: unknown) =>
    childLogger("product-drops").error({ err: error }, "the weekly drop catch-up was not queued; the daily 06:00 run will publish it"),
  );
  // A catalogue from before migration 034, or layers that changed while no server ran, is figured again at once.
  landedMargins.queueAtStart(jobs).catch((error: unknown) =>
    childLogger("landed-margins").error({ err: error }, "the margin-after-duty check was not queued at start; the daily run will do it"),
  );
}

export function stopBackgroundWork(): Promise<void> {
  backgroundStarted = false;
  return jobs.stop();
}

/** Every line about Shopify webhooks, the refusals the page layer logs included (one logger, so tests read them all). */
export { webhookLog as shopifyWebhookLog } from "~/services/shopify/webhooks.server";
