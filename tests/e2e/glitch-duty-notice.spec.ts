// Glitch mode says what its duty assumes once per page, not once per row (issue 35 item 14, decision 081): the day the
// layers are figured for and the table's revision, and which layers ended and are not counted, in one notice at the
// top, on the site and inside Shopify admin, at 1280 and 390 px. The page's height is printed (the phone page was
// 11,700 px tall when every greyed row repeated the lapsed-layer warning).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { giveSubscription, open, signUpPaid, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

test.beforeAll(async () => {
  await insertProducts();
});

async function pageHeight(page: Page, label: string): Promise<number> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`glitch page height (${label}): ${height} px`);
  return height;
}

/** One notice with the as-of day and the revision; no row repeats a duty warning. */
async function expectOneNotice(page: Page) {
  await expect(page.getByRole("heading", { name: "Glitch mode", level: 1 })).toBeVisible();
  await expect(page.getByTestId("duty-notice")).toHaveCount(1);
  await expect(page.getByTestId("duty-notice")).toContainText(/Duty as of \d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("duty-notice")).toContainText("2026 HTS Revision 20");
  // The ended layer is named there, and nowhere else on the page: no row counts it or repeats it.
  await expect(page.getByTestId("duty-notice")).toContainText("Not counted, because their validity ended: Section 122 temporary import surcharge 10% (ended 2026-07-24)");
  await expect(page.getByText(/Section 122/)).toHaveCount(1);
  await expect(page.getByText(/expired|still counted/)).toHaveCount(0);
}

test("the site's glitch page carries one duty notice at 1280 px", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpPaid(page, "duty-notice");
  await open(page, "/dashboard/glitch-mode");
  await pageHeight(page, "site 1280");
  await page.screenshot({ path: "test-results/screenshots/glitch-duty-notice-1280.png", fullPage: true });
  await expectOneNotice(page);
});

test("inside Shopify admin the glitch page carries one duty notice", async ({ page }) => {
  test.setTimeout(120_000);
  const { email } = await openLinkedShop(page, "/app/glitch-mode", "e2e-duty-notice");
  await giveSubscription(email);
  await page.reload();
  await pageHeight(page, "embedded 1280");
  await page.screenshot({ path: "test-results/screenshots/glitch-duty-notice-embedded-1280.png", fullPage: true });
  await expectOneNotice(page);
});

/** A new subscriber on the site's glitch page (signed up on this page's viewport, paid by the database). */
async function openAsNewSubscriber(page: Page, label: string) {
  const email = uniqueEmail(label);
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);
  await open(page, "/dashboard/glitch-mode");
}

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("the phone glitch page carries one duty notice and no row repeats it", async ({ page }) => {
    test.setTimeout(120_000);
    await openAsNewSubscriber(page, "duty-notice-phone");
    await pageHeight(page, "site 390");
    await page.screenshot({ path: "test-results/screenshots/glitch-duty-notice-390.png", fullPage: true });
    await expectOneNotice(page);
    // Not in a card: it keeps the page title's margin instead of touching the screen's edge.
    const text = await page.getByTestId("duty-notice").locator("p").boundingBox();
    expect(text!.x).toBeGreaterThanOrEqual(12);
    expect(text!.x + text!.width).toBeLessThanOrEqual(390 - 12);
  });

  test("the phone glitch page is one a seller can scroll: qualifying products first, the others counted and closed", async ({ page }) => {
    test.setTimeout(120_000);
    await openAsNewSubscriber(page, "glitch-phone-length");
    await expect(page.getByRole("heading", { name: "Glitch mode", level: 1 })).toBeVisible();
    // It was 11,058 px tall with every product that no longer qualifies laid out with its figures (decision 092).
    expect(await pageHeight(page, "site 390, no-longer list closed")).toBeLessThan(4000);
    await page.screenshot({ path: "test-results/screenshots/glitch-phone-390.png", fullPage: true });
    // The qualifying list comes before the products that no longer qualify, whose count and reason are said.
    const qualifying = page.getByRole("list", { name: "Qualifying products, ranked by spread" });
    const heading = page.getByRole("heading", { name: /^No longer qualifies after duty: [\d,]+ products?$/ });
    await expect(qualifying.getByRole("listitem")).toHaveCount(12);
    expect((await qualifying.boundingBox())!.y).toBeLessThan((await heading.boundingBox())!.y);
    // Closed: no row shows until the seller asks, then each says why in a sentence, its figures one tap further.
    const rows = page.getByTestId("glitch-no-longer");
    await expect(rows.first()).toBeHidden();
    await page.getByTestId("glitch-no-longer-list").locator("summary").first().click();
    await expect(rows).toHaveCount(24);
    await expect(rows.first()).toBeVisible();
    await expect(rows.first().getByText(/^Spread after duty and fees -?[\d.]+% \([\d.]+% before\) — below the 20% glitch threshold/)).toBeVisible();
    await expect(rows.first().getByTestId("landed-cost-duty")).toBeHidden();
    await rows.first().getByText("How it was figured").click();
    await expect(rows.first().getByTestId("landed-cost-duty")).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/glitch-phone-390-opened.png", fullPage: true });
    // Still one duty notice with everything open.
    await expect(page.getByTestId("duty-notice")).toHaveCount(1);
    await expect(page.getByText(/Section 122/)).toHaveCount(1);
  });
});
