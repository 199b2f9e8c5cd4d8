// The install path from the site to Shopify (docs/decisions/029), at desktop and phone width: a new seller
// with no store opens Stores & themes, reads how connecting works, types a wrong address and is told what
// to type instead, then types their store's name and lands on Shopify's install page for our app (stubbed
// here: the browser never leaves for the real Shopify). No setting's name is ever shown.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";
import { TEST_SHOPIFY_API_KEY } from "../helpers/test-env";

async function signUp(page: Page) {
  await open(page, "/signup");
  await submitSignup(page, uniqueEmail("install"));
  await expect(page).toHaveURL(/\/choose-plan$/);
}

for (const width of [1280, 390]) {
  test(`Stores & themes offers the way to install on Shopify at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await signUp(page);
    await open(page, "/dashboard/stores");

    const card = page.getByRole("region", { name: "Connect a Shopify store" });
    await expect(card).toBeVisible();
    await expect(page.getByText(/No store linked yet\. Connect one below/)).toBeVisible();
    // No install link is configured on this server: the address form only, no dead button.
    await expect(card.getByRole("link", { name: "Install on Shopify" })).toHaveCount(0);
    const address = card.getByLabel("Your store's address");
    await expect(address).toBeVisible();
    await expect(page.getByText(/APP_URL|SHOPIFY_|App Store/)).toHaveCount(0);

    // Nothing sticks out of a phone's screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await address.boundingBox();
    expect(box!.width).toBeGreaterThan(width === 390 ? 250 : 400);

    // A public domain is not the store's Shopify address: said in words, by the field.
    await address.fill("mystore.com");
    await card.getByRole("button", { name: "Continue to Shopify" }).click();
    await expect(card.getByText("Enter your store's myshopify.com address, not its public domain.", { exact: false })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/stores$/);
    await expect(address).toHaveValue("mystore.com");

    await address.fill("my store");
    await card.getByRole("button", { name: "Continue to Shopify" }).click();
    await expect(card.getByText(/That does not look like a Shopify store's address/)).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/stores-install-${width}.png`, fullPage: true });

    // A good address goes to Shopify's install page for our app.
    const installs: string[] = [];
    await page.route("https://admin.shopify.com/**", async (route) => {
      installs.push(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/html", body: "<title>Install app</title><h1>Shopify install (stub)</h1>" });
    });
    await address.fill(" E2E-Shop.myshopify.com ");
    await card.getByRole("button", { name: "Continue to Shopify" }).click();
    await expect(page.getByRole("heading", { name: "Shopify install (stub)" })).toBeVisible();
    const expected = `https://admin.shopify.com/store/e2e-shop/oauth/install?client_id=${TEST_SHOPIFY_API_KEY}`;
    expect(page.url()).toBe(expected);
    expect(installs).toEqual([expected]);
  });
}
