// GET /api/course (both surfaces): the modules with their lessons (number, name, completed), the user's
// progressPercentage and completed flag, and the latest module and lesson opened. 401 when anonymous.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { courseJson } from "~/pages/course/course.server";
import { methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { course } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  return Response.json(courseJson(await course.getCourse(user.id)), { headers: { "Cache-Control": "private, no-store" } });
}

export function action() {
  return methodNotAllowed("GET");
}
