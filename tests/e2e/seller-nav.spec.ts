// Finding your way (issue 25, items 5-8), at 1280 px and at 390 px: the phone's menu drawer closes after a
// tap and leaves the bell usable; every notification is a link that opens what it is about on the surface
// it was opened from and is marked read; the product grid has no prohibited ARIA attribute and its
// headings go in order (axe-core); two cards a row on a phone, removable filter chips on a desktop; the
// billing page switches plans and sells credit packs, and offers the trial extension only on the way out.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { signSessionToken, uniqueShop } from "../helpers/shopify";
import { e2eDb, giveSubscription, insertOfflineSession, open, signUpPaid, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS, WORD } from "./support/products";
import { adminUrl, createSiteUser, linkShopTo, stubShopifyAdmin } from "./support/shopify-admin";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Screenshots for a person to look at, kept out of the repository. */
const SHOTS = process.env.SELLER_NAV_SHOTS ?? "test-results/screenshots";

test.beforeAll(async () => {
  await insertProducts();
});


/** Writes notifications for the account with this e-mail, as the alert jobs write them; returns their ids by kind. */
async function notify(email: string, items: { kind: string; title: string; url: string }[]) {
  const db = e2eDb();
  try {
    const user = await db.execute({ sql: `SELECT "id" FROM "User" WHERE "email" = ?`, args: [email] });
    const userId = String(user.rows[0][0]);
    const ids: Record<string, number> = {};
    for (const [i, n] of items.entries()) {
      const row = await db.execute({
        sql: `INSERT INTO "Notification" ("userId","kind","title","body","url","dedupeKey") VALUES (?, ?, ?, ?, ?, ?) RETURNING "id"`,
        args: [userId, n.kind, n.title, `${n.title}: body`, n.url, `e2e:${i}:${n.kind}`],
      });
      ids[n.kind] = Number(row.rows[0][0]);
    }
    return ids;
  } finally {
    db.close();
  }
}

async function readAt(id: number) {
  const db = e2eDb();
  try {
    return (await db.execute({ sql: `SELECT "readAt" FROM "Notification" WHERE "id" = ?`, args: [id] })).rows[0][0];
  } finally {
    db.close();
  }
}

const NOTIFICATIONS = (store: string) => [
  { kind: "competitor.launch", title: "Rival launched 1 new product", url: "/dashboard/competitors/999999#launches" },
  { kind: "product-drop", title: "New product drop: 10 products", url: "/dashboard/drops" },
  { kind: "saved-search.new-products", title: `New products for ${store}`, url: `/dashboard/products?q=${WORD}&savedSearch=1` },
];

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's violations of the given rules on the page as it is. */
async function axeViolations(page: Page, rules: string[]) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "rule", values: only } });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html) }));
  }, rules);
}

test.describe("at phone width (390 px)", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test("the menu drawer closes after a tap on a link, and the bell works afterwards", async ({ page }) => {
    const email = await signUpPaid(page, "phone-menu");
    await notify(email, NOTIFICATIONS("phone"));
    await open(page, "/dashboard?location=dashboard");
    await page.getByRole("button", { name: "Toggle menu" }).click();
    const drawer = page.locator("#AppFrameNav");
    await expect(drawer.getByRole("link", { name: "Saved" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/seller-nav-menu-open-390.png` });
    await drawer.getByRole("link", { name: "Saved" }).tap();
    await expect(page).toHaveURL(/\/dashboard\/saved$/);
    await expect(drawer.getByRole("link", { name: "Saved" })).toBeHidden();
    // Nothing covers the page: the bell opens on the first tap.
    await page.getByRole("button", { name: /^Notifications/ }).tap();
    await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/seller-nav-bell-390.png` });

    // A tap on the page already open closes the drawer too.
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Toggle menu" }).click();
    await drawer.getByRole("link", { name: "Saved" }).tap();
    await expect(drawer.getByRole("link", { name: "Saved" })).toBeHidden();
  });

  test("a notification opens its page and is marked read", async ({ page }) => {
    const email = await signUpPaid(page, "phone-bell");
    const ids = await notify(email, NOTIFICATIONS("phone"));
    await open(page, "/dashboard?location=dashboard");
    await page.getByRole("button", { name: "Notifications, 3 unread" }).tap();
    await page.getByRole("link", { name: /New product drop: 10 products/ }).tap();
    await expect(page).toHaveURL(/\/dashboard\/drops$/);
    await expect(page.getByRole("button", { name: "Notifications, 2 unread" })).toBeVisible();
    expect(await readAt(ids["product-drop"])).not.toBeNull();
    expect(await readAt(ids["competitor.launch"])).toBeNull();
  });

  test("the grid: two cards a row; a product page puts Why it scores before the forms", async ({ page }) => {
    await signUpPaid(page, "phone-grid2");
    await open(page, `/dashboard/products?q=${WORD}`);
    await expect(page.getByText("4 products", { exact: true })).toBeVisible();
    const first = await page.getByRole("link", { name: PRODUCTS[0].title }).boundingBox();
    const second = await page.getByRole("link", { name: PRODUCTS[1].title }).boundingBox();
    expect(Math.abs(first!.y - second!.y)).toBeLessThan(4);
    expect(second!.x).toBeGreaterThan(first!.x + 100);
    await page.screenshot({ path: `${SHOTS}/seller-nav-grid-390.png` });

    await page.getByRole("link", { name: PRODUCTS[0].title }).click();
    const why = await page.getByRole("heading", { name: /^Why it scores/ }).boundingBox();
    const form = await page.getByRole("button", { name: "Create product page" }).boundingBox();
    expect(why!.y).toBeLessThan(form!.y);
    expect(why!.y).toBeLessThan(1100);
    await page.screenshot({ path: `${SHOTS}/seller-nav-product-390.png`, fullPage: true });
  });
});

