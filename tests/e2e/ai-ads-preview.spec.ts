// The free preview render (docs/decisions/036) in the browser: a subscriber with no AI ad credits writes a
// script, makes the free preview, watches its progress, plays the small video marked "Preview", sees the
// allowance go down and the preview go out of date after an edit; inside Shopify admin the preview plays
// from a signed link. Screenshots at desktop and phone width.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { giveSubscription, open, reload, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

test.beforeAll(async () => {
  await insertProducts();
});

/** The <video>'s metadata once the browser has loaded it from the video route. */
function metadata(video: Locator) {
  return video.evaluate(
    (el: HTMLVideoElement) =>
      new Promise<{ duration: number; width: number; height: number; src: string }>((resolve, reject) => {
        const done = () => resolve({ duration: el.duration, width: el.videoWidth, height: el.videoHeight, src: el.currentSrc || el.src });
        if (el.readyState >= 1) return done();
        el.addEventListener("loadedmetadata", done, { once: true });
        el.addEventListener("error", () => reject(new Error(`video error ${el.error?.code}`)), { once: true });
        el.load();
      }),
  );
}

/** Asks for a preview and waits for the new one's video (a different file from any shown before). */
async function makePreview(page: Page) {
  const video = page.getByLabel(/^Free preview of /);
  const before = (await video.count()) > 0 ? await video.getAttribute("src") : null;
  await page.getByRole("button", { name: "Preview video (free)" }).click();
  await expect
    .poll(async () => {
      const src = (await video.count()) > 0 ? await video.getAttribute("src") : null;
      return src !== null && src !== before;
    }, { timeout: 90_000 })
    .toBe(true);
  await expect(video).toBeVisible();
  return video;
}

test("a subscriber with no credits previews an ad for free, then sees the preview go out of date after an edit", async ({ page }) => {
  test.setTimeout(150_000);
  const email = uniqueEmail("ad-preview");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  await open(page, `/dashboard/ai-ads?product=${PRODUCTS[2].objectID}`);
  await page.getByRole("button", { name: "Write the ad script" }).click();
  await expect(page).toHaveURL(/\/dashboard\/ai-ads\?ad=\d+$/);
  await expect(page.getByText("30 of 30 free previews left today")).toBeVisible();

  await page.getByRole("button", { name: "Preview video (free)" }).click();
  await expect(page.getByText(/^Making the free preview \d+%$/)).toBeVisible();
  const video = page.getByLabel(/^Free preview of /);
  await expect(video).toBeVisible({ timeout: 90_000 });
  const media = await metadata(video);
  expect([media.width, media.height]).toEqual([540, 960]);
  expect(media.duration).toBeGreaterThanOrEqual(12);
  expect(media.src).toMatch(/\/ai-ads\/videos\/\d+-preview\.mp4\?v=\d+$/);
  await expect(page.getByText("The preview shows the saved script. 29 of 30 free previews left today")).toBeVisible();
  // It shows the saved script already: asking again would make the same video.
  await expect(page.getByRole("button", { name: "Preview video (free)" })).toBeDisabled();
  // No download for the preview; the full render still costs its credits.
  await expect(page.getByRole("link", { name: "Download MP4" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Render video (5 credits)" })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/screenshots/ai-ads-preview-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/ai-ads-preview-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // An edit saved: the preview says it is of an earlier version, and a new one can be made.
  await page.getByLabel("Scene 1 text").fill("Your desk, after dark");
  await page.getByRole("button", { name: "Save script" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByText(/This preview shows an earlier version of the script/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Preview video (free)" })).toBeEnabled();
  await makePreview(page);
  await expect(page.getByText(/This preview shows an earlier version/)).toHaveCount(0);
  await expect(page.getByText("28 of 30 free previews left today")).toBeVisible();

  const api = await page.request.get("/api/ai-ads");
  const body = (await api.json()) as { balance: number; ads: { status: string; previewVideo: { status: string; current: boolean } }[] };
  expect(body.balance).toBe(0);
  expect(body.ads[0]).toMatchObject({ status: "preview", previewVideo: { status: "completed", current: true } });
});

test("inside Shopify admin the free preview plays from its signed link", async ({ page }) => {
  test.setTimeout(150_000);
  const { email } = await openLinkedShop(page, `/app/ai-ads?product=${PRODUCTS[3].objectID}`, "e2e-ad-preview");
  await giveSubscription(email);
  await reload(page);
  await page.getByRole("button", { name: "Write the ad script" }).click();
  await expect(page).toHaveURL(/\/app\/ai-ads\?.*ad=\d+/);
  const video = await makePreview(page);
  const media = await metadata(video);
  expect(media.src).toMatch(/\/ai-ads\/videos\/\d+-preview\.mp4\?v=\d+&expires=\d+&sig=[\w-]+$/);
  expect([media.width, media.height]).toEqual([540, 960]);
  // Without its signature the same file is refused to a request with no session.
  const bare = await page.context().request.fetch(media.src.replace(/\?.*$/, ""), { headers: { cookie: "" } });
  expect(bare.status()).toBe(401);
});
