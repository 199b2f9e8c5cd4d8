import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { landingPathFor, loginPathFor, safeRedirectPath } from "~/domain/accounts/redirect-to";

const BASE = "https://app.example";

describe("safeRedirectPath", () => {
  it.each(["/dashboard", "/dashboard/x?y=1&z=2", "/dashboard/course/3#notes", "/pay?plan=pro&billing=monthly"])(
    "keeps the same-origin path %s",
    (path) => expect(safeRedirectPath(path)).toBe(path),
  );

  it.each(["//evil.com", "///evil.com", "/\\evil.com", "\\/evil.com", "https://evil.com", "http:evil.com", "evil.com", "", " /x", "/x\ty", null, 42])(
    "refuses %j",
    (value) => expect(safeRedirectPath(value)).toBeNull(),
  );

  it("never yields a path that a browser would resolve to another origin", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("/", "\\", ".", ":", "@", "e", "v", "%", "?", "#", " ", "\t", "h", "t", "p", "s") }), (s) => {
        const safe = safeRedirectPath(s);
        if (safe === null) return;
        expect(safe.startsWith("/") && !safe.startsWith("//")).toBe(true);
        expect(new URL(safe, BASE).origin).toBe(BASE);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("loginPathFor", () => {
  it("carries the page as redirectTo, and nothing for the landing page or an unsafe value", () => {
    expect(loginPathFor("/dashboard/x?a=1")).toBe("/login?redirectTo=%2Fdashboard%2Fx%3Fa%3D1");
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("//evil.com")).toBe("/login");
  });
});

describe("landingPathFor", () => {
  it("carries a safe path to the landing page, and nothing else", () => {
    expect(landingPathFor("/dashboard/x?a=1")).toBe("/?redirectTo=%2Fdashboard%2Fx%3Fa%3D1");
    expect(landingPathFor("/")).toBe("/");
    expect(landingPathFor("//evil.com")).toBe("/");
    expect(landingPathFor(null)).toBe("/");
  });
});
