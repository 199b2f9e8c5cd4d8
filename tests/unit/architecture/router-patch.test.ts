// The patches to @remix-run/router, react-router-dom and @remix-run/react (patches/, applied by `npm install`'s
// postinstall; docs/decisions/070, 075): the ranked branches of a routes array and compiled path patterns are kept
// instead of made again on every match, and a server render's route objects and data routes are made once. The
// matches must be exactly what the unpatched matcher gives: ranking (static before dynamic before splat, index
// routes, siblings in order), case sensitivity and `end`, for the same array matched many times.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { createStaticHandler, matchPath, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// The CommonJS file the server's render loads (@remix-run/react's CommonJS build requires it); an ESM import here
// would get react-router-dom's server.mjs, which the server never runs.
const { createStaticRouter } = require("react-router-dom/server") as typeof import("react-router-dom/server");

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
  it("is the file Node loads (the postinstall applied the patches)", () => {
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("rankedBranchesCache");
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("matchesCache");
    expect(readFileSync(require.resolve("react-router-dom/server"), "utf8")).toContain("convertedRoutesCache");
    const remixServer = path.join(path.dirname(require.resolve("@remix-run/react")), "server.js");
    expect(readFileSync(remixServer, "utf8")).toContain("serverRoutesFor");
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

  it("hands out a pathname's kept matches as a copy a caller may change (decision 075)", () => {
    // The first match is made and kept; the second is the kept one's copy: change both.
    const made = matchRoutes(routes, "/products/kept-1")!;
    (made[2].params as Record<string, string>).objectID = "changed";
    const first = matchRoutes(routes, "/products/kept-1")!;
    expect(first.map((m) => m.params)).toEqual([{ objectID: "kept-1" }, { objectID: "kept-1" }, { objectID: "kept-1" }]);
    // As unpatched: one params object shared by the matches of one answer.
    expect(first[0].params).toBe(first[2].params);
    (first[2].params as Record<string, string>).objectID = "changed";
    first[1].pathname = "/changed";
    first.pop();
    const second = matchRoutes(routes, "/products/kept-1")!;
    expect(second.map((m) => [m.route.id, m.pathname, m.pathnameBase, m.params.objectID])).toEqual([
      ["root", "/", "/", "kept-1"],
      ["products", "/products", "/products", "kept-1"],
      ["product", "/products/kept-1", "/products/kept-1", "kept-1"],
    ]);
    expect(second).not.toBe(first);
    expect(matchRoutes(routes, "/products/kept-2")?.at(-1)?.params).toEqual({ objectID: "kept-2" });
  });

  it("matches well past the pathnames it keeps a tree (1,000), each as the first time", () => {
    for (let i = 0; i < 2_500; i++) expect(matchRoutes(routes, `/products/p-${i}`)?.at(-1)?.params).toEqual({ objectID: `p-${i}` });
    for (let i = 0; i < 2_500; i += 250) expect(ids(`/products/p-${i}`)).toEqual(["root", "products", "product"]);
    expect(matchRoutes(routes, "/products/new", "/")?.map((m) => m.route.id)).toEqual(["root", "products", "product-new"]);
  });

  it("gives a new array of routes its own branches", () => {
    const other: AgnosticRouteObject[] = [{ id: "only", path: "/products" }];
    expect(matchRoutes(other, "/products")?.map((m) => m.route.id)).toEqual(["only"]);
    expect(ids("/products")).toEqual(["root", "products", "products-index"]);
  });
});

describe("the patched static router", () => {
  it("keeps the data routes made from one routes array, and makes a new array's own", async () => {
    const tree = [{ id: "r", path: "/", children: [{ id: "a", path: "a" }] }];
    const context = await createStaticHandler(tree).query(new Request("http://x/a"));
    if (context instanceof Response) throw new Error("no context");
    const first = createStaticRouter(tree, context);
    const again = createStaticRouter(tree, context);
    expect(again.routes).toBe(first.routes);
    expect(first.state.matches.map((m) => m.route.id)).toEqual(["r", "a"]);
    const other = [{ id: "r", path: "/", children: [{ id: "a", path: "a" }] }];
    expect(createStaticRouter(other, context).routes).not.toBe(first.routes);
  });
});
