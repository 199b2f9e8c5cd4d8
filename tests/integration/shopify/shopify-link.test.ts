// Linking shops to site users (DESIGN.md "Identity across surfaces"): an unlinked shop sees only the
// linking screen; signing in (or creating an account) there links it; the link is the shop's identity
// from then on, in the embedded pages and for bearer calls to the JSON API. Session tokens are signed
// for real with the test app's secret.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { loader as meLoader } from "~/routes/api.me";
import { loader as appLoader } from "~/routes/app";
import { loader as appIndexLoader } from "~/routes/app._index";
import { action as linkAction, loader as linkLoader } from "~/routes/app.link";
import { loader as appStoresLoader } from "~/routes/app.stores";
import { requireEmbeddedUser, requireShop } from "~/pages/http/embedded-session.server";
import { SHOP_LINKED_ELSEWHERE } from "~/services/shopify/stores.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { call, makeRequest, uniqueEmail } from "../../helpers/routes";
import { adminHostParam, signSessionToken } from "../../helpers/shopify";
import { createUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

async function asShop(shop: string, extra: Record<string, string> = {}) {
  return {
    headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME, ...extra },
  };
}

function linkForm(shop: string, form: Record<string, string>) {
  return asShop(shop, { "x-forwarded-for": uniqueIp() }).then((o) => ({ ...o, method: "POST", form }));
}

beforeEach(() => oauth.reset());

describe("the first time a shop opens the embedded app", () => {
  it("is sent to the linking screen, keeping Shopify's query so the screen authenticates too", async () => {
    const { shop } = await installShop();
    const token = await signSessionToken({ shop });
    const query = new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop), id_token: token });

    const res = await call(appLoader, `/app?${query}`, { headers: { "user-agent": DESKTOP_CHROME } });

    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!, TEST_APP_URL);
    expect(location.pathname).toBe("/app/link");
    expect(Object.fromEntries(location.searchParams)).toEqual(Object.fromEntries(query));
  });

  it("every embedded page sends it there, not only the home page", async () => {
    const { shop } = await installShop();
    for (const loader of [appIndexLoader, appStoresLoader]) {
      const res = await call(loader, "/app/stores", await asShop(shop));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/app/link");
    }
  });

  it("the linking screen itself loads, with the shop's domain and nothing else", async () => {
    const { shop } = await installShop();
    expect((await call(appLoader, "/app/link", await asShop(shop))).status).toBe(200);
    const res = await call(linkLoader, "/app/link", await asShop(shop));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ shop });
  });

  it("the linking screen needs a valid session token like every embedded page", async () => {
    const { shop } = await installShop();
    const forged = await signSessionToken({ shop, secret: "an-attackers-secret-guess" });
    const res = await call(linkLoader, "/app/link", {
      headers: { authorization: `Bearer ${forged}`, "user-agent": DESKTOP_CHROME },
    });
    expect(res.status).toBe(401);
  });
});

