// server/fast-routes.mjs: which routes the server answers without Remix's route matching, and that it
// answers them the way Remix's resource-route handling does.
import { describe, expect, it } from "vitest";
import { callLoader, fixedResourceRoutes } from "../../../server/fast-routes.mjs";

const loader = async () => Response.json({ ok: true });
const Page = () => null;
const routes = {
  root: { id: "root", path: "", module: { default: Page } },
  "routes/_site": { id: "routes/_site", parentId: "root", module: { default: Page, loader } },
  "routes/_site.pay": { id: "routes/_site.pay", parentId: "routes/_site", path: "pay", module: { default: Page, loader } },
  "routes/api.products": { id: "routes/api.products", parentId: "root", path: "api/products", module: { loader } },
  "routes/api.products.$objectID": { id: "routes/api.products.$objectID", parentId: "root", path: "api/products/:objectID", module: { loader } },
  "routes/healthz": { id: "routes/healthz", parentId: "root", path: "healthz", module: { loader } },
  "routes/webhooks.paddle": { id: "routes/webhooks.paddle", parentId: "root", path: "webhooks/paddle", module: { action: loader } },
  "routes/app": { id: "routes/app", parentId: "root", path: "app", module: { default: Page, loader, ErrorBoundary: Page } },
  "routes/app.stores": { id: "routes/app.stores", parentId: "routes/app", path: "stores", module: { loader } },
  "routes/dup-a": { id: "routes/dup-a", parentId: "root", path: "twice", module: { loader } },
  "routes/dup-b": { id: "routes/dup-b", parentId: "root", path: "twice", module: { loader } },
};

describe("fixedResourceRoutes", () => {
  it("keeps GET resource routes with a fixed path, nested paths joined", () => {
    expect([...fixedResourceRoutes(routes).keys()].sort()).toEqual(["/api/products", "/app/stores", "/healthz"]);
  });

  it("leaves to Remix pages, dynamic segments, action-only routes and a path two routes claim", () => {
    const paths = fixedResourceRoutes(routes);
    for (const path of ["/pay", "/api/products/:objectID", "/webhooks/paddle", "/app", "/twice", "/"]) {
      expect(paths.has(path)).toBe(false);
    }
  });
});

describe("callLoader", () => {
  const request = new Request("http://localhost/api/products");

  it("returns the loader's Response, and wraps plain data as JSON", async () => {
    const res = await callLoader({ module: { loader } }, request, () => undefined);
    expect(await res.json()).toEqual({ ok: true });
    const plain = await callLoader({ module: { loader: async () => ({ n: 1 }) } }, request, () => undefined);
    expect(plain.headers.get("content-type")).toMatch(/application\/json/);
    expect(await plain.json()).toEqual({ n: 1 });
  });

  it("returns a thrown Response as Remix does (401 stays 401, marked as caught)", async () => {
    const thrown = async () => {
      throw Response.json({ error: "Sign in to use this." }, { status: 401 });
    };
    const reported: unknown[] = [];
    const res = await callLoader({ module: { loader: thrown } }, request, (e: unknown) => reported.push(e));
    expect(res.status).toBe(401);
    expect(res.headers.get("X-Remix-Catch")).toBe("yes");
    expect(reported).toEqual([]);
  });

  it("reports an unexpected error and answers 500 without its details", async () => {
    const failing = async () => {
      throw new Error("database file is gone: /secret/path");
    };
    const reported: unknown[] = [];
    const res = await callLoader({ module: { loader: failing } }, request, (e: unknown) => reported.push(e));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("/secret/path");
    expect(reported).toHaveLength(1);
  });
});
