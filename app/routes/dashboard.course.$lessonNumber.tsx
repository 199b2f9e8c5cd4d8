// /dashboard/course/{lessonNumber}: one lesson. Opening it records it as the latest lesson (what
// "continue where you left off" follows); "Mark as done" posts here. Unknown lesson: 404 in the frame.
// The embedded app (/app/course/{lessonNumber}) renders the same page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { lessonAction, loadLesson } from "~/pages/course/course.server";
import { requireUser } from "~/pages/http/site-session.server";
import { LessonErrorPage, LessonPage } from "~/ui/course/course-pages";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `Lesson ${data.lesson.number}: ${data.lesson.name} · Course · Winning Products`
      : "Lesson not found · Winning Products",
  },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadLesson(params.lessonNumber, await requireUser(request));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return lessonAction(request, params.lessonNumber, await requireUser(request));
}

export default function Lesson() {
  return <LessonPage data={useLoaderData<typeof loader>()} surface="site" />;
}

export function ErrorBoundary() {
  return <LessonErrorPage error={useRouteError()} surface="site" />;
}
