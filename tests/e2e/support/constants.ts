// Shared by playwright.config.ts (the server it starts) and the tests (which reach into the same
// database file), so both always agree.
/** E2E_PORT lets two checkouts on one machine run their browsers tests side by side. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
/** Removed before every run; start.mjs migrates and seeds it again. */
export const E2E_DB_DIR = "tests/.tmp-e2e";
export const E2E_DB_URL = `file:./${E2E_DB_DIR}/app.db`;
/** Where the server's built-in mailer writes its .eml files (MAIL_OUTBOX_DIR; decision 051). */
export const E2E_MAIL_DIR = `${E2E_DB_DIR}/mail`;
/** In the PostgreSQL pass, where the server's wrapper writes its database's URL for the tests' helpers (tests/e2e/support/app.ts). */
export const E2E_POSTGRES_URL_FILE = `${E2E_DB_DIR}/database-url`;
export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef";

/** Seeded by prisma/seed.ts. */
export const DEMO_EMAIL = "demo@winningproducts.test";
export const DEMO_PASSWORD = "demo-password-2026";

/** The fake rival stores of the competitors test (tests/helpers/fake-shopify-store.ts) listen here. */
export const E2E_FAKE_STORE_PORT = E2E_PORT + 11;

/** The marketing test's stand-in of Klaviyo (tests/helpers/fake-marketing.ts) listens here (docs/decisions/032). */
export const E2E_FAKE_MARKETING_PORT = E2E_PORT + 12;

/** The Shopify Billing test's local Admin GraphQL server (tests/helpers/fake-admin-graphql.ts) listens here (docs/decisions/034). */
export const E2E_FAKE_ADMIN_PORT = E2E_PORT + 13;

/**
 * The specs the PostgreSQL pass runs (E2E_DATABASE=postgresql; decision 098): those that reach the database only
 * through the app (the others write rows with SQLite's client, tests/e2e/support/app.ts). Sign-up, log-in and reset,
 * e-mail links, billing, the course, marketing, a rival's currency, search, the Shopify install and the embedded account.
 */
export const E2E_POSTGRES_SPECS = [
  "account.spec.ts",
  "account-email-links.spec.ts",
  "auth-screens.spec.ts",
  "billing.spec.ts",
  "competitor-currency.spec.ts",
  "course.spec.ts",
  "embedded-account.spec.ts",
  "marketing.spec.ts",
  "password-reset.spec.ts",
  "search-real-words.spec.ts",
  "shopify-install.spec.ts",
];
