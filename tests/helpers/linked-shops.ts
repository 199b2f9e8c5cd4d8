// Installed and linked shops for integration tests: the offline session is stored through the app's own
// session storage (so its tokens are encrypted as in production), and the shop is linked to a site user
// through the stores service. Import after installing the fake Shopify OAuth (see fake-shopify-oauth.ts).
import { Session } from "@shopify/shopify-app-remix/server";
import { db } from "~/db.server";
import { linkShop } from "~/services/shopify/stores.server";
import { sessionStorage } from "~/shopify.server";
import { offlineSessionRow, uniqueShop } from "./shopify";
import { createSignedInUser } from "./site-users";
import { getTokenCrypto } from "~/integrations/token-crypto.server";

/** A shop with the app installed: its offline session, stored as the library stores it. Returns the plaintext tokens. */
export async function installShop(options: { shop?: string; expires?: Date } = {}) {
  const shop = options.shop ?? uniqueShop();
  const row = offlineSessionRow(shop, { expires: options.expires });
  await sessionStorage.storeSession(
    new Session({
      id: row.id,
      shop,
      state: row.state,
      isOnline: false,
      scope: row.scope,
      expires: row.expires,
      accessToken: row.accessToken,
      refreshToken: row.refreshToken,
      refreshTokenExpires: row.refreshTokenExpires,
    }),
  );
  return { shop, accessToken: row.accessToken, refreshToken: row.refreshToken, sessionId: row.id };
}

/** An installed shop linked to a new signed-in site user. */
export async function linkedShop(options: { shop?: string; expires?: Date } = {}) {
  const installed = await installShop(options);
  const user = await createSignedInUser();
  await linkShop({ db, tokens: getTokenCrypto() }, { shop: installed.shop, userId: user.id });
  return { ...installed, user };
}
