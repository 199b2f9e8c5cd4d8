// The embedded app as Shopify admin frames it, for end-to-end tests: a stand-in for App Bridge's script
// (https://cdn.shopify.com/shopifycloud/app-bridge.js, which tests never reach) that, like the real one,
// provides window.shopify and adds the session token to the app's own fetch requests; and links between
// shops and site users written straight into the server's database.
import type { Page } from "@playwright/test";
import { adminHostParam, signSessionToken, uniqueShop } from "../../helpers/shopify";
import { e2eDb, insertOfflineSession, uniqueEmail } from "./app";
import { E2E_BASE_URL } from "./constants";

/** Serves the App Bridge stand-in and refuses every other outside request. Returns the script requests seen. */
export async function stubShopifyAdmin(page: Page, shop: string, token: string) {
  const appBridgeRequests: string[] = [];
  await page.route(
    (url) => !url.href.startsWith(E2E_BASE_URL),
    async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "cdn.shopify.com" && url.pathname.endsWith("/app-bridge.js")) {
        appBridgeRequests.push(url.href);
        await route.fulfill({ contentType: "text/javascript", body: appBridgeStub(shop, token) });
      } else {
        await route.abort("blockedbyclient");
      }
    },
  );
  return appBridgeRequests;
}

function appBridgeStub(shop: string, token: string): string {
  return `(function () {
  var script = document.currentScript;
  var token = ${JSON.stringify(token)};
  window.shopify = {
    config: { apiKey: script && script.getAttribute("data-api-key"), shop: ${JSON.stringify(shop)}, locale: "en" },
    environment: { embedded: true, mobile: false, pos: false },
    idToken: function () { return Promise.resolve(token); },
    toast: { show: function () {}, hide: function () {} },
    loading: function () {},
    ready: Promise.resolve(),
  };
  // App Bridge adds "Authorization: Bearer <session token>" to fetch requests to the app's own origin.
  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (new URL(href, location.href).origin === location.origin) {
      var headers = new Headers((init && init.headers) || (input instanceof Request ? input.headers : undefined));
      if (!headers.has("Authorization")) headers.set("Authorization", "Bearer " + token);
      init = Object.assign({}, init, { headers: headers });
    }
    return realFetch(input, init);
  };
})();`;
}

/** The URL Shopify admin loads in its iframe. */
export function adminUrl(shop: string, idToken: string, path = "/app") {
  const params = new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop), id_token: idToken });
  return `${path}${path.includes("?") ? "&" : "?"}${params}`;
}

/** A site account with no password (for embedded tests, where the link alone is the identity). */
export async function createSiteUser(email: string) {
  const db = e2eDb();
  try {
    await db.execute({
      sql: `INSERT INTO "User" ("id", "email", "updatedAt") VALUES (?, ?, ?)`,
      args: [`e2e_${Math.random().toString(36).slice(2)}`, email, new Date().toISOString().replace("Z", "+00:00")],
    });
  } finally {
    db.close();
  }
}

/** Links `shop` to the site user with this e-mail, as the linking screen would. */
export async function linkShopTo(shop: string, email: string) {
  const db = e2eDb();
  try {
    const user = await db.execute({ sql: `SELECT "id" FROM "User" WHERE "email" = ?`, args: [email] });
    const userId = user.rows[0]?.[0];
    if (typeof userId !== "string") throw new Error(`no user ${email}`);
    await db.execute({
      sql: `INSERT INTO "ShopifyStore" ("userId", "shop", "store_name", "shopify_admin_url") VALUES (?, ?, ?, ?)`,
      args: [userId, shop, shop, `https://admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, "")}`],
    });
  } finally {
    db.close();
  }
}

/** The shop's link as stored: the user's e-mail, or null. */
export async function linkedEmail(shop: string): Promise<string | null> {
  const db = e2eDb();
  try {
    const result = await db.execute({
      sql: `SELECT u."email" FROM "ShopifyStore" s JOIN "User" u ON u."id" = s."userId" WHERE s."shop" = ? AND s."connected" = TRUE`,
      args: [shop],
    });
    const email = result.rows[0]?.[0];
    return typeof email === "string" ? email : null;
  } finally {
    db.close();
  }
}

/** Opens an embedded page as the admin's frame loads it, with Shopify's query and a session token, once hydrated. */
export async function openEmbedded(page: Page, shop: string, token: string, path = "/app") {
  const response = await page.goto(adminUrl(shop, token, path));
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  return response;
}

/**
 * A new site account (no password) linked to a new shop with the app installed, opened at `path`
 * inside the admin (App Bridge stood in for, with a ten-minute session token).
 */
export async function openLinkedShop(page: Page, path = "/app", prefix = "e2e-linked") {
  const shop = uniqueShop(prefix);
  const email = uniqueEmail(prefix);
  await createSiteUser(email);
  await insertOfflineSession(shop);
  await linkShopTo(shop, email);
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);
  const response = await openEmbedded(page, shop, token, path);
  return { shop, email, token, response };
}
