// The standalone site's front door, through the UI: sign up (with and without a plan), log in, the
// generic error for a wrong password, and the guard's redirects.
import { expect, test } from "./support/test";
import { giveSubscription, open, submitSignup, uniqueEmail } from "./support/app";
import { DEMO_EMAIL, DEMO_PASSWORD } from "./support/constants";

test("signing up without a plan leads to the plan cards", async ({ page }) => {
  const email = uniqueEmail("no-plan");
  await open(page, "/signup");
  await expect(page.getByText("Free to start. You choose a plan next.")).toBeVisible();

  await submitSignup(page, email);

  await expect(page).toHaveURL(/\/choose-plan$/);
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await expect(page.getByText(`Signed up as ${email}.`)).toBeVisible();
  for (const plan of ["Basic", "Pro", "Inner Circle"]) {
    await expect(page.getByRole("heading", { name: plan, exact: true })).toBeVisible();
  }
  // Signed in now: a plan card goes straight to checkout.
  await expect(page.getByRole("link", { name: "Start Pro free trial" })).toHaveAttribute(
    "href",
    "/pay?plan=pro&billing=monthly",
  );
});

test("signing up from a plan card on the landing page goes to that plan's checkout", async ({ page }, testInfo) => {
  await open(page, "/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Find a product worth selling");
  await page.screenshot({ path: testInfo.outputPath("landing.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/landing.png", fullPage: true });

  await page.getByRole("link", { name: "Start Pro free trial" }).click();
  await expect(page).toHaveURL(/\/signup\?plan=pro&billing=monthly$/);
  await expect(page.getByText("Plan: Pro, $39.99 a month after a 7-day free trial.")).toBeVisible();

  await submitSignup(page, uniqueEmail("pro"));

  await expect(page).toHaveURL(/\/pay\?plan=pro&billing=monthly$/);
  await expect(page.getByRole("heading", { level: 1, name: "Pro" })).toBeVisible();
  await expect(page.getByText("Due today")).toBeVisible();
});

test("logging in with the demo account opens the dashboard", async ({ page }, testInfo) => {
  await open(page, "/login");
  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();

  await expect(page).toHaveURL(/\/dashboard\?location=dashboard$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${DEMO_EMAIL}`)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("dashboard.png"), fullPage: true });
  await page.screenshot({ path: "test-results/screenshots/dashboard.png", fullPage: true });
});

test("a wrong password shows the generic error and stays on the login page", async ({ page }) => {
  await open(page, "/login");
  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Log in" }).click();

  await expect(page.getByText("That e-mail and password don't match an account.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("E-mail")).toHaveValue(DEMO_EMAIL);
});

test("an anonymous visitor asking for a dashboard page logs in and lands on that page", async ({ page }) => {
  await page.goto("/dashboard/account");
  // The landing page (seed §2), carrying the page asked for to its "Log in" links.
  await expect(page).toHaveURL(/\/\?redirectTo=%2Fdashboard%2Faccount$/);
  await page.getByRole("banner").getByRole("link", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard%2Faccount$/);
  await expect(page.getByRole("link", { name: "Start your free trial" })).toBeVisible();
  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);
});

test("a redirectTo to another site is ignored: the login opens the dashboard", async ({ page }) => {
  await open(page, `/login?redirectTo=${encodeURIComponent("//evil.example/steal")}`);
  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/dashboard\?location=dashboard$/);
});

test("a subscriber sent to checkout lands on the dashboard instead", async ({ page }) => {
  const email = uniqueEmail("subscriber");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan$/);

  // Without a subscription, ?location=checkout leaves a signed-in user where they are.
  await page.goto("/choose-plan?location=checkout");
  await expect(page).toHaveURL(/\/choose-plan\?location=checkout$/);

  await giveSubscription(email);
  await page.goto("/choose-plan?location=checkout");

  await expect(page).toHaveURL(/\/dashboard\?location=dashboard$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test("past LOGIN_MAX_FAILURES wrong passwords, the login page says when to try again (decision 064)", async ({ page, context }, testInfo) => {
  const email = uniqueEmail("locked");
  await open(page, "/signup");
  await submitSignup(page, email);
  await expect(page).toHaveURL(/\/choose-plan/);
  await context.clearCookies();
  await open(page, "/login");
  const attempt = async (password: string) => {
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
  };
  // LOGIN_MAX_FAILURES is 5 on the e2e server (the default; INBOUND_LIMITS_SCALE does not raise per-e-mail limits).
  for (let i = 0; i < 5; i++) {
    await attempt(`wrong-password-${i}`);
    await expect(page.getByText("That e-mail and password don't match an account.")).toBeVisible();
  }
  await attempt("correct-horse-battery");
  await expect(page.getByText("Too many failed log-ins for this address. Try again in 15 minutes, or reset your password.")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.screenshot({ path: testInfo.outputPath("login-429.png") });
  await page.screenshot({ path: "test-results/screenshots/login-429.png" });
});
