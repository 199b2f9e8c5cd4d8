// AI ads a seller would post (decision 062), in the browser at 1280 and 390 px: a sample product is labelled as
// such where it is picked, on its ad and in the list of ads; the storyboard offers three hooks to pick from, and a scene whose text could only be shown cut is refused before the render is paid for, with the
// scene named under its field; nothing is charged.
import { expect, test } from "./support/test";
import { giveSubscription, grantCredits, open, submitSignup, uniqueEmail } from "./support/app";
import { insertProducts, PRODUCTS } from "./support/products";

const PRODUCT = PRODUCTS[1];

test.beforeAll(async () => {
  await insertProducts();
});

for (const width of [1280, 390]) {
  test(`at ${width} px: pick a hook, and a scene that would be cut is refused before credits`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const email = uniqueEmail(`ads-fit-${width}`);
    await open(page, "/signup");
    await submitSignup(page, email);
    await expect(page).toHaveURL(/\/choose-plan$/);
    await giveSubscription(email);
    await grantCredits(email, "ai-ads", 10);

    await open(page, `/dashboard/ai-ads?product=${PRODUCT.objectID}`);
    // The product is sample data (issue 25, item 9): labelled where it is picked, on the ad and in the list of ads.
    await expect(page.getByRole("heading", { name: PRODUCT.title }).locator("xpath=..").getByText("Sample data", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Write the ad script" }).click();
    await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();
    await expect(page.getByText(`From ${PRODUCT.title}`).locator("xpath=..").getByText("Sample data", { exact: true })).toBeVisible();
    await expect(page.getByText(/^This product is sample data: its figures .* are not real sales\./)).toBeVisible();
    const adUrl = page.url();
    await open(page, "/dashboard/ai-ads");
    await expect(page.getByRole("list", { name: "AI ads" }).getByRole("listitem").first().getByText("Sample data", { exact: true })).toBeVisible();
    await open(page, adUrl);
    await expect(page.getByRole("heading", { name: "Storyboard" })).toBeVisible();

    // Three hooks; the first is in use, picking another fills scene 1.
    await expect(page.getByText("Pick a hook:")).toBeVisible();
    const inUse = page.getByRole("button", { name: /\(in use\)$/ });
    await expect(inUse).toHaveCount(1);
    const first = (await inUse.textContent())!.replace(/ \(in use\)$/, "");
    await expect(page.getByLabel("Scene 1 text")).toHaveValue(first);
    const other = page.getByText("Pick a hook:").locator("xpath=..").getByRole("button").nth(2);
    const otherText = (await other.textContent())!;
    await other.click();
    await expect(page.getByLabel("Scene 1 text")).toHaveValue(otherText);

    // A word wider than a line of the video: it saves (under 90 characters) but cannot be rendered whole.
    await page.getByLabel("Scene 3 text").fill("Meet the Supercalifragilisticexpialidociousbrushes");
    await page.getByRole("button", { name: "Save script" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await page.getByRole("button", { name: "Render video (5 credits)" }).click();
    await expect(page.getByText("Some fields need attention: Scene 3 text.")).toBeVisible();
    await expect(page.getByText(/"Supercalifragilisticexpialidociousbrushes" is too wide for one line of the video/)).toBeVisible();
    await expect(page.getByText("10 left")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`ads-fit-${width}.png`), fullPage: true });
  });
}
