// The stores a product page goes to (docs/decisions/015): the user's connected Shopify stores, and the access
// to one of them. A store is used only when it is linked to that user and connected. Store tokens are never
// read here: the resolver given at construction turns a linked store into { shop, accessToken }.
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import type { StoreSummary } from "~/services/product-pages/views.server";

/** What the Admin API needs for one shop. Supplied by the resolver; never stored or logged. */
export interface StoreAccess {
  shop: string;
  accessToken: string;
}

/** A store linked to the user, as the resolver receives it (the token still sealed). */
export interface LinkedStore {
  id: number;
  userId: string;
  shop: string;
  storeName: string;
  encryptedAppToken: string | null;
}

/** Turns a linked store into an access token (decrypting it, refreshing it …). Throw to refuse. */
export type StoreAccessResolver = (store: LinkedStore) => Promise<StoreAccess>;

/** One of the user's connected stores by its shop domain (404 otherwise). */
export async function loadStore(db: Db, userId: string, shop: string): Promise<LinkedStore> {
  const store = await db.shopifyStore.findFirst({
    where: { userId, shop, connected: true },
    select: { id: true, userId: true, shop: true, store_name: true, encrypted_app_token: true },
  });
  if (!store) throw new AppError(404, `${shop} is not a connected store of your account. Connect it first.`);
  return {
    id: store.id,
    userId: store.userId,
    shop: store.shop,
    storeName: store.store_name,
    encryptedAppToken: store.encrypted_app_token,
  };
}

/** The resolver's access to the store; anything but an AppError from it becomes 409 "reconnect the store". */
export async function accessTo(resolveStoreAccess: StoreAccessResolver, store: LinkedStore): Promise<StoreAccess> {
  try {
    const a = await resolveStoreAccess(store);
    if (a.shop !== store.shop) throw new Error("the resolver answered for another shop");
    return a;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      409,
      `The app cannot act on ${store.shop} right now: reconnect the store and try again.`,
      {
        cause: (error as Error).message,
      },
    );
  }
}

/** The user's connected stores, to choose where a page goes. */
export async function listStores(db: Db, userId: string): Promise<StoreSummary[]> {
  const stores = await db.shopifyStore.findMany({
    where: { userId, connected: true },
    orderBy: { linkedAt: "asc" },
    select: { id: true, shop: true, store_name: true },
  });
  return stores.map((s) => ({ id: s.id, shop: s.shop, storeName: s.store_name }));
}

/**
 * A resolver from a token source (in the app: the library's refreshed offline session, then the
 * store row's sealed copy through shopify-stores.getStoreAccessToken). No token means the store must
 * be reconnected.
 */
export function storeAccessFrom(getToken: (store: LinkedStore) => Promise<string | null>): StoreAccessResolver {
  return async (store) => {
    const accessToken = await getToken(store);
    if (!accessToken) {
      throw new AppError(
        409,
        `${store.shop} has no access token on file: reconnect the store to push products.`,
      );
    }
    return { shop: store.shop, accessToken };
  };
}
