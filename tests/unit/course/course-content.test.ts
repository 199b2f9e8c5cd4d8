// The course content in content/course/ and the rules its loader enforces. Broken variants are made in
// memory from the real files, so each test breaks exactly one thing.
import { describe, expect, it } from "vitest";
import {
  CourseContentError,
  parseCourseFiles,
  parseFrontMatter,
  readContentFiles,
  readCourseContent,
  tryItUrlProblem,
  type ContentFile,
} from "~/services/course/content.server";

const real = readContentFiles();

function problemsOf(files: ContentFile[]): string[] {
  try {
    parseCourseFiles(files);
  } catch (error) {
    if (error instanceof CourseContentError) return error.problems;
    throw error;
  }
  throw new Error("expected the content to be rejected");
}

function edit(path: string, change: (text: string) => string): ContentFile[] {
  expect(real.some((f) => f.path === path), `${path} exists`).toBe(true);
  return real.map((f) => (f.path === path ? { ...f, text: change(f.text) } : f));
}

const LESSON_1 = "01-foundations/01-how-dropshipping-works.md";
const LESSON_10 = "02-product-research/10-what-makes-a-winning-product.md";

describe("the real course", () => {
  const course = readCourseContent();

  it("has exactly 78 lessons numbered 1 to 78 across its modules", () => {
    expect(course.lessons).toHaveLength(78);
    expect(course.lessons.map((l) => l.number)).toEqual(Array.from({ length: 78 }, (_, i) => i + 1));
    expect(course.modules.map((m) => m.number)).toEqual(Array.from({ length: course.modules.length }, (_, i) => i + 1));
    expect(course.modules.reduce((n, m) => n + m.lessons.length, 0)).toBe(78);
  });

  it("has unique slugs and names, and substantial, distinct bodies", () => {
    expect(new Set(course.lessons.map((l) => l.slug)).size).toBe(78);
    expect(new Set(course.lessons.map((l) => l.name)).size).toBe(78);
    for (const lesson of course.lessons) {
      expect(lesson.body.split(/\s+/).length, lesson.file).toBeGreaterThanOrEqual(200);
    }
    // No two lessons share an opening paragraph (copy-paste guard).
    expect(new Set(course.lessons.map((l) => l.body.split("\n\n")[0])).size).toBe(78);
  });

  it("links the lesson on winning products to the product grid with a filter", () => {
    const lesson = course.lessons.find((l) => l.number === 10)!;
    expect(lesson.tryItUrl).toBe("/dashboard/products?sort=winning-score&stage=rising");
    expect(lesson.tryItLabel).toBeTruthy();
  });

  it("only has try-it links that pass the URL rules, each with a label", () => {
    const withLinks = course.lessons.filter((l) => l.tryItUrl);
    expect(withLinks.length).toBeGreaterThanOrEqual(15);
    for (const lesson of withLinks) {
      expect(tryItUrlProblem(lesson.tryItUrl!), lesson.file).toBeNull();
      expect(lesson.tryItLabel, lesson.file).toBeTruthy();
    }
  });

  it("covers the topics a seller needs", () => {
    const text = course.lessons.map((l) => `${l.name} ${l.body}`).join(" ").toLowerCase();
    for (const topic of ["niche", "supplier", "shopify", "product page", "margin", "tiktok", "meta", "chargeback", "gst/hst", "ontario", "scal"]) {
      expect(text, topic).toContain(topic);
    }
  });
});

