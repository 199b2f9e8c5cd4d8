// The environment every test process runs with. Secrets here are test-only values.
export const TEST_SHOPIFY_API_KEY = "test-api-key";
export const TEST_SHOPIFY_API_SECRET = "test-api-secret-for-hmac";
export const TEST_APP_URL = "https://winning-products.test";
export const TEST_SESSION_SECRET = "test-session-secret-0123456789";

export const TEST_ENV: Record<string, string> = {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  SESSION_SECRET: TEST_SESSION_SECRET,
  SHOPIFY_API_KEY: TEST_SHOPIFY_API_KEY,
  SHOPIFY_API_SECRET: TEST_SHOPIFY_API_SECRET,
  SHOPIFY_APP_URL: TEST_APP_URL,
  APP_URL: TEST_APP_URL,
  LOGIN_MAX_FAILURES: "5",
  LOGIN_WINDOW_MINUTES: "15",
  // Route tests call handlers with no socket: each names its client in X-Forwarded-For (uniqueIp()), trusted as a
  // proxy's (decision 064). The production server without it counts the socket's address.
  TRUST_PROXY: "on",
  INBOUND_LIMITS_SCALE: "1",
};
