// Password reset and e-mail confirmation through the browser (issue 25 items 1-4, decision 051), at 1280 and
// 390 px: forgot password -> the link read from the .eml the server's mail job wrote in MAIL_OUTBOX_DIR -> a new
// password -> log in; the reminder to confirm the address and its link; the legal pages from the footer; the
// demo account's banner and trial.
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";
import { DEMO_EMAIL, DEMO_PASSWORD, E2E_MAIL_DIR } from "./support/constants";
import { linkIn, mailsTo } from "../helpers/mail";

const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** The link of the newest message to `email` at `pathname`, once the server's mail job has written it. */
async function linkFromMail(email: string, pathname: string): Promise<string> {
  await expect.poll(() => mailsTo(E2E_MAIL_DIR, email).filter((m) => m.text.includes(pathname)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const mails = mailsTo(E2E_MAIL_DIR, email).filter((m) => m.text.includes(pathname));
  return linkIn(mails.at(-1)!, pathname);
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("forgot password: the e-mailed link sets a new password, then the new password logs in", async ({ page, context }, testInfo) => {
      const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}-${size.width}.png`), fullPage: true });
      const email = uniqueEmail(`reset-${size.name}`);
      await open(page, "/signup");
      await submitSignup(page, email, "the first password 1");
      await expect(page).toHaveURL(/\/choose-plan$/);
      await context.clearCookies();

      await open(page, "/login");
      await page.getByRole("link", { name: "Forgot your password?" }).click();
      await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
      await page.getByLabel("E-mail").fill(email);
      await page.getByRole("button", { name: "Send me a reset link" }).click();
      await expect(page.getByText("Check your e-mail")).toBeVisible();
      await shot("forgot-password-sent");

      const link = await linkFromMail(email, "/reset-password");
      await open(page, new URL(link).pathname + new URL(link).search);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await shot("reset-password");
      await page.getByLabel("New password").fill("the second password 2");
      await page.getByRole("button", { name: "Save my new password" }).click();

      await expect(page).toHaveURL(/\/login\?reset=1$/);
      await expect(page.getByText("Your password is changed and every device was signed out.")).toBeVisible();
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill("the second password 2");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard/);

      // The link works once.
      await open(page, new URL(link).pathname + new URL(link).search);
      await expect(page.getByText("This password reset link has expired or has already been used.")).toBeVisible();
    });

    test("an unconfirmed account is reminded, can resend, and the e-mailed link confirms it", async ({ page }, testInfo) => {
      const email = uniqueEmail(`verify-${size.name}`);
      await open(page, "/signup?plan=pro&billing=monthly");
      await expect(page.getByRole("link", { name: "Refund policy" })).toBeVisible();
      await submitSignup(page, email);
      // The checkout says what is charged when, and links the refund terms.
      await expect(page).toHaveURL(/\/pay\?plan=pro&billing=monthly$/);
      await expect(page.getByText("What is charged when")).toBeVisible();
      await expect(page.getByText(/your trial ends and your card is charged \$39\.99 for the first month/)).toBeVisible();
      await expect(page.getByRole("link", { name: "Refund policy" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`checkout-${size.width}.png`), fullPage: true });

      await open(page, "/dashboard/account");
      await expect(page.getByText("Confirm your e-mail address")).toBeVisible();
      await page.getByRole("button", { name: "Resend the link" }).click();
      await expect(page.getByText(`We have sent a new link to ${email}.`)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`verify-reminder-${size.width}.png`), fullPage: true });

      const link = await linkFromMail(email, "/verify-email");
      await open(page, new URL(link).pathname + new URL(link).search);
      await expect(page.getByRole("heading", { name: "Your e-mail address is confirmed" })).toBeVisible();
      await open(page, "/dashboard/account");
      await expect(page.getByRole("heading", { name: "Account", exact: true }).first()).toBeVisible();
      await expect(page.getByText("Confirm your e-mail address")).toHaveCount(0);
    });

    test("the demo login says it is the demo and has a trial with credits", async ({ page }, testInfo) => {
      await open(page, "/login");
      await page.getByLabel("E-mail").fill(DEMO_EMAIL);
      await page.getByLabel("Password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard/);
      await expect(page.getByText("You are in the demo account")).toBeVisible();
      await open(page, "/dashboard/billing");
      await expect(page.getByText(/trial/i).first()).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`demo-billing-${size.width}.png`), fullPage: true });
    });

    test("the legal pages open from the site's footer", async ({ page }, testInfo) => {
      await open(page, "/");
      const footer = page.locator("footer");
      for (const [label, heading] of [
        ["Terms", "Terms of Service"],
        ["Privacy", "Privacy Policy"],
        ["Refunds", "Refund Policy"],
      ] as const) {
        await footer.getByRole("link", { name: label, exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      }
      await page.screenshot({ path: testInfo.outputPath(`refunds-${size.width}.png`), fullPage: true });
    });
  });
}
