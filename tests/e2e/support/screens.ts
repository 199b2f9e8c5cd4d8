// Screenshots of a page at the desktop and phone widths every changed page is looked at (1280 and 390 px, to
// test-results/screenshots, not committed); at 390 px nothing may overflow sideways.
import type { Page } from "@playwright/test";
import { expect } from "./test";

export async function photograph(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, "page wider than the screen").toBeLessThanOrEqual(widths.client);
  await page.screenshot({ path: `test-results/screenshots/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}
