// Course progress rules (seed §3 user_courses, §4 "complete when completed is true", §9 "lessons
// completed divided by 78"). Pure: no I/O, so both surfaces and the tests share one definition.
import { AppError } from "~/domain/errors";

/** Lessons are numbered 1..TOTAL_LESSONS across the whole course. */
export const TOTAL_LESSONS = 78;

/** True for an integer lesson number that exists in the course (1..78). */
export function isLessonNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= TOTAL_LESSONS;
}

/**
 * A lesson number from a URL segment. Only plain decimal digits count ("7", "07"); "7.0", "1e1",
 * " 7", "-1" and numbers outside 1..78 are not lessons, so the caller answers 404.
 */
export function parseLessonNumber(segment: string | undefined | null): number | null {
  if (!segment || !/^\d{1,3}$/.test(segment)) return null;
  const n = Number(segment);
  return isLessonNumber(n) ? n : null;
}

/**
 * progressPercentage = distinct lessons completed / 78, as a percentage rounded to one decimal place
 * (half up). Integer arithmetic keeps it exact: 1 -> 1.3, 39 -> 50, 77 -> 98.7, 78 -> 100. Rounding
 * can never show 100 before the last lesson (77/78 = 98.72) nor 0 after the first (1/78 = 1.28).
 */
export function progressPercentage(completedCount: number): number {
  const count = Math.max(0, Math.min(TOTAL_LESSONS, Math.floor(completedCount)));
  return Math.round((count * 1000) / TOTAL_LESSONS) / 10;
}

/** The course is completed only when every one of the 78 lessons is done. */
export function isCourseCompleted(completedCount: number): boolean {
  return completedCount >= TOTAL_LESSONS;
}

/** Only real lesson numbers count, each once, whatever the caller passes in. */
export function distinctCompleted(lessonNumbers: Iterable<number>): Set<number> {
  const set = new Set<number>();
  for (const n of lessonNumbers) if (isLessonNumber(n)) set.add(n);
  return set;
}

export interface CourseProgress {
  lessonsCompleted: number;
  totalLessons: number;
  progressPercentage: number;
  completed: boolean;
}

export function courseProgress(completedLessonNumbers: Iterable<number>): CourseProgress {
  const lessonsCompleted = distinctCompleted(completedLessonNumbers).size;
  return {
    lessonsCompleted,
    totalLessons: TOTAL_LESSONS,
    progressPercentage: progressPercentage(lessonsCompleted),
    completed: isCourseCompleted(lessonsCompleted),
  };
}

/**
 * "Continue where you left off": the lesson to open next.
 * - the last lesson opened, if it is not done yet (the user left in the middle of it);
 * - otherwise the first lesson after it that is not done, wrapping round to lesson 1;
 * - with nothing opened yet, the first lesson not done (lesson 1 for a new student);
 * - null when every lesson is done.
 */
export function continueLessonNumber(
  completedLessonNumbers: Iterable<number>,
  latestLessonNumber: number | null | undefined,
): number | null {
  const done = distinctCompleted(completedLessonNumbers);
  if (done.size >= TOTAL_LESSONS) return null;
  const start = isLessonNumber(latestLessonNumber) ? latestLessonNumber : 1;
  if (isLessonNumber(latestLessonNumber) && !done.has(latestLessonNumber)) return latestLessonNumber;
  for (let step = 0; step < TOTAL_LESSONS; step++) {
    const n = ((start - 1 + step) % TOTAL_LESSONS) + 1;
    if (!done.has(n)) return n;
  }
  return null;
}

export interface ContinueLesson {
  number: number;
  name: string;
  moduleNumber: number;
  moduleName: string;
}

/**
 * The one sentence the "continue" card says, from the same source as its button (continueLessonNumber's
 * lesson), so the two can never name different lessons as where to pick up:
 * - the last lesson opened is not done: "You were reading lesson 3, …";
 * - it is done: "Lesson 1 is done. Next: lesson 3, …" (the first not-done lesson after it);
 * - nothing opened yet: "Next: lesson 1, …"; null when there is nothing left to continue.
 */
export function continueSentence(latestLessonNumber: number | null | undefined, next: ContinueLesson | null): string | null {
  if (!next) return null;
  const where = `lesson ${next.number}, ${next.name} (module ${next.moduleNumber}: ${next.moduleName})`;
  if (latestLessonNumber === next.number) return `You were reading ${where}.`;
  if (isLessonNumber(latestLessonNumber)) return `Lesson ${latestLessonNumber} is done. Next: ${where}.`;
  return `Next: ${where}.`;
}

/** Previous and next lesson numbers across module boundaries; null at either end of the course. */
export function neighbourLessons(lessonNumber: number): { previous: number | null; next: number | null } {
  return {
    previous: lessonNumber > 1 ? lessonNumber - 1 : null,
    next: lessonNumber < TOTAL_LESSONS ? lessonNumber + 1 : null,
  };
}

/** "1 of 78 lessons · 1.3%": the same words on both surfaces. */
export function progressLabel(progress: Pick<CourseProgress, "lessonsCompleted" | "progressPercentage">): string {
  return `${progress.lessonsCompleted} of ${TOTAL_LESSONS} lessons · ${progress.progressPercentage}%`;
}

export function unknownLessonMessage(raw: string | number | undefined | null): string {
  const asked = String(raw ?? "").slice(0, 20);
  return `${asked ? `There is no lesson ${asked}.` : "There is no such lesson."} Lessons are numbered 1 to ${TOTAL_LESSONS}.`;
}

/** A lesson number from a route parameter, or AppError 404 naming what was asked for. */
export function requireLessonNumber(raw: string | undefined): number {
  const n = parseLessonNumber(raw);
  if (n === null) throw new AppError(404, unknownLessonMessage(raw));
  return n;
}
