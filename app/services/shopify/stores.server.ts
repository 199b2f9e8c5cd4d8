// A user's Shopify stores (seed shopify_info.stores): which shops are linked to which user, their
// encrypted offline token, disconnecting, the legacy single-store fields read as one more entry, and
// the Zendrop flag. A shop is linked to at most one user at a time; a user may link several shops.
// The link is made from the embedded app (app/routes/app.link.tsx) and is the identity of that shop
// from then on (docs/decisions/014). Nothing here ever returns a token, sealed or not.
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { childLogger } from "~/logger.server";
import type { TokenCrypto } from "~/integrations/token-crypto.server";

const log = childLogger("shopify-stores");

/** What linking, syncing and reading a store's token need: the database and the token crypto port (decision 014). */
export interface StoreTokenDeps {
  db: Db;
  /** Seals and opens stored tokens (the token-crypto adapter, given by the composition root). */
  tokens: Pick<TokenCrypto, "encrypt" | "decrypt" | "keyIdOf">;
}

/** The id Shopify's library gives a shop's offline session. */
export function offlineSessionId(shop: string): string {
  return `offline_${shop}`;
}

export function shopHandle(shop: string): string {
  return shop.replace(/\.myshopify\.com$/i, "");
}

/** Where the merchant manages the store: the admin's own URL form, https://admin.shopify.com/store/{handle}. */
export function adminUrlFor(shop: string): string {
  return `https://admin.shopify.com/store/${shopHandle(shop)}`;
}

export interface StoreEntry {
  /** The myshopify.com domain; null for a legacy entry that only recorded a name. */
  shop: string | null;
  store_name: string;
  shopify_admin_url: string | null;
  connected: boolean;
  /** True for the entry read from the user's legacy single-store fields. */
  legacy: boolean;
  linkedAt: string | null;
  disconnectedAt: string | null;
}

export interface StoreList {
  stores: StoreEntry[];
  zendropConnected: boolean;
}

/** The id used in URLs for the legacy entry (POST /api/stores/legacy/disconnect). */
export const LEGACY_STORE_KEY = "legacy";

export async function listStores(db: Db, userId: string): Promise<StoreList> {
  const [rows, user] = await Promise.all([
    db.shopifyStore.findMany({
      where: { userId },
      orderBy: [{ connected: "desc" }, { linkedAt: "desc" }],
      select: {
        shop: true,
        store_name: true,
        shopify_admin_url: true,
        connected: true,
        linkedAt: true,
        disconnectedAt: true,
      },
    }),
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: {
        zendropConnected: true,
        shopifyStoreName: true,
        legacyShopifyAdminUrl: true,
        legacyEncryptedShopifyToken: true,
      },
    }),
  ]);
  const stores: StoreEntry[] = rows.map((row) => ({
    shop: row.shop,
    store_name: row.store_name,
    shopify_admin_url: row.shopify_admin_url,
    connected: row.connected,
    legacy: false,
    linkedAt: row.linkedAt.toISOString(),
    disconnectedAt: row.disconnectedAt?.toISOString() ?? null,
  }));
  const legacy = legacyEntry(user);
  // A legacy store that was later linked through the app appears once, as the linked entry.
  if (legacy && !stores.some((s) => s.shop === legacy.shop || s.store_name === legacy.store_name)) stores.push(legacy);
  return { stores, zendropConnected: user.zendropConnected };
}

function legacyEntry(user: {
  shopifyStoreName: string | null;
  legacyShopifyAdminUrl: string | null;
  legacyEncryptedShopifyToken: string | null;
}): StoreEntry | null {
  if (!user.shopifyStoreName && !user.legacyShopifyAdminUrl && !user.legacyEncryptedShopifyToken) return null;
  const name = user.shopifyStoreName ?? user.legacyShopifyAdminUrl?.split("/").filter(Boolean).pop() ?? "Shopify store";
  return {
    shop: /\.myshopify\.com$/i.test(name) ? name.toLowerCase() : null,
    store_name: name,
    shopify_admin_url: user.legacyShopifyAdminUrl,
    connected: Boolean(user.legacyEncryptedShopifyToken),
    legacy: true,
    linkedAt: null,
    disconnectedAt: null,
  };
}

/** The shops a user can point a theme token at: connected linked stores, and a connected legacy store. */
export async function connectedShops(db: Db, userId: string): Promise<string[]> {
  const { stores } = await listStores(db, userId);
  return stores.filter((s) => s.connected && s.shop).map((s) => s.shop as string);
}

/** The user a shop is linked to (connected), or null: such a shop sees only the linking screen. */
export async function findLinkedUserId(db: Db, shop: string): Promise<string | null> {
  const row = await db.shopifyStore.findUnique({ where: { shop }, select: { userId: true, connected: true } });
  return row?.connected ? row.userId : null;
}

export type Linked = { alreadyLinked: boolean };

export const SHOP_LINKED_ELSEWHERE =
  "This store is already linked to another Winning Products account. Sign in with that account, or ask its owner to disconnect the store under Stores & themes first.";

/**
 * Links `shop` to `userId`: the ShopifyStore row gets the store's name, admin URL and the shop's
 * offline token (sealed). A shop connected to another user is refused (AppError 409); a disconnected row may
 * be taken over (the shop may have changed hands after an uninstall). Atomic: two users linking the
 * same shop at once cannot both win.
 */