describe("broken content is rejected with a clear message", () => {
  it("a missing lesson: names the count and the missing number", () => {
    const problems = problemsOf(real.filter((f) => f.path !== LESSON_10));
    expect(problems).toContain("the course must have exactly 78 lessons; found 77");
    expect(problems).toContain("lesson numbers must run 1 to 78 without gaps; missing 10");
  });

  it("a 79th lesson is refused", () => {
    const extra = real.find((f) => f.path === LESSON_1)!;
    const problems = problemsOf([
      ...real,
      { path: "11-scaling/79-bonus.md", text: extra.text.replace("number: 1\n", "number: 79\n").replace("slug: how-dropshipping-works", "slug: bonus") },
    ]);
    expect(problems).toContain("11-scaling/79-bonus.md: number Too big: expected number to be <=78");
  });

  it("two lessons with one number: names both files", () => {
    const problems = problemsOf(edit(LESSON_10, (t) => t.replace("number: 10\n", "number: 9\n")));
    expect(problems).toContain(
      "lesson number 9 is used by 2 files: 02-product-research/09-validating-demand.md, 02-product-research/10-what-makes-a-winning-product.md",
    );
    expect(problems).toContain("lesson numbers must run 1 to 78 without gaps; missing 10");
  });

  it("a lesson in a folder without module.json belongs to no module", () => {
    const moved = real.map((f) => (f.path === LESSON_10 ? { ...f, path: "99-orphans/10-what-makes-a-winning-product.md" } : f));
    const problems = problemsOf(moved);
    expect(problems).toContain("99-orphans/: has lessons but no module.json, so its lessons belong to no module");
  });

  it("a module number that skips: modules must be 1, 2, 3...", () => {
    const problems = problemsOf(edit("11-scaling/module.json", (t) => t.replace('"number": 11', '"number": 12')));
    expect(problems).toContain("modules must be numbered 1, 2, 3... without gaps; expected module 11, found 12 (Scaling and the long game)");
  });

  it("lessons out of module order", () => {
    const problems = problemsOf(
      real.map((f) =>
        f.path === LESSON_1
          ? { ...f, path: "02-product-research/01-how-dropshipping-works.md" }
          : f,
      ),
    );
    expect(problems.some((p) => p.startsWith("lesson 1 (02-product-research/01-how-dropshipping-works.md) is in module 2 but comes before"))).toBe(true);
  });

  it("missing front matter fields, unknown fields and bad values name the file and field", () => {
    expect(problemsOf(edit(LESSON_1, (t) => t.replace(/^name: .*\n/m, "")))).toContain(`${LESSON_1}: name Invalid input: expected string, received undefined`);
    expect(problemsOf(edit(LESSON_1, (t) => t.replace("---\nnumber", "---\ncolour: blue\nnumber")))).toContain(`${LESSON_1}: unknown field(s) colour`);
    expect(problemsOf(edit(LESSON_1, (t) => t.replace("slug: how-dropshipping-works", "slug: How Dropshipping")))).toContain(
      `${LESSON_1}: slug must be lowercase words joined by hyphens`,
    );
    expect(problemsOf(edit(LESSON_1, (t) => t.replace("---\nnumber", "---\nvideoUrl: http://example.com/v\nnumber")))).toContain(
      `${LESSON_1}: videoUrl must be an https:// URL`,
    );
  });

  it("a duplicate slug", () => {
    const problems = problemsOf(edit(LESSON_10, (t) => t.replace("slug: what-makes-a-winning-product", "slug: validating-demand")));
    expect(problems).toContain(
      "slug validating-demand is used by 02-product-research/09-validating-demand.md, 02-product-research/10-what-makes-a-winning-product.md",
    );
  });

  it("a body that is too short", () => {
    const problems = problemsOf(edit(LESSON_1, (t) => t.slice(0, t.indexOf("\n---\n", 4) + 5) + "Too short."));
    expect(problems).toContain(`${LESSON_1}: the body is too short (10 characters, at least 400)`);
  });

  it("try-it links outside the product, with unknown parameters, or without a label", () => {
    expect(problemsOf(edit(LESSON_10, (t) => t.replace("tryItUrl: /dashboard/products?sort=winning-score&stage=rising", "tryItUrl: https://evil.example/")))).toContain(
      `${LESSON_10}: tryItUrl must be a path inside the product, starting with /`,
    );
    expect(problemsOf(edit(LESSON_10, (t) => t.replace("stage=rising", "stage=hot")))[0]).toMatch(
      /^02-product-research\/10-what-makes-a-winning-product\.md: tryItUrl product query parameter stage: /,
    );
    expect(problemsOf(edit(LESSON_10, (t) => t.replace(/^tryItLabel: .*\n/m, "")))).toContain(
      `${LESSON_10}: tryItUrl needs a tryItLabel (the words on the button)`,
    );
  });

  it("lists every problem at once, not only the first", () => {
    const broken = edit(LESSON_1, (t) => t.replace("slug: how-dropshipping-works", "slug: Bad Slug")).filter((f) => f.path !== LESSON_10);
    const error = (() => {
      try {
        parseCourseFiles(broken);
      } catch (e) {
        return e as CourseContentError;
      }
    })();
    expect(error).toBeInstanceOf(CourseContentError);
    expect(error!.problems.length).toBeGreaterThanOrEqual(3);
    expect(error!.message).toMatch(/^The course content is invalid:\n {2}- /);
  });
});

describe("tryItUrlProblem", () => {
  it.each([
    "/dashboard/products?sort=winning-score&stage=rising",
    "/dashboard/products?q=winter&sort=trending",
    "/dashboard/products?niche=pets&minMargin=40&sort=random",
    "/dashboard/billing",
    "/dashboard",
  ])("accepts %s", (url) => expect(tryItUrlProblem(url)).toBeNull());

  it.each([
    ["//evil.example/x", "must be a path inside the product, starting with /"],
    ["javascript:alert(1)", "must be a path inside the product, starting with /"],
    ["/admin", "/admin is not a page of the product"],
    ["/dashboard/products?sort=cheapest", "product query parameter sort"],
    ["/dashboard/products?minMargin=150", "product query parameter minMargin"],
    ["/dashboard/products?color=red", "product query parameter"],
  ])("refuses %s", (url, message) => expect(tryItUrlProblem(url)).toContain(message));
});

describe("parseFrontMatter", () => {
  it("reads key: value lines, quoted values as JSON strings, and the body after", () => {
    const parsed = parseFrontMatter('---\nnumber: 3\nname: "Colons: fine"\nsummary: plain: text too\n---\n\nBody here.\n');
    expect(parsed).toEqual({ data: { number: "3", name: "Colons: fine", summary: "plain: text too" }, body: "Body here." });
  });

  it("explains what is wrong with malformed front matter", () => {
    expect(parseFrontMatter("no front matter")).toEqual({ error: "must start with a front matter block (a line ---)" });
    expect(parseFrontMatter("---\nname: x\n")).toEqual({ error: "front matter is not closed by a line ---" });
    expect(parseFrontMatter("---\njust words\n---\nbody")).toEqual({ error: 'front matter line 2 is not "key: value": just words' });
    expect(parseFrontMatter("---\nname: a\nname: b\n---\nbody")).toEqual({ error: "front matter repeats name" });
    expect(parseFrontMatter('---\nname: "open\n---\nbody')).toEqual({ error: "front matter name has an unterminated or malformed quoted value" });
  });
});
