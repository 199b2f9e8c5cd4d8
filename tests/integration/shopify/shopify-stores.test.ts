// A user's stores through the JSON API (list, disconnect, Zendrop), the legacy single-store fields read
// as one entry, and the promise that no token is stored, logged or returned in plaintext: the SQLite
// file and its WAL are scanned byte by byte.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { existsSync, readFileSync } from "node:fs";
import { db } from "~/db.server";
import { action as disconnectAction } from "~/routes/api.stores.$shop.disconnect";
import { loader as storesLoader } from "~/routes/api.stores";
import { action as zendropAction } from "~/routes/api.stores.zendrop";
import { action as createThemeToken } from "~/routes/api.theme-tokens";
import { loader as dashboardStoresLoader } from "~/routes/dashboard.stores";
import { getStoreAccessToken } from "~/services/shopify/stores.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

beforeEach(() => oauth.reset());

const list = async (cookie: string) => (await call(storesLoader, "/api/stores", { cookie })).json();

describe("GET /api/stores", () => {
  it("lists the user's linked stores with store_name and shopify_admin_url, never a token", async () => {
    const { shop, user, accessToken, refreshToken } = await linkedShop();
    const res = await call(storesLoader, "/api/stores", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      stores: [
        {
          shop,
          store_name: shop,
          shopify_admin_url: `https://admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`,
          connected: true,
          legacy: false,
          linkedAt: expect.any(String),
          disconnectedAt: null,
        },
      ],
      zendropConnected: false,
    });
    expect(text).not.toContain(accessToken);
    expect(text).not.toContain(refreshToken);
    expect(text).not.toMatch(/encrypted_app_token|v1:/);
  });

  it("reads the legacy single-store fields as one more entry, marked legacy", async () => {
    const { user } = await linkedShop();
    await db.user.update({
      where: { id: user.id },
      data: {
        shopifyStoreName: "old-store.myshopify.com",
        legacyShopifyAdminUrl: "https://admin.shopify.com/store/old-store",
        legacyEncryptedShopifyToken: getTokenCrypto().encrypt("shpat_legacy"),
      },
    });
    const { stores } = await list(user.cookie);
    expect(stores).toHaveLength(2);
    expect(stores[1]).toEqual({
      shop: "old-store.myshopify.com",
      store_name: "old-store.myshopify.com",
      shopify_admin_url: "https://admin.shopify.com/store/old-store",
      connected: true,
      legacy: true,
      linkedAt: null,
      disconnectedAt: null,
    });
    expect(await getStoreAccessToken({ db, tokens: getTokenCrypto() }, user.id, "legacy")).toBe("shpat_legacy");
  });

  it("shows a legacy store that was later linked through the app once", async () => {
    const { shop, user } = await linkedShop();
    await db.user.update({ where: { id: user.id }, data: { shopifyStoreName: shop } });
    const { stores } = await list(user.cookie);
    expect(stores.map((s: { shop: string; legacy: boolean }) => [s.shop, s.legacy])).toEqual([[shop, false]]);
  });

  it("a user with no store gets an empty list; anonymous callers 401", async () => {
    const user = await createSignedInUser();
    expect(await list(user.cookie)).toEqual({ stores: [], zendropConnected: false });
    expect((await call(storesLoader, "/api/stores")).status).toBe(401);
  });

  it("the site page /dashboard/stores loads the same list and the theme tokens", async () => {
    const { shop, user } = await linkedShop();
    const res = await call(dashboardStoresLoader, "/dashboard/stores", { cookie: user.cookie });
    expect(await res.json()).toMatchObject({
      stores: [{ shop, connected: true }],
      zendropConnected: false,
      themeTokens: [],
    });
  });
});

describe("POST /api/stores/{shop}/disconnect", () => {
  it("marks the store disconnected, deletes its stored token and the shop's sessions, and keeps it in the list", async () => {
    const { shop, user } = await linkedShop();
    expect(await db.session.count({ where: { shop } })).toBe(1);

    const res = await call(disconnectAction, `/api/stores/${shop}/disconnect`, {
      method: "POST",
      cookie: user.cookie,
      params: { shop },
    });

    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.stores[0]).toMatchObject({ shop, connected: false, disconnectedAt: expect.any(String) });
    expect(await db.session.count({ where: { shop } })).toBe(0);
    const row = await db.shopifyStore.findUniqueOrThrow({
      where: { shop },
      select: { encrypted_app_token: true, connected: true },
    });
    expect(row).toEqual({ encrypted_app_token: null, connected: false });
    expect(await getStoreAccessToken({ db, tokens: getTokenCrypto() }, user.id, shop)).toBeNull();
  });

  it("cannot disconnect another user's store (404), which stays connected", async () => {
    const { shop } = await linkedShop();
    const intruder = await createSignedInUser();
    const res = await call(disconnectAction, `/api/stores/${shop}/disconnect`, {
      method: "POST",
      cookie: intruder.cookie,
      params: { shop },
    });
    expect(res.status).toBe(404);
    expect(await db.shopifyStore.findUniqueOrThrow({ where: { shop }, select: { connected: true } })).toEqual({
      connected: true,
    });
    expect(await db.session.count({ where: { shop } })).toBe(1);
  });

  it("disconnects the legacy entry by the key legacy", async () => {
    const user = await createSignedInUser({
      shopifyStoreName: "Old store",
      legacyEncryptedShopifyToken: getTokenCrypto().encrypt("shpat_legacy"),
    });
    const res = await call(disconnectAction, "/api/stores/legacy/disconnect", {
      method: "POST",
      cookie: user.cookie,
      params: { shop: "legacy" },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).stores).toEqual([
      expect.objectContaining({ store_name: "Old store", legacy: true, connected: false }),
    ]);
  });
});

