import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHmac, randomBytes } from "node:crypto";
import {
  EnvError,
  firebaseWebConfig,
  localCheckoutEnabled,
  localDemo,
  paddleWebhookSecret,
  parseEnv,
  publicEnv,
  sessionSecret,
  shopifyAppEnabled,
  startupWarnings,
} from "~/env.server";
import { isLoopbackUrl } from "~/domain/accounts/local-demo";
import { weakSecret } from "~/env-secrets.server";
import { E2E_SESSION_SECRET } from "../../e2e/support/constants";

/** The problems parseEnv reports, or [] when the environment is accepted. */
function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return error.problems;
  }
}

/**
 * Production on a loopback APP_URL is a local demo (docs/decisions/042): the local test checkout runs without
 * Paddle keys, and secrets are not checked against the repository.
 */
const LOCAL_CHECKOUT = { APP_URL: "http://localhost:3000" };

/** Production also wants the key that encrypts stored Shopify tokens (docs/decisions/014). */
const TOKEN_KEYS = { TOKEN_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}` };

/** Production also wants the Shopify app's keys, or SHOPIFY_APP=off (docs/decisions/020). */
const SHOPIFY = { SHOPIFY_API_KEY: "prod-client-id", SHOPIFY_API_SECRET: "shpss_prod_secret_0123456789abcdef" };

const FIREBASE = {
  FIREBASE_API_KEY: "AIza-test-key",
  FIREBASE_AUTH_DOMAIN: "wp-test.firebaseapp.com",
  FIREBASE_PROJECT_ID: "wp-test",
};

describe("parseEnv defaults", () => {
  it("runs the whole product on one machine with an empty environment", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      LOG_LEVEL: "info",
      DATABASE_URL: "file:./data/app.db",
      SESSION_TTL_DAYS: 30,
      LOGIN_MAX_FAILURES: 5,
      LOGIN_WINDOW_MINUTES: 15,
      SCOPES: "write_products,read_themes",
      POSTHOG_HOST: "https://us.i.posthog.com",
      FIREBASE_JWKS_URL: "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
    });
    expect(env.SESSION_SECRET).toBeUndefined();
    expect(env.POSTHOG_KEY).toBeUndefined();
    expect(env.SENTRY_DSN).toBeUndefined();
    expect(firebaseWebConfig(env)).toBeNull();
    expect(sessionSecret(env).length).toBeGreaterThanOrEqual(16);
  });

  it("accepts the documented .env.example copied as it is (every value blank)", () => {
    const example = readFileSync(path.resolve(".env.example"), "utf8");
    const source = Object.fromEntries(
      example
        .split("\n")
        .filter((line) => /^[A-Z0-9_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(Object.keys(source)).toContain("PORT");
    expect(problems(source)).toEqual([]);
    expect(parseEnv(source)).toEqual(parseEnv({}));
  });

  it("reads the speech voices a seller may pick as a list (decision 067)", () => {
    expect(parseEnv({}).AI_SPEECH_VOICES).toEqual([]);
    expect(parseEnv({ AI_SPEECH_VOICES: " rachel, adam ,bella" }).AI_SPEECH_VOICES).toEqual(["rachel", "adam", "bella"]);
  });

  it("treats blank and whitespace-only values as unset", () => {
    const env = parseEnv({ PORT: "", NODE_ENV: " ", DATABASE_URL: "", SESSION_SECRET: "   " });
    expect(env).toMatchObject({ PORT: 3000, NODE_ENV: "development", DATABASE_URL: "file:./data/app.db" });
    expect(env.SESSION_SECRET).toBeUndefined();
  });

  it("reads numbers, trims strings and keeps given values", () => {
    const env = parseEnv({
      ...LOCAL_CHECKOUT,
      ...TOKEN_KEYS,
      ...SHOPIFY,
      NODE_ENV: "production",
      PORT: "8080",
      SESSION_SECRET: "  a-long-production-secret-value  ",
      DATABASE_URL: "libsql://db.example.turso.io",
      LOGIN_MAX_FAILURES: "3",
      ...FIREBASE,
    });
    expect(env).toMatchObject({
      NODE_ENV: "production",
      PORT: 8080,
      SESSION_SECRET: "a-long-production-secret-value",
      DATABASE_URL: "libsql://db.example.turso.io",
      LOGIN_MAX_FAILURES: 3,
    });
    expect(firebaseWebConfig(env)).toEqual({
      apiKey: "AIza-test-key",
      authDomain: "wp-test.firebaseapp.com",
      projectId: "wp-test",
      appId: undefined,
    });
  });

  it.each(["file:./data/app.db", "file:/tmp/x.db", "libsql://x.turso.io", "http://127.0.0.1:8080", "wss://x.turso.io"])(
    "accepts DATABASE_URL %s",
    (url) => expect(problems({ DATABASE_URL: url })).toEqual([]),
  );
});

describe("parseEnv refuses bad values with one clear line each", () => {
  it.each<[string, Record<string, string>, RegExp]>([
    ["a non-numeric PORT", { PORT: "abc" }, /^PORT .*number/],
    ["PORT 0", { PORT: "0" }, /^PORT /],
    ["PORT 70000", { PORT: "70000" }, /^PORT /],
    ["a MySQL DATABASE_URL", { DATABASE_URL: "mysql://x" }, /^DATABASE_URL must start with file: .*libsql:\/\//],
    ["a bare path as DATABASE_URL", { DATABASE_URL: "./data/app.db" }, /^DATABASE_URL must start with file:/],
    ["a voice list with a path in it", { AI_SPEECH_VOICES: "alloy,../etc" }, /^AI_SPEECH_VOICES must be voice names separated by commas/],
    [
      "only FIREBASE_API_KEY",
      { FIREBASE_API_KEY: "k" },
      /^FIREBASE_PROJECT_ID Google sign-in needs FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN and FIREBASE_PROJECT_ID together/,
    ],
    [
      "Firebase without the project id",
      { FIREBASE_API_KEY: "k", FIREBASE_AUTH_DOMAIN: "d" },
      /^FIREBASE_PROJECT_ID .*together/,
    ],
    ["only FIREBASE_PROJECT_ID", { FIREBASE_PROJECT_ID: "p" }, /^FIREBASE_PROJECT_ID .*together/],
    [
      "production without SESSION_SECRET",
      { ...LOCAL_CHECKOUT, ...TOKEN_KEYS, ...SHOPIFY, NODE_ENV: "production" },
      /^SESSION_SECRET is required in production/,
    ],
    ["a short SESSION_SECRET", { SESSION_SECRET: "short" }, /^SESSION_SECRET must be at least 16 characters/],
    ["an unknown NODE_ENV", { NODE_ENV: "prod" }, /^NODE_ENV .*"development"\|"production"\|"test"/],
    ["an unknown LOG_LEVEL", { LOG_LEVEL: "loud" }, /^LOG_LEVEL .*"info"/],
    ["a relative APP_URL", { APP_URL: "winning-products.test" }, /^APP_URL must be an absolute URL/],
    ["a non-URL SENTRY_DSN", { SENTRY_DSN: "not a dsn" }, /^SENTRY_DSN must be an absolute URL/],
    ["a non-URL FIREBASE_JWKS_URL", { FIREBASE_JWKS_URL: "keys.json" }, /^FIREBASE_JWKS_URL /],
    ["LOGIN_MAX_FAILURES 0", { LOGIN_MAX_FAILURES: "0" }, /^LOGIN_MAX_FAILURES /],
    ["a fractional SESSION_TTL_DAYS", { SESSION_TTL_DAYS: "1.5" }, /^SESSION_TTL_DAYS /],
  ])("%s", (_label, source, expected) => {
    const found = problems(source);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(expected);
  });

  it("lists every problem at once, and the error message names them all", () => {
    let thrown: unknown;
    try {
      // Two malformed values and one cross-field rule: all three are reported by one start-up.
      parseEnv({ PORT: "abc", DATABASE_URL: "mysql://x", SESSION_SECRET: "short" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EnvError);
    const error = thrown as EnvError;
    expect(error.problems).toHaveLength(3);
    expect(error.problems.map((p) => p.split(" ")[0]).sort()).toEqual(["DATABASE_URL", "PORT", "SESSION_SECRET"]);
    for (const problem of error.problems) expect(error.message).toContain(problem);
  });

  it("accepts production once SESSION_SECRET is set", () => {
    expect(
      problems({
        ...LOCAL_CHECKOUT,
        ...TOKEN_KEYS,
        ...SHOPIFY,
        NODE_ENV: "production",
        SESSION_SECRET: "a-long-production-secret-value",
      }),
    ).toEqual([]);
  });
});

describe("publicEnv", () => {
  // Server-only values. Public keys by design (Firebase web key, Shopify client id, Paddle client
  // token, Sentry DSN) may be exposed; these never.
  const secrets = {
    SESSION_SECRET: "secret-session-value-0123456789",
    SHOPIFY_API_SECRET: "secret-shopify-value",
    DATABASE_URL: "libsql://secret-db.turso.io",
    DATABASE_AUTH_TOKEN: "secret-db-token",
    PADDLE_API_KEY: "pdl_secret_api_key",
    PADDLE_WEBHOOK_SECRET: "pdl_ntfset_secret",
  };

  it("gives the browser the Firebase web config, the Shopify client id and the Sentry DSN", () => {
    const env = parseEnv({
      ...secrets,
      ...FIREBASE,
      PADDLE_CLIENT_TOKEN: "test_client_token",
      FIREBASE_APP_ID: "1:2:web:3",
      SHOPIFY_API_KEY: "client-id",
      SENTRY_DSN: "https://k@o1.ingest.sentry.io/2",
    });
    expect(publicEnv(env)).toMatchObject({
      SENTRY_DSN: "https://k@o1.ingest.sentry.io/2",
      SHOPIFY_API_KEY: "client-id",
      firebase: {
        apiKey: "AIza-test-key",
        authDomain: "wp-test.firebaseapp.com",
        projectId: "wp-test",
        appId: "1:2:web:3",
      },
    });
  });

  it("never contains a server-only value", () => {
    const text = JSON.stringify(
      publicEnv(parseEnv({ ...secrets, ...FIREBASE, PADDLE_CLIENT_TOKEN: "test_client_token" })),
    );
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secret/i);
  });

  it("has no Firebase config and no DSN when they are not set", () => {
    expect(publicEnv(parseEnv({}))).toMatchObject({
      SENTRY_DSN: null,
      firebase: null,
      SHOPIFY_API_KEY: "local-dev-api-key",
    });
  });
});

describe("Discord sign-in settings", () => {
  it("need the client id and secret together", () => {
    expect(() => parseEnv({ DISCORD_CLIENT_ID: "123" })).toThrow(/DISCORD_CLIENT_SECRET Discord sign-in needs/);
    expect(() => parseEnv({ DISCORD_CLIENT_SECRET: "s" })).toThrow(/DISCORD_CLIENT_SECRET/);
    expect(() => parseEnv({ DISCORD_CLIENT_ID: "123", DISCORD_CLIENT_SECRET: "s" })).not.toThrow();
  });
});

describe("Algolia settings", () => {
  it("need the app id, search key and index together, and hosts that are base URLs", () => {
    expect(() => parseEnv({ ALGOLIA_APP_ID: "APP" })).toThrow(/ALGOLIA_SEARCH_KEY is required when any Algolia key is set/);
    expect(() => parseEnv({ ALGOLIA_ADMIN_KEY: "admin" })).toThrow(/ALGOLIA_APP_ID/);
    expect(() => parseEnv({ ALGOLIA_APP_ID: "APP", ALGOLIA_SEARCH_KEY: "k", ALGOLIA_INDEX: "products" })).not.toThrow();
    expect(() => parseEnv({ ALGOLIA_HOSTS: "ftp://x" })).toThrow(/ALGOLIA_HOSTS "ftp:\/\/x" must be http\(s\):\/\/host\[:port\]/);
  });
});

describe("secrets in production (docs/decisions/020)", () => {
  // What older versions fell back to, readable by anyone in the repository.
  const OLD_PUBLIC = ["local-dev-api-secret", "dev-only-session-secret-change-me"];
  const PRODUCTION = {
    ...LOCAL_CHECKOUT,
    ...TOKEN_KEYS,
    ...SHOPIFY,
    NODE_ENV: "production",
    SESSION_SECRET: "a-long-production-secret-value",
  };

  it.each(["SHOPIFY_API_SECRET", "SHOPIFY_API_KEY", "SESSION_SECRET", "TOKEN_ENCRYPTION_KEYS"] as const)(
    "refuses production without %s, naming it on one line",
    (key) => {
      const source: Record<string, string> = { ...PRODUCTION };
      delete source[key];
      const found = problems(source);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(new RegExp(`^${key} is required in production`));
    },
  );

  it("says how to switch the Shopify app off when its secret is missing", () => {
    const { SHOPIFY_API_SECRET: _secret, ...source } = PRODUCTION;
    expect(problems(source)).toEqual([expect.stringContaining("or set SHOPIFY_APP=off")]);
  });

  it("lists every missing secret of a bare production environment, one line each", () => {
    const found = problems({ NODE_ENV: "production" });
    expect(found.map((line) => line.split(" ")[0]).sort()).toEqual([
      "PADDLE_API_KEY",
      "SESSION_SECRET",
      "SHOPIFY_API_KEY",
      "SHOPIFY_API_SECRET",
      "TOKEN_ENCRYPTION_KEYS",
    ]);
    for (const line of found) expect(line).toMatch(/is required in production/);
  });

  it("accepts production with the Shopify app switched off explicitly, and then trusts no known secret", () => {
    const { SHOPIFY_API_KEY: _key, SHOPIFY_API_SECRET: _secret, ...rest } = PRODUCTION;
    const source = { ...rest, SHOPIFY_APP: "off" };
    expect(problems(source)).toEqual([]);
    const env = parseEnv(source);
    expect(shopifyAppEnabled(env)).toBe(false);
    // The secret that verifies webhooks and session tokens is random: nobody can sign with it.
    expect(OLD_PUBLIC).not.toContain(env.SHOPIFY_API_SECRET);
    expect(env.SHOPIFY_API_SECRET).toMatch(/^[0-9a-f]{64}$/);
    // Switched off, even a configured secret is not used.
    expect(parseEnv({ ...source, ...SHOPIFY }).SHOPIFY_API_SECRET).not.toBe(SHOPIFY.SHOPIFY_API_SECRET);
  });

  it("uses the configured Shopify secret when the app is on", () => {
    const env = parseEnv(PRODUCTION);
    expect(shopifyAppEnabled(env)).toBe(true);
    expect(env.SHOPIFY_API_SECRET).toBe(SHOPIFY.SHOPIFY_API_SECRET);
    expect(env.SHOPIFY_API_KEY).toBe(SHOPIFY.SHOPIFY_API_KEY);
  });

  it("refuses an unknown SHOPIFY_APP value", () => {
    expect(problems({ SHOPIFY_APP: "no" })).toEqual([expect.stringMatching(/^SHOPIFY_APP .*"on"\|"off"/)]);
  });

  it.each(["SESSION_SECRET", "SHOPIFY_API_SECRET"])("refuses %s set to a value published in the repository", (key) => {
    for (const literal of OLD_PUBLIC) {
      expect(problems({ [key]: literal })).toEqual([`${key} is a value published in this repository, not a secret: set a long random value`]);
    }
  });

  it.each(["development", "test"])("runs %s without any key, on secrets that are not in the repository", (nodeEnv) => {
    const env = parseEnv({ NODE_ENV: nodeEnv });
    expect(shopifyAppEnabled(env)).toBe(true);
    const secrets = {
      session: sessionSecret(env),
      shopify: env.SHOPIFY_API_SECRET,
      paddleWebhook: paddleWebhookSecret(env),
    };
    for (const secret of Object.values(secrets)) {
      expect(OLD_PUBLIC).not.toContain(secret);
      expect(secret.length).toBeGreaterThanOrEqual(32);
    }
    // The local Paddle webhook secret is derived from the session secret, not from the old literal.
    const fromOldLiteral = createHmac("sha256", "dev-only-session-secret-change-me").update("paddle-local-webhook").digest("hex");
    expect(secrets.paddleWebhook).not.toBe(fromOldLiteral);
    // Stable within the process (cookies signed a minute ago still verify).
    expect(sessionSecret(parseEnv({ NODE_ENV: nodeEnv }))).toBe(secrets.session);
    expect(parseEnv({ NODE_ENV: nodeEnv }).SHOPIFY_API_SECRET).toBe(secrets.shopify);
  });

  it("keeps the development session secret in the git-ignored data folder, like npm start", () => {
    const secret = sessionSecret(parseEnv({ NODE_ENV: "development" }));
    expect(readFileSync(path.resolve("data/session-secret"), "utf8").trim()).toBe(secret);
    expect(readFileSync(path.resolve(".gitignore"), "utf8").split("\n")).toContain("data/");
  });

  it("uses a configured secret as it is", () => {
    expect(sessionSecret(parseEnv({ SESSION_SECRET: "configured-session-secret-0123" }))).toBe("configured-session-secret-0123");
    expect(parseEnv({ SHOPIFY_API_SECRET: "configured-shopify-secret" }).SHOPIFY_API_SECRET).toBe("configured-shopify-secret");
  });
});

describe("a public deployment (docs/decisions/042)", () => {
  const hex = () => randomBytes(32).toString("hex");
  /** Production on a public address with every secret set to a fresh random value. */
  const PUBLIC = () => ({
    NODE_ENV: "production",
    APP_URL: "https://shop.example.com",
    SESSION_SECRET: hex(),
    TOKEN_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
    SHOPIFY_APP: "off",
    PADDLE_API_KEY: `pdl_live_apikey_${hex()}`,
    PADDLE_WEBHOOK_SECRET: `pdl_ntfset_${hex()}`,
    PADDLE_CLIENT_TOKEN: "live_client_token",
  });
  const withoutPaddle = () => {
    const { PADDLE_API_KEY: _k, PADDLE_WEBHOOK_SECRET: _w, PADDLE_CLIENT_TOKEN: _c, ...rest } = PUBLIC();
    return rest;
  };

  it.each([
    ["http://localhost:3000", true],
    ["http://127.0.0.1:3100", true],
    ["http://127.8.9.10", true],
    ["http://[::1]:3000/", true],
    ["https://LOCALHOST", true],
    ["https://shop.example.com", false],
    ["http://localhost.example.com", false],
    ["http://127.0.0.1.nip.io", false],
    ["http://10.0.0.5:3000", false],
    ["http://[::ffff:7f00:1]", false],
    [undefined, false],
  ] as const)("APP_URL %s is on this machine's loopback: %s", (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });

  it("is production whose APP_URL is not on loopback, or not set", () => {
    expect(localDemo(parseEnv({ NODE_ENV: "production", ...LOCAL_CHECKOUT, ...TOKEN_KEYS, SESSION_SECRET: hex(), SHOPIFY_APP: "off" }))).toBe(true);
    expect(localDemo(parseEnv(PUBLIC()))).toBe(false);
    const { APP_URL: _url, ...noUrl } = PUBLIC();
    expect(localDemo(parseEnv(noUrl))).toBe(false);
    // Development and tests are never a deployment, whatever their APP_URL (a tunnel to a laptop).
    expect(localDemo(parseEnv({ NODE_ENV: "development", APP_URL: "https://tunnel.example.com" }))).toBe(true);
  });

  it("refuses to start without Paddle keys, naming the variables and the explicit setting", () => {
    const found = problems(withoutPaddle());
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^PADDLE_API_KEY is required in production/);
    expect(found[0]).toContain("APP_URL https://shop.example.com is not on localhost");
    expect(found[0]).toContain("PADDLE_WEBHOOK_SECRET and PADDLE_CLIENT_TOKEN");
    expect(found[0]).toContain("PADDLE_LOCAL_CHECKOUT=i-understand-plans-are-free");
  });

  it("refuses PADDLE_LOCAL_CHECKOUT=true, which only switches the local checkout on for a local demo", () => {
    expect(problems({ ...withoutPaddle(), PADDLE_LOCAL_CHECKOUT: "true" })).toEqual([
      expect.stringMatching(/^PADDLE_LOCAL_CHECKOUT is true, which runs the local test checkout only on a local demo .*i-understand-plans-are-free/),
    ]);
  });

  it("starts with PADDLE_LOCAL_CHECKOUT=i-understand-plans-are-free, and warns loudly at every start", () => {
    const env = parseEnv({ ...withoutPaddle(), PADDLE_LOCAL_CHECKOUT: "i-understand-plans-are-free" });
    expect(localCheckoutEnabled(env)).toBe(true);
    expect(startupWarnings(env)).toEqual([expect.stringMatching(/^WARNING: every plan is free on https:\/\/shop\.example\.com/)]);
  });

  it("runs the local checkout on a local demo without being asked, and only there", () => {
    const demo = parseEnv({ NODE_ENV: "production", ...LOCAL_CHECKOUT, ...TOKEN_KEYS, SESSION_SECRET: hex(), SHOPIFY_APP: "off" });
    expect(localCheckoutEnabled(demo)).toBe(true);
    expect(startupWarnings(demo)).toEqual([]);
    expect(localCheckoutEnabled(parseEnv({ ...LOCAL_CHECKOUT, PADDLE_LOCAL_CHECKOUT: "false" }))).toBe(false);
    expect(localCheckoutEnabled(parseEnv(PUBLIC()))).toBe(false);
    expect(localCheckoutEnabled(parseEnv({ NODE_ENV: "test" }))).toBe(true);
  });

  const SECRETS = [
    "SESSION_SECRET",
    "PADDLE_API_KEY",
    "PADDLE_WEBHOOK_SECRET",
    "DISCORD_CLIENT_SECRET",
    "ALGOLIA_SEARCH_KEY",
    "ALGOLIA_ADMIN_KEY",
    "AI_API_KEY",
    "DATABASE_AUTH_TOKEN",
    "KLAVIYO_API_KEY",
    "HYROS_API_KEY",
  ] as const;
  /** The public deployment with one secret replaced (and its companions, so only that secret is judged). */
  function publicWith(key: string, value: string) {
    return {
      ...PUBLIC(),
      DISCORD_CLIENT_ID: "1234567890",
      DISCORD_CLIENT_SECRET: hex(),
      ALGOLIA_APP_ID: "APPID",
      ALGOLIA_INDEX: "products",
      ALGOLIA_SEARCH_KEY: hex(),
      ALGOLIA_ADMIN_KEY: hex(),
      AI_BASE_URL: "https://ai.example.com/v1",
      AI_MODEL: "model",
      AI_API_KEY: hex(),
      DATABASE_AUTH_TOKEN: hex(),
      KLAVIYO_API_KEY: hex(),
      HYROS_API_KEY: hex(),
      [key]: value,
    };
  }

  it.each(SECRETS)("accepts %s set to a random 32-byte hex value", (key) => {
    expect(problems(publicWith(key, hex()))).toEqual([]);
  });

  it.each(SECRETS)("refuses %s set to the end-to-end session secret from the repository, naming it", (key) => {
    const found = problems(publicWith(key, E2E_SESSION_SECRET));
    expect(found).toEqual([`${key} is a value written in this repository, not a secret: set a new random value (e.g. openssl rand -hex 32)`]);
  });

  it.each(SECRETS)("refuses a low-entropy %s, naming it and never showing the value", (key) => {
    const found = problems(publicWith(key, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    expect(found).toEqual([expect.stringMatching(new RegExp(`^${key} is too easy to guess \\(about 0 bits, at least 64 needed\\)`))]);
    expect(found[0]).not.toContain("aaaa");
  });

  // Decision 080: the character estimate alone let these through (about 110 bits for the first: varied letters).
  // Joined from their words here: a phrase written in the repository is refused as such (decision 042) before its
  // words are looked at, and these show the words check.
  const WORDY = [
    ["winningproducts", "session", "secret"],
    ["winning", "products", "webhook", "secret"],
    ["winningproducts", "secret", "2026"],
    ["WinningProducts", "!", "Session", "Secret", "#2026"],
    ["W1nn1ngPr0ducts", "S3ss10n", "S3cr3t"],
    ["my", "super", "secret", "session", "key", "for", "production"],
    ["correct", "horse", "battery", "staple", "winning", "products"],
  ].map((words) => words.join(words.includes("!") || words.includes("2026") ? "" : "-"));
  const MADE_OF_WORDS =
    /^(\w+) is too easy to guess: made of words, names or patterns an attacker tries first \(about \d+ bits, at least 128 needed\): set a long random value \(e\.g\. openssl rand -hex 32\)$/;

  it.each(WORDY)("refuses %s as SESSION_SECRET on a public address, naming the variable and how to make a good one", (phrase) => {
    const found = problems(publicWith("SESSION_SECRET", phrase));
    expect(found).toEqual([expect.stringMatching(MADE_OF_WORDS)]);
    expect(found[0]).toMatch(/^SESSION_SECRET /);
    expect(found[0]).not.toContain(phrase);
  });

  it.each(SECRETS)("refuses %s made of the product's name and words, or of words around a short random part", (key) => {
    for (const value of [WORDY[0], `winningproducts-${randomBytes(6).toString("hex")}`]) {
      expect(problems(publicWith(key, value))).toEqual([expect.stringMatching(new RegExp(`^${key} is too easy to guess: made of words`))]);
    }
  });

  it.each([
    ["openssl rand -hex 32", () => randomBytes(32).toString("hex")],
    ["openssl rand -base64 32", () => randomBytes(32).toString("base64")],
    ["32 bytes in base64url", () => randomBytes(32).toString("base64url")],
    ["openssl rand -base64 24", () => randomBytes(24).toString("base64")],
    // Keys as providers issue them: 16 random bytes in hex (Algolia, Shopify's client secret), bare or behind a prefix.
    ["16 bytes in hex", () => randomBytes(16).toString("hex")],
    ["a Shopify client secret", () => `shpss_${randomBytes(16).toString("hex")}`],
    ["a Klaviyo private key", () => `pk_${randomBytes(17).toString("hex")}`],
  ])("accepts random secrets spelled as %s", (_label, make) => {
    for (let i = 0; i < 8; i++) {
      const value = make();
      expect({ value, weak: weakSecret(value) }).toEqual({ value, weak: null });
    }
  });

  it("accepts random keys whose digits zxcvbn reads as dates, years or repeats (two it once refused)", () => {
    for (const value of ["pk_077050517eb68a66132298328498b79eb7", "pk_4020874478abcce7d98788856817690093"]) {
      expect({ value, weak: weakSecret(value) }).toEqual({ value, weak: null });
    }
  });

  it("starts a public deployment on random secrets, the Shopify client secret included", () => {
    expect(problems(publicWith("SESSION_SECRET", randomBytes(32).toString("base64")))).toEqual([]);
    expect(problems({ ...PUBLIC(), SHOPIFY_APP: "on", SHOPIFY_API_KEY: "client-id", SHOPIFY_API_SECRET: `shpss_${randomBytes(16).toString("hex")}` })).toEqual([]);
  });

  it("keeps a local demo on any secret: the words check, like the others, is for public addresses only", () => {
    for (const phrase of WORDY) {
      expect(problems({ NODE_ENV: "production", APP_URL: "http://localhost:3100", SESSION_SECRET: phrase, ...TOKEN_KEYS, ...SHOPIFY })).toEqual([]);
    }
  });

  it("refuses the Shopify secret of a unit test when the embedded app is on", () => {
    const source = { ...PUBLIC(), SHOPIFY_APP: "on", ...SHOPIFY };
    expect(problems(source)).toEqual([
      "SHOPIFY_API_SECRET is a value written in this repository, not a secret: set a new random value (e.g. openssl rand -hex 32)",
    ]);
    expect(problems({ ...source, SHOPIFY_API_SECRET: `shpss_${hex()}` })).toEqual([]);
  });

  it("refuses a token encryption key that is written in the repository or guessable, naming its entry", () => {
    const fresh = `k1:${randomBytes(32).toString("base64")}`;
    expect(problems({ ...PUBLIC(), TOKEN_ENCRYPTION_KEYS: `${fresh},old:${Buffer.alloc(32, 7).toString("base64")}` })).toEqual([
      expect.stringMatching(/^TOKEN_ENCRYPTION_KEYS entry 2 \(old\) is too easy to guess/),
    ]);
  });

  it("keeps a local demo on the repository's test secrets (the end-to-end run is one)", () => {
    expect(
      problems({ NODE_ENV: "production", APP_URL: "http://localhost:3100", SESSION_SECRET: E2E_SESSION_SECRET, ...TOKEN_KEYS, ...SHOPIFY }),
    ).toEqual([]);
  });
});
