// Effects of Shopify's app and compliance webhooks. The page layer verifies the HMAC and which shop the
// signed body names (verifyWebhook in shopify.server.ts, docs/decisions/041); this service makes each
// delivery count once, recognises a captured body sent again, and applies what it asks for.
import { Prisma } from "@prisma/client";
import type { ShopifyWebhookTopic } from "~/domain/shopify/webhooks";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import { childLogger } from "~/logger.server";
import { eraseOutboxPerson, outboxWritten } from "~/services/outbox.server";

/** Every line about Shopify webhooks, refusals included (exported so tests can read what was logged). */
export const webhookLog = childLogger("shopify-webhooks");
const log = webhookLog;

/** How long a delivery is remembered: Shopify retries for hours; a body captured earlier than this is not recognised. */
export const WEBHOOK_ID_RETENTION_DAYS = 30;

/**
 * Topics where the same signed body is never legitimately applied twice, so a body seen before under
 * another webhook id is a replay. Not shop/redact or the customers topics: Shopify sends byte-identical
 * bodies for them again (a second redact of the same shop or customer); shop/redact is guarded by the
 * shop's state instead, and the customers topics only erase what the merchant asked to erase.
 */
const BODY_IS_UNIQUE: ReadonlySet<string> = new Set<ShopifyWebhookTopic>([
  "app/uninstalled",
  "app_subscriptions/update",
  "app_purchases_one_time/update",
]);

export interface WebhookDelivery {
  webhookId: string;
  topic: string;
  /** The shop the signed body names (docs/decisions/041). */
  shop: string;
  /** X-Shopify-Event-Id, when sent. */
  eventId?: string | null;
  /** Hex SHA-256 of the raw signed body. */
  bodySha256?: string | null;
}

const DAY_MS = 24 * 3600_000;

/** Whether this delivery, or (BODY_IS_UNIQUE topics) this exact body for the shop, was applied already. */
async function alreadyApplied(client: DbClient, delivery: WebhookDelivery): Promise<boolean> {
  const byId = { webhookId: delivery.webhookId };
  const byBody =
    delivery.bodySha256 && BODY_IS_UNIQUE.has(delivery.topic)
      ? [{ topic: delivery.topic, shop: delivery.shop, bodySha256: delivery.bodySha256 }]
      : [];
  const seen = await client.shopifyWebhookDelivery.findFirst({ where: { OR: [byId, ...byBody] }, select: { webhookId: true } });
  if (seen && seen.webhookId !== delivery.webhookId) {
    log.warn({ topic: delivery.topic, shop: delivery.shop, webhookId: delivery.webhookId, first: seen.webhookId }, "webhook ignored: this signed body was applied before under another webhook id (a replay)");
  }
  return seen !== null;
}

async function record(client: DbClient, delivery: WebhookDelivery) {
  const { webhookId, topic, shop, eventId = null, bodySha256 = null } = delivery;
  await client.shopifyWebhookDelivery.upsert({
    where: { webhookId },
    create: { webhookId, topic, shop, eventId, bodySha256 },
    update: {},
    select: { webhookId: true },
  });
  // Retention, on insert: one indexed statement, so no job is needed.
  await client.shopifyWebhookDelivery.deleteMany({ where: { receivedAt: { lt: new Date(Date.now() - WEBHOOK_ID_RETENTION_DAYS * DAY_MS) } } });
}

/** Forgets deliveries past the retention; returns how many. (record() does this on every insert.) */
export async function pruneWebhookDeliveries(db: Db): Promise<number> {
  const cutoff = new Date(Date.now() - WEBHOOK_ID_RETENTION_DAYS * DAY_MS);
  return (await db.shopifyWebhookDelivery.deleteMany({ where: { receivedAt: { lt: cutoff } } })).count;
}

/**
 * Applies an effect that is one transaction, once: the delivery is recorded in that same transaction,
 * so a failure leaves nothing marked done and Shopify's retry applies it. Two concurrent duplicates
 * serialise on SQLite's write lock (writeTransaction retries the loser, which then sees the row).
 */
export async function applyOnceInTransaction<T>(
  db: Db,
  delivery: WebhookDelivery,
  effect: (tx: DbClient) => Promise<T>,
): Promise<{ applied: false } | { applied: true; result: T }> {
  try {
    return await writeTransaction(db, async (tx) => {
      if (await alreadyApplied(tx, delivery)) return { applied: false as const };
      await record(tx, delivery);
      return { applied: true as const, result: await effect(tx) };
    });
  } catch (error) {
    // A concurrent duplicate committed first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return { applied: false };
    throw error;
  }
}

/**
 * Applies an effect that cannot share our transaction (it asks Shopify first, or opens its own), once
 * per webhook id and (BODY_IS_UNIQUE topics) per body. Recorded only after the effect succeeded, so a
 * failure is retried by Shopify; such effects are idempotent (ordered by updated_at, keyed grants), so
 * two concurrent duplicates do no harm.
 */
export async function applyOnce<T>(
  db: Db,
  delivery: WebhookDelivery,
  effect: () => Promise<T>,
): Promise<{ applied: false } | { applied: true; result: T }> {
  if (await alreadyApplied(db, delivery)) return { applied: false };
  const result = await effect();
  await record(db, delivery);
  return { applied: true, result };
}

/**
 * The app was removed from the shop: its access tokens are useless and are destroyed at once (its
 * sessions, and the token kept on the store row), the store is marked disconnected in its owner's
 * list, and the shop's theme tokens stop working. The link row stays so the owner sees what happened
 * until shop/redact erases it 48 hours later. `endBilling` ends the shop's Shopify Billing state in
 * the same transaction (shopify-billing.server.ts); all of it and the delivery's record, or none.
 */
