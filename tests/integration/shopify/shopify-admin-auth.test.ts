// The embedded app's door: authenticate.admin in app/routes/app.tsx and app._index.tsx, with Shopify
// session tokens signed for real with the test app's secret, and sessions in the real database.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { linkShop } from "~/services/shopify/stores.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { loader as appLoader } from "~/routes/app";
import { loader as appIndexLoader } from "~/routes/app._index";
import { loader as authLoader } from "~/routes/auth.$";
import { offlineTokenResponse } from "../../helpers/fake-shopify-oauth";
import { call } from "../../helpers/routes";
import { adminHostParam, offlineSessionRow, signSessionToken, uniqueShop } from "../../helpers/shopify";
import { createUser } from "../../helpers/site-users";
import { TEST_APP_URL, TEST_SHOPIFY_API_KEY, TEST_SHOPIFY_API_SECRET } from "../../helpers/test-env";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const RETRY_HEADER = "X-Shopify-Retry-Invalid-Session-Request";

/** An installed shop, linked to a site user (an unlinked shop is sent to the linking screen: shopify-link.test.ts). */
async function installedShop(options: { expires?: Date } = {}) {
  const shop = uniqueShop();
  const row = offlineSessionRow(shop, options);
  await db.session.create({ data: row, select: { id: true } });
  const user = await createUser();
  await linkShop({ db, tokens: getTokenCrypto() }, { shop, userId: user.id });
  return { shop, row };
}

/** A fetch from the embedded app (App Bridge adds the session token as a bearer token). */
function bearer(token: string) {
  return { headers: { authorization: `Bearer ${token}`, "user-agent": DESKTOP_CHROME } };
}

/** The document request Shopify admin makes when it opens the app in its iframe. */
function adminDocumentUrl(path: string, shop: string, idToken?: string) {
  const params = new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop) });
  if (idToken) params.set("id_token", idToken);
  return `${path}?${params}`;
}

beforeEach(() => oauth.reset());

describe("an installed shop opening the embedded app", () => {
  it("reaches the /app loader with a valid session token as a bearer token, and gets the API key", async () => {
    const { shop } = await installedShop();
    const res = await call(appLoader, "/app", bearer(await signSessionToken({ shop })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ apiKey: TEST_SHOPIFY_API_KEY, notifications: { items: [], unread: 0 } });
    expect(oauth.requests).toEqual([]);
  });

  it("reaches the app home loader, which answers with the shop of the token", async () => {
    const { shop } = await installedShop();
    const res = await call(appIndexLoader, "/app", bearer(await signSessionToken({ shop })));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ shop });
  });

  it("accepts the document request Shopify admin makes (embedded=1, shop, host, id_token)", async () => {
    const { shop } = await installedShop();
    const token = await signSessionToken({ shop });
    const res = await call(appLoader, adminDocumentUrl("/app", shop, token), {
      headers: { "user-agent": DESKTOP_CHROME },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ apiKey: TEST_SHOPIFY_API_KEY, notifications: { items: [], unread: 0 } });
  });

  it("serves the shop of the token, not the shop named in the URL", async () => {
    const { shop } = await installedShop();
    const other = await installedShop();
    const token = await signSessionToken({ shop });
    const res = await call(appIndexLoader, adminDocumentUrl("/app", other.shop, token), {
      headers: { "user-agent": DESKTOP_CHROME },
    });
    expect(await res.json()).toMatchObject({ shop });
  });
});