test.describe("at desktop width (1280 px)", () => {
  test.use({ viewport: DESKTOP });

  test("notifications are links to their pages on the site, marked read on open", async ({ page }) => {
    const email = await signUpPaid(page, "desk-bell");
    const ids = await notify(email, NOTIFICATIONS("desk"));
    await open(page, "/dashboard?location=dashboard");
    await page.getByRole("button", { name: "Notifications, 3 unread" }).click();
    const link = page.getByRole("link", { name: /New products for desk/ });
    await expect(link).toHaveAttribute("href", `/dashboard/notifications/${ids["saved-search.new-products"]}`);
    await page.screenshot({ path: `${SHOTS}/seller-nav-bell-1280.png` });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/products\\?q=${WORD}&savedSearch=1$`));
    await expect(page.getByRole("button", { name: "Notifications, 2 unread" })).toBeVisible();
    expect(await readAt(ids["saved-search.new-products"])).not.toBeNull();
  });

  test("inside Shopify admin a notification opens the embedded page, not the site's", async ({ page }) => {
    const shop = uniqueShop("e2e-bell");
    const email = uniqueEmail("embedded-bell");
    await createSiteUser(email);
    await giveSubscription(email);
    await insertOfflineSession(shop);
    await linkShopTo(shop, email);
    const ids = await notify(email, NOTIFICATIONS("embedded"));
    const token = await signSessionToken({ shop, ttlSeconds: 600 });
    await stubShopifyAdmin(page, shop, token);
    await page.goto(adminUrl(shop, token, "/app"));
    await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
    await page.getByRole("button", { name: "Notifications, 3 unread" }).click();
    await page.getByRole("link", { name: /New product drop: 10 products/ }).click();
    await expect(page).toHaveURL(/\/app\/drops(\?|$)/);
    await expect(page.getByRole("button", { name: "Notifications, 2 unread" })).toBeVisible();
    expect(await readAt(ids["product-drop"])).not.toBeNull();
  });

  test("the grid: no prohibited ARIA attribute, headings in order, removable filter chips", async ({ page }) => {
    await signUpPaid(page, "desk-grid");
    await open(page, `/dashboard/products?q=${WORD}&maxPrice=30&niche=${encodeURIComponent(PRODUCTS[0].niche)}`);
    await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
    expect(await axeViolations(page, ["aria-prohibited-attr", "heading-order"])).toEqual([]);
    // The applied niche is shown ticked, first in the list, and the list is not a scroll box.
    const niches = page.getByRole("group", { name: "Niches" });
    await expect(niches.getByRole("checkbox").first()).toHaveAccessibleName("Fitness");
    await expect(niches.getByRole("checkbox", { name: "Fitness" })).toBeChecked();
    expect(await niches.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await expect(page.getByRole("button", { name: /^Show all \d+ niches$/ })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/seller-nav-grid-1280.png`, fullPage: true });
    await page.getByRole("button", { name: /Remove Price ≤ \$30/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/products\?q=[^&]+&niche=/);
    await expect(page.getByRole("button", { name: /Remove Price/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Remove Niche:/ })).toBeVisible();

    // A product's page at this width: the pictures and the forms beside the evidence.
    await page.getByRole("link", { name: PRODUCTS[0].title }).click();
    const why = await page.getByRole("heading", { name: /^Why it scores/ }).boundingBox();
    const form = await page.getByRole("button", { name: "Create product page" }).boundingBox();
    expect(why!.x).toBeGreaterThan(form!.x + 100);
    await page.screenshot({ path: `${SHOTS}/seller-nav-product-1280.png`, fullPage: true });
  });

  test("links inside the app move between pages without reloading the document (AppLink, decision 072)", async ({ page }) => {
    await signUpPaid(page, "desk-links");
    await open(page, `/dashboard/products?q=${WORD}`);
    await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
    // A document load would lose this; a navigation inside the app keeps it.
    await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
    const sameDocument = () => page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument === true);
    const entries = () => page.evaluate(() => history.length);

    // A card's title (Polaris's Link through the provider's link component).
    await page.getByRole("link", { name: PRODUCTS[0].title }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/products/${PRODUCTS[0].objectID}$`));
    await expect(page.getByRole("heading", { name: /^Why it scores/ })).toBeVisible();
    expect(await sameDocument()).toBe(true);

    // The navigation (our own markup), then the link to the page already open: no second history entry.
    await page.getByRole("navigation").getByRole("link", { name: "Saved" }).click();
    await expect(page).toHaveURL(/\/dashboard\/saved$/);
    const before = await entries();
    await page.getByRole("navigation").getByRole("link", { name: "Saved" }).click();
    await expect(page).toHaveURL(/\/dashboard\/saved$/);
    expect(await entries()).toBe(before);
    expect(await sameDocument()).toBe(true);

    // Back returns to the product, still in the same document.
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/dashboard/products/${PRODUCTS[0].objectID}$`));
    expect(await sameDocument()).toBe(true);

    // A click with a modifier is the browser's (a new tab), not the app's: this page stays where it is.
    const [opened] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("navigation").getByRole("link", { name: "Course" }).click({ modifiers: ["ControlOrMeta"] }),
    ]);
    await opened.close();
    await expect(page).toHaveURL(new RegExp(`/dashboard/products/${PRODUCTS[0].objectID}$`));
  });

  test("billing: Basic <-> Pro, a credit pack, and the trial extension only on the way out", async ({ page }) => {
    await open(page, "/signup?plan=basic&billing=monthly");
    await submitSignup(page, uniqueEmail("desk-billing"));
    await expect(page).toHaveURL(/\/pay\?plan=basic&billing=monthly$/);
    await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter));
    await page.getByRole("button", { name: "Start free trial (test)" }).click();
    await expect(page).toHaveURL(/checkout=success/);
    await open(page, "/dashboard/billing");
    await expect(page.getByRole("button", { name: /Extend my trial/ })).toHaveCount(0);
    // A switch asks again before it happens (issue 35): "Keep my plan" changes nothing.
    await page.getByRole("button", { name: "Switch to Pro" }).click();
    await expect(page.getByText("Switch to Pro now?")).toBeVisible();
    await page.getByRole("button", { name: "Keep my plan" }).click();
    await expect(page.getByText("Switch to Pro now?")).toHaveCount(0);
    await expect(page.getByText(/You are on Pro now/)).toHaveCount(0);
    await page.getByRole("button", { name: "Switch to Pro" }).click();
    await page.getByRole("button", { name: "Yes, switch to Pro" }).click();
    await expect(page.getByText("You are on Pro now. Your trial goes on; the first charge is Pro's price.")).toBeVisible();
    await page.getByRole("button", { name: "50 AI ad credits · $14.99" }).click();
    await expect(page.getByText("50 AI ad credits added (test checkout).")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/seller-nav-billing-1280.png`, fullPage: true });
    await page.getByRole("link", { name: "Cancel subscription" }).click();
    await expect(page.getByTestId("trial-extension-offer")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/seller-nav-billing-cancel-1280.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SHOTS}/seller-nav-billing-cancel-390.png`, fullPage: true });
    await page.getByRole("button", { name: "Extend my trial by 7 days" }).click();
    await expect(page.getByText(/^Your trial now ends on \d{4}-\d{2}-\d{2}\.$/)).toBeVisible();
    await open(page, "/dashboard/billing?step=cancel");
    await expect(page.getByRole("button", { name: /Extend my trial/ })).toHaveCount(0);
  });
});
