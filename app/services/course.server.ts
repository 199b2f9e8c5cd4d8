// The course for one user (seed user_courses, users.lessonsCompleted): the modules and lessons with
// the user's ticks, opening a lesson (which "continue where you left off" follows), and marking one
// done. Completions (LessonCompletion rows) are the truth; UserCourse keeps the seed's fields
// (progressPercentage, completed, latest module/lesson) up to date for both surfaces and marketing.
import type { Db, DbClient, SqlReader } from "~/db.server";
import { readerFor, writeTransaction } from "~/db.server";
import { outboxRows, outboxWritten, writeOutbox } from "~/services/outbox.server";
import { AppError } from "~/domain/errors";
import {
  continueLessonNumber,
  courseProgress,
  neighbourLessons,
  requireLessonNumber,
  TOTAL_LESSONS,
  unknownLessonMessage,
  type CourseProgress,
} from "~/domain/course";

export { requireLessonNumber, unknownLessonMessage };

async function completedNumbers(db: Db, userId: string): Promise<number[]> {
  const rows = await db.lessonCompletion.findMany({
    where: { userId, lessonNumber: { gte: 1, lte: TOTAL_LESSONS } },
    select: { lessonNumber: true },
  });
  return rows.map((r) => r.lessonNumber);
}

/** Read on every dashboard (the community prompt's facts): a prepared statement on the SqlReader (docs/decisions/076), else Prisma. */
export async function countCompletedLessons(db: Db, userId: string): Promise<number> {
  const reader = readerFor(db);
  if (reader) {
    const row = await reader.row(`SELECT COUNT(*) FROM "LessonCompletion" WHERE "userId" = ? AND "lessonNumber" BETWEEN 1 AND ?`, [userId, TOTAL_LESSONS]);
    return Number(row?.[0] ?? 0);
  }
  return db.lessonCompletion.count({ where: { userId, lessonNumber: { gte: 1, lte: TOTAL_LESSONS } } });
}

const latestSelect = {
  latestModuleName: true,
  latestModuleNumber: true,
  latestLessonName: true,
  latestLessonNumber: true,
} as const;

export interface LatestLesson {
  latestModuleName: string | null;
  latestModuleNumber: number | null;
  latestLessonName: string | null;
  latestLessonNumber: number | null;
}

const NO_LATEST: LatestLesson = {
  latestModuleName: null,
  latestModuleNumber: null,
  latestLessonName: null,
  latestLessonNumber: null,
};

async function latestOf(db: Db, userId: string): Promise<LatestLesson> {
  const row = await db.userCourse.findUnique({ where: { userId }, select: latestSelect });
  return row ?? NO_LATEST;
}

export type ProgressView = CourseProgress & LatestLesson;

export interface CourseView extends ProgressView {
  modules: {
    number: number;
    name: string;
    summary: string;
    lessons: { number: number; name: string; summary: string; completed: boolean }[];
  }[];
  /** The lesson "continue where you left off" opens; null when every lesson is done. */
  continueLesson: { number: number; name: string; moduleNumber: number; moduleName: string } | null;
}

// The course page, its JSON twin and the dashboard's card read the outline, the ticks and the latest lesson on
// every request: three prepared statements on the SqlReader instead of four Prisma queries (docs/decisions/039).
const OUTLINE_SQL =
  'SELECT m."number", m."name", m."summary", l."number", l."name", l."summary" FROM "CourseModule" m ' +
  'LEFT JOIN "CourseLesson" l ON l."moduleNumber" = m."number" ORDER BY m."number", l."number"';
const DONE_SQL =
  'SELECT "lessonNumber" FROM "LessonCompletion" WHERE "userId" = ? AND "lessonNumber" >= ? AND "lessonNumber" <= ?';
const LATEST_SQL =
  'SELECT "latestModuleName", "latestModuleNumber", "latestLessonName", "latestLessonNumber" FROM "UserCourse" WHERE "userId" = ?';

type OutlineModule = {
  number: number;
  name: string;
  summary: string;
  lessons: { number: number; name: string; summary: string }[];
};

