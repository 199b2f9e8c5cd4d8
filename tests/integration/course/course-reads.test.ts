// The course outline, ticks and latest lesson that the course page, GET /api/course and the dashboard's card read
// on every request come from prepared statements on the SqlReader (docs/decisions/039); they must answer exactly
// what the Prisma reads answer (a client with no reader, e.g. a transaction's, still reads through Prisma).
import { beforeAll, describe, expect, it } from "vitest";
import { db, type Db } from "~/db.server";
import { syncCourseContent } from "~/services/course/content.server";
import { completeLesson, getCourse, getCourseSummary, openLesson } from "~/services/course.server";
import { createUser } from "../../helpers/site-users";

beforeAll(async () => {
  await syncCourseContent(db);
});

const throughPrisma = (userId: string) => db.$transaction((tx) => getCourse(tx as unknown as Db, userId));

describe("the course reads", () => {
  it("answer what Prisma answers for a new user, and after lessons are opened and ticked", async () => {
    const user = await createUser();
    const fresh = await getCourse(db, user.id);
    expect(fresh).toEqual(await throughPrisma(user.id));
    expect(fresh.modules.length).toBeGreaterThan(1);
    expect(fresh.modules.flatMap((m) => m.lessons.map((l) => l.number))).toEqual(
      [...fresh.modules.flatMap((m) => m.lessons.map((l) => l.number))].sort((a, b) => a - b),
    );
    expect(fresh.latestLessonNumber).toBeNull();

    await completeLesson(db, user.id, 1);
    await completeLesson(db, user.id, 2);
    await openLesson(db, user.id, 7);
    const later = await getCourse(db, user.id);
    expect(later).toEqual(await throughPrisma(user.id));
    expect(later).toMatchObject({ latestLessonNumber: 7, continueLesson: { number: 7 } });
    expect(later.modules[0].lessons.slice(0, 3).map((l) => l.completed)).toEqual([true, true, false]);
    const { modules: _modules, ...summary } = later;
    expect(await getCourseSummary(db, user.id)).toEqual(summary);
  });
});
