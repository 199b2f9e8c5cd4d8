// One lesson: the body (Markdown, rendered as React elements), the optional video, the "try it" link
// into the product, the surface's own "Mark as done" control, and previous / next. Shared by both
// surfaces: each passes its lesson paths, its form, and where the product's paths lead on it.
import { Badge, BlockStack, Button, Card, InlineStack, Layout, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { CourseProgressBar } from "~/ui/course/course-progress";
import { Markdown, type PathFor } from "~/ui/shared/markdown";

export interface LessonData {
  number: number;
  name: string;
  summary: string;
  body: string;
  videoUrl: string | null;
  tryIt: { url: string; label: string } | null;
  moduleNumber: number;
  moduleName: string;
  completed: boolean;
}

export function CourseLessonView({
  lesson,
  previous,
  next,
  progress,
  lessonUrl,
  markDone,
  pathFor,
}: {
  lesson: LessonData;
  previous: { number: number; name: string } | null;
  next: { number: number; name: string } | null;
  progress: { lessonsCompleted: number; progressPercentage: number; completed: boolean };
  lessonUrl: (n: number) => string;
  /** The surface's "Mark as done" control (a form posting to its own action). */
  markDone: ReactNode;
  /** Where the product's paths (/dashboard/...) lead on this surface; null hides a link. */
  pathFor?: PathFor;
}) {
  const tryItUrl = lesson.tryIt && pathFor ? pathFor(lesson.tryIt.url) : (lesson.tryIt?.url ?? null);
  return (
    <Layout>
      <Layout.Section>
        <BlockStack gap="400">
          <Card>
            <BlockStack gap="400">
              <InlineStack gap="200" blockAlign="center">
                <Text as="p" tone="subdued">
                  Module {lesson.moduleNumber}: {lesson.moduleName}
                </Text>
                {lesson.completed ? <Badge tone="success">Done</Badge> : null}
              </InlineStack>
              <Text as="p" variant="bodyLg">
                {lesson.summary}
              </Text>
              {lesson.videoUrl ? (
                <div>
                  <Button url={lesson.videoUrl} external>
                    Watch the video
                  </Button>
                </div>
              ) : null}
              <Markdown source={lesson.body} pathFor={pathFor} />
            </BlockStack>
          </Card>
          {lesson.tryIt && tryItUrl ? (
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Try it now
                </Text>
                <Text as="p" tone="subdued">
                  Put this lesson to work in the app while it is fresh.
                </Text>
                <div>
                  <Button url={tryItUrl}>{lesson.tryIt.label}</Button>
                </div>
              </BlockStack>
            </Card>
          ) : null}
          <InlineStack align="space-between" gap="200">
            {previous ? <Button url={lessonUrl(previous.number)}>{`← Lesson ${previous.number}: ${previous.name}`}</Button> : <span />}
            {next ? (
              <Button url={lessonUrl(next.number)} variant={lesson.completed ? "primary" : undefined}>
                {`Lesson ${next.number}: ${next.name} →`}
              </Button>
            ) : null}
          </InlineStack>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Your progress
            </Text>
            <CourseProgressBar progress={progress} />
            {markDone}
          </BlockStack>
        </Card>
      </Layout.Section>
    </Layout>
  );
}
