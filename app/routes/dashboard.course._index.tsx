// /dashboard/course: the modules and lessons with the student's ticks, the progress bar and the
// "continue where you left off" button. The embedded app (/app/course) renders the same page.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadCourse } from "~/pages/course/course.server";
import { requireUser } from "~/pages/http/site-session.server";
import { CourseOverviewPage } from "~/ui/course/course-pages";

export const meta: MetaFunction = () => [{ title: "Course · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadCourse(await requireUser(request));
}

export default function CoursePage() {
  return <CourseOverviewPage data={useLoaderData<typeof loader>()} surface="site" />;
}
