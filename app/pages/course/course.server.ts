// The course pages' loaders and action, shared by the site (/dashboard/course...) and the embedded app
// (/app/course...). Each surface's route authenticates its own way and hands the user over. Opening a
// lesson records it as the latest one (what "continue where you left off" follows); an unknown lesson
// is a thrown 404 { error } (the surface's error boundary shows it).
import { AppError } from "~/domain/errors";
import { handleServiceErrors, readForm, toErrorResponse } from "~/pages/http/http.server";
import { requireLessonNumber as lessonNumberOrAppError } from "~/domain/course";
import type { User } from "~/services/accounts/auth.server";
import type { CourseView } from "~/services/course.server";
import { childLogger } from "~/logger.server";
import { course } from "~/services/index.server";

const log = childLogger("course");

/** GET /api/course, exactly: modules with lessons (number, name, completed), progress, latest lesson. */
export function courseJson(view: CourseView) {
  return {
    modules: view.modules.map((m) => ({
      number: m.number,
      name: m.name,
      lessons: m.lessons.map((l) => ({ number: l.number, name: l.name, completed: l.completed })),
    })),
    progressPercentage: view.progressPercentage,
    completed: view.completed,
    latestModuleName: view.latestModuleName,
    latestModuleNumber: view.latestModuleNumber,
    latestLessonName: view.latestLessonName,
    latestLessonNumber: view.latestLessonNumber,
  };
}

/** A lesson number from a route parameter, or a thrown 404 { error } naming what was asked for. */
export function requireLessonNumber(raw: string | undefined): number {
  try {
    return lessonNumberOrAppError(raw);
  } catch (error) {
    if (error instanceof AppError) throw toErrorResponse(error);
    throw error;
  }
}

export async function loadCourse(user: User) {
  const view = await course.getCourse(user.id);
  // The seller is told the lessons are not available; the operator, what to run.
  if (view.modules.length === 0) log.warn("The course has no lessons on this server: load them with npm run db:seed.");
  return { view };
}

export async function loadLesson(lessonParam: string | undefined, user: User) {
  const lessonNumber = requireLessonNumber(lessonParam);
  return handleServiceErrors(() => course.openLesson(user.id, lessonNumber));
}

/** "Mark as done" posts intent=complete to the lesson's own page; "Mark as not done" intent=uncomplete. */
export async function lessonAction(request: Request, lessonParam: string | undefined, user: User) {
  const lessonNumber = requireLessonNumber(lessonParam);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "uncomplete") {
    const progress = await handleServiceErrors(() => course.uncompleteLesson(user.id, lessonNumber));
    return { uncompleted: progress.lessonNumber };
  }
  if (intent !== "complete") return Response.json({ error: "Unknown action." }, { status: 400 });
  const progress = await handleServiceErrors(() => course.completeLesson(user.id, lessonNumber));
  return { completed: progress.lessonNumber };
}
