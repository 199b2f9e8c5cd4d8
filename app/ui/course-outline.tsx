// The course's modules and lessons with a tick on each lesson done. Shared by both surfaces.
import { Badge, BlockStack, Box, Card, Icon, InlineStack, Link, Text } from "@shopify/polaris";
import { CheckCircleIcon } from "@shopify/polaris-icons";

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
          The course content has not been loaded on this server yet. It is loaded by the seed step (npm start or npm run
          db:seed).
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
                  <li key={lesson.number} style={{ listStyle: "none" }} data-lesson={lesson.number} data-completed={lesson.completed}>
                    <InlineStack gap="300" wrap={false} blockAlign="start">
                      <Box minWidth="24px">
                        {lesson.completed ? (
                          <Icon source={CheckCircleIcon} tone="success" accessibilityLabel="Done" />
                        ) : (
                          <Text as="span" tone="subdued" alignment="center">
                            {lesson.number}
                          </Text>
                        )}
                      </Box>
                      <BlockStack gap="050">
                        <Link url={lessonUrl(lesson.number)} removeUnderline>
                          {`Lesson ${lesson.number}: ${lesson.name}`}
                        </Link>
                        <Text as="p" variant="bodySm" tone="subdued">
                          {lesson.summary}
                          {currentLesson === lesson.number ? " · last opened" : ""}
                        </Text>
                      </BlockStack>
                    </InlineStack>
                  </li>
                ))}
              </BlockStack>
            </BlockStack>
          </Card>
        );
      })}
    </BlockStack>
  );
}
