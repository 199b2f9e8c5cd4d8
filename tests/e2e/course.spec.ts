// The course through the UI: sign up, open the course, open lesson 1, mark it done (take the tick back
// and give it again), see the progress (1 of 78 lessons, 1.3%) on the lesson, on the course page and in
// "continue where you left off" on the dashboard, whose sentence and button name the same next lesson.
import { expect, test } from "./support/test";
import { open, submitSignup, uniqueEmail } from "./support/app";

test("a new student completes lesson 1 and sees their progress on the course page and the dashboard", async ({ page }, testInfo) => {
  await open(page, "/signup");
  await submitSignup(page, uniqueEmail("course"));
  await expect(page).toHaveURL(/\/choose-plan$/);

  // The course, reached from the dashboard's navigation.
  await open(page, "/dashboard?location=dashboard");
  await expect(page.getByRole("heading", { name: "Start the course" })).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Course", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/course$/);
  await expect(page.getByRole("heading", { level: 1, name: "Course" })).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("0 of 78 lessons · 0%");
  await expect(page.getByRole("link", { name: /^Lesson \d+: / })).toHaveCount(78);

  // Lesson 1: its Markdown body, its try-it and neighbour links, and "Mark as done".
  await page.getByRole("link", { name: "Lesson 1: How dropshipping actually works", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/course\/1$/);
  await expect(page.getByRole("heading", { level: 1, name: "Lesson 1: How dropshipping actually works" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "One order, step by step" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Lesson 2: General, niche or one-product store →" })).toBeVisible();
  await page.getByRole("button", { name: "Mark as done" }).click();
  await expect(page.getByText("You marked this lesson as done.")).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");
  await page.screenshot({ path: testInfo.outputPath("lesson.png"), fullPage: true });

  // A tick given by mistake can be taken back, and given again.
  await page.getByRole("button", { name: "Mark as not done" }).click();
  await expect(page.getByRole("button", { name: "Mark as done" })).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("0 of 78 lessons · 0%");
  await page.getByRole("button", { name: "Mark as done" }).click();
  await expect(page.getByText("You marked this lesson as done.")).toBeVisible();
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");

  // The course page shows the tick and the progress.
  await page.getByRole("link", { name: "Course", exact: true }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/course$/);
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");
  await expect(page.locator('[data-lesson="1"]')).toHaveAttribute("data-completed", "true");
  await expect(page.locator('[data-lesson="1"]').getByText("Done")).toBeAttached();
  await expect(page.locator('[data-lesson="2"]')).toHaveAttribute("data-completed", "false");

  // The dashboard: continue where you left off.
  await open(page, "/dashboard?location=dashboard");
  await expect(page.getByRole("heading", { name: "Continue where you left off" })).toBeVisible();
  // One sentence, from the same lesson as the button: never "Last opened: lesson 1" beside "Continue: lesson 2".
  await expect(page.getByText("Lesson 1 is done. Next: lesson 2, General, niche or one-product store (module 1: Foundations).")).toBeVisible();
  await expect(page.getByText(/Last opened/)).toHaveCount(0);
  await expect(page.getByTestId("course-progress")).toHaveText("1 of 78 lessons · 1.3%");
  await page.screenshot({ path: testInfo.outputPath("dashboard-continue.png"), fullPage: true });
  await page.getByRole("link", { name: "Continue: lesson 2, General, niche or one-product store" }).click();
  await expect(page).toHaveURL(/\/dashboard\/course\/2$/);
  await expect(page.getByRole("heading", { level: 1, name: "Lesson 2: General, niche or one-product store" })).toBeVisible();
});
