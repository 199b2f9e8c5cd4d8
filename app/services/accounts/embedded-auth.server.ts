// Who is acting inside the embedded app. Shopify proves the shop (session token, authenticate.admin, in
// app/pages/http/embedded-session.server.ts); the shop's link to a site user (shopify-stores.server.ts) says
// which user it acts as. Inside the admin iframe the link is the identity: no site cookie is set there
// (docs/decisions/014). A bearer token sent to the JSON APIs is judged by shopify-bearer.server.ts.
import type { Db } from "~/db.server";
import type { User } from "~/services/accounts/auth.server";
import { findLinkedUserId, syncStoreToken, type StoreTokenDeps } from "~/services/shopify/stores.server";

export interface EmbeddedAuthDeps {
  db: Db;
  /** Seals the shop's offline token onto its store row (the token crypto port). */
  tokens: StoreTokenDeps["tokens"];
  loadUser: (db: Db, userId: string) => Promise<User>;
}

export function createEmbeddedAuth({ db, tokens, loadUser }: EmbeddedAuthDeps) {
  return {
    /**
     * The user a shop Shopify has just authenticated is linked to, or null when it is not linked yet.
     * The store row takes the shop's current offline token on the way.
     */
    async linkedUser(shop: string): Promise<User | null> {
      const userId = await findLinkedUserId(db, shop);
      if (!userId) return null;
      await syncStoreToken({ db, tokens }, shop);
      return loadUser(db, userId);
    },

    /** The id of the user a shop is linked to, or null. */
    linkedUserId(shop: string): Promise<string | null> {
      return findLinkedUserId(db, shop);
    },
  };
}
export type EmbeddedAuth = ReturnType<typeof createEmbeddedAuth>;
