// Brand kits in the browser (docs/decisions/033): a paid user makes a kit with a logo upload, sees its
// low-contrast warning and its logo, renders an AI ad with it and downloads the MP4; a wrong file named
// logo.png is refused with a sentence. Inside Shopify admin a merchant makes a kit the same way, its logo
// shows from a signed link, and an ad rendered with it downloads.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { giveSubscription, grantCredits, open, reload, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS } from "./support/products";
import { openEmbedded, openLinkedShop } from "./support/shopify-admin";

const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
const LOGO = Buffer.from(
  new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="240" height="96"><rect width="240" height="96" rx="16" fill="#ff7a00"/><circle cx="48" cy="48" r="28" fill="#fff"/></svg>`)
    .render()
    .asPng(),
);

test.beforeAll(async () => {
  await insertProducts();
});

async function makeKit(page: Page, name: string) {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create brand kit" }) });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Primary colour (panels)", { exact: true }).fill("#123a7a");
  await form.getByLabel("Accent colour (buttons)", { exact: true }).fill("#fde047");
  await form.getByLabel("Tagline", { exact: true }).fill("Brushed with love");
  await form.getByLabel("Tone of voice", { exact: true }).fill("playful, short sentences");
  // Yellow under white text: a warning while typing, the kit is saved anyway.
  await expect(form.getByText(/on the buttons colour #fde047 has a contrast of 1\.\d:1/)).toBeVisible();
  await form.locator('input[type="file"][name="logo"]').setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: LOGO });
  await form.getByRole("button", { name: "Create brand kit" }).click();
  await expect(page.getByRole("heading", { name, level: 3 })).toBeVisible();
  await expect(page.getByText("Default", { exact: true })).toBeVisible();
  const logo = page.getByRole("img", { name: `${name} logo` }).first();
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
}

/** Writes a script for the product with the kit chosen, renders it and waits for the video. */
async function renderWithKit(page: Page, kitName: string) {
  await expect(page.getByLabel("Brand kit")).toBeVisible();
  await page.getByLabel("Brand kit").selectOption({ label: kitName });
  await page.getByRole("button", { name: "Write the ad script" }).click();
  await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();
  await expect(page.getByLabel("Brand kit")).toHaveValue(/^\d+$/);
  await page.getByRole("button", { name: "Render video (5 credits)" }).click();
  await expect(page.getByLabel(/^Video of /)).toBeVisible({ timeout: 100_000 });
}

async function download(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download MP4" }).click()]);
  expect(await file.failure()).toBeNull();
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
  return { name: file.suggestedFilename(), bytes };
}

test("a seller makes a brand kit with a logo, renders an ad with it and downloads the video", async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("kits");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);
  await grantCredits(email, "ai-ads", 10);

  await open(page, "/dashboard/brand-kits");
  await expect(page.getByRole("heading", { name: "Brand kits", level: 1 })).toBeVisible();
  await makeKit(page, "Wombat Co");
  // Saved: no empty "New brand kit" form is left under it; another kit starts from a button, and can be cancelled.
  await expect(page.getByRole("button", { name: "Create brand kit" })).toHaveCount(0);
  await page.getByRole("button", { name: "Add another brand kit" }).click();
  await expect(page.getByRole("button", { name: "Create brand kit" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("button", { name: "Create brand kit" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/brand-kits-1280.png", fullPage: true });

  // A GIF named logo.png is refused by its bytes, with a sentence on the field.
  const edit = page.getByRole("button", { name: "Edit" });
  await edit.click();
  const gif = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
  await page.locator('input[type="file"][name="logo"]').first().setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: gif });
  await page.getByRole("button", { name: "Save kit" }).click();
  await expect(page.getByText(/The file is a GIF, whatever its name says/).first()).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/brand-kits-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await open(page, `/dashboard/ai-ads?product=${PRODUCTS[1].objectID}`);
  await renderWithKit(page, "Wombat Co");
  const api = (await (await page.request.get("/api/ai-ads")).json()) as { ads: { id: number; bytes: number; brandKitId: number | null }[] };
  expect(api.ads[0].brandKitId).not.toBeNull();
  const saved = await download(page);
  expect(saved.name).toBe(`ai-ad-${api.ads[0].id}.mp4`);
  expect(saved.bytes.length).toBe(api.ads[0].bytes);

  // The logo's URL is the owner's only.
  const kits = (await (await page.request.get("/api/brand-kits")).json()) as { kits: { logoUrl: string }[] };
  expect((await page.request.get(kits.kits[0].logoUrl)).status()).toBe(200);
  expect((await page.context().request.fetch(kits.kits[0].logoUrl, { headers: { cookie: "" } })).status()).toBe(401);
});

test("inside Shopify admin a merchant makes a kit, sees its logo, renders an ad with it and downloads it", async ({ page }) => {
  test.setTimeout(180_000);
  const { email, shop, token } = await openLinkedShop(page, "/app/brand-kits", "e2e-kits");
  await giveSubscription(email);
  await grantCredits(email, "ai-ads", 5);
  await reload(page);
  await expect(page.getByRole("heading", { name: "Brand kits", level: 1 })).toBeVisible();
  await makeKit(page, "Shop Kit");
  const src = await page.getByRole("img", { name: "Shop Kit logo" }).first().getAttribute("src");
  expect(src).toMatch(/\/brand-kits\/\d+\/logo\.png\?v=\w+&expires=\d+&sig=[\w-]+$/);

  await openEmbedded(page, shop, token, `/app/ai-ads?product=${PRODUCTS[0].objectID}`);
  await renderWithKit(page, "Shop Kit");
  const saved = await download(page);
  expect(saved.name).toMatch(/^ai-ad-\d+\.mp4$/);
});

test("a seller saves a TikTok against a product from its page and finds it in the TikToks list", async ({ page }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail("tiktoks");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);
  await giveSubscription(email);

  const product = PRODUCTS[2];
  await open(page, `/dashboard/products/${product.objectID}`);
  await expect(page.getByRole("heading", { name: "Seen on TikTok" })).toBeVisible();
  // Not a TikTok video: refused with a sentence on the field, nothing saved.
  await page.getByLabel("TikTok video link").fill("https://www.youtube.com/watch?v=abc");
  await page.getByRole("button", { name: "Save video" }).click();
  await expect(page.getByText("Only TikTok video links can be saved; www.youtube.com is not TikTok.")).toBeVisible();
  await page.getByLabel("TikTok video link").fill("https://www.tiktok.com/@gadgetshop/video/7301234567890123456?is_from_webapp=1");
  await page.getByLabel("Note (optional)").fill("Before/after in the first second");
  await page.getByRole("button", { name: "Save video" }).click();
  const saved = page.getByRole("link", { name: "TikTok video by @gadgetshop" });
  await expect(saved).toBeVisible();
  await expect(saved).toHaveAttribute("href", "https://www.tiktok.com/@gadgetshop/video/7301234567890123456");
  await expect(page.getByText("Note: Before/after in the first second")).toBeVisible();
  // With no network to TikTok the link stays, its title "not fetched" (or still being fetched).
  await expect(page.getByText(/^(Fetching title…|Not fetched)$/)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/seen-on-tiktok-1280.png", fullPage: true });

  await open(page, "/dashboard/tiktoks");
  await expect(page.getByRole("heading", { name: "Saved videos (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: product.title })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/tiktoks-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: "test-results/screenshots/tiktoks-1280.png", fullPage: true });
  const api = (await (await page.request.get("/api/tiktoks")).json()) as { tiktoks: { url: string; metaStatus: string }[] };
  expect(api.tiktoks).toEqual([expect.objectContaining({ url: "https://www.tiktok.com/@gadgetshop/video/7301234567890123456" })]);
});
