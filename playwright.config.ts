// End-to-end tests: Debian's Chromium (scripts/ensure-chromium.mjs) drives the production build served by
// `npm start` (scripts/start.mjs) on a fresh SQLite file, or, with E2E_DATABASE=postgresql, on a database of a
// throw-away PostgreSQL cluster. Never `npx playwright install`.
import { defineConfig } from "@playwright/test";
import {
  E2E_BASE_URL,
  E2E_DB_DIR,
  E2E_DB_URL,
  E2E_FAKE_ADMIN_PORT,
  E2E_FAKE_MARKETING_PORT,
  E2E_FAKE_STORE_PORT,
  E2E_MAIL_DIR,
  E2E_PORT,
  E2E_POSTGRES_SPECS,
  E2E_SESSION_SECRET,
} from "./tests/e2e/support/constants";
import { TEST_SHOPIFY_API_KEY, TEST_SHOPIFY_API_SECRET } from "./tests/helpers/test-env";

const CI = Boolean(process.env.CI);
const SHOPIFY_BILLING_PASS = process.env.E2E_SHOPIFY_BILLING === "on";
/** The pass on PostgreSQL (E2E_DATABASE=postgresql): the specs of E2E_POSTGRES_SPECS, the server on a throw-away cluster. */
const POSTGRES_PASS = process.env.E2E_DATABASE === "postgresql";

/** Which specs a pass runs: Shopify Billing's alone, the PostgreSQL pass's, or every other. */
function specsOfPass() {
  if (SHOPIFY_BILLING_PASS) return { testMatch: "shopify-billing.spec.ts" };
  // The phone width is a matter of layout, which the SQLite pass checks: the PostgreSQL pass runs 1280 px only.
  if (POSTGRES_PASS) return { testMatch: E2E_POSTGRES_SPECS, grepInvert: /at 390 px/ };
  return { testIgnore: "shopify-billing.spec.ts" };
}

export default defineConfig({
  testDir: "tests/e2e",
  // Shopify Billing needs the server on SHOPIFY_BILLING=on, which every other spec must not have: it runs alone,
  // in its own pass (scripts/test-all.mjs runs both passes).
  // The PostgreSQL pass runs the specs that reach the database only through the app (E2E_POSTGRES_SPECS).
  ...specsOfPass(),
  fullyParallel: false,
  workers: 1,
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // A wrapper counts results from test-results/e2e.json.
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/e2e.json" }]],
  // Each pass keeps its own artifacts (Playwright empties this folder when it starts).
  outputDir: SHOPIFY_BILLING_PASS ? "test-results/e2e-artifacts-shopify-billing" : POSTGRES_PASS ? "test-results/e2e-artifacts-postgresql" : "test-results/e2e-artifacts",
  use: {
    baseURL: E2E_BASE_URL,
    // Shopify's library answers 410 to bots, and Chromium's headless user agent says "HeadlessChrome".
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // A clean database on every run: the folder is removed before start.mjs migrates and seeds it.
    // On PostgreSQL a throw-away cluster first (tests/e2e/support/postgres-web-server.ts), stopped with SIGTERM.
    command: POSTGRES_PASS
      ? `rm -rf ${E2E_DB_DIR} && node --import tsx tests/e2e/support/postgres-web-server.ts`
      : `rm -rf ${E2E_DB_DIR} && node scripts/start.mjs`,
    ...(POSTGRES_PASS ? { gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 } } : {}),
    url: `${E2E_BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATABASE_URL: E2E_DB_URL,
      SESSION_SECRET: E2E_SESSION_SECRET,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      APP_URL: E2E_BASE_URL,
      SHOPIFY_APP_URL: E2E_BASE_URL,
      SHOPIFY_API_KEY: TEST_SHOPIFY_API_KEY,
      SHOPIFY_API_SECRET: TEST_SHOPIFY_API_SECRET,
      // No Paddle keys in tests: purchases go through the local test checkout.
      PADDLE_LOCAL_CHECKOUT: "true",
      // Every spec's browser comes from 127.0.0.1 (no proxy is trusted, so the socket's address counts): the
      // per-address limits on sign-up, log-in failures, reset requests and page events (decision 064) are raised
      // so the whole suite fits in one window. LOGIN_MAX_FAILURES per e-mail stays 5: tests/e2e/site-auth.spec.ts
      // shows the log-in page's 429.
      INBOUND_LIMITS_SCALE: "1000",
      // Rendered AI ads go with the throw-away database, not into ./data/videos.
      VIDEO_STORAGE_DIR: `${E2E_DB_DIR}/videos`,
      // The built-in mailer's .eml files (decision 051), which the password reset spec reads the link from.
      MAIL_OUTBOX_DIR: E2E_MAIL_DIR,
      // Full HD at 30 fps is the production default (decision 033); the browser tests render the small size.
      VIDEO_SIZE: "540x960",
      VIDEO_FPS: "15",
      // The competitors test's fake rival stores (*.test) on 127.0.0.1: the store reader may reach only them.
      TRACKER_ALLOW_HOSTS: `127.0.0.1:${E2E_FAKE_STORE_PORT}`,
      TRACKER_RESOLVE: "*.test=127.0.0.1",
      // The marketing test's stand-in of Klaviyo on 127.0.0.1 (docs/decisions/032); while no test listens
      // there, Klaviyo rows simply wait in the outbox.
      KLAVIYO_API_KEY: "pk_e2e_test",
      KLAVIYO_BASE_URL: `http://127.0.0.1:${E2E_FAKE_MARKETING_PORT}`,
      // The admin's billing rail (docs/decisions/034): Paddle by default, as the embedded specs expect;
      // E2E_SHOPIFY_BILLING=on runs the server with Shopify Billing for tests/e2e/shopify-billing.spec.ts,
      // whose local Admin GraphQL server listens on E2E_FAKE_ADMIN_PORT.
      SHOPIFY_BILLING: SHOPIFY_BILLING_PASS ? "on" : "off",
      SHOPIFY_ADMIN_API_URL: `http://127.0.0.1:${E2E_FAKE_ADMIN_PORT}`,
    },
  },
});
