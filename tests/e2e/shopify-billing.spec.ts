// Shopify Billing inside the embedded app (docs/decisions/034), with the server on SHOPIFY_BILLING=on
// (`npm test` runs it in a second Playwright pass with E2E_SHOPIFY_BILLING=on; playwright.config.ts passes it on
// and runs only this spec then): a linked merchant picks Pro on
// /app/billing, the admin's top frame goes to Shopify's confirmation page (served by the local Admin
// GraphQL server), the merchant approves and Shopify admin frames the app again at /app/billing?charge_id=,
// where the plan and its credits show; the website shows the same plan and credits, managed in Shopify
// admin. Screenshots go to test-results/screenshots/shopify-billing-*.png.
import type { Page } from "@playwright/test";
import { startFakeAdminGraphql, type FakeAdminGraphql } from "../helpers/fake-admin-graphql";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { insertOfflineSession, open, submitSignup, uniqueEmail } from "./support/app";
import { E2E_BASE_URL, E2E_FAKE_ADMIN_PORT } from "./support/constants";
import { adminUrl, linkShopTo, openEmbedded, stubShopifyAdmin } from "./support/shopify-admin";
import { expect, test } from "./support/test";

const SCREENSHOTS = "test-results/screenshots";

let admin: FakeAdminGraphql;
test.beforeAll(async () => {
  admin = await startFakeAdminGraphql({ port: E2E_FAKE_ADMIN_PORT, acceptToken: (t) => t.startsWith("shpat_") });
});
test.afterAll(async () => {
  await admin?.close();
});

/** The balance the "Credits" card shows for a feature label. */
async function balanceOf(page: Page, label: string): Promise<string> {
  const card = page.getByRole("heading", { name: "Credits", exact: true }).locator("xpath=ancestor::*[.//table][1]");
  const row = card.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  await expect(row).toHaveCount(1);
  return (await row.getByRole("cell").first().innerText()).trim();
}

test("a merchant subscribes to Pro through Shopify from /app/billing and sees the plan and credits in the admin and on the website", async ({
  page,
}) => {
  // A site account (signed in in this browser) whose store has the app installed and is linked to it.
  const email = uniqueEmail("e2e-shopify-billing");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  const shop = uniqueShop("e2e-sb");
  await insertOfflineSession(shop);
  await linkShopTo(shop, email);
  const token = await signSessionToken({ shop, ttlSeconds: 600 });
  await stubShopifyAdmin(page, shop, token);
  // Shopify's confirmation page (the local server), and Shopify admin framing the app again at the return URL.
  await page.route(`http://127.0.0.1:${E2E_FAKE_ADMIN_PORT}/**`, (route) => route.continue());
  await page.route("https://admin.shopify.com/**", async (route) => {
    const back = new URL(route.request().url());
    const path = back.pathname.replace(/^\/store\/[^/]+\/apps\/[^/]+/, "");
    await route.fulfill({ status: 302, headers: { location: `${E2E_BASE_URL}${adminUrl(shop, token, `${path}${back.search}`)}` } });
  });

  await openEmbedded(page, shop, token, "/app/billing");
  await expect(page.getByText("No subscription yet.")).toBeVisible();
  await expect(page.getByText(/billed on your Shopify invoice/).first()).toBeVisible();
  // Nothing in the admin leads to Paddle: no Inner Circle checkout, no hand-off to the site.
  await expect(page.getByRole("button", { name: /Inner Circle/ })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/shopify-billing-plans.png`, fullPage: true });

  await page.getByRole("button", { name: "Start Pro free trial" }).click();
  await expect(page).toHaveURL(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_FAKE_ADMIN_PORT}/admin/charges/subscription/\\d+/confirm$`));
  await expect(page.getByRole("heading", { name: "Winning Products Pro" })).toBeVisible();
  await expect(page.getByText("39.99 USD every 30 days")).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page).toHaveURL(/\/app\/billing\?charge_id=\d+/);
  await expect(page.getByTestId("shopify-billing-notice")).toHaveText("Your plan is on. It is billed on your Shopify invoice.");
  await expect(page.getByText("Pro", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Free trial", { exact: true })).toBeVisible();
  expect(await balanceOf(page, "AI video ads")).toBe("10");
  // The other plan is offered as a change through Shopify; there is no card form and no retention offer.
  await expect(page.getByRole("button", { name: "Switch to Basic" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Update payment method" })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}/shopify-billing-admin.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/shopify-billing-admin-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The website: the same plan and credits, managed in Shopify admin, with no Paddle checkout.
  await open(page, "/dashboard/billing");
  await expect(page.getByTestId("plan-managed-where")).toHaveText(`This plan is billed through Shopify (${shop}) and managed in Shopify admin.`);
  await expect(page.getByRole("link", { name: "Manage in Shopify admin" })).toHaveAttribute(
    "href",
    `https://admin.shopify.com/store/${shop.replace(".myshopify.com", "")}/apps/test-api-key/app/billing`,
  );
  await expect(page.getByRole("button", { name: "Update payment method" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Choose a plan" })).toHaveCount(0);
  expect(await balanceOf(page, "AI video ads")).toBe("10");
  await page.screenshot({ path: `${SCREENSHOTS}/shopify-billing-site.png`, fullPage: true });
});
