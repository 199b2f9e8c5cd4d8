// The continue card's sentence and its button come from one lesson: whatever the user has done and
// opened, the sentence never points at a lesson to continue other than continueLessonNumber's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { continueLessonNumber, continueSentence, TOTAL_LESSONS } from "~/domain/course";

const lesson = (n: number) => ({ number: n, name: `Name ${n}`, moduleNumber: 1, moduleName: "Foundations" });

describe("continueSentence", () => {
  it("says where the user was when the last lesson opened is not done", () => {
    expect(continueSentence(3, lesson(3))).toBe("You were reading lesson 3, Name 3 (module 1: Foundations).");
  });
  it("says the last one opened is done and names the next one when it moved on", () => {
    expect(continueSentence(1, lesson(3))).toBe("Lesson 1 is done. Next: lesson 3, Name 3 (module 1: Foundations).");
  });
  it("names the first lesson for a student who opened none, and nothing when all are done", () => {
    expect(continueSentence(null, lesson(1))).toBe("Next: lesson 1, Name 1 (module 1: Foundations).");
    expect(continueSentence(5, null)).toBeNull();
  });

  it("only ever names, as the place to continue, the lesson the button opens", () => {
    const n = fc.integer({ min: 1, max: TOTAL_LESSONS });
    fc.assert(
      fc.property(fc.uniqueArray(n, { maxLength: TOTAL_LESSONS }), fc.option(n, { nil: null }), (done, latest) => {
        const next = continueLessonNumber(done, latest);
        const sentence = continueSentence(latest, next === null ? null : lesson(next));
        if (next === null) return expect(sentence).toBeNull();
        const named = [...(sentence ?? "").matchAll(/lesson (\d+)/gi)].map((m) => Number(m[1]));
        // The lesson to continue is named last; any other lesson named is the one opened, and it is done.
        expect(named.at(-1)).toBe(next);
        for (const other of named.slice(0, -1)) {
          expect(other).toBe(latest);
          expect(done.includes(other)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