async function readCourse(reader: SqlReader, userId: string): Promise<[OutlineModule[], number[], LatestLesson]> {
  const [outline, done, [latest]] = await Promise.all([
    reader.rows(OUTLINE_SQL),
    reader.rows(DONE_SQL, [userId, 1, TOTAL_LESSONS]),
    reader.rows(LATEST_SQL, [userId]),
  ]);
  const modules: OutlineModule[] = [];
  for (const [number, name, summary, lessonNumber, lessonName, lessonSummary] of outline) {
    let mod = modules.at(-1);
    if (mod?.number !== Number(number)) {
      mod = { number: Number(number), name: String(name), summary: String(summary), lessons: [] };
      modules.push(mod);
    }
    if (lessonNumber !== null)
      mod.lessons.push({ number: Number(lessonNumber), name: String(lessonName), summary: String(lessonSummary) });
  }
  const orNull = <T>(v: unknown, as: (v: unknown) => T) => (v === null || v === undefined ? null : as(v));
  return [
    modules,
    done.map(([n]) => Number(n)),
    latest
      ? {
          latestModuleName: orNull(latest[0], String),
          latestModuleNumber: orNull(latest[1], Number),
          latestLessonName: orNull(latest[2], String),
          latestLessonNumber: orNull(latest[3], Number),
        }
      : NO_LATEST,
  ];
}

/** The whole course with the user's ticks and progress. */
export async function getCourse(db: Db, userId: string): Promise<CourseView> {
  const reader = readerFor(db);
  const [modules, done, latest] = reader
    ? await readCourse(reader, userId)
    : await Promise.all([
        db.courseModule.findMany({
          orderBy: { number: "asc" },
          select: {
            number: true,
            name: true,
            summary: true,
            lessons: { orderBy: { number: "asc" }, select: { number: true, name: true, summary: true } },
          },
        }),
        completedNumbers(db, userId),
        latestOf(db, userId),
      ]);
  const doneSet = new Set(done);
  const continueNumber = continueLessonNumber(doneSet, latest.latestLessonNumber);
  let continueLesson: CourseView["continueLesson"] = null;
  for (const mod of modules) {
    const lesson = mod.lessons.find((l) => l.number === continueNumber);
    if (lesson)
      continueLesson = { number: lesson.number, name: lesson.name, moduleNumber: mod.number, moduleName: mod.name };
  }
  return {
    modules: modules.map((m) => ({
      ...m,
      lessons: m.lessons.map((l) => ({ ...l, completed: doneSet.has(l.number) })),
    })),
    ...courseProgress(doneSet),
    ...latest,
    continueLesson,
  };
}

/** The dashboard card: progress and where to continue, without the lesson list. */
export async function getCourseSummary(db: Db, userId: string) {
  const view = await getCourse(db, userId);
  const { modules: _modules, ...rest } = view;
  return rest;
}

export async function getProgress(db: Db, userId: string): Promise<ProgressView> {
  const [done, latest] = await Promise.all([completedNumbers(db, userId), latestOf(db, userId)]);
  return { ...courseProgress(done), ...latest };
}

async function findLesson(db: Db, lessonNumber: number) {
  const lesson = await db.courseLesson.findUnique({
    where: { number: lessonNumber },
    select: {
      number: true,
      slug: true,
      name: true,
      summary: true,
      body: true,
      videoUrl: true,
      tryItUrl: true,
      tryItLabel: true,
      module: { select: { number: true, name: true } },
    },
  });
  if (!lesson) throw new AppError(404, unknownLessonMessage(lessonNumber));
  return lesson;
}

/**
 * Opens a lesson for reading and records it as the user's latest (module and lesson names and
 * numbers), which is what "continue where you left off" follows. Unknown lesson: 404.
 */
