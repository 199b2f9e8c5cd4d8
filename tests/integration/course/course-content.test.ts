// Loading content/course/ into the database, as the seed step does on every start: the first run
// creates, a second run changes nothing, edited text is updated, slugs can move between lessons, and
// invalid content never reaches the database.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { CourseContentError, DEFAULT_COURSE_DIR, syncCourseContent } from "~/services/course/content.server";

const dir = mkdtempSync(path.join(tmpdir(), "course-content-"));
cpSync(DEFAULT_COURSE_DIR, dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (rel: string) => path.join(dir, rel);
const rewrite = (rel: string, change: (text: string) => string) => writeFileSync(file(rel), change(readFileSync(file(rel), "utf8")));

describe("syncCourseContent", () => {
  it("creates every module and lesson on the first run", async () => {
    const summary = await syncCourseContent(db, dir);
    expect(summary).toEqual({ modules: 11, lessons: 78, created: 89, updated: 0, unchanged: 0, removed: 0 });
    expect(await db.courseLesson.count()).toBe(78);
    expect(await db.courseModule.count()).toBe(11);
    const lesson = await db.courseLesson.findUniqueOrThrow({ where: { number: 10 }, select: { moduleNumber: true, slug: true, tryItUrl: true } });
    expect(lesson).toEqual({ moduleNumber: 2, slug: "what-makes-a-winning-product", tryItUrl: "/dashboard/products?sort=winning-score&stage=rising" });
  });

  it("changes nothing when run again on the same files", async () => {
    expect(await syncCourseContent(db, dir)).toMatchObject({ created: 0, updated: 0, unchanged: 89, removed: 0 });
  });

  it("updates changed text of lessons and modules", async () => {
    rewrite("01-foundations/03-startup-budget.md", (t) => t.replace("Most new stores do not fail", "Most new stores do not really fail"));
    rewrite("01-foundations/module.json", (t) => t.replace('"Foundations"', '"The foundations"'));
    expect(await syncCourseContent(db, dir)).toMatchObject({ created: 0, updated: 2, unchanged: 87 });
    const lesson = await db.courseLesson.findUniqueOrThrow({ where: { number: 3 }, select: { body: true } });
    expect(lesson.body).toContain("Most new stores do not really fail");
    expect((await db.courseModule.findUniqueOrThrow({ where: { number: 1 }, select: { name: true } })).name).toBe("The foundations");
  });

  it("lets two lessons swap slugs without tripping the unique index", async () => {
    rewrite("01-foundations/01-how-dropshipping-works.md", (t) => t.replace("slug: how-dropshipping-works", "slug: tmp-swap"));
    rewrite("01-foundations/02-store-models.md", (t) => t.replace("slug: general-niche-or-one-product-store", "slug: how-dropshipping-works"));
    rewrite("01-foundations/01-how-dropshipping-works.md", (t) => t.replace("slug: tmp-swap", "slug: general-niche-or-one-product-store"));
    expect(await syncCourseContent(db, dir)).toMatchObject({ updated: 2 });
    const rows = await db.courseLesson.findMany({ where: { number: { in: [1, 2] } }, orderBy: { number: "asc" }, select: { slug: true } });
    expect(rows.map((r) => r.slug)).toEqual(["general-niche-or-one-product-store", "how-dropshipping-works"]);
  });

  it("moves a lesson to another module when its file moves", async () => {
    // Lesson 7 (last of module 1) moves into module 2's folder: still in module order.
    const from = "01-foundations/07-first-90-days.md";
    const to = "02-product-research/07-first-90-days.md";
    writeFileSync(file(to), readFileSync(file(from), "utf8"));
    rmSync(file(from));
    await syncCourseContent(db, dir);
    expect((await db.courseLesson.findUniqueOrThrow({ where: { number: 7 }, select: { moduleNumber: true } })).moduleNumber).toBe(2);
  });

  it("refuses invalid content and leaves the database as it was", async () => {
    const before = await db.courseLesson.findMany({ orderBy: { number: "asc" }, select: { number: true, body: true } });
    rewrite("03-suppliers/20-ordering-samples.md", (t) => t.replace("number: 20\n", "number: 19\n"));
    rewrite("03-suppliers/21-shipping-times-canada.md", (t) => t.replace("Shipping is the part", "Edited but never loaded"));
    await expect(syncCourseContent(db, dir)).rejects.toThrow(CourseContentError);
    await expect(syncCourseContent(db, dir)).rejects.toThrow(/lesson numbers must run 1 to 78 without gaps; missing 20/);
    const after = await db.courseLesson.findMany({ orderBy: { number: "asc" }, select: { number: true, body: true } });
    expect(after).toEqual(before);
  });
});
