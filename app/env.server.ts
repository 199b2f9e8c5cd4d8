// The one place environment variables are read. The process refuses to start with one clear line per
// missing or malformed value. Every value has a built-in default that runs the whole product on one
// machine with no keys; only values listed in publicEnv() ever reach the browser.
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const optionalUrl = optionalString.refine((v) => v === undefined || URL.canParse(v), {
  message: "must be an absolute URL such as https://example.com",
});

const boolFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: optionalUrl,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

    DATABASE_URL: z
      .string()
      .default("file:./data/app.db")
      .refine((v) => /^(file:|libsql:|https?:|wss?:)/.test(v), {
        message: "must start with file: (SQLite file) or libsql:// (libSQL server)",
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
      .default(
        "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
      ),

    SHOPIFY_API_KEY: z.string().default("local-dev-api-key"),
    SHOPIFY_API_SECRET: z.string().default("local-dev-api-secret"),
    SHOPIFY_APP_URL: optionalUrl,
    SCOPES: z.string().default("write_products,read_themes"),
    SHOP_CUSTOM_DOMAIN: optionalString,

    SENTRY_DSN: optionalUrl,
    POSTHOG_KEY: optionalString,
    POSTHOG_HOST: z.string().url().default("https://us.i.posthog.com"),

    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
    LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "is required in production (a long random string that signs session cookies)",
      });
    }
    if (env.SESSION_SECRET && env.SESSION_SECRET.length < 16) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be at least 16 characters" });
    }
    const firebase = [env.FIREBASE_API_KEY, env.FIREBASE_AUTH_DOMAIN, env.FIREBASE_PROJECT_ID];
    if (firebase.some(Boolean) && !firebase.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["FIREBASE_PROJECT_ID"],
        message:
          "Google sign-in needs FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN and FIREBASE_PROJECT_ID together (or none of them)",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses an environment (process.env by default); throws EnvError listing every problem. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`),
    );
  }
  return result.data;
}

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) {
    try {
      cached = parseEnv();
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

/** The development fallback secret is fine on one laptop and refused in production (see parseEnv). */
export function sessionSecret(env: Env = getEnv()): string {
  return env.SESSION_SECRET ?? "dev-only-session-secret-change-me";
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
  };
}
export type PublicEnv = ReturnType<typeof publicEnv>;
