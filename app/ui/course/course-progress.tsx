// Course progress and "continue where you left off", for the course page and the dashboard of both
// surfaces. Takes plain data and a lessonUrl function, so each surface supplies its own paths.
import { BlockStack, Button, Card, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import { continueSentence, progressLabel } from "~/domain/course";

export interface ProgressData {
  lessonsCompleted: number;
  progressPercentage: number;
  completed: boolean;
  latestModuleName: string | null;
  latestModuleNumber: number | null;
  latestLessonName: string | null;
  latestLessonNumber: number | null;
  continueLesson: { number: number; name: string; moduleNumber: number; moduleName: string } | null;
}

export function CourseProgressBar({ progress }: { progress: Pick<ProgressData, "lessonsCompleted" | "progressPercentage" | "completed"> }) {
  return (
    <BlockStack gap="150">
      <ProgressBar progress={progress.progressPercentage} tone={progress.completed ? "success" : "highlight"} size="small" />
      <Text as="p" variant="bodySm" tone="subdued">
        <span data-testid="course-progress">{progressLabel(progress)}</span>
      </Text>
    </BlockStack>
  );
}

/**
 * The card that sends a student back to their lesson: where they are, the progress, and a button to
 * the lesson to continue with (the last one opened if unfinished, else the next one to do). The
 * sentence and the button both come from continueLesson (app/domain/course.ts continueSentence).
 */
export function ContinueCourseCard({ progress, lessonUrl, courseUrl }: { progress: ProgressData; lessonUrl: (n: number) => string; courseUrl: string }) {
  const started = progress.latestLessonNumber !== null || progress.lessonsCompleted > 0;
  const next = progress.continueLesson;
  const title = progress.completed ? "Course complete" : started ? "Continue where you left off" : "Start the course";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {progress.completed ? (
          <Text as="p" tone="subdued">
            You finished all 78 lessons. Come back to any of them when you need it.
          </Text>
        ) : started && next ? (
          <Text as="p" tone="subdued">
            {continueSentence(progress.latestLessonNumber, next)}
          </Text>
        ) : (
          <Text as="p" tone="subdued">
            78 short lessons, from choosing a niche to your first profitable month, each with steps you can do today.
          </Text>
        )}
        <CourseProgressBar progress={progress} />
        <InlineStack gap="200">
          {next ? (
            <Button variant="primary" url={lessonUrl(next.number)}>
              {started ? `Continue: lesson ${next.number}, ${next.name}` : `Start lesson 1: ${next.name}`}
            </Button>
          ) : null}
          <Button url={courseUrl}>{progress.completed ? "Review the course" : "All lessons"}</Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
