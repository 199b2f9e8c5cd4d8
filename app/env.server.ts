// The one place environment variables are read. The process refuses to start with one clear line per
// missing or malformed value. Every value has a built-in default that runs the whole product on one
// machine with no keys; only values listed in publicEnv() ever reach the browser.
// Secrets never default to a value written in the repository (docs/decisions/020): production must set
// each one or switch its feature off explicitly; development and tests use random local secrets. A public
// deployment (production whose APP_URL is not on localhost; docs/decisions/042) also refuses secrets written
// in the repository or easy to guess (app/env-secrets.server.ts, docs/decisions/080), and never runs the local test
// checkout unless told to out loud.
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseAlgoliaHosts } from "~/domain/products/algolia-hosts";
import { isLocalDemo } from "~/domain/accounts/local-demo";
import { BucketEnvShape, bucketEnvProblems } from "~/domain/storage/bucket-env";
import { CHECKED_SECRETS, weakSecret } from "~/env-secrets.server";

/** Fallbacks older versions shipped in the repository: refused as secrets (docs/decisions/020). */
const PUBLIC_SECRETS = new Set(["local-dev-api-secret", "dev-only-session-secret-change-me"]);

/** The value of PADDLE_LOCAL_CHECKOUT that runs the local test checkout on a public deployment: plans are free. */
export const FREE_PLANS_ON_PURPOSE = "i-understand-plans-are-free";

/** The Shopify client id used when none is set: public by nature (App Bridge reads it), never a secret. */
const LOCAL_SHOPIFY_API_KEY = "local-dev-api-key";

// Random secrets made by this process, kept on globalThis so a module reloaded by the dev server keeps them.
const processSecrets: Map<string, string> = ((globalThis as { __wpLocalSecrets?: Map<string, string> }).__wpLocalSecrets ??=
  new Map());

/** A random secret that lives as long as this process (and is never written anywhere). */
function processSecret(name: string): string {
  let secret = processSecrets.get(name);
  if (!secret) {
    secret = randomBytes(32).toString("hex");
    processSecrets.set(name, secret);
  }
  return secret;
}

/**
 * A random secret kept in data/<name> (git-ignored, mode 0600), made the first time it is needed, so
 * `npm run dev` keeps sessions across restarts; it is the same file `npm start` generates. When the file
 * cannot be written (read-only disk), a secret of this process is used instead.
 */
