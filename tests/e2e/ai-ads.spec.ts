// AI video ads in the browser: a paid user opens a product, chooses "Create AI video ad", gets a
// script from the built-in writer, renders it (5 credits), watches the progress bar, and ends with a
// <video> that the browser can play (its metadata loads from the Range-capable video route).
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { giveSubscription, grantCredits, open, reload, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS } from "./support/products";
import { openLinkedShop } from "./support/shopify-admin";

const PRODUCT = PRODUCTS[1];

/**
 * Clicks "Download MP4" and checks what the browser saved: an MP4 (its first box, at offset 4, is
 * "ftyp") of the rendered size, while the page stays where it was (no client-side navigation to a
 * ".mp4.data" URL). Returns the saved file's name.
 */
async function downloadVideo(page: Page, bytes: number): Promise<string> {
  const before = page.url();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download MP4" }).click()]);
  expect(await download.failure()).toBeNull();
  const file = await readFile(await download.path());
  expect(file.subarray(4, 8).toString("latin1")).toBe("ftyp");
  expect(file.length).toBe(bytes);
  expect(page.url()).toBe(before);
  await expect(page.getByLabel(/^Video of /)).toBeVisible();
  return download.suggestedFilename();
}

test.beforeAll(async () => {
  await insertProducts();
});

test("a paid user makes an AI video ad from a product and plays it", async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("ads");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);
  await grantCredits(email, "ai-ads", 10);

  await open(page, `/dashboard/products/${PRODUCT.objectID}`);
  await page.getByRole("link", { name: "Create AI video ad" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/ai-ads\\?product=${PRODUCT.objectID}$`));
  await expect(page.getByText("10 left")).toBeVisible();
  await expect(page.getByRole("heading", { name: PRODUCT.title })).toBeVisible();

  await page.getByRole("button", { name: "Write the ad script" }).click();
  await expect(page).toHaveURL(/\/dashboard\/ai-ads\?ad=\d+$/);
  await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();
  await expect(page.getByText("Preview", { exact: true })).toBeVisible();
  await expect(page.getByText("built-in writer", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Scene 4 text")).toHaveValue("960 orders in the last 30 days");

  // Edit the hook, save, then render.
  await page.getByLabel("Scene 1 text").fill("Pet hair on everything?");
  await page.getByRole("button", { name: "Save script" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Render video (5 credits)" }).click();

  await expect(page.getByText(/^Rendering \d+%$/)).toBeVisible();
  await expect(page.getByRole("progressbar")).toBeVisible();
  await expect(page.getByText("5 left")).toBeVisible();

  const video = page.getByLabel(/^Video of /);
  await expect(video).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  const media = await video.evaluate(
    (el: HTMLVideoElement) =>
      new Promise<{ readyState: number; duration: number; width: number; height: number }>((resolve, reject) => {
        const done = () => resolve({ readyState: el.readyState, duration: el.duration, width: el.videoWidth, height: el.videoHeight });
        if (el.readyState >= 1) return done();
        el.addEventListener("loadedmetadata", done, { once: true });
        el.addEventListener("error", () => reject(new Error(`video error ${el.error?.code}`)), { once: true });
        el.load();
      }),
  );
  expect(media.readyState).toBeGreaterThanOrEqual(1);
  expect(media.duration).toBeGreaterThanOrEqual(12);
  expect(media.duration).toBeLessThanOrEqual(20.5);
  expect([media.width, media.height]).toEqual([540, 960]);
  await expect(page.getByRole("link", { name: "Download MP4" })).toHaveAttribute("href", /\/ai-ads\/videos\/\d+\.mp4\?download=1$/);

  const api = await page.request.get("/api/ai-ads");
  const body = (await api.json()) as { balance: number; ads: { id: number; status: string; bytes: number; scenes: { text: string }[] }[] };
  expect(body.balance).toBe(5);
  expect(body.ads.map((a) => a.status)).toEqual(["completed"]);
  expect(body.ads[0].scenes[0].text).toBe("Pet hair on everything?");

  // The paid-for file lands on disk, whole.
  expect(await downloadVideo(page, body.ads[0].bytes)).toBe(`ai-ad-${body.ads[0].id}.mp4`);
});

test("inside Shopify admin a merchant renders an ad and the video plays from its signed link", async ({ page }) => {
  test.setTimeout(120_000);
  const { email } = await openLinkedShop(page, `/app/ai-ads?product=${PRODUCTS[0].objectID}`, "e2e-ads");
  await giveSubscription(email);
  await grantCredits(email, "ai-ads", 5);
  await reload(page);
  await expect(page.getByRole("heading", { name: "AI ads", level: 1 })).toBeVisible();
  await expect(page.getByText("5 left")).toBeVisible();
  await page.getByRole("button", { name: "Write the ad script" }).click();
  await expect(page).toHaveURL(/\/app\/ai-ads\?.*ad=\d+/);
  await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();
  await page.getByRole("button", { name: "Render video (5 credits)" }).click();
  await expect(page.getByText("0 left")).toBeVisible();

  // The iframe's <video> sends no cookie and no session token: its source is a signed link.
  const video = page.getByLabel(/^Video of /);
  await expect(video).toBeVisible({ timeout: 90_000 });
  const src = await video.evaluate((el: HTMLVideoElement) => el.currentSrc || el.querySelector("source")?.src || el.src);
  expect(src).toMatch(/\/ai-ads\/videos\/\d+\.mp4\?expires=\d+&sig=[\w-]+$/);
  const duration = await video.evaluate(
    (el: HTMLVideoElement) =>
      new Promise<number>((resolve, reject) => {
        if (el.readyState >= 1) return resolve(el.duration);
        el.addEventListener("loadedmetadata", () => resolve(el.duration), { once: true });
        el.addEventListener("error", () => reject(new Error(`video error ${el.error?.code}`)), { once: true });
        el.load();
      }),
  );
  expect(duration).toBeGreaterThanOrEqual(12);
  await page.screenshot({ path: "test-results/screenshots/embedded-ai-ads.png", fullPage: true });

  // Without its signature the same URL is refused to a request with no session.
  const bare = await page.context().request.fetch(src.replace(/\?.*$/, ""), { headers: { cookie: "" } });
  expect(bare.status()).toBe(401);

  // "Download MP4" is a signed link too (the iframe sends no cookie), and saves the whole file.
  const id = Number(/\/(\d+)\.mp4/.exec(src)?.[1]);
  await expect(page.getByRole("link", { name: "Download MP4" })).toHaveAttribute(
    "href",
    new RegExp(`/ai-ads/videos/${id}\\.mp4\\?download=1&expires=\\d+&sig=[\\w-]+$`),
  );
  const played = await (await page.context().request.fetch(src, { headers: { cookie: "" } })).body();
  expect(await downloadVideo(page, played.length)).toBe(`ai-ad-${id}.mp4`);
});
