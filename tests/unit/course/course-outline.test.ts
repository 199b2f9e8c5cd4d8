// The course outline's lesson rows (app/ui/course/course-outline.tsx) write Polaris's markup as plain elements (decision
// 039's load work). Each row must be byte for byte what Polaris's InlineStack, Box, Text, BlockStack and Link wrote
// for it, done or not, last opened or not, so the page looks and reads as before on both surfaces.
import { Link as RemixLink } from "@remix-run/react";
import { AppProvider, BlockStack, Box, Icon, InlineStack, Link, Text } from "@shopify/polaris";
import { CheckCircleIcon } from "@shopify/polaris-icons";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement as h, forwardRef, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { CourseOutline, LessonRow } from "~/ui/course/course-outline";

// The embedded app's link component (@shopify/shopify-app-remix's RemixPolarisLink) and the site's both render Remix's Link.
const PolarisRemixLink = forwardRef<HTMLAnchorElement, { url: string; children?: ReactNode }>(({ url, ...rest }, ref) =>
  h(RemixLink, { ...rest, to: url, ref }),
);

function inApp(node: ReactNode) {
  return renderToString(h(StaticRouter, { location: "/dashboard/course" }, h(AppProvider, { i18n: enTranslations, linkComponent: PolarisRemixLink }, node)));
}

type Lesson = { number: number; name: string; summary: string; completed: boolean };

/** The row as it was written with Polaris's components. */
function polarisRow(lesson: Lesson, url: string, lastOpened: boolean) {
  return h(
    "li",
    { style: { listStyle: "none" }, "data-lesson": lesson.number, "data-completed": lesson.completed },
    h(
      InlineStack,
      { gap: "300", wrap: false, blockAlign: "start" },
      h(
        Box,
        { minWidth: "24px" },
        lesson.completed
          ? h(Icon, { source: CheckCircleIcon, tone: "success", accessibilityLabel: "Done" })
          : h(Text, { as: "span", tone: "subdued", alignment: "center", children: lesson.number }),
      ),
      h(
        BlockStack,
        { gap: "050" },
        h(Link, { url, removeUnderline: true }, `Lesson ${lesson.number}: ${lesson.name}`),
        h(Text, { as: "p", variant: "bodySm", tone: "subdued", children: [lesson.summary, lastOpened ? " · last opened" : ""] }),
      ),
    ),
  );
}

describe("a lesson row of the course outline", () => {
  const cases: [Lesson, boolean][] = [
    [{ number: 1, name: "How dropshipping works", summary: "Follow one order from the ad to the customer's door.", completed: false }, false],
    [{ number: 12, name: "Pricing <with> care & margin", summary: 'Price "after" duty.', completed: true }, true],
    [{ number: 78, name: "Scaling", summary: "", completed: false }, true],
  ];
  for (const [lesson, lastOpened] of cases) {
    it(`is Polaris's markup: lesson ${lesson.number}${lesson.completed ? ", done" : ""}${lastOpened ? ", last opened" : ""}`, () => {
      const url = `/dashboard/course/${lesson.number}`;
      const mine = inApp(h(LessonRow, { lesson, url, lastOpened }));
      expect(mine).toBe(inApp(polarisRow(lesson, url, lastOpened)));
      expect(mine).toContain(`href="${url}"`);
    });
  }
});

describe("the course outline without lessons", () => {
  it("tells the seller the lessons are not available, not an operator's command", () => {
    const html = inApp(h(CourseOutline, { modules: [], lessonUrl: (n: number) => `/dashboard/course/${n}` }));
    expect(html).toContain("The lessons are not available right now.");
    expect(html).not.toMatch(/npm|seed/);
  });
});