describe("POST /api/stores/zendrop", () => {
  it("sets and clears the user's Zendrop flag, shown in the list", async () => {
    const user = await createSignedInUser();
    const on = await call(zendropAction, "/api/stores/zendrop", {
      method: "POST",
      json: { connected: true },
      cookie: user.cookie,
    });
    expect(await on.json()).toEqual({ zendropConnected: true });
    expect((await list(user.cookie)).zendropConnected).toBe(true);
    const off = await call(zendropAction, "/api/stores/zendrop", {
      method: "POST",
      json: { connected: false },
      cookie: user.cookie,
    });
    expect(await off.json()).toEqual({ zendropConnected: false });
  });

  it("refuses a body without a boolean", async () => {
    const user = await createSignedInUser();
    const res = await call(zendropAction, "/api/stores/zendrop", {
      method: "POST",
      json: { connected: "yes" },
      cookie: user.cookie,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("connected: must be true or false");
  });
});

describe("the store row keeps the shop's current offline token", () => {
  it("follows the token the library refreshed, on the next embedded request", async () => {
    const { shop, user } = await linkedShop();
    const { sessionStorage } = await import("~/shopify.server");
    const session = (await sessionStorage.loadSession(`offline_${shop}`))!;
    session.accessToken = "shpat_refreshed_token";
    await sessionStorage.storeSession(session);
    const { requireEmbeddedUser } = await import("~/pages/http/embedded-session.server");
    const { signSessionToken } = await import("../../helpers/shopify");
    const { makeRequest } = await import("../../helpers/routes");
    await requireEmbeddedUser(
      makeRequest("/app", { headers: { authorization: `Bearer ${await signSessionToken({ shop })}` } }),
    );
    expect(await getStoreAccessToken({ db, tokens: getTokenCrypto() }, user.id, shop)).toBe("shpat_refreshed_token");
  });
});

describe("no access token or theme token is stored or returned in plaintext", () => {
  it("scans the SQLite file and its WAL after storing a session, linking a store and creating a theme token", async () => {
    const { shop, user, accessToken, refreshToken } = await linkedShop();
    const unlinked = await installShop();
    const res = await call(createThemeToken, "/api/theme-tokens", {
      method: "POST",
      cookie: user.cookie,
      json: { themeId: "42", selectedStore: shop, whitelistedUrls: ["https://scan.example.com"], version: "1" },
    });
    const { authToken } = await res.json();
    expect(authToken).toMatch(/^wpt_/);
    const secrets = [accessToken, refreshToken, unlinked.accessToken, unlinked.refreshToken, authToken];

    // WAL mode keeps recent pages in the -wal file, so both are read.
    const file = process.env.TEST_DB_FILE!;
    const bytes = [readFileSync(file), ...(existsSync(`${file}-wal`) ? [readFileSync(`${file}-wal`)] : [])];
    // The rows are there (their shops are in the files)...
    expect(bytes.some((b) => b.includes(Buffer.from(shop)))).toBe(true);
    expect(bytes.some((b) => b.includes(Buffer.from(unlinked.shop)))).toBe(true);
    // ...and their tokens are not, in either encoding SQLite uses for text.
    for (const secret of secrets) {
      for (const buffer of bytes) {
        expect(buffer.includes(Buffer.from(secret, "utf8"))).toBe(false);
        expect(buffer.includes(Buffer.from(secret, "utf16le"))).toBe(false);
      }
    }
    // The scan can see a token when one is there: the same check finds a plaintext one.
    const planted = `shpat_planted_${Date.now()}`;
    await db.session.update({ where: { id: unlinked.sessionId }, data: { state: planted } });
    const after = [readFileSync(file), ...(existsSync(`${file}-wal`) ? [readFileSync(`${file}-wal`)] : [])];
    expect(after.some((b) => b.includes(Buffer.from(planted)))).toBe(true);
  });
});
