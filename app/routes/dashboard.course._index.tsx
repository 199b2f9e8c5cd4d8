// /dashboard/course: the modules and lessons with the student's ticks, the progress bar and the
// "continue where you left off" button. The embedded app renders the same components.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { auth, course } from "~/services/index.server";
import { CourseOutline } from "~/ui/course-outline";
import { ContinueCourseCard } from "~/ui/course-progress";

export const meta: MetaFunction = () => [{ title: "Course · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  return { view: await course.getCourse(user.id) };
}

const lessonUrl = (n: number) => `/dashboard/course/${n}`;

export default function CoursePage() {
  const { view } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Course"
      subtitle={`Dropshipping from the first product to a profitable store: ${view.modules.length} modules, 78 lessons`}
      backAction={{ content: "Overview", url: "/dashboard?location=dashboard" }}
    >
      <Layout>
        <Layout.Section>
          <ContinueCourseCard progress={view} lessonUrl={lessonUrl} courseUrl="/dashboard/course" />
        </Layout.Section>
        <Layout.Section>
          <CourseOutline modules={view.modules} lessonUrl={lessonUrl} currentLesson={view.latestLessonNumber} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
