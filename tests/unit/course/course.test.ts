// Course progress rules (seed §9: lessons completed / 78; §4: complete when completed is true).
import { describe, expect, it } from "vitest";
import {
  continueLessonNumber,
  courseProgress,
  isCourseCompleted,
  neighbourLessons,
  parseLessonNumber,
  progressLabel,
  progressPercentage,
  TOTAL_LESSONS,
} from "~/domain/course";

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("progressPercentage", () => {
  it("is lessons completed / 78 as a percentage, rounded to one decimal place", () => {
    expect(TOTAL_LESSONS).toBe(78);
    expect(progressPercentage(0)).toBe(0);
    expect(progressPercentage(1)).toBe(1.3); // 1.282...
    expect(progressPercentage(2)).toBe(2.6); // 2.564...
    expect(progressPercentage(39)).toBe(50);
    expect(progressPercentage(77)).toBe(98.7); // 98.717...
    expect(progressPercentage(78)).toBe(100);
  });

  it("rounds half up at the one-decimal boundary (e.g. 13/78 = 16.666 -> 16.7, 3/78 = 3.846 -> 3.8)", () => {
    expect(progressPercentage(13)).toBe(16.7);
    expect(progressPercentage(3)).toBe(3.8);
  });

  it("never shows 0 after the first lesson nor 100 before the last", () => {
    for (const n of range(1, 77)) {
      expect(progressPercentage(n)).toBeGreaterThan(0);
      expect(progressPercentage(n)).toBeLessThan(100);
    }
  });

  it("grows strictly with every lesson and stays close to the exact ratio", () => {
    for (const n of range(1, 78)) {
      expect(progressPercentage(n)).toBeGreaterThan(progressPercentage(n - 1));
      expect(Math.abs(progressPercentage(n) - (n / 78) * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
    }
  });

  it("clamps impossible counts to 0..100", () => {
    expect(progressPercentage(-3)).toBe(0);
    expect(progressPercentage(500)).toBe(100);
  });
});

describe("courseProgress", () => {
  it.each([
    [[], 0, 0, false],
    [[1], 1, 1.3, false],
    [range(1, 77), 77, 98.7, false],
    [range(2, 78), 77, 98.7, false],
    [range(1, 78), 78, 100, true],
  ])("%# completed lessons -> count, percentage, completed", (done, count, pct, completed) => {
    expect(courseProgress(done)).toEqual({
      lessonsCompleted: count,
      totalLessons: 78,
      progressPercentage: pct,
      completed,
    });
  });

  it("counts a lesson marked twice once", () => {
    expect(courseProgress([5, 5, 5]).lessonsCompleted).toBe(1);
  });

  it("ignores numbers that are not lessons, so 78 real lessons are needed to complete", () => {
    const progress = courseProgress([...range(1, 77), 0, 79, 1000, -1, 2.5]);
    expect(progress.lessonsCompleted).toBe(77);
    expect(progress.completed).toBe(false);
  });

  it("is completed only when all 78 are done", () => {
    expect(isCourseCompleted(77)).toBe(false);
    expect(isCourseCompleted(78)).toBe(true);
  });
});

describe("parseLessonNumber", () => {
  it.each([
    ["1", 1],
    ["78", 78],
    ["07", 7],
  ])("%s -> %s", (raw, n) => expect(parseLessonNumber(raw)).toBe(n));

  it.each(["0", "79", "999", "1000", "-1", "1.0", "1e1", " 7", "7 ", "abc", "", "0x10", "١"])("%j is not a lesson", (raw) => {
    expect(parseLessonNumber(raw)).toBeNull();
  });

  it("answers null for a missing parameter", () => {
    expect(parseLessonNumber(undefined)).toBeNull();
    expect(parseLessonNumber(null)).toBeNull();
  });
});

describe("continueLessonNumber (continue where you left off)", () => {
  it("starts a new student at lesson 1", () => {
    expect(continueLessonNumber([], null)).toBe(1);
  });

  it("goes back to the last lesson opened while it is not done", () => {
    expect(continueLessonNumber([1, 2], 7)).toBe(7);
  });

  it("moves on to the next lesson not done after the last one opened", () => {
    expect(continueLessonNumber([1, 2, 3], 3)).toBe(4);
    expect(continueLessonNumber([10, 11, 12], 10)).toBe(13);
  });

  it("wraps round to the earliest lesson not done", () => {
    expect(continueLessonNumber([...range(60, 78), 1], 78)).toBe(2);
  });

  it("with nothing opened, picks the first lesson not done", () => {
    expect(continueLessonNumber([1, 2, 4], null)).toBe(3);
  });

  it("is null when the course is complete", () => {
    expect(continueLessonNumber(range(1, 78), 40)).toBeNull();
  });
});

describe("neighbourLessons and progressLabel", () => {
  it("has no previous lesson at 1 and no next lesson at 78", () => {
    expect(neighbourLessons(1)).toEqual({ previous: null, next: 2 });
    expect(neighbourLessons(40)).toEqual({ previous: 39, next: 41 });
    expect(neighbourLessons(78)).toEqual({ previous: 77, next: null });
  });

  it("says how far along the student is", () => {
    expect(progressLabel({ lessonsCompleted: 1, progressPercentage: 1.3 })).toBe("1 of 78 lessons · 1.3%");
  });
});
