// Theme tokens (seed themeTokens) through their JSON contract, and the licence check a storefront theme
// makes with one: CORS headers only for the token's whitelisted origins.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { createHash } from "node:crypto";
import { db } from "~/db.server";
import { loader as licenceLoader, action as licenceAction } from "~/routes/api.theme.license";
import { action as revokeAction } from "~/routes/api.theme-tokens.$themeId";
import { action as createAction, loader as listLoader } from "~/routes/api.theme-tokens";
import { linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";

const STOREFRONT = "https://my-store.example.com";

beforeEach(() => oauth.reset());

async function create(cookie: string, body: Record<string, unknown>) {
  return call(createAction, "/api/theme-tokens", { method: "POST", json: body, cookie });
}

async function setup() {
  const { shop, user } = await linkedShop();
  const input = {
    themeId: "123456789",
    selectedStore: shop,
    whitelistedUrls: [STOREFRONT, `https://${shop}/`],
    version: "2.1.0",
    blockMessage: "Ships within 24 hours",
  };
  const res = await create(user.cookie, input);
  expect(res.status).toBe(201);
  const entry = await res.json();
  return { shop, user, input, entry, token: entry.authToken as string };
}

function licence(themeId: string, token: string | null, origin: string | null) {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (origin !== null) headers.origin = origin;
  return call(licenceLoader, `/api/theme/license?themeId=${encodeURIComponent(themeId)}`, { headers });
}

function preflight(themeId: string, origin: string) {
  return call(licenceLoader, `/api/theme/license?themeId=${themeId}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
  });
}

function expectNoCors(res: Response) {
  for (const header of [
    "access-control-allow-origin",
    "access-control-allow-methods",
    "access-control-allow-headers",
  ]) {
    expect(res.headers.get(header)).toBeNull();
  }
}

describe("POST /api/theme-tokens", () => {
  it("answers 201 with the entry and its authToken (>= 32 random bytes, base64url), stored only as its SHA-256 hash", async () => {
    const { user, shop, entry, token } = await setup();
    expect(entry).toEqual({
      themeId: "123456789",
      authToken: expect.stringMatching(/^wpt_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      selectedStore: shop,
      whitelistedUrls: [STOREFRONT, `https://${shop}`],
      version: "2.1.0",
      blockMessage: "Ships within 24 hours",
    });
    const row = await db.themeToken.findFirstOrThrow({ where: { userId: user.id }, select: { tokenHash: true } });
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    const stored = JSON.stringify(await db.themeToken.findMany({ where: { userId: user.id } }));
    expect(stored).not.toContain(token);
  });

  it("accepts the embedded app's bearer session token instead of a cookie", async () => {
    const { shop } = await linkedShop();
    const res = await call(createAction, "/api/theme-tokens", {
      method: "POST",
      json: { themeId: "9", selectedStore: shop, whitelistedUrls: [STOREFRONT], version: "1" },
      headers: { authorization: `Bearer ${await signSessionToken({ shop })}` },
    });
    expect(res.status).toBe(201);
  });

  it("needs a signed-in user", async () => {
    const res = await call(createAction, "/api/theme-tokens", { method: "POST", json: {} });
    expect(res.status).toBe(401);
  });

  it.each([
    ["http://my-store.example.com", "must start with https://"],
    ["not a url", "is not a URL"],
    ["https://user:pass@my-store.example.com", "must not contain a user name or password"],
    ["https://my-store.example.com/?a=1", "without ?query or #fragment"],
    ["ftp://my-store.example.com", "must start with https://"],
    ["https://*.example.com", "wildcards are not allowed"],
  ])("refuses %s with 400 naming the bad entry", async (bad, reason) => {
    const { shop, user } = await linkedShop();
    const res = await create(user.cookie, {
      themeId: "1",
      selectedStore: shop,
      whitelistedUrls: [STOREFRONT, bad],
      version: "1",
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error).toContain(`whitelistedUrls[1] "${bad}"`);
    expect(error).toContain(reason);
    expect(await db.themeToken.count({ where: { userId: user.id } })).toBe(0);
  });

  it("normalises origins: case, trailing slash and paths dropped, duplicates removed; http only for localhost", async () => {
    const { shop, user } = await linkedShop();
    const res = await create(user.cookie, {
      themeId: "1",
      selectedStore: shop,
      whitelistedUrls: [
        "HTTPS://My-Store.Example.com/",
        "https://my-store.example.com/products/x",
        "http://localhost:9292",
      ],
      version: "1",
    });
    expect(res.status).toBe(201);
    expect((await res.json()).whitelistedUrls).toEqual(["https://my-store.example.com", "http://localhost:9292"]);
  });

  it("refuses a selectedStore that is not one of the user's connected stores", async () => {
    const { user } = await linkedShop();
    const { shop: someoneElses } = await linkedShop();
    const res = await create(user.cookie, {
      themeId: "1",
      selectedStore: someoneElses,
      whitelistedUrls: [STOREFRONT],
      version: "1",
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(
      new RegExp(`selectedStore "${someoneElses.replace(/\./g, "\\.")}" is not one of your connected stores`),
    );

    const storeless = await createSignedInUser();
    const none = await create(storeless.cookie, {
      themeId: "1",
      selectedStore: someoneElses,
      whitelistedUrls: [STOREFRONT],
      version: "1",
    });
    expect(none.status).toBe(404);
    expect((await none.json()).error).toMatch(/you have none yet/);
  });

  it("names a missing or malformed field", async () => {
    const { shop, user } = await linkedShop();
    const missing = await create(user.cookie, { selectedStore: shop, whitelistedUrls: [STOREFRONT], version: "1" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/^themeId: /);
    const notList = await create(user.cookie, {
      themeId: "1",
      selectedStore: shop,
      whitelistedUrls: STOREFRONT,
      version: "1",
    });
    expect((await notList.json()).error).toMatch(/^whitelistedUrls: must be a list of URLs/);
  });
});

describe("GET /api/theme-tokens", () => {
  it("lists the user's entries newest first, never with a token, and only theirs", async () => {
    const { shop, user } = await linkedShop();
    const tokens: string[] = [];
    for (const themeId of ["111", "222", "333"]) {
      const res = await create(user.cookie, {
        themeId,
        selectedStore: shop,
        whitelistedUrls: [STOREFRONT],
        version: "1",
      });
      tokens.push((await res.json()).authToken);
      await new Promise((r) => setTimeout(r, 5));
    }
    await setup(); // another user's token

    const res = await call(listLoader, "/api/theme-tokens", { cookie: user.cookie });

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await res.text();
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).not.toMatch(/authToken|tokenHash/);
    const { themeTokens } = JSON.parse(text);
    expect(themeTokens.map((t: { themeId: string }) => t.themeId)).toEqual(["333", "222", "111"]);
    expect(themeTokens[0]).toEqual({
      themeId: "333",
      createdAt: expect.any(String),
      selectedStore: shop,
      whitelistedUrls: [STOREFRONT],
      version: "1",
      blockMessage: null,
    });
  });
});

describe("rotation and revocation", () => {
  it("creating again for the same theme rotates: the old token stops working, the new one works", async () => {
    const { shop, user, input, token: old } = await setup();
    const res = await create(user.cookie, { ...input, version: "2.2.0" });
    const fresh = (await res.json()).authToken;

    expect(fresh).not.toBe(old);
    expect((await licence("123456789", old, STOREFRONT)).status).toBe(403);
    const ok = await licence("123456789", fresh, STOREFRONT);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ valid: true, store: shop, version: "2.2.0" });
    const list = await (await call(listLoader, "/api/theme-tokens", { cookie: user.cookie })).json();
    expect(list.themeTokens).toHaveLength(1);
  });

  it("DELETE /api/theme-tokens/{themeId} revokes; a second DELETE is 404; another user cannot revoke it", async () => {
    const { user, token } = await setup();
    const intruder = await createSignedInUser();
    const denied = await call(revokeAction, "/api/theme-tokens/123456789", {
      method: "DELETE",
      cookie: intruder.cookie,
      params: { themeId: "123456789" },
    });
    expect(denied.status).toBe(404);
    expect((await licence("123456789", token, STOREFRONT)).status).toBe(200);

    const res = await call(revokeAction, "/api/theme-tokens/123456789", {
      method: "DELETE",
      cookie: user.cookie,
      params: { themeId: "123456789" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ themeId: "123456789", revoked: true });
    expect((await licence("123456789", token, STOREFRONT)).status).toBe(403);
    const again = await call(revokeAction, "/api/theme-tokens/123456789", {
      method: "DELETE",
      cookie: user.cookie,
      params: { themeId: "123456789" },
    });
    expect(again.status).toBe(404);
  });
});

