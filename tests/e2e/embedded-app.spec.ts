// The embedded Shopify app as Shopify admin opens it in its iframe: /app?embedded=1&shop&host&id_token,
// with a session token signed for real with the secret the server runs with. App Bridge's script comes
// from Shopify's CDN, which tests never reach: a small stand-in provides window.shopify.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { adminHostParam, signSessionToken, uniqueShop } from "../helpers/shopify";
import { TEST_SHOPIFY_API_KEY } from "../helpers/test-env";
import { insertOfflineSession } from "./support/app";
import { DEMO_EMAIL, E2E_BASE_URL } from "./support/constants";
import { linkShopTo } from "./support/shopify-admin";

/** Serves a stand-in for https://cdn.shopify.com/shopifycloud/app-bridge.js and refuses other outside requests. */
async function stubShopify(page: Page, shop: string, token: string) {
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
  window.shopify = {
    config: { apiKey: script && script.getAttribute("data-api-key"), shop: ${JSON.stringify(shop)}, locale: "en" },
    environment: { embedded: true, mobile: false, pos: false },
    idToken: function () { return Promise.resolve(${JSON.stringify(token)}); },
    toast: { show: function () {}, hide: function () {} },
    loading: function () {},
    ready: Promise.resolve(),
  };
})();`;
}

function adminUrl(shop: string, idToken: string) {
  return `/app?${new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop), id_token: idToken })}`;
}

test("an installed shop opening the app in Shopify admin sees its home page", async ({ page }, testInfo) => {
  const shop = uniqueShop("e2e");
  await insertOfflineSession(shop);
  // Linked to a site account (the linking screen itself: embedded-link.spec.ts).
  await linkShopTo(shop, DEMO_EMAIL);
  const token = await signSessionToken({ shop, ttlSeconds: 300 });
  const appBridge = await stubShopify(page, shop, token);

  const response = await page.goto(adminUrl(shop, token));

  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: `Connected to ${shop}` })).toBeVisible();
  await expect(page.getByText(`Signed in as ${DEMO_EMAIL}`)).toBeVisible();
  expect(appBridge).toEqual(["https://cdn.shopify.com/shopifycloud/app-bridge.js"]);
  // App Bridge was given our client id by the page.
  expect(
    await page.evaluate(() => (window as { shopify?: { config: { apiKey: string } } }).shopify?.config.apiKey),
  ).toBe(TEST_SHOPIFY_API_KEY);
  // The admin may frame the page; nobody else may.
  expect(response?.headers()["content-security-policy"]).toContain(`frame-ancestors https://${shop}`);
  await page.screenshot({ path: testInfo.outputPath("embedded-home.png"), fullPage: true });
});

test("a forged session token does not open the app", async ({ page }) => {
  const shop = uniqueShop("e2e-forged");
  await insertOfflineSession(shop);
  const forged = await signSessionToken({ shop, secret: "an-attackers-guess-at-the-secret" });
  const appBridge = await stubShopify(page, shop, forged);

  await page.goto(adminUrl(shop, forged));

  // Sent to the bounce page, where App Bridge fetches a genuine token and reloads the app with it.
  await expect(page).toHaveURL(/\/auth\/session-token\?/);
  const bounce = new URL(page.url());
  expect(bounce.searchParams.has("id_token")).toBe(false);
  expect(new URL(bounce.searchParams.get("shopify-reload")!).pathname).toBe("/app");
  expect(appBridge).toEqual(["https://cdn.shopify.com/shopifycloud/app-bridge.js"]);
  await expect(page.locator("body")).not.toContainText(/Error \d{3}/);
  await expect(page.getByText(`Connected to ${shop}`)).toHaveCount(0);
});