function localFileSecret(name: string): string {
  const key = `file:${name}`;
  const known = processSecrets.get(key);
  if (known) return known;
  const file = path.resolve("data", name);
  let secret: string | undefined;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // "wx": never overwrite a secret another process has just created.
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
  } catch {
    // it exists already, or the disk is read-only
  }
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    secret = undefined;
  }
  if (!secret || secret.length < 16 || PUBLIC_SECRETS.has(secret)) secret = processSecret(key);
  processSecrets.set(key, secret);
  return secret;
}

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const optionalUrl = optionalString.refine((v) => v === undefined || URL.canParse(v), {
  message: "must be an absolute URL such as https://example.com",
});

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: optionalUrl,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

    DATABASE_URL: z
      .string()
      .default("file:./data/app.db")
      .refine((v) => /^(file:|libsql:|https?:|wss?:|postgres(ql)?:\/\/)/.test(v), {
        message: "must start with file: (SQLite file), libsql:// (libSQL server) or postgresql:// (PostgreSQL, decision 098)",
      }),
    DATABASE_AUTH_TOKEN: optionalString,

    SESSION_SECRET: optionalString,
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),

    FIREBASE_API_KEY: optionalString,
    FIREBASE_AUTH_DOMAIN: optionalString,
    FIREBASE_PROJECT_ID: optionalString,
    FIREBASE_APP_ID: optionalString,
    FIREBASE_JWKS_URL: z
      .string()
      .url()
      .default("https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"),

    // The embedded Shopify app (docs/decisions/020): "off" switches it off explicitly (production without
    // Shopify keys); nothing signed by anyone then verifies, because its secret is random and never shared.
    SHOPIFY_APP: z.enum(["on", "off"]).default("on"),
    // The client id is public (App Bridge reads it in the browser); its built-in development value is not a secret.
    SHOPIFY_API_KEY: optionalString,
    SHOPIFY_API_SECRET: optionalString,
    SHOPIFY_APP_URL: optionalUrl,
    SCOPES: z.string().default("write_products,read_themes"),
    SHOP_CUSTOM_DOMAIN: optionalString,
    // The app's install link (its Shopify App Store listing or the Partner Dashboard's install link), shown
    // as "Install on Shopify" on the site's Stores page (docs/decisions/029). Empty: the page asks for the
    // store's address and sends the seller to Shopify's install page for SHOPIFY_API_KEY.
    SHOPIFY_APP_INSTALL_URL: optionalUrl.refine((v) => v === undefined || v.startsWith("https://"), {
      message: "must be an https:// link, e.g. https://apps.shopify.com/your-app",
    }),

    // Which rail sells plans inside Shopify admin (docs/decisions/034): "off" sends merchants to the
    // website's Paddle checkout (an app installed outside the App Store); "on" charges through Shopify's
    // Billing API, as the App Store requires, and nothing inside the admin leads to Paddle.
    SHOPIFY_BILLING: z.enum(["on", "off"]).default("off"),
    // Where Admin GraphQL is answered instead of https://{shop} (tests and local development only).
    SHOPIFY_ADMIN_API_URL: optionalUrl,

    SENTRY_DSN: optionalUrl,
    POSTHOG_KEY: optionalString,
    POSTHOG_HOST: z.string().url().default("https://us.i.posthog.com"),
    // Marketing and tracking (docs/decisions/032): each service is sent to only when its key is set;
    // without one its outbox rows are kept and logged. Base URLs point tests at local servers.
    KLAVIYO_API_KEY: optionalString,
    KLAVIYO_BASE_URL: z.string().url().default("https://a.klaviyo.com"),
    HYROS_API_KEY: optionalString,
    HYROS_BASE_URL: z.string().url().default("https://api.hyros.com"),
    ANYTRACK_ACCOUNT_ID: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9_-]{1,64}$/.test(v), {
      message: "must be the account id from AnyTrack's endpoint URL (letters, digits, _ or -)",
    }),
    ANYTRACK_INTEGRATION: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the integration slug from AnyTrack's endpoint URL").default("custom"),
    ANYTRACK_BASE_URL: z.string().url().default("https://t1.anytrack.io"),

    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
    LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
    // Inbound limits (docs/decisions/064). TRUST_PROXY=on: the client's address is the proxy's X-Real-IP or the
    // first X-Forwarded-For entry; off (default): the socket's address, since a client can send those headers itself.
    TRUST_PROXY: z.enum(["on", "off"]).default("off"),
    // Multiplies the limits per client address (log-in failures, sign-ups, reset requests, public calls): raise it
    // when many people share one address; the end-to-end suite, all on 127.0.0.1, sets 1000.
    INBOUND_LIMITS_SCALE: z.coerce.number().min(0.01).max(1_000_000).default(1),
    // Public API and MCP calls a minute per key and per user (docs/decisions/053); a benchmark raises it.
    API_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),

    // E-mail (docs/decisions/051): password reset and address verification links, sent by the job system
    // through nodemailer. With SMTP_URL (smtp://user:pass@host:587 or smtps://...:465) over SMTP; without
    // it each message is written as an .eml file under MAIL_OUTBOX_DIR, listed on the operator page.
    SMTP_URL: optionalString.refine((v) => v === undefined || (URL.canParse(v) && /^smtps?:$/.test(new URL(v).protocol)), {
      message: "must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465",
    }),
    MAIL_FROM: z
      .string()
      .trim()
      .min(3)
      .max(200)
      .refine((v) => /^[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+$|^[^<>]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>$/.test(v), {
        message: 'must be an address, or a name and an address: "Winning Products <support@example.com>"',
      })
      .default("Winning Products <no-reply@winningproducts.test>"),
    MAIL_OUTBOX_DIR: z.string().trim().min(1).default("./data/mail"),
    // How long a password reset link works (minutes, default 60) and an e-mail confirmation link (hours, default 72).
    PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(5).max(24 * 60).default(60),
    EMAIL_VERIFICATION_TTL_HOURS: z.coerce.number().int().min(1).max(30 * 24).default(72),

    // AI text (docs/decisions/015): any OpenAI-compatible chat-completions endpoint; without base URL
    // and model the built-in writer composes product pages from the product's own data.
    AI_BASE_URL: optionalUrl,
    AI_API_KEY: optionalString,
    AI_MODEL: optionalString,
    AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(20_000),
    // Voice-overs for AI ads (docs/decisions/062): the speech model at {AI_BASE_URL}/audio/speech (OpenAI's shape), and
    // its voice; without a speech model ads have no voice and the ads page says how to get one.
    AI_SPEECH_MODEL: optionalString,
    AI_SPEECH_VOICE: z.string().trim().min(1).max(60).regex(/^[\w.-]+$/, "must be a voice name such as alloy").default("alloy"),
    // The voices a seller may pick per ad (decision 067), comma-separated: only for a provider whose voices are not
    // OpenAI's (alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse, offered when this is empty).
    AI_SPEECH_VOICES: z
      .string()
      .trim()
      .max(2000)
      .regex(/^([\w.-]{1,60}(\s*,\s*[\w.-]{1,60})*)?$/, "must be voice names separated by commas, such as alloy,nova")
      .default("")
      .transform((v) => (v ? v.split(",").map((x) => x.trim()) : [])),
    // Music beds for AI ads (docs/decisions/062): the folder of audio files (mp3, m4a, aac, wav, ogg, flac) the operator
    // puts there, whose licence allows use in ads. None ship with the product.
    AD_MUSIC_DIR: z.string().trim().min(1).default("./data/music"),
    // AI video ads (docs/decisions/019): the folder the rendered MP4s are written to and served from.
    VIDEO_STORAGE_DIR: z.string().trim().min(1).default("./data/videos"),
    // An S3-compatible bucket for the videos, fetched pictures and voice clips instead of VIDEO_STORAGE_DIR (decision 097):
    // STORAGE_BUCKET, STORAGE_S3_ENDPOINT, STORAGE_S3_REGION, STORAGE_S3_FORCE_PATH_STYLE, AWS_* credentials.
    ...BucketEnvShape,
    // Frame size (WIDTHxHEIGHT, even numbers) and frame rate of rendered (paid) ads: full HD 9:16 at 30 fps by
    // default (docs/decisions/033); 540x960 at 15 fps renders about 8 times faster.
    VIDEO_SIZE: z
      .string()
      .trim()
      .regex(/^\d{2,4}x\d{2,4}$/, "must be WIDTHxHEIGHT, e.g. 540x960")
      .refine((v) => v.split("x").every((n) => Number(n) % 2 === 0 && Number(n) >= 16 && Number(n) <= 1920), {
        message: "must be even numbers from 16 to 1920, e.g. 540x960",
      })
      .default("1080x1920"),
    VIDEO_FPS: z.coerce.number().int().min(1).max(60).default(30),
    // Who encodes the frames (docs/decisions/035): auto = FFMPEG_PATH, else the ffmpeg binary of the
    // @ffmpeg-installer package, else `ffmpeg` on the PATH, else the WebAssembly encoder (about 10 times slower).
    VIDEO_ENCODER: z.enum(["auto", "ffmpeg", "wasm"]).default("auto"),
    FFMPEG_PATH: optionalString,
    // Keys that encrypt stored Shopify tokens (docs/decisions/014): comma-separated "keyId:base64-of-32-bytes";
    // the first encrypts, every one decrypts (keep an old key listed until `npm run tokens:reencrypt` ran).
    TOKEN_ENCRYPTION_KEYS: optionalString.superRefine((value, ctx) => {
      const ids = new Set<string>();
      for (const [index, entry] of (value?.split(",") ?? []).entries()) {
        const [id = "", secret = "", ...rest] = entry.trim().split(":");
        const validId = /^[A-Za-z0-9_-]{1,32}$/.test(id) && id !== "derived";
        const validKey = /^[A-Za-z0-9+/]+={0,2}$/.test(secret) && Buffer.from(secret, "base64").length === 32;
        // Messages name the entry by position and id only: never a key.
        if (!validId || !validKey || rest.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `entry ${index + 1} must be keyId:base64-of-32-bytes (key id: 1-32 letters, digits, _ or -; not "derived")`,
          });
        } else if (ids.has(id)) {
          ctx.addIssue({ code: "custom", message: `key id "${id}" appears twice` });
        }
        ids.add(id);
      }
    }),

    // Community (docs/decisions/010): the Discord invite, and OAuth keys to connect a Discord account.
    DISCORD_INVITE_URL: optionalUrl,
    DISCORD_CLIENT_ID: optionalString,
    DISCORD_CLIENT_SECRET: optionalString,
    DISCORD_API_BASE_URL: optionalUrl,

    // Algolia (docs/decisions/012): with ALGOLIA_APP_ID, ALGOLIA_SEARCH_KEY and ALGOLIA_INDEX set, search
    // asks Algolia for objectIDs and reads products from the database; the admin key lets imports sync.
    ALGOLIA_APP_ID: optionalString,
    ALGOLIA_SEARCH_KEY: optionalString,
    ALGOLIA_ADMIN_KEY: optionalString,
    ALGOLIA_INDEX: optionalString,
    ALGOLIA_HOSTS: optionalString.superRefine((value, ctx) => {
      try {
        parseAlgoliaHosts(value);
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: (error instanceof Error ? error.message : String(error)).replace(/^ALGOLIA_HOSTS: /, ""),
        });
      }
    }),

    // Competitor tracking (docs/decisions/024). Rival stores are read through the SSRF-safe fetcher, which refuses
    // private addresses; TRACKER_ALLOW_HOSTS ("host:port" list) lets it reach local stand-ins (development, tests).
    TRACKER_ALLOW_HOSTS: optionalString.refine(
      (v) => v === undefined || v.split(",").every((e) => e.trim() === "" || /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(e.trim())),
      { message: "must be comma-separated host:port entries, e.g. 127.0.0.1:4010" },
    ),
    // "name=address" entries resolved without DNS, for local stand-ins of stores ("*.test=127.0.0.1"); a store
    // whose host is mapped here is read over plain http. Empty in real use.
    TRACKER_RESOLVE: optionalString.refine(
      (v) => v === undefined || v.split(",").every((e) => e.trim() === "" || /^(\*\.)?[A-Za-z0-9.-]+=[0-9a-fA-F:.]+$/.test(e.trim())),
      { message: "must be comma-separated name=address entries, e.g. *.test=127.0.0.1" },
    ),
    // Least ms between two requests to one store TRACKER_RESOLVE maps (a local stand-in; the tests set it low so a
    // read does not wait a second a request); unset, a stand-in is paced like any store. Never applies to real stores.
    TRACKER_STANDIN_GAP_MS: z.coerce.number().int().min(1).max(60_000).optional(),
    // TikTok library (docs/decisions/033): TikTok's public oEmbed endpoint, read through the SSRF-safe fetcher
    // (TRACKER_ALLOW_HOSTS also lets it reach a local stand-in); tests point it at a local server.
    TIKTOK_OEMBED_URL: z
      .string()
      .trim()
      .default("https://www.tiktok.com/oembed")
      .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), { message: "must be an http(s) URL such as https://www.tiktok.com/oembed" }),
    // Reference exchange rates (docs/decisions/089): the ECB's daily XML the daily "rates.refresh" job reads through
    // the SSRF-safe fetcher; "off" schedules no job (the table changes only by `npm run rates -- import FILE`).
    EXCHANGE_RATES_URL: z
      .string()
      .trim()
      .default("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml")
      .refine((v) => v === "off" || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), { message: 'must be an http(s) URL or "off"' }),
    // Whether this server process also runs background jobs (renders, store checks); "off" for a
    // web-only process when another process (or `npm run jobs -- run-due` from cron) runs them.
    JOBS_WORKER: z.enum(["on", "off"]).default("on"),
    TRACKER_CHECK_INTERVAL_MINUTES: z.coerce.number().int().min(5).max(7 * 24 * 60).default(360),
    // Hours between two reads of a store only the operator lists for the measured catalogue (docs/decisions/047);
    // each store reads at its own time of that interval, so a long list is spread over it.
    CATALOGUE_STORE_INTERVAL_HOURS: z.coerce.number().int().min(1).max(7 * 24).default(24),
    // Store discovery (decision 101): public sources of candidate Shopify stores, read through the SSRF-safe fetcher
    // (TRACKER_ALLOW_HOSTS lets tests reach local stand-ins); "off" leaves a source out. The Common Crawl URL is the
    // index server's root (its newest collection is read from collinfo.json) or one collection's "...-index" endpoint.
    DISCOVERY_CDX_URL: z
      .string()
      .trim()
      .default("https://index.commoncrawl.org")
      .refine((v) => v === "off" || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), { message: 'must be an http(s) URL or "off"' }),
    DISCOVERY_CT_URL: z
      .string()
      .trim()
      .default("https://crt.sh/")
      .refine((v) => v === "off" || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)), { message: 'must be an http(s) URL or "off"' }),
    // Stores one discovery run may add to the operator's list (daily, and `npm run stores -- discover`); 0 (the
    // default) schedules no run.
    DISCOVERY_BUDGET: z.coerce.number().int().min(0).max(5000).default(0),
    // The product token our reads send in their User-Agent (followed by a contact URL on APP_URL).
    TRACKER_USER_AGENT: z.string().trim().regex(/^[A-Za-z0-9._-]{1,60}$/, "must be one word of letters, digits, . _ or -").default("WinningProductsStoreTracker"),

    PADDLE_API_KEY: optionalString,
    PADDLE_CLIENT_TOKEN: optionalString,
    PADDLE_ENVIRONMENT: z.enum(["sandbox", "production"]).default("sandbox"),
    PADDLE_API_BASE_URL: optionalUrl,
    PADDLE_WEBHOOK_SECRET: optionalString,
    PADDLE_PRICE_BASIC: z.string().default("pri_local_basic"),
    PADDLE_PRICE_PRO: z.string().default("pri_local_pro"),
    PADDLE_PRICE_INNER_CIRCLE: z.string().default("pri_local_inner_circle"),
    PADDLE_PRICE_CASE_STUDY: z.string().default("pri_local_case_study"),
    // One-time prices of the credit packs (app/domain/billing/plans.ts CREDIT_TOP_UPS) sold on the site.
    PADDLE_PRICE_CREDITS_AI_ADS_50: z.string().default("pri_local_credits_ai_ads_50"),
    PADDLE_PRICE_CREDITS_PRODUCT_PAGES_50: z.string().default("pri_local_credits_product_pages_50"),
    PADDLE_RETENTION_DISCOUNT_ID: z.string().default("dsc_local_retention"),
    // The local test checkout (docs/decisions/009, 042) gives every plan away. Unset, it runs when there are no
    // Paddle keys on a local demo only; "false" switches it off; "true" asks for it (local demos only);
    // FREE_PLANS_ON_PURPOSE runs it on a public deployment too, with a warning at every start.
    PADDLE_LOCAL_CHECKOUT: z.enum(["true", "false", FREE_PLANS_ON_PURPOSE]).optional(),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
        ctx.addIssue({
          code: "custom",
          path: ["SESSION_SECRET"],
          message: "is required in production (a long random string that signs session cookies)",
        });
      }
      for (const key of ["SESSION_SECRET", "SHOPIFY_API_SECRET"] as const) {
        if (env[key] && PUBLIC_SECRETS.has(env[key])) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "is a value published in this repository, not a secret: set a long random value",
          });
        }
      }
      if (env.NODE_ENV === "production" && env.SHOPIFY_APP === "on") {
        const needs = {
          SHOPIFY_API_KEY: "the app's client id from the Partner Dashboard",
          SHOPIFY_API_SECRET:
            "the app's client secret from the Partner Dashboard; it verifies webhooks, app-proxy calls and session tokens",
        } as const;
        for (const key of ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET"] as const) {
          if (!env[key]) {
            ctx.addIssue({
              code: "custom",
              path: [key],
              message: `is required in production (${needs[key]}); or set SHOPIFY_APP=off to switch the embedded Shopify app off`,
            });
          }
        }
      }
      if (env.SESSION_SECRET && env.SESSION_SECRET.length < 16) {
        ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be at least 16 characters" });
      }
      if (env.NODE_ENV === "production" && !env.TOKEN_ENCRYPTION_KEYS) {
        ctx.addIssue({
          code: "custom",
          path: ["TOKEN_ENCRYPTION_KEYS"],
          message:
            "is required in production (keyId:base64-of-32-bytes, e.g. k1:$(openssl rand -base64 32)); npm start generates one in data/token-encryption-keys",
        });
      }
      const algoliaSearch = ["ALGOLIA_APP_ID", "ALGOLIA_SEARCH_KEY", "ALGOLIA_INDEX"] as const;
      if (algoliaSearch.some((key) => env[key]) || env.ALGOLIA_ADMIN_KEY) {
        for (const key of algoliaSearch) {
          if (!env[key]) {
            ctx.addIssue({
              code: "custom",
              path: [key],
              message: "is required when any Algolia key is set (ALGOLIA_APP_ID, ALGOLIA_SEARCH_KEY and ALGOLIA_INDEX go together)",
            });
          }
        }
      }
      if (env.PADDLE_API_KEY) {
        for (const key of ["PADDLE_WEBHOOK_SECRET", "PADDLE_CLIENT_TOKEN"] as const) {
          if (!env[key]) {
            ctx.addIssue({ code: "custom", path: [key], message: "is required when PADDLE_API_KEY is set" });
          }
        }
      } else if (!isLocalDemo(env) && env.PADDLE_LOCAL_CHECKOUT !== FREE_PLANS_ON_PURPOSE) {
        const where = env.APP_URL ? `APP_URL ${env.APP_URL} is not on localhost` : "APP_URL is not set";
        const onPurpose = `or set PADDLE_LOCAL_CHECKOUT=${FREE_PLANS_ON_PURPOSE} to run the local test checkout anyway, which gives every plan away for free`;
        if (env.PADDLE_LOCAL_CHECKOUT === "true") {
          ctx.addIssue({
            code: "custom",
            path: ["PADDLE_LOCAL_CHECKOUT"],
            message: `is true, which runs the local test checkout only on a local demo (APP_URL on localhost), and ${where}: set PADDLE_API_KEY, PADDLE_WEBHOOK_SECRET and PADDLE_CLIENT_TOKEN, ${onPurpose}`,
          });
        } else {
          ctx.addIssue({
            code: "custom",
            path: ["PADDLE_API_KEY"],
            message: `is required in production on a public address (${where}): set PADDLE_API_KEY, PADDLE_WEBHOOK_SECRET and PADDLE_CLIENT_TOKEN, ${onPurpose}`,
          });
        }
      }
      if (!isLocalDemo(env)) {
        for (const key of CHECKED_SECRETS) {
          const value = env[key];
          if (!value || (key === "SHOPIFY_API_SECRET" && env.SHOPIFY_APP !== "on")) continue;
          const weak = weakSecret(value);
          if (weak) ctx.addIssue({ code: "custom", path: [key], message: weak });
        }
        for (const [index, entry] of (env.TOKEN_ENCRYPTION_KEYS?.split(",") ?? []).entries()) {
          const [id = "", key = ""] = entry.trim().split(":");
          // The key is judged by its 32 bytes, not by their base64 spelling.
          const weak = weakSecret(entry.trim()) ?? weakSecret(key) ?? weakSecret(Buffer.from(key, "base64").toString("latin1"));
          if (weak) ctx.addIssue({ code: "custom", path: ["TOKEN_ENCRYPTION_KEYS"], message: `entry ${index + 1} (${id}) ${weak}` });
        }
      }
      if (Boolean(env.AI_BASE_URL) !== Boolean(env.AI_MODEL) || (env.AI_API_KEY && !env.AI_BASE_URL)) {
        ctx.addIssue({
          code: "custom",
          path: [env.AI_BASE_URL ? "AI_MODEL" : "AI_BASE_URL"],
          message: "AI text needs AI_BASE_URL and AI_MODEL together (AI_API_KEY is optional and only used with them)",
        });
      }
      if (env.AI_SPEECH_MODEL && !env.AI_BASE_URL) {
        ctx.addIssue({ code: "custom", path: ["AI_BASE_URL"], message: "AI_SPEECH_MODEL needs AI_BASE_URL (the endpoint that serves /audio/speech)" });
      }
      if (Boolean(env.DISCORD_CLIENT_ID) !== Boolean(env.DISCORD_CLIENT_SECRET)) {
        ctx.addIssue({
          code: "custom",
          path: ["DISCORD_CLIENT_SECRET"],
          message: "Discord sign-in needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET together (or neither)",
        });
      }
      if (env.NODE_ENV === "production" && env.DISCORD_CLIENT_ID && !env.APP_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["APP_URL"],
          message: "is required in production with Discord sign-in (it builds the OAuth callback URL)",
        });
      }
      for (const problem of bucketEnvProblems(env)) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
      const firebase = [env.FIREBASE_API_KEY, env.FIREBASE_AUTH_DOMAIN, env.FIREBASE_PROJECT_ID];
      if (firebase.some(Boolean) && !firebase.every(Boolean)) {
        ctx.addIssue({
          code: "custom",
          path: ["FIREBASE_PROJECT_ID"],
          message:
            "Google sign-in needs FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN and FIREBASE_PROJECT_ID together (or none of them)",
        });
      }
    },
    // Run these rules even when another value is malformed, so one start-up lists every problem.
    { when: () => true },
  )
  .transform((env) => ({
    ...env,
    SHOPIFY_API_KEY: env.SHOPIFY_API_KEY ?? LOCAL_SHOPIFY_API_KEY,
    // Without Shopify (development, tests, SHOPIFY_APP=off) a random secret of this process: webhooks,
    // app-proxy calls and session tokens are then refused, since no one else knows it.
    SHOPIFY_API_SECRET:
      env.SHOPIFY_APP === "on" && env.SHOPIFY_API_SECRET ? env.SHOPIFY_API_SECRET : processSecret("shopify-api-secret"),
  }));

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses an environment (process.env by default); throws EnvError listing every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // A variable set to nothing (`PORT=`, as in .env.example) means "not set", so its default applies.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`));
  }
  return result.data;
}

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) {
    try {
      cached = parseEnv();
      for (const warning of startupWarnings(cached)) console.warn(warning);
    } catch (error) {
      if (error instanceof EnvError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }
  return cached;
}

/**
 * The secret that signs session cookies (and from which local-mode secrets are derived). Production
 * requires SESSION_SECRET (see parseEnv); development uses a random one kept in data/session-secret, tests
 * one of the process. Never a value from the repository.
 */
export function sessionSecret(env: Env = getEnv()): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  if (env.NODE_ENV === "production") throw new EnvError(["SESSION_SECRET is required in production"]);
  return env.NODE_ENV === "development" ? localFileSecret("session-secret") : processSecret("session-secret");
}

