// The pages an e-mailed link opens, in Chromium at 1280 and 390 px (issue 35 items 3, 7, 11; decision 079):
// "Log out" works on the page a confirmation link opens (every new user lands there); an e-mail change is confirmed
// by a link to the new address before it is the login; the log-in page's 429 carries Retry-After; the sign-up form
// states its password rule once; the log-in form offers no Inner Circle box.
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";
import { E2E_MAIL_DIR } from "./support/constants";
import { linkIn, mailsTo } from "../helpers/mail";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
const PASSWORD = "correct-horse-battery";

/** The path and query of the newest link to `pathname` mailed to `email`, once the server's mail job has written it. */
async function linkFromMail(email: string, pathname: string): Promise<string> {
  await expect.poll(() => mailsTo(E2E_MAIL_DIR, email).filter((m) => m.text.includes(pathname)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const link = new URL(linkIn(mailsTo(E2E_MAIL_DIR, email).filter((m) => m.text.includes(pathname)).at(-1)!, pathname));
  return link.pathname + link.search;
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("Log out on the page the confirmation link opens signs the new user out", async ({ page, context }, testInfo) => {
      const email = uniqueEmail(`confirmed-${size.name}`);
      await open(page, "/signup");
      await submitSignup(page, email, PASSWORD);
      await expect(page).toHaveURL(/\/choose-plan$/);

      await open(page, await linkFromMail(email, "/verify-email"));
      await expect(page.getByRole("heading", { name: "Your e-mail address is confirmed" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`email-confirmed-${size.width}.png`), fullPage: true });

      const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/logout");
      await page.getByRole("button", { name: "Log out" }).click();
      // The browser says where the form came from (a `no-referrer` page made it send `Origin: null`).
      expect((await posted).headers()["origin"]).toBe(new URL(page.url()).origin);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText("sent by another website")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Log in" }).first()).toBeVisible();
      expect((await context.cookies()).filter((c) => c.name.includes("session") && c.value !== "")).toHaveLength(0);
      await open(page, "/dashboard/account");
      await expect(page).not.toHaveURL(/\/dashboard\/account/);
    });

    test("an e-mail change waits for the new address's link, then that address logs in", async ({ page, context }, testInfo) => {
      // Two sign-in forms, two mail jobs and a log-in: more than the default 30 s on a loaded machine.
      test.slow();
      const email = uniqueEmail(`before-${size.name}`);
      const newEmail = uniqueEmail(`after-${size.name}`);
      await open(page, "/signup");
      await submitSignup(page, email, PASSWORD);
      await expect(page).toHaveURL(/\/choose-plan$/);

      await open(page, "/dashboard/account");
      await page.getByLabel("New e-mail address").fill(newEmail);
      const form = page.locator("form").filter({ has: page.getByLabel("New e-mail address") });
      await form.getByLabel("Current password").fill(PASSWORD);
      await form.getByRole("button", { name: "Change e-mail" }).click();
      await expect(page.getByText(`We have sent a link to ${newEmail}.`)).toBeVisible();
      await expect(page.getByTestId("account-email")).toHaveText(email);
      const link = await linkFromMail(newEmail, "/verify-email");
      await page.reload();
      await expect(page.getByTestId("account-pending-email")).toHaveText(newEmail);
      await page.screenshot({ path: testInfo.outputPath(`email-change-pending-${size.width}.png`), fullPage: true });

      await open(page, link);
      await expect(page.getByRole("heading", { name: "Your e-mail address is changed" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`email-changed-${size.width}.png`), fullPage: true });
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/$/);

      await context.clearCookies();
      await open(page, "/login");
      await page.getByLabel("E-mail").fill(newEmail);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard/);
    });

    test("the log-in and sign-up forms: no Inner Circle box, the password rule once, a 429 with Retry-After", async ({ page }, testInfo) => {
      await open(page, "/login");
      await expect(page.getByText("Inner Circle")).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`login-${size.width}.png`), fullPage: true });
      await open(page, "/login?innerCircle=1");
      await expect(page.getByText("After you log in we show you the Inner Circle offer.")).toBeVisible();
      await expect(page.getByRole("checkbox")).toHaveCount(0);

      await open(page, "/signup");
      await page.getByLabel("E-mail").fill(uniqueEmail(`short-${size.name}`));
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
      await expect(page.getByText(/at least 8 characters/i)).toHaveCount(1);
      await page.screenshot({ path: testInfo.outputPath(`signup-short-password-${size.width}.png`), fullPage: true });

      // A form sent without JavaScript (the document answer) past the failed log-ins of an address.
      const email = uniqueEmail(`locked-${size.name}`);
      const origin = new URL(page.url()).origin;
      let last = 0;
      let retryAfter: string | undefined;
      for (let i = 0; i < 6; i++) {
        const res = await page.request.post("/login", { form: { email, password: `wrong ${i}` }, headers: { origin }, maxRedirects: 0 });
        last = res.status();
        retryAfter = res.headers()["retry-after"];
      }
      expect(last).toBe(429);
      expect(retryAfter).toMatch(/^[1-9]\d*$/);
    });
  });
}
