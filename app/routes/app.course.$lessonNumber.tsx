// One lesson inside Shopify admin: the same page, loader and action as /dashboard/course/{lessonNumber};
// its "try it" link opens the embedded app's page (/app/products?...), not the site's.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { lessonAction, loadLesson } from "~/pages/course/course.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { LessonErrorPage, LessonPage } from "~/ui/course/course-pages";
import { EmbeddedShellError } from "~/ui/shared/embedded-error";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `Lesson ${data.lesson.number}: ${data.lesson.name} · Course · Winning Products`
      : "Lesson not found · Winning Products",
  },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadLesson(params.lessonNumber, user);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return lessonAction(request, params.lessonNumber, user);
}

export default function EmbeddedLesson() {
  return <LessonPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}

// A lesson that does not exist is this page's; anything else (Shopify's re-authentication answers among
// them) is the embedded shell's.
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <LessonErrorPage error={error} surface="embedded" />;
  return <EmbeddedShellError error={error} />;
}
