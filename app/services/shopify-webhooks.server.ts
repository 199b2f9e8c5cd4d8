// Effects of Shopify's app and compliance webhooks. The routes verify the HMAC (verifyWebhook in
// shopify.server.ts); this service makes each delivery count once and applies what it asks for.
import { writeTransaction, type Db } from "~/db.server";
import { childLogger } from "~/logger.server";
import { eraseOutboxPerson, outboxWritten } from "~/services/outbox.server";

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

/**
 * The app was removed from the shop: its access tokens are useless and are destroyed at once (its
 * sessions, and the token kept on the store row), the store is marked disconnected in its owner's
 * list, and the shop's theme tokens stop working. The link row stays so the owner sees what happened
 * until shop/redact erases it 48 hours later. One transaction: all of it, or none and Shopify retries.
 */
export async function handleAppUninstalled(db: Db, shop: string) {
  const now = new Date();
  const [sessions, stores, themeTokens] = await db.$transaction([
    db.session.deleteMany({ where: { shop } }),
    db.shopifyStore.updateMany({
      where: { shop },
      data: { connected: false, disconnectedAt: now, encrypted_app_token: null },
    }),
    db.themeToken.updateMany({ where: { selectedStore: shop, revokedAt: null }, data: { revokedAt: now } }),
  ]);
  const result = { sessionsDeleted: sessions.count, storesDisconnected: stores.count, themeTokensRevoked: themeTokens.count };
  log.info({ shop, ...result }, "app uninstalled");
  return result;
}

/**
 * 48 hours after uninstall Shopify asks us to erase everything we hold for the shop: its sessions,
 * its store row (name, admin URL, token), every theme token pointed at it, and hand-off links it made.
 * AI product pages pushed to it are detached, not deleted: a page's text and price were written for
 * our user (from our catalogue, with their credits) and stay theirs, while what tied it to the shop
 * (the store, the Shopify product id, when it was pushed, the push error) is erased; the page becomes
 * a draft again, ready to push to another store. One transaction: all of it, or none and Shopify retries.
 */
export async function handleShopRedact(db: Db, shop: string) {
  const result = await writeTransaction(db, async (tx) => {
    const storeIds = (await tx.shopifyStore.findMany({ where: { shop }, select: { id: true } })).map((s) => s.id);
    const pages = await tx.productPage.updateMany({
      where: { storeId: { in: storeIds } },
      data: { storeId: null, shopifyProductId: null, pushedAt: null, error: null, status: "draft" },
    });
    const sessions = await tx.session.deleteMany({ where: { shop } });
    const stores = await tx.shopifyStore.deleteMany({ where: { shop } });
    const themeTokens = await tx.themeToken.deleteMany({ where: { selectedStore: shop } });
    const handoffLinks = await tx.handoffToken.deleteMany({ where: { shop } });
    return {
      sessionsDeleted: sessions.count,
      storesDeleted: stores.count,
      themeTokensDeleted: themeTokens.count,
      productPagesDetached: pages.count,
      handoffLinksDeleted: handoffLinks.count,
    };
  });
  log.info({ shop, ...result }, "shop redacted");
  return result;
}

/**
 * We store nothing about a shop's customers (buyers): merchants are our users, not their customers;
 * no order, customer or storefront-visitor data is kept (the app proxy and the theme block store
 * nothing). The export is therefore empty, and the logged record says so, so the request is auditable.
 */
export async function handleCustomerDataRequest(_db: Db, shop: string, customerId: unknown, dataRequestId?: unknown) {
  const result = {
    customerRecords: 0,
    export: {} as Record<string, never>,
    note: "Winning Products holds no data about this shop's customers; nothing to export.",
  };
  log.info({ shop, customerId, dataRequestId, ...result }, "customer data request answered");
  return result;
}

/**
 * We hold no shop-customer records; the one place such a person's address could be is the marketing
 * outbox (an anonymous lead, a deletion request). Rows naming the e-mail that belong to no account are
 * erased, and if Klaviyo received anything about the address, a deletion request is queued
 * (docs/decisions/032). A site user's own rows are theirs to erase (account deletion), not a shop's.
 */
export async function handleCustomerRedact(db: Db, shop: string, customerId: unknown, email?: unknown) {
  const address = typeof email === "string" && /^[^\s@]+@[^\s@]+$/.test(email.trim()) ? email.trim().toLowerCase() : null;
  const nothing = { customerRecordsDeleted: 0, note: "Winning Products holds no data about this shop's customers; nothing to erase." };
  if (!address) {
    log.info({ shop, customerId, ...nothing }, "customer redact answered");
    return nothing;
  }
  const erased = await writeTransaction(db, (tx) => eraseOutboxPerson(tx, { email: address, onlyWithoutUser: true }));
  if (erased.deletionRequested) outboxWritten();
  const result = { ...nothing, marketingRowsErased: erased.erased, marketingDeletionRequested: erased.deletionRequested };
  log.info({ shop, customerId, ...result }, "customer redact answered");
  return result;
}
