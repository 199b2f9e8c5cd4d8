// The course through its routes, on a real migrated SQLite file with the real content loaded as the
// seed step loads it: GET /api/course, POST /api/course/lessons/{n}/complete, the lesson page that
// records the latest lesson opened, and the course page.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as courseLoader, action as courseAction } from "~/routes/api.course";
import { action as completeAction, loader as completeLoader } from "~/routes/api.course.lessons.$lessonNumber.complete";
import { loader as lessonLoader, action as lessonAction } from "~/routes/dashboard.course.$lessonNumber";
import { loader as coursePageLoader } from "~/routes/dashboard.course._index";
import { loader as dashboardLoader } from "~/routes/dashboard._index";
import { syncCourseContent } from "~/services/course/content.server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

beforeAll(async () => {
  await syncCourseContent(db);
});

const complete = (n: string, cookie: string | null) =>
  call(completeAction, `/api/course/lessons/${encodeURIComponent(n)}/complete`, { method: "POST", cookie, params: { lessonNumber: n } });
const open = (n: string, cookie: string) => call(lessonLoader, `/dashboard/course/${n}`, { cookie, params: { lessonNumber: n } });
const getCourse = async (cookie: string) => {
  const res = await call(courseLoader, "/api/course", { cookie });
  expect(res.status).toBe(200);
  return res.json();
};

describe("GET /api/course", () => {
  it("answers 401 to an anonymous caller", async () => {
    const res = await call(courseLoader, "/api/course");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Sign in to use this." });
  });

  it("lists the modules and 78 lessons with the contract's fields, nothing done yet", async () => {
    const user = await createSignedInUser();
    const res = await call(courseLoader, "/api/course", { cookie: user.cookie });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(
      ["completed", "latestLessonName", "latestLessonNumber", "latestModuleName", "latestModuleNumber", "modules", "progressPercentage"].sort(),
    );
    expect(body).toMatchObject({
      progressPercentage: 0,
      completed: false,
      latestModuleName: null,
      latestModuleNumber: null,
      latestLessonName: null,
      latestLessonNumber: null,
    });
    const lessons = body.modules.flatMap((m: { lessons: unknown[] }) => m.lessons);
    expect(lessons).toHaveLength(78);
    expect(lessons.map((l: { number: number }) => l.number)).toEqual(Array.from({ length: 78 }, (_, i) => i + 1));
    expect(Object.keys(body.modules[0]).sort()).toEqual(["lessons", "name", "number"]);
    expect(body.modules[0]).toMatchObject({ number: 1, name: "Foundations" });
    expect(lessons[0]).toEqual({ number: 1, name: "How dropshipping actually works", completed: false });
  });

  it("refuses other methods", async () => {
    const res = await call(courseAction, "/api/course", { method: "POST" });
    expect(res.status).toBe(405);
  });
});