/** Whether plans inside Shopify admin are sold through Shopify's Billing API (SHOPIFY_BILLING, docs/decisions/034). */
export function shopifyBillingOn(env: Env = getEnv()): boolean {
  return env.SHOPIFY_BILLING === "on";
}

/** Whether Shopify charges are test charges (never real money): everywhere but production. */
export function shopifyTestCharges(env: Env = getEnv()): boolean {
  return env.NODE_ENV !== "production";
}

/** Whether the embedded Shopify surface is on: SHOPIFY_APP=off switches it off (docs/decisions/020). */
export function shopifyAppEnabled(env: Env = getEnv()): boolean {
  return env.SHOPIFY_APP === "on";
}

/**
 * How a site user can install the Shopify app on their store (docs/decisions/029): not at all when the
 * embedded app is off or has no real client id (only the local placeholder), else through Shopify's install
 * page for our client id, and the configured install link when there is one.
 */
export type ShopifyInstallSetup =
  | { available: false; reason: "app-off" | "no-client-id" }
  | { available: true; clientId: string; installUrl: string | null };

export function shopifyInstallSetup(env: Env = getEnv()): ShopifyInstallSetup {
  if (env.SHOPIFY_APP !== "on") return { available: false, reason: "app-off" };
  if (env.SHOPIFY_API_KEY === LOCAL_SHOPIFY_API_KEY) return { available: false, reason: "no-client-id" };
  return { available: true, clientId: env.SHOPIFY_API_KEY, installUrl: env.SHOPIFY_APP_INSTALL_URL ?? null };
}

