// The course's text lives in versioned files (content/course/, docs/decisions/010). This module reads
// them, validates them (exactly 78 lessons numbered 1..78, every lesson in a module, links that point
// into the product) and writes them to CourseModule / CourseLesson. Run by the seed step on every
// start: unchanged rows are left alone, changed text is updated, so running it again is harmless.
//
// Layout:
//   content/course/<NN-module-slug>/module.json   { "number", "name", "summary" }
//   content/course/<NN-module-slug>/<NN-slug>.md  front matter (number, slug, name, summary, and
//                                                 optional videoUrl, tryItUrl, tryItLabel), then the
//                                                 Markdown body
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Db } from "~/db.server";
import { TOTAL_LESSONS } from "~/domain/course";

export const DEFAULT_COURSE_DIR = path.resolve("content/course");

export class CourseContentError extends Error {
  constructor(public readonly problems: string[]) {
    super(`The course content is invalid:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "CourseContentError";
  }
}

/** The product's URL shapes a "try it" link may use. /dashboard/products arrives with the product issue. */
export const PRODUCT_SORTS = ["winning-score", "orders", "revenue", "margin", "price", "newest", "trending", "random"] as const;
export const PRODUCT_STAGES = ["emerging", "rising", "peak", "declining"] as const;
const TRY_IT_PATHS = new Set([
  "/dashboard",
  "/dashboard/products",
  "/dashboard/billing",
  "/dashboard/course",
  "/dashboard/feedback",
  "/dashboard/account",
]);
const ProductQuery = z
  .object({
    q: z.string().min(1).max(100).optional(),
    niche: z.string().min(1).max(60).optional(),
    sort: z.enum(PRODUCT_SORTS).optional(),
    stage: z.enum(PRODUCT_STAGES).optional(),
    minMargin: z.coerce.number().min(0).max(100).optional(),
  })
  .strict();

/** Why a "try it" URL is not one of the product's own pages, or null when it is fine. */
export function tryItUrlProblem(url: string): string | null {
  if (!url.startsWith("/") || url.startsWith("//")) return "must be a path inside the product, starting with /";
  const parsed = new URL(url, "https://product.invalid");
  if (!TRY_IT_PATHS.has(parsed.pathname)) {
    return `${parsed.pathname} is not a page of the product (use one of ${[...TRY_IT_PATHS].join(", ")})`;
  }
  if (parsed.pathname === "/dashboard/products") {
    const query = ProductQuery.safeParse(Object.fromEntries(parsed.searchParams));
    if (!query.success) {
      const issue = query.error.issues[0];
      const key = issue.path.join(".") || (issue as { keys?: string[] }).keys?.join(", ") || "query";
      return `product query parameter ${key}: ${issue.message}`;
    }
  }
  return null;
}

const ModuleFileSchema = z
  .object({
    number: z.number().int().min(1),
    name: z.string().trim().min(3).max(80),
    summary: z.string().trim().min(10).max(400),
  })
  .strict();

const LessonFrontMatterSchema = z
  .object({
    number: z.coerce.number().int().min(1).max(TOTAL_LESSONS),
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase words joined by hyphens"),
    name: z.string().trim().min(3).max(90),
    summary: z.string().trim().min(10).max(300),
    videoUrl: z
      .string()
      .refine((v) => /^https:\/\//.test(v) && URL.canParse(v), "must be an https:// URL")
      .optional(),
    tryItUrl: z.string().optional(),
    tryItLabel: z.string().trim().min(3).max(80).optional(),
  })
  .strict();

export interface ContentLesson {
  number: number;
  moduleNumber: number;
  slug: string;
  name: string;
  summary: string;
  body: string;
  videoUrl: string | null;
  tryItUrl: string | null;
  tryItLabel: string | null;
  file: string;
}

export interface ContentModule {
  number: number;
  name: string;
  summary: string;
  lessons: ContentLesson[];
}

export interface CourseContent {
  modules: ContentModule[];
  lessons: ContentLesson[];
}

/** A file of the course, with its path relative to the course folder (for error messages). */
export interface ContentFile {
  path: string;
  text: string;
}

/**
 * Front matter between two lines of `---`: one `key: value` per line. A value in double quotes is read
 * as a JSON string (for colons or leading spaces); anything else is taken as written, trimmed.
 */
export function parseFrontMatter(text: string): { data: Record<string, string>; body: string } | { error: string } {
  const normalised = text.replace(/\r\n/g, "\n");
  if (!normalised.startsWith("---\n")) return { error: "must start with a front matter block (a line ---)" };
  const end = normalised.indexOf("\n---\n", 3);
  const endAtEof = normalised.endsWith("\n---") ? normalised.length - 4 : -1;
  const close = end !== -1 ? end : endAtEof;
  if (close === -1) return { error: "front matter is not closed by a line ---" };
  const data: Record<string, string> = {};
  const lines = normalised.slice(4, close).split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^([A-Za-z][A-Za-z0-9]*):\s*(.*)$/.exec(line);
    if (!match) return { error: `front matter line ${i + 2} is not "key: value": ${line}` };
    const [, key, raw] = match;
    if (key in data) return { error: `front matter repeats ${key}` };
    let value = raw.trim();
    if (value.startsWith('"')) {
      try {
        value = JSON.parse(value) as string;
      } catch {
        return { error: `front matter ${key} has an unterminated or malformed quoted value` };
      }
    }
    if (value !== "") data[key] = value;
  }
  return { data, body: normalised.slice(close + 5).trim() };
}

function describe(issue: z.core.$ZodIssue): string {
  const field = issue.path.join(".");
  if (issue.code === "unrecognized_keys") return `unknown field(s) ${issue.keys.join(", ")}`;
  return field ? `${field} ${issue.message}` : issue.message;
}

/** Validates the files of the course. Throws CourseContentError listing every problem found. */
export function parseCourseFiles(files: ContentFile[]): CourseContent {
  const problems: string[] = [];
  const folders = new Map<string, { module?: Omit<ContentModule, "lessons">; moduleFile?: string; lessonFiles: ContentFile[] }>();

  for (const file of files) {
    const parts = file.path.split("/");
    if (parts.length !== 2) continue; // README.md and other notes at the top are not content
    const [folder, name] = parts;
    const entry = folders.get(folder) ?? { lessonFiles: [] };
    folders.set(folder, entry);
    if (name === "module.json") {
      let raw: unknown;
      try {
        raw = JSON.parse(file.text);
      } catch (error) {
        problems.push(`${file.path}: not valid JSON (${(error as Error).message})`);
        continue;
      }
      const parsed = ModuleFileSchema.safeParse(raw);
      if (!parsed.success) {
        problems.push(...parsed.error.issues.map((issue) => `${file.path}: ${describe(issue)}`));
        continue;
      }
      entry.module = parsed.data;
      entry.moduleFile = file.path;
    } else if (name.endsWith(".md")) {
      entry.lessonFiles.push(file);
    }
  }

  const modules: ContentModule[] = [];
  const lessons: ContentLesson[] = [];
  for (const [folder, entry] of [...folders.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!entry.module) {
      if (entry.lessonFiles.length > 0 && !problems.some((p) => p.startsWith(`${folder}/module.json`))) {
        problems.push(`${folder}/: has lessons but no module.json, so its lessons belong to no module`);
      }
      continue;
    }
    const mod: ContentModule = { ...entry.module, lessons: [] };
    modules.push(mod);
    for (const file of entry.lessonFiles) {
      const fm = parseFrontMatter(file.text);
      if ("error" in fm) {
        problems.push(`${file.path}: ${fm.error}`);
        continue;
      }
      const parsed = LessonFrontMatterSchema.safeParse(fm.data);
      if (!parsed.success) {
        problems.push(...parsed.error.issues.map((issue) => `${file.path}: ${describe(issue)}`));
        continue;
      }
      const meta = parsed.data;
      if (fm.body.length < 400) problems.push(`${file.path}: the body is too short (${fm.body.length} characters, at least 400)`);
      if (meta.tryItUrl) {
        const problem = tryItUrlProblem(meta.tryItUrl);
        if (problem) problems.push(`${file.path}: tryItUrl ${problem}`);
        if (!meta.tryItLabel) problems.push(`${file.path}: tryItUrl needs a tryItLabel (the words on the button)`);
      } else if (meta.tryItLabel) {
        problems.push(`${file.path}: tryItLabel without a tryItUrl`);
      }
      const lesson: ContentLesson = {
        number: meta.number,
        moduleNumber: mod.number,
        slug: meta.slug,
        name: meta.name,
        summary: meta.summary,
        body: fm.body,
        videoUrl: meta.videoUrl ?? null,
        tryItUrl: meta.tryItUrl ?? null,
        tryItLabel: meta.tryItUrl ? (meta.tryItLabel ?? null) : null,
        file: file.path,
      };
      mod.lessons.push(lesson);
      lessons.push(lesson);
    }
  }

  // Modules: numbered 1..M, each once.
  modules.sort((a, b) => a.number - b.number);
  const moduleNumbers = modules.map((m) => m.number);
  for (const n of new Set(moduleNumbers)) {
    const same = modules.filter((m) => m.number === n);
    if (same.length > 1) problems.push(`module number ${n} is used by ${same.length} modules (${same.map((m) => m.name).join(", ")})`);
  }
  modules.forEach((m, i) => {
    if (m.number !== i + 1 && !problems.some((p) => p.startsWith(`module number ${m.number} `))) {
      problems.push(`modules must be numbered 1, 2, 3... without gaps; expected module ${i + 1}, found ${m.number} (${m.name})`);
    }
  });

  // Lessons: exactly 78, numbered 1..78 across the course, each number and slug once.
  lessons.sort((a, b) => a.number - b.number);
  if (lessons.length !== TOTAL_LESSONS) {
    problems.push(`the course must have exactly ${TOTAL_LESSONS} lessons; found ${lessons.length}`);
  }
  const byNumber = new Map<number, ContentLesson[]>();
  for (const l of lessons) byNumber.set(l.number, [...(byNumber.get(l.number) ?? []), l]);
  for (const [n, same] of byNumber) {
    if (same.length > 1) problems.push(`lesson number ${n} is used by ${same.length} files: ${same.map((l) => l.file).join(", ")}`);
  }
  const missing = Array.from({ length: TOTAL_LESSONS }, (_, i) => i + 1).filter((n) => !byNumber.has(n));
  if (missing.length > 0) problems.push(`lesson numbers must run 1 to ${TOTAL_LESSONS} without gaps; missing ${missing.join(", ")}`);
  const bySlug = new Map<string, string[]>();
  for (const l of lessons) bySlug.set(l.slug, [...(bySlug.get(l.slug) ?? []), l.file]);
  for (const [slug, filesWithSlug] of bySlug) {
    if (filesWithSlug.length > 1) problems.push(`slug ${slug} is used by ${filesWithSlug.join(", ")}`);
  }

  // Lessons follow module order: every lesson of module k comes before every lesson of module k+1.
  for (const mod of modules) mod.lessons.sort((a, b) => a.number - b.number);
  for (let i = 1; i < modules.length; i++) {
    const prevLast = modules[i - 1].lessons.at(-1);
    const first = modules[i].lessons[0];
    if (prevLast && first && first.number < prevLast.number) {
      problems.push(
        `lesson ${first.number} (${first.file}) is in module ${modules[i].number} but comes before lesson ${prevLast.number} of module ${modules[i - 1].number}; number lessons in module order`,
      );
    }
  }
  for (const mod of modules) {
    if (mod.lessons.length === 0) problems.push(`module ${mod.number} (${mod.name}) has no lessons`);
  }

  if (problems.length > 0) throw new CourseContentError(problems);
  return { modules, lessons };
}

/** Every file under the course folder, with paths relative to it. */
export function readContentFiles(dir: string = DEFAULT_COURSE_DIR): ContentFile[] {
  const files: ContentFile[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      if (name.startsWith(".")) continue;
      const relPath = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, relPath);
      if (statSync(full).isDirectory()) walk(relPath);
      else files.push({ path: relPath, text: readFileSync(full, "utf8") });
    }
  };
  walk("");
  return files;
}

export function readCourseContent(dir: string = DEFAULT_COURSE_DIR): CourseContent {
  return parseCourseFiles(readContentFiles(dir));
}

export interface LoadSummary {
  modules: number;
  lessons: number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
}

/**
 * Writes validated content to the database in one transaction: new rows are created, changed rows
 * updated, rows no longer in the content removed (lessons first, so no module is left referenced).
 */
export async function loadCourseContent(db: Db, content: CourseContent): Promise<LoadSummary> {
  const [existingModules, existingLessons] = await Promise.all([
    db.courseModule.findMany({ select: { number: true, name: true, summary: true } }),
    db.courseLesson.findMany({
      select: {
        number: true,
        moduleNumber: true,
        slug: true,
        name: true,
        summary: true,
        body: true,
        videoUrl: true,
        tryItUrl: true,
        tryItLabel: true,
      },
    }),
  ]);
  const oldModules = new Map(existingModules.map((m) => [m.number, m]));
  const oldLessons = new Map(existingLessons.map((l) => [l.number, l]));
  const summary: LoadSummary = { modules: content.modules.length, lessons: content.lessons.length, created: 0, updated: 0, unchanged: 0, removed: 0 };
  const ops = [];

  // A slug moving from one lesson to another would collide with the unique index mid-way: park
  // every changing slug on a placeholder first.
  for (const lesson of content.lessons) {
    const old = oldLessons.get(lesson.number);
    if (old && old.slug !== lesson.slug) {
      ops.push(db.courseLesson.update({ where: { number: lesson.number }, data: { slug: `~moving-${lesson.number}` }, select: { number: true } }));
    }
  }
  const keepLessonNumbers = content.lessons.map((l) => l.number);
  for (const old of existingLessons) {
    if (!keepLessonNumbers.includes(old.number) && content.lessons.some((l) => l.slug === old.slug)) {
      ops.push(db.courseLesson.update({ where: { number: old.number }, data: { slug: `~removed-${old.number}` }, select: { number: true } }));
    }
  }

  for (const mod of content.modules) {
    const data = { name: mod.name, summary: mod.summary };
    const old = oldModules.get(mod.number);
    if (!old) {
      ops.push(db.courseModule.create({ data: { number: mod.number, ...data }, select: { number: true } }));
      summary.created += 1;
    } else if (old.name !== data.name || old.summary !== data.summary) {
      ops.push(db.courseModule.update({ where: { number: mod.number }, data, select: { number: true } }));
      summary.updated += 1;
    } else {
      summary.unchanged += 1;
    }
  }

  for (const lesson of content.lessons) {
    const data = {
      moduleNumber: lesson.moduleNumber,
      slug: lesson.slug,
      name: lesson.name,
      summary: lesson.summary,
      body: lesson.body,
      videoUrl: lesson.videoUrl,
      tryItUrl: lesson.tryItUrl,
      tryItLabel: lesson.tryItLabel,
    };
    const old = oldLessons.get(lesson.number);
    if (!old) {
      ops.push(db.courseLesson.create({ data: { number: lesson.number, ...data }, select: { number: true } }));
      summary.created += 1;
    } else if ((Object.keys(data) as (keyof typeof data)[]).some((k) => old[k] !== data[k])) {
      ops.push(db.courseLesson.update({ where: { number: lesson.number }, data, select: { number: true } }));
      summary.updated += 1;
    } else {
      summary.unchanged += 1;
    }
  }

  const staleLessons = existingLessons.filter((l) => !keepLessonNumbers.includes(l.number));
  const keepModuleNumbers = content.modules.map((m) => m.number);
  const staleModules = existingModules.filter((m) => !keepModuleNumbers.includes(m.number));
  if (staleLessons.length > 0) ops.push(db.courseLesson.deleteMany({ where: { number: { notIn: keepLessonNumbers } } }));
  if (staleModules.length > 0) ops.push(db.courseModule.deleteMany({ where: { number: { notIn: keepModuleNumbers } } }));
  summary.removed = staleLessons.length + staleModules.length;

  if (ops.length > 0) await db.$transaction(ops);
  return summary;
}

/** Read, validate and load the course folder: what the seed step runs. */
export async function syncCourseContent(db: Db, dir: string = DEFAULT_COURSE_DIR): Promise<LoadSummary> {
  return loadCourseContent(db, readCourseContent(dir));
}
