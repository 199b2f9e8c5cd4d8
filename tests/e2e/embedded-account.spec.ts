// The embedded app's account pages as Shopify admin frames them (a real session token, App Bridge's
// script stood in for): a linked merchant follows the course, sees the plan and credits, buys a plan in
// a new tab that lands signed in on the site's checkout (Paddle's overlay cannot run in the admin's
// iframe), comes back to see it, and toggles Zendrop in Settings. Screenshots go to
// test-results/screenshots/embedded-*.png.
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { openEmbedded, openLinkedShop } from "./support/shopify-admin";

const SCREENSHOTS = "test-results/screenshots";

/** A linked shop's embedded page, opened again (a full load, as the admin does). */
async function reopen(page: Page, shop: string, token: string, path: string) {
  const response = await openEmbedded(page, shop, token, path);
  expect(response?.status()).toBe(200);
}

/** The balance the "Credits" card shows for a feature label. */
async function balanceOf(page: Page, label: string): Promise<string> {
  const card = page.getByRole("heading", { name: "Credits", exact: true }).locator("xpath=ancestor::*[.//table][1]");
  const row = card.getByRole("row").filter({ has: page.getByRole("rowheader", { name: label, exact: true }) });
  await expect(row).toHaveCount(1);
  return (await row.getByRole("cell").first().innerText()).trim();
}

test("a linked merchant opens the course, marks a lesson done and sees the progress on the course and the home page", async ({
  page,
}) => {
  const { shop, token } = await openLinkedShop(page, "/app/course", "e2e-course");

  await expect(page.getByRole("heading", { level: 1, name: "Course" })).toBeVisible();
  await expect(page.getByTestId("course-progress").first()).toHaveText("0 of 78 lessons · 0%");
  await expect(page.getByRole("link", { name: /^Lesson \d+: / })).toHaveCount(78);

  await page.getByRole("link", { name: "Lesson 1: How dropshipping actually works", exact: true }).click();
  await expect(page).toHaveURL(/\/app\/course\/1$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Lesson 1: How dropshipping actually works" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Mark as done" }).click();
  await expect(page.getByText("You marked this lesson as done.")).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-lesson.png`, fullPage: true });

  // Back to the course: the tick and the progress.
  await page.getByRole("link", { name: "Course", exact: true }).first().click();
  await expect(page).toHaveURL(/\/app\/course$/);
  await expect(page.getByTestId("course-progress").first()).toHaveText("1 of 78 lessons · 1.3%");
  await expect(page.locator('[data-lesson="1"]')).toHaveAttribute("data-completed", "true");
  await expect(page.getByRole("heading", { name: "Continue where you left off" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-course.png`, fullPage: true });

  // A lesson's "try it" link stays inside the embedded app.
  await reopen(page, shop, token, "/app/course/31");
  const tryIt = page
    .getByRole("heading", { name: "Try it now" })
    .locator("xpath=ancestor::*[.//a][1]")
    .getByRole("link");
  await expect(tryIt).toHaveAttribute("href", "/app/products?sort=margin&minMargin=55");

  // The home page continues where the merchant left off (lesson 31 was opened last).
  await reopen(page, shop, token, "/app");
  await expect(page.getByRole("heading", { name: `Connected to ${shop}` })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Continue where you left off" })).toBeVisible();
  await expect(page.getByText(/^You were reading lesson 31,/)).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");
  await expect(page.getByRole("heading", { name: "Everything in the app" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-home.png`, fullPage: true });
});

test("Billing & credits shows the plan and credits; buying opens a new, signed-in tab on the checkout, and the admin page shows the result", async ({
  page,
  browser,
}) => {
  const { email } = await openLinkedShop(page, "/app/billing", "e2e-billing");

  await expect(page.getByRole("heading", { level: 1, name: "Billing & credits" })).toBeVisible();
  await expect(page.getByText("No subscription yet.")).toBeVisible();
  expect(await balanceOf(page, "AI video ads")).toBe("0");
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-billing.png`, fullPage: true });

  // Buying: the tab opens inside the click, then goes to the one-time sign-in link.
  const linkMade = page.waitForResponse((r) => r.url().endsWith("/app/handoff") && r.request().method() === "POST");
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "Start Pro free trial" }).click(),
  ]);
  const { url: handoffUrl } = (await (await linkMade).json()) as { url: string };
  expect(new URL(handoffUrl).pathname).toBe("/auth/handoff");

  await tab.waitForURL(/\/pay\?plan=pro&billing=monthly$/);
  await tab.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
  await expect(tab.getByRole("heading", { name: "Pro", exact: true })).toBeVisible();
  await expect(tab.getByText(`Account: ${email}`)).toBeVisible();
  await tab.screenshot({ path: `${SCREENSHOTS}/embedded-handoff-pay.png`, fullPage: true });

  // The merchant is told what happened.
  await expect(page.getByText("The Pro checkout opened in a new tab")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-billing-tab-opened.png`, fullPage: true });

  // Paying in the new tab (the local test checkout), then back in the admin.
  await tab.getByRole("button", { name: "Start free trial (test)" }).click();
  await tab.waitForURL(/\/dashboard\?location=dashboard&checkout=success$/);
  await tab.close();

  await page.getByRole("button", { name: "I'm done, refresh this page" }).click();
  await expect(page.getByText("The Pro checkout opened in a new tab")).toHaveCount(0);
  await expect(page.getByText("Free trial", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Trial ends \d{4}-\d{2}-\d{2}; the first charge is on that day\.$/)).toBeVisible();
  await expect.poll(() => balanceOf(page, "AI video ads")).toBe("10");
  expect(await balanceOf(page, "Automatic mode")).toBe("8");
  await expect(page.getByRole("button", { name: "Upgrade to Inner Circle" })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-billing-after.png`, fullPage: true });

  // The link worked once: opened again (in a browser without the new session), it is refused plainly.
  const stranger = await browser.newContext();
  try {
    const again = await stranger.newPage();
    const response = await again.goto(handoffUrl);
    expect(response?.status()).toBe(401);
    await expect(again.getByRole("heading", { name: "This sign-in link was already used" })).toBeVisible();
    await again.screenshot({ path: `${SCREENSHOTS}/embedded-handoff-used.png`, fullPage: true });
    await expect(again.getByText(email)).toHaveCount(0);
  } finally {
    await stranger.close();
  }
});

test("Settings shows the linked account and this store, and toggles Zendrop", async ({ page }) => {
  const { shop, email, token } = await openLinkedShop(page, "/app/settings", "e2e-settings");

  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByText("Plan: No plan yet")).toBeVisible();
  await expect(page.getByText(`${shop} is linked to ${email}`, { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unlink this store" })).toBeVisible();
  await expect(page.getByText("The community's invite is not available yet: it will appear here as soon as it is.")).toBeVisible();

  const zendrop = page.getByLabel("Zendrop connected");
  await expect(zendrop).not.toBeChecked();
  await zendrop.check();
  await expect(zendrop).toBeEnabled();
  await expect(zendrop).toBeChecked();
  await page.screenshot({ path: `${SCREENSHOTS}/embedded-settings.png`, fullPage: true });

  // Stored on the account: a fresh load shows it, and so does Stores & themes.
  await reopen(page, shop, token, "/app/settings");
  await expect(page.getByLabel("Zendrop connected")).toBeChecked();
  await reopen(page, shop, token, "/app/stores");
  await expect(page.getByLabel("Zendrop connected")).toBeChecked();
});