export async function linkShop(deps: StoreTokenDeps, input: { shop: string; userId: string }): Promise<Linked> {
  const { db } = deps;
  const { shop, userId } = input;
  const encrypted_app_token = await sealedOfflineToken(deps, shop);
  const existing = await db.shopifyStore.findUnique({ where: { shop }, select: { userId: true, connected: true } });
  if (existing?.connected && existing.userId === userId) {
    await syncStoreToken(deps, shop);
    return { alreadyLinked: true };
  }
  if (!existing) {
    try {
      await db.shopifyStore.create({
        data: { shop, userId, store_name: shop, shopify_admin_url: adminUrlFor(shop), encrypted_app_token },
        select: { id: true },
      });
      log.info({ shop, userId }, "shop linked");
      return { alreadyLinked: false };
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error;
      // Someone linked it a moment ago: decide again against their row.
      return linkShop(deps, input);
    }
  }
  const { count } = await db.shopifyStore.updateMany({
    where: { shop, OR: [{ userId }, { connected: false }] },
    data: {
      userId,
      connected: true,
      disconnectedAt: null,
      linkedAt: new Date(),
      store_name: shop,
      shopify_admin_url: adminUrlFor(shop),
      encrypted_app_token,
    },
  });
  if (count === 0) throw new AppError(409, SHOP_LINKED_ELSEWHERE);
  log.info({ shop, userId }, "shop linked again");
  return { alreadyLinked: false };
}

/** The shop's offline token as stored in the Session table (sealed), sealed now if it is legacy plaintext. */
async function sealedOfflineToken({ db, tokens }: StoreTokenDeps, shop: string): Promise<string | null> {
  const session = await db.session.findUnique({ where: { id: offlineSessionId(shop) }, select: { accessToken: true } });
  if (!session?.accessToken) return null;
  return tokens.keyIdOf(session.accessToken) !== null ? session.accessToken : tokens.encrypt(session.accessToken);
}

/**
 * Offline tokens expire hourly and the library refreshes them in the Session table; the store row
 * keeps a copy of the current sealed token. Called on each embedded request; writes only on change.
 */
export async function syncStoreToken(deps: StoreTokenDeps, shop: string): Promise<void> {
  const sealed = await sealedOfflineToken(deps, shop);
  if (!sealed) return;
  await deps.db.shopifyStore.updateMany({
    where: { shop, connected: true, OR: [{ encrypted_app_token: null }, { encrypted_app_token: { not: sealed } }] },
    data: { encrypted_app_token: sealed },
  });
}

/**
 * The user disconnects one of their stores: it stays in their list as disconnected, its stored
 * token and the shop's Shopify sessions are deleted, and the embedded app asks to link it again.
 * Not a connected store of theirs: AppError 404.
 */
export async function disconnectStore(db: Db, userId: string, shop: string): Promise<void> {
  if (shop === LEGACY_STORE_KEY) {
    const { count } = await db.user.updateMany({
      where: { id: userId, legacyEncryptedShopifyToken: { not: null } },
      data: { legacyEncryptedShopifyToken: null },
    });
    if (count === 0) throw new AppError(404, "You have no connected legacy store.");
    log.info({ userId }, "legacy store disconnected");
    return;
  }
  const updated = await db.shopifyStore.updateMany({
    where: { shop, userId, connected: true },
    data: { connected: false, disconnectedAt: new Date(), encrypted_app_token: null },
  });
  if (updated.count === 0) throw new AppError(404, `You have no connected store ${shop}.`);
  const { count: sessionsDeleted } = await db.session.deleteMany({ where: { shop } });
  log.info({ userId, shop, sessionsDeleted }, "store disconnected");
}

export async function setZendropConnected(
  db: Db,
  userId: string,
  connected: boolean,
): Promise<{ zendropConnected: boolean }> {
  const user = await db.user.update({
    where: { id: userId },
    data: { zendropConnected: connected },
    select: { zendropConnected: true },
  });
  return { zendropConnected: user.zendropConnected };
}

/**
 * The one way to read a store's access token in plaintext, for adapters that call a store's Admin
 * API outside an embedded request (the library's `unauthenticated.admin(shop)` is preferred: it
 * refreshes expired tokens). Scoped to the owner; null when the store is not connected.
 */
export async function getStoreAccessToken({ db, tokens }: StoreTokenDeps, userId: string, shop: string): Promise<string | null> {
  if (shop === LEGACY_STORE_KEY) {
    const user = await db.user.findUnique({ where: { id: userId }, select: { legacyEncryptedShopifyToken: true } });
    return user?.legacyEncryptedShopifyToken ? tokens.decrypt(user.legacyEncryptedShopifyToken) : null;
  }
  const row = await db.shopifyStore.findFirst({
    where: { shop, userId, connected: true },
    select: { encrypted_app_token: true },
  });
  return row?.encrypted_app_token ? tokens.decrypt(row.encrypted_app_token) : null;
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = {
  listStores,
  connectedShops,
  findLinkedUserId,
  disconnectStore,
  setZendropConnected,
};

/** The use cases that seal or open a token, bound to the database and the token crypto port. */
export const tokenUseCases = {
  linkShop,
  getStoreAccessToken,
};
