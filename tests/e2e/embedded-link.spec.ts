// Linking a shop from inside Shopify admin, in Chromium: an unlinked shop opening the app sees only the
// linking screen, signs in with its site account there, and lands on the embedded home as that account.
// App Bridge's script is a stand-in (support/shopify-admin.ts); session tokens are signed for real.
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { insertOfflineSession, open, reload, submitSignup, uniqueEmail } from "./support/app";
import { DEMO_EMAIL, DEMO_PASSWORD, E2E_BASE_URL } from "./support/constants";
import { adminUrl, linkedEmail, linkShopTo, openLinkedShop, stubShopifyAdmin } from "./support/shopify-admin";

test("an unlinked shop signs in on the linking screen and then sees its account on the embedded home", async ({
  page,
  context,
}, testInfo) => {
  const shop = uniqueShop("e2e-link");
  await insertOfflineSession(shop);
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);

  const response = await page.goto(adminUrl(shop, token));

  // Only the linking screen: no app navigation, no home page.
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/app\/link\?/);
  await expect(page.getByRole("heading", { name: "Link this store to Winning Products" })).toBeVisible();
  await expect(page.getByText(`Connected to ${shop}`)).toHaveCount(0);
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  await page.screenshot({ path: testInfo.outputPath("linking-screen.png"), fullPage: true });

  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in and link store" }).click();

  await expect(page.getByRole("heading", { name: `Connected to ${shop}` })).toBeVisible();
  await expect(page.getByText(`Signed in as ${DEMO_EMAIL}`)).toBeVisible();
  await expect(page.getByText(/^Plan: /)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/app");
  expect(await linkedEmail(shop)).toBe(DEMO_EMAIL);
  // The link is the identity inside the iframe: no site session cookie was set there.
  expect((await context.cookies()).map((c) => c.name)).not.toContain("__session");
  await page.screenshot({ path: testInfo.outputPath("linked-home.png"), fullPage: true });
});

test("a wrong password on the linking screen says so and links nothing", async ({ page }) => {
  const shop = uniqueShop("e2e-link-wrong");
  await insertOfflineSession(shop);
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);
  await page.goto(adminUrl(shop, token));
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));

  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill("not-the-demo-password");
  await page.getByRole("button", { name: "Sign in and link store" }).click();

  await expect(page.getByText("That e-mail and password don't match an account.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Link this store to Winning Products" })).toBeVisible();
  expect(await linkedEmail(shop)).toBeNull();
});

test("a linked shop manages theme tokens on Stores & themes, and a storefront can use the token (CORS through the real server)", async ({
  page,
}, testInfo) => {
  const { shop } = await openLinkedShop(page, "/app/stores", "e2e-themes");
  await expect(page.getByRole("heading", { name: "Stores & themes" })).toBeVisible();
  await expect(page.getByRole("heading", { name: shop })).toBeVisible();

  const storefront = "https://e2e-storefront.example.com";
  await page.getByLabel("Theme ID").fill("424242");
  await page.getByLabel("Store").selectOption(shop);
  await page.getByLabel("Allowed origins").fill(storefront);
  await page.getByLabel("Message shown by the block (optional)").fill("Ships within 24 hours");
  await page.getByRole("button", { name: "Create token" }).click();

  // Shown once, then listed without it.
  const field = page.getByLabel("Theme token");
  await expect(field).toHaveValue(/^wpt_[A-Za-z0-9_-]{43}$/);
  const authToken = await field.inputValue();
  await expect(page.getByRole("table").getByText("424242", { exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("stores-and-themes.png"), fullPage: true });

  // The theme's calls, as a browser on the storefront makes them.
  const licenceUrl = `${E2E_BASE_URL}/api/theme/license?themeId=424242`;
  const preflight = await page.request.fetch(licenceUrl, {
    method: "OPTIONS",
    headers: {
      origin: storefront,
      "access-control-request-method": "GET",
      "access-control-request-headers": "authorization",
    },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()["access-control-allow-origin"]).toBe(storefront);
  const allowed = await page.request.get(licenceUrl, {
    headers: { origin: storefront, authorization: `Bearer ${authToken}` },
  });
  expect(allowed.status()).toBe(200);
  expect(await allowed.json()).toEqual({
    valid: true,
    store: shop,
    version: "1.0.0",
    message: "Ships within 24 hours",
  });
  expect(allowed.headers()["access-control-allow-origin"]).toBe(storefront);
  const elsewhere = await page.request.get(licenceUrl, {
    headers: { origin: "https://copycat.example.com", authorization: `Bearer ${authToken}` },
  });
  expect(elsewhere.status()).toBe(403);
  expect(elsewhere.headers()["access-control-allow-origin"]).toBeUndefined();

  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No theme tokens yet.")).toBeVisible();
  expect(
    (
      await page.request.get(licenceUrl, { headers: { origin: storefront, authorization: `Bearer ${authToken}` } })
    ).status(),
  ).toBe(403);
});

test("the website shows the same stores: Zendrop toggled, and a linked store disconnected", async ({ page }) => {
  const email = uniqueEmail("e2e-stores");
  await open(page, "/signup");
  await submitSignup(page, email);
  await page.waitForURL(/\/choose-plan/);
  const shop = uniqueShop("e2e-site");
  await insertOfflineSession(shop);
  await linkShopTo(shop, email);

  await open(page, "/dashboard/stores");
  await expect(page.getByRole("heading", { name: shop })).toBeVisible();

  await page.getByLabel("Zendrop connected").check();
  await expect(page.getByLabel("Zendrop connected")).toBeEnabled();
  await reload(page);
  await expect(page.getByLabel("Zendrop connected")).toBeChecked();

  const store = page.getByRole("group", { name: shop });
  await store.getByRole("button", { name: "Disconnect", exact: true }).click();
  await store.getByRole("button", { name: `Disconnect ${shop}` }).click();
  await expect(store.getByText(/Open the app in this store's Shopify admin to link it again/)).toBeVisible();
  expect(await linkedEmail(shop)).toBeNull();
});
