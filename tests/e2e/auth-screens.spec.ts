// The auth screens in their one narrow-card shell (decision 099) as a visitor sees them at 1280 and 390 px: each
// shows its heading and form inside the card, nothing runs off the right edge of a phone, and a screenshot of each is
// kept in the test's output for a person to look at.
import { expect, test } from "./support/test";
import { open } from "./support/app";

const SCREENS = [
  { path: "/login", heading: /log in/i, field: "E-mail" },
  { path: "/signup", heading: /sign up|create/i, field: "E-mail" },
  { path: "/forgot-password", heading: /password/i, field: "E-mail" },
  { path: "/reset-password?token=not-a-real-token", heading: /password/i, field: null },
  { path: "/verify-email?token=not-a-real-token", heading: /link does not work|e-mail address/i, field: null },
];

for (const width of [1280, 390]) {
  test(`the auth screens sit in one narrow card at ${width} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const screen of SCREENS) {
      await open(page, screen.path);
      const card = page.locator(".narrow").first();
      await expect(card).toBeVisible();
      await expect(card.getByRole("heading").first()).toHaveText(screen.heading);
      if (screen.field) await expect(card.getByLabel(screen.field, { exact: true })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${screen.path} runs ${overflow} px past the right edge at ${width} px`).toBeLessThanOrEqual(0);
      const box = await card.boundingBox();
      expect(box!.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: testInfo.outputPath(`${screen.path.slice(1).split("?")[0]}-${width}.png`), fullPage: true });
    }
  });
}