export async function openLesson(db: Db, userId: string, lessonNumber: number) {
  const lesson = await findLesson(db, lessonNumber);
  const { previous, next } = neighbourLessons(lesson.number);
  const [done, neighbours] = await Promise.all([
    completedNumbers(db, userId),
    db.courseLesson.findMany({
      where: { number: { in: [previous, next].filter((n): n is number => n !== null) } },
      select: { number: true, name: true },
    }),
  ]);
  const progress = courseProgress(done);
  const latest: LatestLesson = {
    latestModuleName: lesson.module.name,
    latestModuleNumber: lesson.module.number,
    latestLessonName: lesson.name,
    latestLessonNumber: lesson.number,
  };
  await db.userCourse.upsert({
    where: { userId },
    create: { userId, progressPercentage: progress.progressPercentage, completed: progress.completed, ...latest },
    update: latest,
    select: { userId: true },
  });
  const find = (n: number | null) => neighbours.find((l) => l.number === n) ?? null;
  return {
    lesson: {
      number: lesson.number,
      slug: lesson.slug,
      name: lesson.name,
      summary: lesson.summary,
      body: lesson.body,
      videoUrl: lesson.videoUrl,
      tryIt: lesson.tryItUrl ? { url: lesson.tryItUrl, label: lesson.tryItLabel ?? "Try it" } : null,
      moduleNumber: lesson.module.number,
      moduleName: lesson.module.name,
      completed: done.includes(lesson.number),
    },
    previous: find(previous),
    next: find(next),
    progress: { ...progress, ...latest },
  };
}
export type OpenedLesson = Awaited<ReturnType<typeof openLesson>>;

/** Recomputes the user's progress from their completions and stores it (inside the caller's transaction). */
async function storeProgress(tx: DbClient, userId: string) {
  const rows = await tx.lessonCompletion.findMany({
    where: { userId, lessonNumber: { gte: 1, lte: TOTAL_LESSONS } },
    select: { lessonNumber: true },
  });
  const progress = courseProgress(rows.map((r) => r.lessonNumber));
  const stored = await tx.userCourse.upsert({
    where: { userId },
    create: { userId, progressPercentage: progress.progressPercentage, completed: progress.completed },
    update: { progressPercentage: progress.progressPercentage, completed: progress.completed },
    select: latestSelect,
  });
  return { progress, stored };
}

/**
 * Marks a lesson done. Idempotent: a second call changes nothing and answers the same progress.
 * The completion and the stored progress change in one transaction, so two lessons completed at the
 * same moment cannot leave a stale percentage behind. Unknown lesson: 404.
 */
export async function completeLesson(db: Db, userId: string, lessonNumber: number) {
  await findLesson(db, lessonNumber);
  const { alreadyDone, progress, latest } = await writeTransaction(db, async (tx) => {
    const existing = await tx.lessonCompletion.findUnique({
      where: { userId_lessonNumber: { userId, lessonNumber } },
      select: { lessonNumber: true },
    });
    if (!existing) {
      await tx.lessonCompletion.upsert({
        where: { userId_lessonNumber: { userId, lessonNumber } },
        create: { userId, lessonNumber },
        update: {},
        select: { lessonNumber: true },
      });
    }
    const wasComplete =
      (await tx.userCourse.findUnique({ where: { userId }, select: { completed: true } }))?.completed ?? false;
    const { progress, stored } = await storeProgress(tx, userId);
    // courseProgress on the Klaviyo profile, and "Course Completed" when this lesson finished the course.
    if (!existing) {
      await writeOutbox(
        tx,
        outboxRows.course(userId, {
          progressPercentage: progress.progressPercentage,
          completedNow: progress.completed && !wasComplete,
        }),
      );
    }
    return { alreadyDone: Boolean(existing), progress, latest: stored };
  });
  if (!alreadyDone) outboxWritten();
  return { lessonNumber, alreadyDone, ...progress, ...latest };
}
export type CompletedLesson = Awaited<ReturnType<typeof completeLesson>>;

/**
 * Marks a lesson not done (undoes completeLesson), with the stored progress updated in the same
 * transaction. Idempotent: a lesson that was not done stays so and answers wasDone: false. Unknown
 * lesson: 404.
 */
export async function uncompleteLesson(db: Db, userId: string, lessonNumber: number) {
  await findLesson(db, lessonNumber);
  const { wasDone, progress, latest } = await writeTransaction(db, async (tx) => {
    const removed = await tx.lessonCompletion.deleteMany({ where: { userId, lessonNumber } });
    const { progress, stored } = await storeProgress(tx, userId);
    if (removed.count > 0) {
      await writeOutbox(
        tx,
        outboxRows.course(userId, { progressPercentage: progress.progressPercentage, completedNow: false }),
      );
    }
    return { wasDone: removed.count > 0, progress, latest: stored };
  });
  if (wasDone) outboxWritten();
  return { lessonNumber, wasDone, ...progress, ...latest };
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { getCourse, getCourseSummary, getProgress, openLesson, completeLesson, uncompleteLesson };
