// The course's modules and lessons with a tick on each lesson done. Shared by both surfaces.
// A lesson's row (78 of them on the page) writes the markup Polaris's InlineStack, Box, BlockStack, Link and Text
// would, as plain elements: the same page for less of the server's render time (`npm run bench -- load`,
// decision 039); `tests/unit/course/course-outline.test.ts` holds it to Polaris's own markup.
import { AppLink } from "~/ui/shared/app-link";
import { Badge, BlockStack, Card, Icon, InlineStack, Text } from "@shopify/polaris";
import { CheckCircleIcon } from "@shopify/polaris-icons";
import type { CSSProperties } from "react";

export interface OutlineModule {
  number: number;
  name: string;
  summary: string;
  lessons: { number: number; name: string; summary: string; completed: boolean }[];
}

export function CourseOutline({
  modules,
  lessonUrl,
  currentLesson = null,
}: {
  modules: OutlineModule[];
  lessonUrl: (n: number) => string;
  currentLesson?: number | null;
}) {
  if (modules.length === 0) {
    return (
      <Card>
        <Text as="p" tone="subdued">
          The lessons are not available right now. Please come back a little later.
        </Text>
      </Card>
    );
  }
  return (
    <BlockStack gap="400">
      {modules.map((mod) => {
        const done = mod.lessons.filter((l) => l.completed).length;
        return (
          <Card key={mod.number}>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center" gap="200">
                <Text as="h2" variant="headingMd">
                  Module {mod.number}: {mod.name}
                </Text>
                <Badge tone={done === mod.lessons.length ? "success" : undefined}>{`${done} of ${mod.lessons.length} done`}</Badge>
              </InlineStack>
              <Text as="p" tone="subdued">
                {mod.summary}
              </Text>
              <BlockStack as="ol" gap="200">
                {mod.lessons.map((lesson) => (
                  <LessonRow key={lesson.number} lesson={lesson} url={lessonUrl(lesson.number)} lastOpened={currentLesson === lesson.number} />
                ))}
              </BlockStack>
            </BlockStack>
          </Card>
        );
      })}
    </BlockStack>
  );
}

// Polaris's own inline styles for the row's InlineStack (gap 300, no wrap, top-aligned), its Box (min width 24px)
// and its BlockStack (gap 050).
const ROW_STYLE = {
  "--pc-inline-stack-block-align": "start",
  "--pc-inline-stack-wrap": "nowrap",
  "--pc-inline-stack-gap-xs": "var(--p-space-300)",
  "--pc-inline-stack-flex-direction-xs": "row",
} as CSSProperties;
const MARK_STYLE = { "--pc-box-min-width": "24px" } as CSSProperties;
const TEXT_STYLE = { "--pc-block-stack-order": "column", "--pc-block-stack-gap-xs": "var(--p-space-050)" } as CSSProperties;

export function LessonRow({ lesson, url, lastOpened }: { lesson: OutlineModule["lessons"][number]; url: string; lastOpened: boolean }) {
  return (
    <li style={{ listStyle: "none" }} data-lesson={lesson.number} data-completed={lesson.completed}>
      <div className="Polaris-InlineStack" style={ROW_STYLE}>
        <div className="Polaris-Box" style={MARK_STYLE}>
          {lesson.completed ? (
            <Icon source={CheckCircleIcon} tone="success" accessibilityLabel="Done" />
          ) : (
            <span className="Polaris-Text--root Polaris-Text--block Polaris-Text--center Polaris-Text--subdued">{lesson.number}</span>
          )}
        </div>
        <div className="Polaris-BlockStack" style={TEXT_STYLE}>
          <AppLink to={url} data-polaris-unstyled="true" className="Polaris-Link Polaris-Link--removeUnderline">
            {`Lesson ${lesson.number}: ${lesson.name}`}
          </AppLink>
          <p className="Polaris-Text--root Polaris-Text--bodySm Polaris-Text--subdued">
            {lesson.summary}
            {lastOpened ? " · last opened" : ""}
          </p>
        </div>
      </div>
    </li>
  );
}