/**
 * Whether this server is a local demo (docs/decisions/042): not a production process, or one whose APP_URL is
 * on localhost. Only a local demo runs the local test checkout by itself and seeds the README's demo login.
 */
export function localDemo(env: Env = getEnv()): boolean {
  return isLocalDemo(env);
}

/**
 * Whether the local test checkout completes purchases (docs/decisions/009, 042): only without Paddle keys, not
 * switched off, and on a local demo unless PADDLE_LOCAL_CHECKOUT asks for free plans on purpose.
 */
export function localCheckoutEnabled(env: Env = getEnv()): boolean {
  if (paddleMode(env) !== "local" || env.PADDLE_LOCAL_CHECKOUT === "false") return false;
  return isLocalDemo(env) || env.PADDLE_LOCAL_CHECKOUT === FREE_PLANS_ON_PURPOSE;
}

/** What the server says at every start because someone should notice (printed by getEnv, and by npm start). */
export function startupWarnings(env: Env): string[] {
  const warnings: string[] = [];
  if (!isLocalDemo(env) && localCheckoutEnabled(env)) {
    warnings.push(
      `WARNING: every plan is free on ${env.APP_URL ?? "this public server"}: PADDLE_LOCAL_CHECKOUT=${FREE_PLANS_ON_PURPOSE} runs the local test checkout without Paddle keys, so anyone can take any plan without paying. Set PADDLE_API_KEY, PADDLE_WEBHOOK_SECRET and PADDLE_CLIENT_TOKEN to sell plans.`,
    );
  }
  return warnings;
}

