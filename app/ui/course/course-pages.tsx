// The course pages, the same on the site (/dashboard/course...) and in Shopify admin (/app/course...):
// the outline with "continue where you left off", one lesson with "Mark as done", and the page for a
// lesson that does not exist. Their loaders and action are app/pages/course/course.server.ts. Inside
// the admin every link stays under /app, including a lesson's "try it" link.
import type { SerializeFrom } from "@remix-run/node";
import { Form, isRouteErrorResponse, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { embeddedTwin, sitePathOn, type Surface } from "~/domain/shopify/embedded-paths";
import type { loadCourse, loadLesson } from "~/pages/course/course.server";
import { CourseLessonView } from "~/ui/course/course-lesson";
import { CourseOutline } from "~/ui/course/course-outline";
import { ContinueCourseCard } from "~/ui/course/course-progress";
import type { PathFor } from "~/ui/shared/markdown";

export interface CoursePaths {
  course: string;
  lesson: (n: number) => string;
  /** The surface's home, for the back action (the admin has its own navigation). */
  back: { content: string; url: string } | undefined;
  /** Where the product's paths in lessons lead. */
  pathFor: PathFor | undefined;
}

export function coursePaths(surface: Surface): CoursePaths {
  const course = sitePathOn(surface, "/dashboard/course");
  const lesson = (n: number) => `${course}/${n}`;
  if (surface === "site") {
    return { course, lesson, back: { content: "Overview", url: "/dashboard?location=dashboard" }, pathFor: undefined };
  }
  return { course, lesson, back: undefined, pathFor: embeddedTwin };
}

export function CourseOverviewPage({ data, surface }: { data: SerializeFrom<typeof loadCourse>; surface: Surface }) {
  const { view } = data;
  const paths = coursePaths(surface);
  return (
    <Page
      title="Course"
      subtitle={`Dropshipping from the first product to a profitable store: ${view.modules.length} modules, 78 lessons`}
      backAction={paths.back}
    >
      <Layout>
        <Layout.Section>
          <ContinueCourseCard progress={view} lessonUrl={paths.lesson} courseUrl={paths.course} />
        </Layout.Section>
        <Layout.Section>
          <CourseOutline modules={view.modules} lessonUrl={paths.lesson} currentLesson={view.latestLessonNumber} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function MarkDone({ done }: { done: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "complete";
  const undoing = navigation.state !== "idle" && navigation.formData?.get("intent") === "uncomplete";
  if (done) {
    return (
      <InlineStack gap="300" blockAlign="center">
        <Text as="p" tone="success">
          You marked this lesson as done.
        </Text>
        <Form method="post">
          <input type="hidden" name="intent" value="uncomplete" />
          <Button submit variant="plain" loading={undoing}>
            Mark as not done
          </Button>
        </Form>
      </InlineStack>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="complete" />
      <Button submit variant="primary" loading={busy}>
        Mark as done
      </Button>
    </Form>
  );
}

export function LessonPage({ data, surface }: { data: SerializeFrom<typeof loadLesson>; surface: Surface }) {
  const { lesson, previous, next, progress } = data;
  const paths = coursePaths(surface);
  return (
    <Page title={`Lesson ${lesson.number}: ${lesson.name}`} backAction={{ content: "Course", url: paths.course }}>
      <CourseLessonView
        lesson={lesson}
        previous={previous}
        next={next}
        progress={progress}
        lessonUrl={paths.lesson}
        pathFor={paths.pathFor}
        markDone={<MarkDone done={lesson.completed} />}
      />
    </Page>
  );
}

/** A lesson's error boundary: 404 for a lesson that does not exist, anything else as a failure. */
export function LessonErrorPage({ error, surface }: { error: unknown; surface: Surface }) {
  const paths = coursePaths(surface);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "object" && error.data && "error" in error.data
      ? String((error.data as { error: unknown }).error)
      : "This lesson could not be opened. Please try again.";
  return (
    <Page
      title={notFound ? "Lesson not found" : "Something went wrong"}
      backAction={{ content: "Course", url: paths.course }}
    >
      <BlockStack gap="400">
        <Banner tone={notFound ? "warning" : "critical"}>
          <p>{message}</p>
        </Banner>
        <div>
          <Button url={paths.course}>All lessons</Button>
        </div>
      </BlockStack>
    </Page>
  );
}