describe("linking on the linking screen", () => {
  it("signing in with a site account links the shop to it, stores its admin URL and sealed token, and sets no cookie", async () => {
    const { shop, accessToken } = await installShop();
    const user = await createUser();

    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "login", email: user.email, password: TEST_PASSWORD }),
    );

    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app");
    expect(res.headers.get("set-cookie")).toBeNull();
    const row = await db.shopifyStore.findUniqueOrThrow({
      where: { shop },
      select: { userId: true, store_name: true, shopify_admin_url: true, connected: true, encrypted_app_token: true },
    });
    expect(row).toMatchObject({
      userId: user.id,
      store_name: shop,
      shopify_admin_url: `https://admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`,
      connected: true,
    });
    expect(row.encrypted_app_token).not.toContain(accessToken);
    expect(getTokenCrypto().decrypt(row.encrypted_app_token!)).toBe(accessToken);
  });

  it("then the embedded home shows the linked account's e-mail and plan", async () => {
    const { shop } = await installShop();
    const user = await createUser({ userSubscribed: "yes", trialing: true });
    await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "login", email: user.email, password: TEST_PASSWORD }),
    );

    const res = await call(appIndexLoader, "/app", await asShop(shop));

    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      shop,
      account: { email: user.email, userSubscribed: "yes", trialing: true, paid: true },
    });
    // And the linking screen now sends it home.
    const again = await call(linkLoader, "/app/link", await asShop(shop));
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/app");
  });

  it("creating an account links the shop to the new account", async () => {
    const { shop } = await installShop();
    const email = uniqueEmail("merchant");

    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "signup", email, password: "a-new-password-1" }),
    );

    expect(res.status).toBe(302);
    const created = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    expect(await requireShop(makeRequest("/app", await asShop(shop)))).toEqual({
      shop,
      linkedUserId: created.id,
    });
  });

  it("a wrong password links nothing and says so", async () => {
    const { shop } = await installShop();
    const user = await createUser();
    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "login", email: user.email, password: "not-the-password" }),
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ formError: "That e-mail and password don't match an account." });
    expect(await db.shopifyStore.count({ where: { shop } })).toBe(0);
  });

  it("invalid input names the field", async () => {
    const { shop } = await installShop();
    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "signup", email: "not-an-email", password: "short" }),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors.email).toMatch(/valid e-mail/);
    expect(body.errors.password).toMatch(/at least 8/);
  });

  it("creating an account with an e-mail that exists is refused with the sign-up message", async () => {
    const { shop } = await installShop();
    const user = await createUser();
    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "signup", email: user.email, password: "whatever-123" }),
    );
    expect(res.status).toBe(409);
    expect((await res.json()).errors.email).toMatch(/already exists/);
  });

  it("a shop linked to one user cannot be taken by a second: 409 with a clear message", async () => {
    const { shop, user: first } = await linkedShop();
    const second = await createUser();

    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "login", email: second.email, password: TEST_PASSWORD }),
    );

    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ formError: SHOP_LINKED_ELSEWHERE });
    expect(await db.shopifyStore.findUniqueOrThrow({ where: { shop }, select: { userId: true } })).toEqual({
      userId: first.id,
    });
  });

  it("a user may link several shops", async () => {
    const user = await createUser();
    const shops = [await installShop(), await installShop()];
    for (const { shop } of shops) {
      const res = await call(
        linkAction,
        "/app/link",
        await linkForm(shop, { intent: "login", email: user.email, password: TEST_PASSWORD }),
      );
      expect(res.status).toBe(302);
    }
    expect(await db.shopifyStore.count({ where: { userId: user.id, connected: true } })).toBe(2);
  });

  it("a disconnected shop asks to be linked again, and may then be linked by a new owner", async () => {
    const { shop, user: first } = await linkedShop();
    await db.shopifyStore.update({ where: { shop }, data: { connected: false } });
    expect((await call(appLoader, "/app", await asShop(shop))).status).toBe(302);

    const newOwner = await createUser();
    const res = await call(
      linkAction,
      "/app/link",
      await linkForm(shop, { intent: "login", email: newOwner.email, password: TEST_PASSWORD }),
    );

    expect(res.status).toBe(302);
    const row = await db.shopifyStore.findUniqueOrThrow({ where: { shop }, select: { userId: true, connected: true } });
    expect(row).toEqual({ userId: newOwner.id, connected: true });
    expect(row.userId).not.toBe(first.id);
  });
});

describe("requireEmbeddedUser", () => {
  it("returns the shop's session, an Admin API client and the linked user", async () => {
    const { shop, user } = await linkedShop();
    const {
      session,
      admin,
      user: resolved,
    } = await requireEmbeddedUser(makeRequest("/app", await asShop(shop)));
    expect(session.shop).toBe(shop);
    expect(typeof admin.graphql).toBe("function");
    expect(resolved).toMatchObject({ id: user.id, email: user.email });
  });
});

describe("a Shopify session token as the bearer token of the JSON API", () => {
  it("resolves to the linked user (no cookie)", async () => {
    const { shop, user } = await linkedShop();
    const res = await call(meLoader, "/api/me", {
      headers: { authorization: `Bearer ${await signSessionToken({ shop })}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ uid: user.id, email: user.email });
  });

  it("with ?uid= of the linked user passes the uid check, and another uid is 403", async () => {
    const { shop, user } = await linkedShop();
    const { loader: storesLoader } = await import("~/routes/api.stores");
    const headers = { authorization: `Bearer ${await signSessionToken({ shop })}` };
    expect((await call(storesLoader, `/api/stores?uid=${user.id}`, { headers })).status).toBe(200);
    expect((await call(storesLoader, "/api/stores?uid=someone-else", { headers })).status).toBe(403);
  });

  it("for an unlinked shop is 401, telling the merchant to link the shop", async () => {
    const { shop } = await installShop();
    const res = await call(meLoader, "/api/me", {
      headers: { authorization: `Bearer ${await signSessionToken({ shop })}` },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe(
      `The store ${shop} is not linked to a Winning Products account yet. Open Winning Products in your Shopify admin and sign in to link the store.`,
    );
  });

  it.each([
    ["signed with another secret", { secret: "not-the-app-secret-at-all" }],
    ["expired", { issuedAt: Math.floor(Date.now() / 1000) - 600, ttlSeconds: 60 }],
    ["for another app", { apiKey: "another-apps-client-id" }],
  ])("%s is 401, even for a linked shop", async (_name, options) => {
    const { shop } = await linkedShop();
    const token = await signSessionToken({ shop, ...options });
    const res = await call(meLoader, "/api/me", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatch(/not a valid Shopify session token/);
  });

  it("a disconnected shop's token no longer acts as the user", async () => {
    const { shop } = await linkedShop();
    await db.shopifyStore.update({ where: { shop }, data: { connected: false } });
    const res = await call(meLoader, "/api/me", {
      headers: { authorization: `Bearer ${await signSessionToken({ shop })}` },
    });
    expect(res.status).toBe(401);
  });
});
