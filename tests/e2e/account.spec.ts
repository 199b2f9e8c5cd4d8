// The account page through the UI, as a seller uses it: sign up, change the password, sign out and in
// with the new one, download the data (the saved JSON file is read), delete the account, and the old
// login is refused. The page is also checked at a phone's width (390 px).
import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";

const FIRST_PASSWORD = "first-password-2026";
const NEW_PASSWORD = "second-password-2026";

test("a seller changes the password, downloads the data and deletes the account", async ({ page }, testInfo) => {
  const email = uniqueEmail("account");
  await open(page, "/signup");
  await submitSignup(page, email, FIRST_PASSWORD);
  await expect(page).toHaveURL(/\/choose-plan$/);

  await open(page, "/dashboard/account");
  await expect(page.getByTestId("account-email")).toHaveText(email);

  // Change password: a wrong current password is refused beside the form, then the right one works.
  const passwordForm = page.getByRole("form", { name: "Change password" });
  await passwordForm.getByLabel("Current password").fill("not-my-password");
  await passwordForm.getByLabel("New password").fill(NEW_PASSWORD);
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(passwordForm.getByRole("alert")).toContainText("That is not your current password. Nothing was changed.");
  await passwordForm.getByLabel("Current password").fill(FIRST_PASSWORD);
  await passwordForm.getByLabel("New password").fill(NEW_PASSWORD);
  await passwordForm.getByRole("button", { name: "Change password" }).click();
  await expect(passwordForm.getByRole("status")).toContainText("Your password is changed.");

  // At a phone's width the page fits: nothing sticks out sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("heading", { name: "Delete my account" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath("account-390.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/account-390.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sign out, then in with the new password (the old one no longer works).
  await page.getByRole("form", { name: "Devices" }).getByRole("button", { name: "Sign out on every device" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await open(page, "/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(FIRST_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("That e-mail and password don't match an account.")).toBeVisible();
  await page.getByLabel("Password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard\?location=dashboard$/);

  // Download my data: a JSON file with the account, and no secret in it.
  await open(page, "/dashboard/account");
  const downloadForm = page.getByRole("form", { name: "Download my data" });
  await downloadForm.getByLabel("Current password").fill(NEW_PASSWORD);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    downloadForm.getByRole("button", { name: "Download my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^winning-products-data-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile((await download.path())!, "utf8");
  const data = JSON.parse(text) as { profile: { email: string; hasPassword: boolean }; sessions: unknown[] };
  expect(data.profile).toMatchObject({ email, hasPassword: true });
  expect(data.sessions.length).toBeGreaterThan(0);
  expect(text).not.toMatch(/passwordHash|scrypt\$|tokenHash|accessToken/);
  expect(text).not.toContain(NEW_PASSWORD);

  // Delete my account: the word DELETE and the password, then the goodbye on the landing page.
  const deleteForm = page.getByRole("form", { name: "Delete my account" });
  await deleteForm.getByLabel("Current password").fill(NEW_PASSWORD);
  await deleteForm.getByLabel("Type DELETE to confirm").fill("delete");
  await deleteForm.getByRole("button", { name: "Delete my account" }).click();
  await expect(deleteForm.getByRole("alert")).toContainText("Type DELETE in capitals to confirm. Nothing was deleted.");
  await deleteForm.getByLabel("Current password").fill(NEW_PASSWORD);
  await deleteForm.getByLabel("Type DELETE to confirm").fill("DELETE");
  await deleteForm.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/\?goodbye=1$/);
  await expect(page.getByText("Your account has been deleted")).toBeVisible();

  // The account is gone: the dashboard sends the visitor away, and the login is refused.
  await page.goto("/dashboard/account");
  await expect(page).toHaveURL(/\/\?redirectTo=%2Fdashboard%2Faccount$/);
  await open(page, "/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("That e-mail and password don't match an account.")).toBeVisible();
});
