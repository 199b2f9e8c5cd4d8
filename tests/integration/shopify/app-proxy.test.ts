// The theme block's first way in: Shopify's app proxy. Requests are signed as Shopify signs them (the
// `signature` query parameter: HMAC-SHA256 hex of the sorted key=value pairs, joined with nothing, with
// the app's secret), and checked by authenticate.public.appProxy in app/routes/apps.proxy.$.tsx.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { createHmac } from "node:crypto";
import { db } from "~/db.server";
import { loader as proxyLoader } from "~/routes/apps.proxy.$";
import { action as createThemeToken } from "~/routes/api.theme-tokens";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { TEST_SHOPIFY_API_SECRET } from "../../helpers/test-env";

beforeEach(() => oauth.reset());

/** The query Shopify sends to the proxy URL, signed (or signed with another secret). */
function proxyQuery(params: Record<string, string>, secret = TEST_SHOPIFY_API_SECRET): string {
  const all: Record<string, string> = {
    path_prefix: "/apps/winning-products",
    timestamp: String(Math.floor(Date.now() / 1000)),
    logged_in_customer_id: "",
    ...params,
  };
  const message = Object.keys(all)
    .sort()
    .map((key) => `${key}=${all[key]}`)
    .join("");
  const signature = createHmac("sha256", secret).update(message).digest("hex");
  return new URLSearchParams({ ...all, signature }).toString();
}

function proxy(path: string, query: string) {
  return call(proxyLoader, `/apps/proxy/${path}?${query}`, { params: { "*": path } });
}

async function shopWithThemeToken() {
  const linked = await linkedShop();
  const res = await call(createThemeToken, "/api/theme-tokens", {
    method: "POST",
    cookie: linked.user.cookie,
    json: {
      themeId: "777",
      selectedStore: linked.shop,
      whitelistedUrls: ["https://shop.example.com"],
      version: "3.0.0",
      blockMessage: "Free returns for 30 days <b>&</b> {{ shop.name }}",
    },
  });
  expect(res.status).toBe(201);
  return linked;
}

describe("app proxy signature", () => {
  it("a correctly signed request for a linked shop gets the licence and the merchant's message", async () => {
    const { shop } = await shopWithThemeToken();
    const res = await proxy("block", proxyQuery({ shop, themeId: "777" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      valid: true,
      store: shop,
      version: "3.0.0",
      message: "Free returns for 30 days <b>&</b> {{ shop.name }}",
    });
  });

  it.each([
    ["signed with another secret", (q: Record<string, string>) => proxyQuery(q, "someone-elses-secret")],
    [
      "without a signature",
      (q: Record<string, string>) =>
        new URLSearchParams({ ...q, timestamp: String(Math.floor(Date.now() / 1000)) }).toString(),
    ],
    [
      "with a shop changed after signing",
      (q: Record<string, string>) => proxyQuery(q).replace(encodeURIComponent(q.shop), "victim.myshopify.com"),
    ],
    [
      "signed too long ago (replayed)",
      (q: Record<string, string>) => proxyQuery({ ...q, timestamp: String(Math.floor(Date.now() / 1000) - 3600) }),
    ],
  ])("a request %s is refused with 400 and no licence data", async (_name, make) => {
    const { shop } = await shopWithThemeToken();
    const res = await proxy("block", make({ shop, themeId: "777" }));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("");
  });

  it("a signed request for a shop that is installed but not linked says the licence is not valid", async () => {
    const { shop } = await installShop();
    const res = await proxy("block", proxyQuery({ shop, themeId: "777" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ valid: false });
  });

  it("a linked shop with no theme token for the theme is valid, with no message", async () => {
    const { shop } = await linkedShop();
    expect(await (await proxy("block", proxyQuery({ shop, themeId: "1" }))).json()).toEqual({
      valid: true,
      store: shop,
      version: null,
      message: null,
    });
  });

  it("after the store is disconnected the licence is not valid", async () => {
    const { shop } = await shopWithThemeToken();
    await db.shopifyStore.update({ where: { shop }, data: { connected: false } });
    expect(await (await proxy("block", proxyQuery({ shop, themeId: "777" }))).json()).toEqual({ valid: false });
  });

  it("block.liquid answers Liquid without layout, with the message escaped so it cannot become markup or a Liquid tag", async () => {
    const { shop } = await shopWithThemeToken();
    const res = await proxy("block.liquid", proxyQuery({ shop, themeId: "777" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/liquid");
    const body = await res.text();
    expect(body).toMatch(/^\{% layout none %\}/);
    expect(body).toContain(
      '<span class="wp-social-proof__message">Free returns for 30 days &#60;b&#62;&#38;&#60;/b&#62; &#123;&#123; shop.name &#125;&#125;</span>',
    );
  });

  it("an unknown path under the proxy is 404 (after the signature check)", async () => {
    const { shop } = await linkedShop();
    expect((await proxy("nothing-here", proxyQuery({ shop }))).status).toBe(404);
    expect((await proxy("nothing-here", proxyQuery({ shop }, "wrong-secret"))).status).toBe(400);
  });
});
