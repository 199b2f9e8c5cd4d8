// Effects of Shopify's app and compliance webhooks. The routes verify the HMAC (authenticate.webhook);
// this service makes each delivery count once and applies what it asks for.
import type { Db } from "~/db.server";
import { childLogger } from "~/logger.server";

const log = childLogger("shopify-webhooks");

/**
 * Applies a webhook's effect once per webhook id (Shopify retries and sometimes duplicates). The
 * delivery is recorded only after the effect succeeded, so a failure is retried by Shopify; effects are
 * idempotent, so two concurrent duplicates do no harm.
 */
export async function applyOnce<T>(
  db: Db,
  delivery: { webhookId: string; topic: string; shop: string },
  effect: () => Promise<T>,
): Promise<{ applied: false } | { applied: true; result: T }> {
  const seen = await db.shopifyWebhookDelivery.findUnique({
    where: { webhookId: delivery.webhookId },
    select: { webhookId: true },
  });
  if (seen) return { applied: false };
  const result = await effect();
  await db.shopifyWebhookDelivery.upsert({
    where: { webhookId: delivery.webhookId },
    create: delivery,
    update: {},
    select: { webhookId: true },
  });
  return { applied: true, result };
}

/** The app was removed from the shop: its access tokens are useless and are deleted at once. */
export async function handleAppUninstalled(db: Db, shop: string): Promise<{ sessionsDeleted: number }> {
  const { count } = await db.session.deleteMany({ where: { shop } });
  log.info({ shop, sessionsDeleted: count }, "app uninstalled");
  return { sessionsDeleted: count };
}

/** 48 hours after uninstall Shopify asks us to erase everything we hold for the shop. */
export async function handleShopRedact(db: Db, shop: string): Promise<{ sessionsDeleted: number }> {
  const { count } = await db.session.deleteMany({ where: { shop } });
  log.info({ shop, sessionsDeleted: count }, "shop redacted");
  return { sessionsDeleted: count };
}

/**
 * We store nothing about a shop's customers (buyers): merchants are our users, not their customers.
 * The answer records that fact so the request is auditable.
 */
export async function handleCustomerDataRequest(_db: Db, shop: string, customerId: unknown) {
  log.info({ shop, customerId }, "customer data request: no customer data held");
  return { customerRecords: 0 };
}

export async function handleCustomerRedact(_db: Db, shop: string, customerId: unknown) {
  log.info({ shop, customerId }, "customer redact: no customer data held");
  return { customerRecordsDeleted: 0 };
}
