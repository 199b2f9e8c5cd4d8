// /dashboard/course/{lessonNumber}: one lesson. Opening it records it as the latest lesson (what
// "continue where you left off" follows); "Mark as done" posts here. Unknown lesson: 404 in the frame.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { Banner, BlockStack, Button, Page, Text } from "@shopify/polaris";
import { requireLessonNumber } from "~/services/course.server";
import { auth, course } from "~/services/index.server";
import { CourseLessonView } from "~/ui/course-lesson";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Lesson ${data.lesson.number}: ${data.lesson.name} · Course · Winning Products` : "Lesson not found · Winning Products" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  return course.openLesson(user.id, requireLessonNumber(params.lessonNumber));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  const lessonNumber = requireLessonNumber(params.lessonNumber);
  const form = await request.formData();
  if (form.get("intent") !== "complete") return Response.json({ error: "Unknown action." }, { status: 400 });
  const progress = await course.completeLesson(user.id, lessonNumber);
  return { completed: progress.lessonNumber };
}

const lessonUrl = (n: number) => `/dashboard/course/${n}`;

function MarkDone({ done }: { done: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "complete";
  if (done) {
    return (
      <Text as="p" tone="success">
        You marked this lesson as done.
      </Text>
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

export default function LessonPage() {
  const { lesson, previous, next, progress } = useLoaderData<typeof loader>();
  return (
    <Page
      title={`Lesson ${lesson.number}: ${lesson.name}`}
      backAction={{ content: "Course", url: "/dashboard/course" }}
    >
      <CourseLessonView
        lesson={lesson}
        previous={previous}
        next={next}
        progress={progress}
        lessonUrl={lessonUrl}
        markDone={<MarkDone done={lesson.completed} />}
      />
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "object" && error.data && "error" in error.data
      ? String((error.data as { error: unknown }).error)
      : "This lesson could not be opened. Please try again.";
  return (
    <Page title={notFound ? "Lesson not found" : "Something went wrong"} backAction={{ content: "Course", url: "/dashboard/course" }}>
      <BlockStack gap="400">
        <Banner tone={notFound ? "warning" : "critical"}>
          <p>{message}</p>
        </Banner>
        <div>
          <Button url="/dashboard/course">All lessons</Button>
        </div>
      </BlockStack>
    </Page>
  );
}