describe("POST /api/course/lessons/{lessonNumber}/complete", () => {
  it("answers 401 to an anonymous caller, before looking at the lesson", async () => {
    expect((await complete("1", null)).status).toBe(401);
    expect((await complete("999", null)).status).toBe(401);
  });

  it("marks a lesson done and answers the updated progress", async () => {
    const user = await createSignedInUser();
    const res = await complete("1", user.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      lessonNumber: 1,
      alreadyDone: false,
      lessonsCompleted: 1,
      totalLessons: 78,
      progressPercentage: 1.3,
      completed: false,
      latestModuleName: null,
      latestModuleNumber: null,
      latestLessonName: null,
      latestLessonNumber: null,
    });
    const course = await getCourse(user.cookie);
    expect(course.progressPercentage).toBe(1.3);
    expect(course.modules[0].lessons[0].completed).toBe(true);
    expect(course.modules[0].lessons[1].completed).toBe(false);
  });

  it("is idempotent: completing twice counts once", async () => {
    const user = await createSignedInUser();
    const first = await (await complete("5", user.cookie)).json();
    const second = await (await complete("5", user.cookie)).json();
    expect(first.alreadyDone).toBe(false);
    expect(second.alreadyDone).toBe(true);
    expect(second.lessonsCompleted).toBe(1);
    expect(second.progressPercentage).toBe(first.progressPercentage);
    expect(await db.lessonCompletion.count({ where: { userId: user.id } })).toBe(1);
    const stored = await db.userCourse.findUniqueOrThrow({ where: { userId: user.id }, select: { progressPercentage: true, completed: true } });
    expect(stored).toEqual({ progressPercentage: 1.3, completed: false });
  });

  it("counts concurrent completions of different lessons exactly", async () => {
    const user = await createSignedInUser();
    const results = await Promise.all(["1", "2", "3", "4", "5", "5"].map((n) => complete(n, user.cookie)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const course = await getCourse(user.cookie);
    expect(course.progressPercentage).toBe(6.4); // 5 / 78 = 6.41
    const stored = await db.userCourse.findUniqueOrThrow({ where: { userId: user.id }, select: { progressPercentage: true } });
    expect(stored.progressPercentage).toBe(6.4);
  });

  it.each(["0", "79", "999", "abc", "1.5", "-1", "%3Cscript%3E"])("answers 404 with a message for lesson %j", async (n) => {
    const user = await createSignedInUser();
    const res = await complete(decodeURIComponent(n), user.cookie);
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error).toMatch(/^There is no lesson .+\. Lessons are numbered 1 to 78\.$/);
    expect(await db.lessonCompletion.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses GET", async () => {
    expect((await call(completeLoader, "/api/course/lessons/1/complete")).status).toBe(405);
  });

  it("after all 78 lessons the progress is 100 and the course is completed", async () => {
    const user = await createSignedInUser();
    let last: { progressPercentage: number; completed: boolean; lessonsCompleted: number } | null = null;
    for (let n = 1; n <= 78; n++) {
      const res = await complete(String(n), user.cookie);
      last = await res.json();
      if (n === 77) expect(last).toMatchObject({ progressPercentage: 98.7, completed: false, lessonsCompleted: 77 });
    }
    expect(last).toMatchObject({ progressPercentage: 100, completed: true, lessonsCompleted: 78 });
    const course = await getCourse(user.cookie);
    expect(course.progressPercentage).toBe(100);
    expect(course.completed).toBe(true);
    expect(course.modules.flatMap((m: { lessons: { completed: boolean }[] }) => m.lessons).every((l: { completed: boolean }) => l.completed)).toBe(true);
  });

  it("keeps each user's progress to themselves", async () => {
    const alice = await createSignedInUser();
    const bob = await createSignedInUser();
    await complete("1", alice.cookie);
    expect((await getCourse(bob.cookie)).progressPercentage).toBe(0);
  });
});

describe("opening lessons: the latest lesson follows the last one opened", () => {
  it("records module and lesson names and numbers, and follows each new lesson opened", async () => {
    const user = await createSignedInUser();
    expect((await open("12", user.cookie)).status).toBe(200);
    expect(await getCourse(user.cookie)).toMatchObject({
      latestModuleName: "Niche and product research",
      latestModuleNumber: 2,
      latestLessonName: "Reading orders and revenue without fooling yourself",
      latestLessonNumber: 12,
    });
    await open("3", user.cookie);
    expect(await getCourse(user.cookie)).toMatchObject({
      latestModuleName: "Foundations",
      latestModuleNumber: 1,
      latestLessonName: "Your startup budget, line by line",
      latestLessonNumber: 3,
    });
  });

  it("completing a lesson does not move the latest lesson; opening does", async () => {
    const user = await createSignedInUser();
    await open("20", user.cookie);
    await complete("40", user.cookie);
    expect((await getCourse(user.cookie)).latestLessonNumber).toBe(20);
  });

  it("an unknown lesson page is a 404 and changes nothing", async () => {
    const user = await createSignedInUser();
    await open("4", user.cookie);
    for (const n of ["0", "79", "x"]) {
      const res = await open(n, user.cookie);
      expect(res.status).toBe(404);
    }
    expect((await getCourse(user.cookie)).latestLessonNumber).toBe(4);
  });

  it("sends an anonymous visitor of a lesson page to log in, and back to it after", async () => {
    const res = await call(lessonLoader, "/dashboard/course/1", { params: { lessonNumber: "1" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Fcourse%2F1");
  });

  it("gives the lesson page its body, try-it link, neighbours and progress", async () => {
    const user = await createSignedInUser();
    const data = await (await open("10", user.cookie)).json();
    expect(data.lesson).toMatchObject({
      number: 10,
      name: "What makes a winning product",
      moduleNumber: 2,
      tryIt: { url: "/dashboard/products?sort=winning-score&stage=rising", label: "Browse rising products by winning score" },
      completed: false,
    });
    expect(data.lesson.body).toContain("## The checklist");
    expect(data.previous).toEqual({ number: 9, name: "Validating demand before you spend" });
    expect(data.next).toEqual({ number: 11, name: "Reading trend stages: emerging, rising, peak, declining" });
    expect((await (await open("1", user.cookie)).json()).previous).toBeNull();
    expect((await (await open("78", user.cookie)).json()).next).toBeNull();
  });

  it("Mark as done on the lesson page completes the lesson", async () => {
    const user = await createSignedInUser();
    const res = await call(lessonAction, "/dashboard/course/2", { cookie: user.cookie, params: { lessonNumber: "2" }, form: { intent: "complete" } });
    expect(res.status).toBe(200);
    const data = await (await open("2", user.cookie)).json();
    expect(data.lesson.completed).toBe(true);
    expect(data.progress).toMatchObject({ lessonsCompleted: 1, progressPercentage: 1.3 });
  });
});

describe("continue where you left off", () => {
  it("the course page and the dashboard point at the lesson to continue", async () => {
    const user = await createSignedInUser();
    let dash = await (await call(dashboardLoader, "/dashboard?location=dashboard", { cookie: user.cookie })).json();
    expect(dash.course.continueLesson).toMatchObject({ number: 1 });
    expect(dash.course.latestLessonNumber).toBeNull();

    await open("1", user.cookie);
    dash = await (await call(dashboardLoader, "/dashboard?location=dashboard", { cookie: user.cookie })).json();
    expect(dash.course).toMatchObject({ latestLessonNumber: 1, continueLesson: { number: 1 } });

    await complete("1", user.cookie);
    const page = await (await call(coursePageLoader, "/dashboard/course", { cookie: user.cookie })).json();
    expect(page.view).toMatchObject({ latestLessonNumber: 1, progressPercentage: 1.3, continueLesson: { number: 2, moduleNumber: 1 } });
  });
});
