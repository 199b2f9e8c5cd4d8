// Marking a lesson NOT done: DELETE /api/course/lessons/{n}/complete and the lesson page's
// intent=uncomplete (both surfaces share the page action), with the progress updated, and the
// dashboard's continue card naming one lesson for both its sentence and its button.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as courseLoader } from "~/routes/api.course";
import { action as completeAction } from "~/routes/api.course.lessons.$lessonNumber.complete";
import { action as lessonAction, loader as lessonLoader } from "~/routes/dashboard.course.$lessonNumber";
import { loader as dashboardLoader } from "~/routes/dashboard._index";
import { continueSentence } from "~/domain/course";
import { syncCourseContent } from "~/services/course/content.server";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

beforeAll(async () => {
  await syncCourseContent(db);
});

const lessonApi = (n: string, method: "POST" | "DELETE", cookie: string | null) =>
  call(completeAction, `/api/course/lessons/${encodeURIComponent(n)}/complete`, { method, cookie, params: { lessonNumber: n } });
const done = async (cookie: string) => {
  const course = await (await call(courseLoader, "/api/course", { cookie })).json();
  return (course.modules as { lessons: { number: number; completed: boolean }[] }[])
    .flatMap((m) => m.lessons)
    .filter((l) => l.completed)
    .map((l) => l.number);
};

describe("DELETE /api/course/lessons/{n}/complete", () => {
  it("marks a done lesson not done and answers the updated progress; twice changes nothing more", async () => {
    const user = await createSignedInUser();
    await lessonApi("3", "POST", user.cookie);
    await lessonApi("4", "POST", user.cookie);
    const res = await lessonApi("3", "DELETE", user.cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ lessonNumber: 3, wasDone: true, lessonsCompleted: 1, progressPercentage: 1.3, completed: false });
    expect(await done(user.cookie)).toEqual([4]);
    const stored = await db.userCourse.findUniqueOrThrow({ where: { userId: user.id }, select: { progressPercentage: true } });
    expect(stored.progressPercentage).toBe(1.3);

    const again = await (await lessonApi("3", "DELETE", user.cookie)).json();
    expect(again).toMatchObject({ wasDone: false, lessonsCompleted: 1 });
    expect(await done(user.cookie)).toEqual([4]);
  });

  it("a finished course is no longer completed once a lesson is undone", async () => {
    const user = await createSignedInUser();
    await db.lessonCompletion.createMany({ data: Array.from({ length: 78 }, (_, i) => ({ userId: user.id, lessonNumber: i + 1 })) });
    await lessonApi("78", "POST", user.cookie);
    const res = await (await lessonApi("40", "DELETE", user.cookie)).json();
    expect(res).toMatchObject({ lessonsCompleted: 77, progressPercentage: 98.7, completed: false });
  });

  it("answers 401 to an anonymous caller and 404 to an unknown lesson, changing nothing", async () => {
    const user = await createSignedInUser();
    await lessonApi("2", "POST", user.cookie);
    expect((await lessonApi("2", "DELETE", null)).status).toBe(401);
    const unknown = await lessonApi("79", "DELETE", user.cookie);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("There is no lesson 79. Lessons are numbered 1 to 78.");
    expect(await done(user.cookie)).toEqual([2]);
  });
});

describe("the lesson page's Mark as not done (intent=uncomplete)", () => {
  it("undoes the tick the page shows, and the progress follows", async () => {
    const user = await createSignedInUser();
    const post = (intent: string) =>
      call(lessonAction, "/dashboard/course/2", { cookie: user.cookie, params: { lessonNumber: "2" }, form: { intent } });
    await post("complete");
    const opened = async () => (await call(lessonLoader, "/dashboard/course/2", { cookie: user.cookie, params: { lessonNumber: "2" } })).json();
    expect((await opened()).lesson.completed).toBe(true);
    const res = await post("uncomplete");
    expect(res.status).toBe(200);
    const after = await opened();
    expect(after.lesson.completed).toBe(false);
    expect(after.progress).toMatchObject({ lessonsCompleted: 0, progressPercentage: 0 });
  });
});

describe("the continue card", () => {
  it("names one lesson to continue with in both its sentence and its button (opened 1, done 1 and 2)", async () => {
    const user = await createSignedInUser();
    await call(lessonLoader, "/dashboard/course/1", { cookie: user.cookie, params: { lessonNumber: "1" } });
    await lessonApi("1", "POST", user.cookie);
    await lessonApi("2", "POST", user.cookie);
    const { course: courseSummary } = await (await call(dashboardLoader, "/dashboard?location=dashboard", { cookie: user.cookie })).json();
    expect(courseSummary.continueLesson.number).toBe(3);
    const sentence = continueSentence(courseSummary.latestLessonNumber, courseSummary.continueLesson);
    expect(sentence).toMatch(/^Lesson 1 is done\. Next: lesson 3, .+ \(module \d+: .+\)\.$/);
  });
});
