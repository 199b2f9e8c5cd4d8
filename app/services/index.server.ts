// The composition root: services bound to the one database and the real adapters. Routes import
// from here; tests may build services with their own dependencies instead.
import { db, dbReady } from "~/db.server";
import { getEnv } from "~/env.server";
import { createAnalytics } from "~/integrations/analytics.server";
import * as authFns from "~/services/auth.server";
import { bindDb } from "~/services/bind";
import { checkHealth } from "~/services/health.server";
import { describeMe } from "~/services/users.server";
import * as shopifyWebhookFns from "~/services/shopify-webhooks.server";

export const analytics = createAnalytics({ db, env: getEnv() });

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