export async function appUninstalled(
  db: Db,
  delivery: WebhookDelivery,
  endBilling: (tx: DbClient, shop: string) => Promise<Record<string, number>>,
) {
  return applyOnceInTransaction(db, delivery, async (tx) => ({
    ...(await handleAppUninstalled(tx, delivery.shop)),
    ...(await endBilling(tx, delivery.shop)),
  }));
}

export async function handleAppUninstalled(tx: DbClient, shop: string) {
  const now = new Date();
  const sessions = await tx.session.deleteMany({ where: { shop } });
  const stores = await tx.shopifyStore.updateMany({
    where: { shop },
    data: { connected: false, disconnectedAt: now, encrypted_app_token: null },
  });
  const themeTokens = await tx.themeToken.updateMany({ where: { selectedStore: shop, revokedAt: null }, data: { revokedAt: now } });
  const result = { sessionsDeleted: sessions.count, storesDisconnected: stores.count, themeTokensRevoked: themeTokens.count };
  log.info({ shop, ...result }, "app uninstalled");
  return result;
}

/** shop/redact, once per delivery, in one transaction with its record. */
export async function shopRedact(db: Db, delivery: WebhookDelivery) {
  return applyOnceInTransaction(db, delivery, (tx) => handleShopRedact(tx, delivery.shop));
}

/** customers/data_request, once per delivery. */
export async function customersDataRequest(db: Db, delivery: WebhookDelivery, customerId: unknown, dataRequestId: unknown) {
  return applyOnceInTransaction(db, delivery, (tx) => handleCustomerDataRequest(tx, delivery.shop, customerId, dataRequestId));
}

/** customers/redact, once per delivery, in one transaction with its record. */
export async function customersRedact(db: Db, delivery: WebhookDelivery, customerId: unknown, email: unknown) {
  return applyOnceInTransaction(db, delivery, (tx) => handleCustomerRedact(tx, delivery.shop, customerId, email));
}

/**
 * 48 hours after uninstall Shopify asks us to erase everything we hold for the shop: its sessions,
 * its store row (name, admin URL, token), every theme token pointed at it, and hand-off links it made.
 * AI product pages pushed to it are detached, not deleted: a page's text and price were written for
 * our user (from our catalogue, with their credits) and stay theirs, while what tied it to the shop
 * (the store, the Shopify product id, when it was pushed, the push error) is erased; the page becomes
 * a draft again, ready to push to another store. Runs in the caller's transaction: all of it, or none
 * and Shopify retries.
 */
export async function handleShopRedact(tx: DbClient, shop: string) {
  // Shopify sends shop/redact 48 hours after an uninstall, and not when the app was installed again.
  // A shop with an offline session has the app installed: this is a replay of an old body, not a request.
  const installed = await tx.session.findFirst({ where: { shop, isOnline: false }, select: { id: true } });
  if (installed) {
    log.warn({ shop }, "shop/redact ignored: the app is installed on this shop (Shopify sends it only after an uninstall), so nothing was erased");
    return { ignored: "installed" as const };
  }
  const storeIds = (await tx.shopifyStore.findMany({ where: { shop }, select: { id: true } })).map((s) => s.id);
  const pages = await tx.productPage.updateMany({
    where: { storeId: { in: storeIds } },
    data: { storeId: null, shopifyProductId: null, pushedAt: null, error: null, status: "draft" },
  });
  const sessions = await tx.session.deleteMany({ where: { shop } });
  const stores = await tx.shopifyStore.deleteMany({ where: { shop } });
  const themeTokens = await tx.themeToken.deleteMany({ where: { selectedStore: shop } });
  const handoffLinks = await tx.handoffToken.deleteMany({ where: { shop } });
  const result = {
    sessionsDeleted: sessions.count,
    storesDeleted: stores.count,
    themeTokensDeleted: themeTokens.count,
    productPagesDetached: pages.count,
    handoffLinksDeleted: handoffLinks.count,
  };
  log.info({ shop, ...result }, "shop redacted");
  return result;
}

/**
 * We store nothing about a shop's customers (buyers): merchants are our users, not their customers;
 * no order, customer or storefront-visitor data is kept (the app proxy and the theme block store
 * nothing). The export is therefore empty, and the logged record says so, so the request is auditable.
 */
export async function handleCustomerDataRequest(_tx: DbClient, shop: string, customerId: unknown, dataRequestId?: unknown) {
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
export async function handleCustomerRedact(tx: DbClient, shop: string, customerId: unknown, email?: unknown) {
  const address = typeof email === "string" && /^[^\s@]+@[^\s@]+$/.test(email.trim()) ? email.trim().toLowerCase() : null;
  const nothing = { customerRecordsDeleted: 0, note: "Winning Products holds no data about this shop's customers; nothing to erase." };
  if (!address) {
    log.info({ shop, customerId, ...nothing }, "customer redact answered");
    return nothing;
  }
  const erased = await eraseOutboxPerson(tx, { email: address, onlyWithoutUser: true });
  // The deliverer is woken after the commit; before it, it finds nothing and the minute sweep catches up.
  if (erased.deletionRequested) setImmediate(outboxWritten);
  const result = { ...nothing, marketingRowsErased: erased.erased, marketingDeletionRequested: erased.deletionRequested };
  log.info({ shop, customerId, ...result }, "customer redact answered");
  return result;
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { applyOnce, shopRedact, customersDataRequest, customersRedact };