describe("GET /api/theme/license", () => {
  it("from a whitelisted origin: 200 { valid, store, version, message } with ACAO set to that origin and Vary: Origin", async () => {
    const { shop, token } = await setup();
    const res = await licence("123456789", token, STOREFRONT);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ valid: true, store: shop, version: "2.1.0", message: "Ships within 24 hours" });
    expect(res.headers.get("access-control-allow-origin")).toBe(STOREFRONT);
    expect(res.headers.get("vary")).toBe("Origin");
    // The shop's own myshopify domain was whitelisted too.
    const other = await licence("123456789", token, `https://${shop}`);
    expect(other.headers.get("access-control-allow-origin")).toBe(`https://${shop}`);
  });

  it.each([
    ["another origin", STOREFRONT.replace("my-store", "copycat"), "123456789", true],
    ["no Origin header", null, "123456789", true],
    ["a lookalike origin with another port", `${STOREFRONT}:8443`, "123456789", true],
    ["another theme id", STOREFRONT, "987654321", true],
    ["a wrong token", STOREFRONT, "123456789", false],
  ])("with %s: 403 and no CORS headers", async (_name, origin, themeId, rightToken) => {
    const { token } = await setup();
    const res = await licence(themeId, rightToken ? token : `wpt_${"A".repeat(43)}`, origin);
    expect(res.status).toBe(403);
    expectNoCors(res);
    expect(await res.json()).toMatchObject({ valid: false });
  });

  it("with no token, or a revoked one: 403 and no CORS headers", async () => {
    const { user, token } = await setup();
    expect((await licence("123456789", null, STOREFRONT)).status).toBe(403);
    await call(revokeAction, "/api/theme-tokens/123456789", {
      method: "DELETE",
      cookie: user.cookie,
      params: { themeId: "123456789" },
    });
    const res = await licence("123456789", token, STOREFRONT);
    expect(res.status).toBe(403);
    expectNoCors(res);
  });

  it("stops answering while the token's store is disconnected", async () => {
    const { shop, token } = await setup();
    await db.shopifyStore.update({ where: { shop }, data: { connected: false } });
    expect((await licence("123456789", token, STOREFRONT)).status).toBe(403);
  });

  it("answers the CORS preflight for a whitelisted origin with the same CORS headers, and 403 without them otherwise", async () => {
    await setup();
    const ok = await preflight("123456789", STOREFRONT);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(STOREFRONT);
    expect(ok.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
    expect(ok.headers.get("access-control-allow-headers")).toBe("Authorization");
    expect(ok.headers.get("vary")).toBe("Origin");

    for (const [themeId, origin] of [
      ["123456789", "https://copycat.example.com"],
      ["987654321", STOREFRONT],
    ]) {
      const res = await preflight(themeId, origin);
      expect(res.status).toBe(403);
      expectNoCors(res);
    }
  });

  it("refuses other methods", async () => {
    const res = await call(licenceAction, "/api/theme/license?themeId=1", { method: "POST", body: "" });
    expect(res.status).toBe(405);
  });
});
