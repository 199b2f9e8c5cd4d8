// The patch to @remix-run/router (patches/, applied by `npm install`'s postinstall; docs/decisions/070): the ranked
// branches of a routes array and compiled path patterns are kept instead of made again on every match. The matches
// must be exactly what the unpatched matcher gives: ranking (static before dynamic before splat, index routes,
// siblings in order), case sensitivity and `end`, for the same array matched many times.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { matchPath, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);

const routes: AgnosticRouteObject[] = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      {
        id: "products",
        path: "products",
        children: [
          { id: "products-index", index: true },
          { id: "product", path: ":objectID" },
          { id: "product-new", path: "new" },
        ],
      },
      { id: "Case", path: "Case", caseSensitive: true },
      { id: "first-of-two", path: "twice" },
      { id: "second-of-two", path: "twice" },
      { id: "optional", path: "lang/:lang?/about" },
      { id: "splat", path: "*" },
    ],
  },
];

const ids = (pathname: string) => matchRoutes(routes, pathname)?.map((m) => m.route.id) ?? null;

describe("the patched route matcher", () => {
  it("is the file Node loads (the postinstall applied the patch)", () => {
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("rankedBranchesCache");
  });

  it("matches as the unpatched matcher does, the same array many times over", () => {
    for (let round = 0; round < 3; round++) {
      expect(ids("/")).toEqual(["root", "home"]);
      expect(ids("/products")).toEqual(["root", "products", "products-index"]);
      expect(ids("/products/new")).toEqual(["root", "products", "product-new"]);
      expect(ids("/products/abc-1")).toEqual(["root", "products", "product"]);
      expect(matchRoutes(routes, "/products/abc-1")?.at(-1)?.params).toEqual({ objectID: "abc-1" });
      expect(ids("/twice")).toEqual(["root", "first-of-two"]);
      expect(ids("/Case")).toEqual(["root", "Case"]);
      expect(ids("/case")).toEqual(["root", "splat"]);
      expect(ids("/lang/about")).toEqual(["root", "optional"]);
      expect(matchRoutes(routes, "/lang/fr/about")?.at(-1)?.params).toEqual({ lang: "fr" });
      expect(ids("/anything/else")).toEqual(["root", "splat"]);
    }
  });

  it("keeps each compiled pattern's options apart (case sensitivity, end)", () => {
    expect(matchPath({ path: "/Shop", caseSensitive: true }, "/shop")).toBeNull();
    expect(matchPath({ path: "/Shop", caseSensitive: false }, "/shop")?.pathname).toBe("/shop");
    expect(matchPath({ path: "/Shop", caseSensitive: true }, "/shop")).toBeNull();
    expect(matchPath({ path: "/a", end: true }, "/a/b")).toBeNull();
    expect(matchPath({ path: "/a", end: false }, "/a/b")?.pathnameBase).toBe("/a");
    expect(matchPath({ path: "/a", end: true }, "/a/b")).toBeNull();
  });

  it("gives a new array of routes its own branches", () => {
    const other: AgnosticRouteObject[] = [{ id: "only", path: "/products" }];
    expect(matchRoutes(other, "/products")?.map((m) => m.route.id)).toEqual(["only"]);
    expect(ids("/products")).toEqual(["root", "products", "products-index"]);
  });
});
