// Playwright's test, plus a check that the browser threw nothing and logged no errors during the test
// (the e2e counterpart of "any console.error fails a test"). Failed requests the test expects, such as
// the 401 of a wrong password, are the browser's "Failed to load resource" lines and are not errors of
// ours.
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ browserErrors: string[] }>({
  browserErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
          errors.push(`console.error: ${message.text()}`);
        }
      });
      await use(errors);
      expect(errors, "errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
