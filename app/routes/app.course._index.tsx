// The course inside Shopify admin: the same page and loader as /dashboard/course, for the user the shop
// is linked to (progress is the account's, on both surfaces).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadCourse } from "~/pages/course/course.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { CourseOverviewPage } from "~/ui/course/course-pages";

export const meta: MetaFunction = () => [{ title: "Course · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadCourse(user);
}

export default function EmbeddedCourse() {
  return <CourseOverviewPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