describe("session tokens that are refused", () => {
  const cases: [string, (shop: string) => Promise<string>][] = [
    ["signed with another secret", (shop) => signSessionToken({ shop, secret: "not-the-app-secret-at-all" })],
    ["expired", (shop) => signSessionToken({ shop, issuedAt: Math.floor(Date.now() / 1000) - 600, ttlSeconds: 60 })],
    ["issued for another app (aud)", (shop) => signSessionToken({ shop, apiKey: "another-apps-client-id" })],
  ];

  it.each(cases)("a bearer token %s gets 401 with the retry header, and no loader data", async (_name, make) => {
    const { shop } = await installedShop();
    const token = await make(shop);
    for (const loader of [appLoader, appIndexLoader]) {
      const res = await call(loader, "/app", bearer(token));
      expect(res.status).toBe(401);
      expect(res.headers.get(RETRY_HEADER)).toBe("1");
      expect(await res.text()).toBe("");
    }
    expect(oauth.requests).toEqual([]);
  });

  it.each(cases)(
    "a document request with an id_token %s is sent to the bounce page for a new token",
    async (_name, make) => {
      const { shop } = await installedShop();
      const res = await call(appLoader, adminDocumentUrl("/app", shop, await make(shop)), {
        headers: { "user-agent": DESKTOP_CHROME },
      });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!, TEST_APP_URL);
      expect(location.pathname).toBe("/auth/session-token");
      expect(location.searchParams.get("shop")).toBe(shop);
      expect(location.searchParams.has("id_token")).toBe(false);
      const reload = new URL(location.searchParams.get("shopify-reload")!);
      expect(reload.origin + reload.pathname).toBe(`${TEST_APP_URL}/app`);
      expect(reload.searchParams.has("id_token")).toBe(false);
    },
  );

  it("a document request without an id_token goes to the bounce page", async () => {
    const { shop } = await installedShop();
    const res = await call(appLoader, adminDocumentUrl("/app", shop), { headers: { "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, TEST_APP_URL).pathname).toBe("/auth/session-token");
  });

  it("a document request without shop or host goes to the shop login page", async () => {
    const res = await call(appLoader, "/app", { headers: { "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/login");
  });

  it("a valid token signed for a shop is useless with a tampered payload", async () => {
    const { shop } = await installedShop();
    const other = await installedShop();
    const [header, , signature] = (await signSessionToken({ shop })).split(".");
    const forgedPayload = Buffer.from(
      JSON.stringify({
        iss: `https://${other.shop}/admin`,
        dest: `https://${other.shop}`,
        aud: TEST_SHOPIFY_API_KEY,
        sub: "42",
        exp: Math.floor(Date.now() / 1000) + 60,
        nbf: Math.floor(Date.now() / 1000),
        iat: Math.floor(Date.now() / 1000),
        jti: "x",
        sid: "y",
      }),
    ).toString("base64url");
    const res = await call(appIndexLoader, "/app", bearer(`${header}.${forgedPayload}.${signature}`));
    expect(res.status).toBe(401);
  });

  it("crawlers get 410 Gone and never start authentication", async () => {
    const { shop } = await installedShop();
    const res = await call(appLoader, "/app", {
      headers: {
        authorization: `Bearer ${await signSessionToken({ shop })}`,
        "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      },
    });
    expect(res.status).toBe(410);
  });
});

describe("the bounce page (/auth/session-token)", () => {
  it("renders App Bridge with our API key so it can fetch a fresh session token", async () => {
    const shop = uniqueShop();
    const params = new URLSearchParams({
      shop,
      host: adminHostParam(shop),
      embedded: "1",
      "shopify-reload": `${TEST_APP_URL}/app?shop=${shop}`,
    });
    const res = await call(authLoader, `/auth/session-token?${params}`, { headers: { "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("https://cdn.shopify.com/shopifycloud/app-bridge.js");
    expect(html).toContain(`data-api-key="${TEST_SHOPIFY_API_KEY}"`);
  });
});

describe("a shop with no usable offline token (first open, or token expired)", () => {
  it("exchanges the session token for an expiring offline token and stores it", async () => {
    const shop = uniqueShop();
    oauth.answer(shop, () =>
      offlineTokenResponse({ access_token: "shpat_exchanged", refresh_token: "shprt_exchanged" }),
    );
    const token = await signSessionToken({ shop });

    const res = await call(appIndexLoader, "/app", bearer(token));

    // The shop is new, so once its token is stored it is sent to the linking screen.
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, TEST_APP_URL).pathname).toBe("/app/link");
    expect(oauth.requests).toEqual([
      {
        shop,
        body: {
          client_id: TEST_SHOPIFY_API_KEY,
          client_secret: TEST_SHOPIFY_API_SECRET,
          grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
          subject_token: token,
          subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
          requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
          expiring: "1",
        },
      },
    ]);
    const stored = await db.session.findUniqueOrThrow({
      where: { id: `offline_${shop}` },
      select: { shop: true, isOnline: true, accessToken: true, refreshToken: true, expires: true, scope: true },
    });
    // Stored encrypted (docs/decisions/014), and readable with the app's keys.
    expect(stored).toMatchObject({ shop, isOnline: false, scope: "write_products,read_themes" });
    expect(stored.accessToken).not.toContain("shpat_exchanged");
    expect(getTokenCrypto().decrypt(stored.accessToken)).toBe("shpat_exchanged");
    expect(getTokenCrypto().decrypt(stored.refreshToken!)).toBe("shprt_exchanged");
    expect(stored.expires!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it("replaces a stored offline token that has expired", async () => {
    const { shop, row } = await installedShop({ expires: new Date(Date.now() - 60_000) });
    oauth.answer(shop, () => offlineTokenResponse({ access_token: "shpat_fresh" }));

    const res = await call(appLoader, "/app", bearer(await signSessionToken({ shop })));

    expect(res.status).toBe(200);
    expect(oauth.requests).toHaveLength(1);
    const stored = await db.session.findUniqueOrThrow({ where: { id: row.id }, select: { accessToken: true } });
    expect(getTokenCrypto().decrypt(stored.accessToken)).toBe("shpat_fresh");
  });

  /** A port nothing listens on: Shopify "cannot be reached" (the connection is refused). */
  async function closedPort(): Promise<number> {
    const { createServer } = await import("node:net");
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it.each([
    ["a first open (token exchange)", false],
    ["an expired offline token (refresh)", true],
  ])("when Shopify cannot be reached for %s, the embedded pages answer 503 with a sentence", async (_name, installed) => {
    const shop = installed ? (await installedShop({ expires: new Date(Date.now() - 60_000) })).shop : uniqueShop();
    const port = await closedPort();
    oauth.answer(shop, () => fetch(`http://127.0.0.1:${port}/admin/oauth/access_token`, { method: "POST" }));

    for (const loader of [appLoader, appIndexLoader]) {
      const res = await call(loader, "/app", bearer(await signSessionToken({ shop })));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(await res.json()).toEqual({ error: expect.stringMatching(/Shopify could not be reached/) });
    }
  });

  it("when Shopify's token endpoint fails with a 5xx, the embedded pages answer 502 with a sentence", async () => {
    const shop = uniqueShop();
    oauth.answer(shop, () => new Response("upstream connect error", { status: 503 }));
    const res = await call(appLoader, "/app", bearer(await signSessionToken({ shop })));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/Shopify/) });
  });

  it("asks for a new session token when Shopify rejects the one it was given", async () => {
    const shop = uniqueShop();
    oauth.answer(shop, () => Response.json({ error: "invalid_subject_token" }, { status: 400 }));

    const res = await call(appLoader, "/app", bearer(await signSessionToken({ shop })));

    expect(res.status).toBe(401);
    expect(res.headers.get(RETRY_HEADER)).toBe("1");
    expect(await db.session.count({ where: { shop } })).toBe(0);
  });
});
