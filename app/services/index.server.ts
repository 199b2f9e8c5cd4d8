// The composition root: services bound to the one database and the real adapters. Routes import
// from here; tests may build services with their own dependencies instead.
import { db, dbReady } from "~/db.server";
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

export const shopifyWebhooks = bindDb(db, {
  applyOnce: shopifyWebhookFns.applyOnce,
  handleAppUninstalled: shopifyWebhookFns.handleAppUninstalled,
  handleShopRedact: shopifyWebhookFns.handleShopRedact,
  handleCustomerDataRequest: shopifyWebhookFns.handleCustomerDataRequest,
  handleCustomerRedact: shopifyWebhookFns.handleCustomerRedact,
});

export const health = { check: () => checkHealth(db, dbReady) };
