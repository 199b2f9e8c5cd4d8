// End-to-end tests: Debian's Chromium (scripts/ensure-chromium.mjs) drives the production build served by
// `npm start` (scripts/start.mjs) on a fresh SQLite file. Never `npx playwright install`.
import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL, E2E_DB_DIR, E2E_DB_URL, E2E_FAKE_STORE_PORT, E2E_PORT, E2E_SESSION_SECRET } from "./tests/e2e/support/constants";
import { TEST_SHOPIFY_API_KEY, TEST_SHOPIFY_API_SECRET } from "./tests/helpers/test-env";

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // A wrapper counts results from test-results/e2e.json.
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: "test-results/e2e-artifacts",
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
    command: `rm -rf ${E2E_DB_DIR} && node scripts/start.mjs`,
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
      // Rendered AI ads go with the throw-away database, not into ./data/videos.
      VIDEO_STORAGE_DIR: `${E2E_DB_DIR}/videos`,
      // The competitors test's fake rival stores (*.test) on 127.0.0.1: the store reader may reach only them.
      TRACKER_ALLOW_HOSTS: `127.0.0.1:${E2E_FAKE_STORE_PORT}`,
      TRACKER_RESOLVE: "*.test=127.0.0.1",
    },
  },
});