/** Paddle's real adapter when keys are set; otherwise the local test checkout (docs/decisions/009). */
export function paddleMode(env: Env = getEnv()): "paddle" | "local" {
  return env.PADDLE_API_KEY ? "paddle" : "local";
}

/**
 * The secret Paddle signs notifications with. In local mode the test checkout signs with a secret
 * derived from SESSION_SECRET, so nothing outside this server can forge one.
 */
export function paddleWebhookSecret(env: Env = getEnv()): string {
  if (env.PADDLE_WEBHOOK_SECRET) return env.PADDLE_WEBHOOK_SECRET;
  return createHmac("sha256", sessionSecret(env)).update("paddle-local-webhook").digest("hex");
}

export function firebaseWebConfig(env: Env = getEnv()) {
  if (!env.FIREBASE_API_KEY || !env.FIREBASE_AUTH_DOMAIN || !env.FIREBASE_PROJECT_ID) return null;
  return {
    apiKey: env.FIREBASE_API_KEY,
    authDomain: env.FIREBASE_AUTH_DOMAIN,
    projectId: env.FIREBASE_PROJECT_ID,
    appId: env.FIREBASE_APP_ID,
  };
}

/** The only environment values the browser sees. */
export function publicEnv(env: Env = getEnv()) {
  return {
    SENTRY_DSN: env.SENTRY_DSN ?? null,
    firebase: firebaseWebConfig(env),
    SHOPIFY_API_KEY: env.SHOPIFY_API_KEY,
    paddle: env.PADDLE_API_KEY
      ? { clientToken: env.PADDLE_CLIENT_TOKEN ?? "", environment: env.PADDLE_ENVIRONMENT }
      : null,
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
