// POST /api/course/lessons/{lessonNumber}/complete: marks a lesson done and answers the updated progress
// { lessonNumber, alreadyDone, lessonsCompleted, totalLessons, progressPercentage, completed,
//   latestModuleName, latestModuleNumber, latestLessonName, latestLessonNumber }.
// Idempotent (a second call changes nothing); unknown or non-numeric lesson -> 404; anonymous -> 401.
// DELETE marks it not done again and answers the same progress with wasDone in place of alreadyDone.
import type { ActionFunctionArgs } from "@remix-run/node";
import { requireLessonNumber } from "~/pages/course/course.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { course } from "~/services/index.server";

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return methodNotAllowed("POST, DELETE");
  const user = await requireApiUser(request);
  const lessonNumber = requireLessonNumber(params.lessonNumber);
  const progress =
    request.method === "DELETE"
      ? await handleServiceErrors(() => course.uncompleteLesson(user.id, lessonNumber))
      : await handleServiceErrors(() => course.completeLesson(user.id, lessonNumber));
  return Response.json(progress, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return methodNotAllowed("POST, DELETE");
}
