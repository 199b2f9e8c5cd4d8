// Every action of the site and the webhooks (found on disk: tests/integration/api/fuzz-harness.ts), called
// by a signed-in user with generated malformed requests: wrong content types, bodies that are not JSON,
// lone surrogates, deep nesting, huge numbers and strings, wrong types, multipart without a boundary,
// empty bodies, and requests sent by another site. Never a 5xx (a thrown non-Response fails the call
// itself), and a refusal leaves the user-owned tables exactly as they were.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser, signInAs } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";
import {
  actionRoutes,
  dbChecksum,
  FIELD_NAMES,
  FOREIGN_ORIGIN,
  FUZZ,
  isForeign,
  MALFORMED_BODY,
  METHOD,
  ORIGIN_HEADERS,
  type ActionRoute,
} from "./fuzz-harness";

const routes = (await actionRoutes()).filter((route) => route.surface !== "embedded");

const catalogue = fixtureCatalogue(3);

/** A value for each dynamic segment a route may have (real rows of the user where one exists); a new segment name must be added here. */
const PARAMS: Record<string, string> = {
  id: "1",
  objectID: catalogue[0].objectID,
  productId: "1",
  shop: "fuzz-shop.myshopify.com",
  lessonNumber: "1",
  themeId: "1",
  file: "fuzz.mp4",
  date: "2026-11-16",
  "*": "fuzz",
};
/** The user's own product page and AI ad, so /api/product-pages/{id} and /api/ai-ads/{id} reach their edits. */
const ROW_IDS: Record<string, string> = {};

/** Routes whose refusal of a foreign request comes before the origin is looked at, and why. */
const REFUSED_EARLIER: Record<string, string> = {
  // Google sign-in is off in the test environment: 404 before the body is read.
  "auth.google": "404 while Google sign-in is not configured",
};

let userId: string;
beforeAll(async () => {
  ({ id: userId } = await createSignedInUser({ userSubscribed: "yes", subscription_id: "sub_fuzz" }));
  await insertProducts(db, catalogue);
  const objectID = catalogue[0].objectID;
  const page = await db.productPage.create({
    data: { userId, objectID, title: "Fuzz page", descriptionHtml: "<p>Fuzz</p>", bullets: "[]", seoTitle: "Fuzz", seoDescription: "Fuzz", priceCents: 1999, writer: "built-in writer" },
    select: { id: true },
  });
  const ad = await db.aiAd.create({
    data: { userId, productObjectID: objectID, title: "Fuzz ad", scenes: JSON.stringify([{ kind: "hook", text: "Fuzz", durationMs: 3000 }]), writer: "built-in writer" },
    select: { id: true },
  });
  ROW_IDS["product-pages"] = String(page.id);
  ROW_IDS["ai-ads"] = String(ad.id);
});

function paramsOf(route: ActionRoute) {
  const area = route.name.split(".")[1] ?? "";
  return Object.fromEntries(route.params.map((p) => [p, p === "id" && ROW_IDS[area] ? ROW_IDS[area] : PARAMS[p]]));
}

function pathOf(route: ActionRoute) {
  return route.path(paramsOf(route));
}

describe("the site's and webhooks' actions under malformed requests", () => {
  it("finds the route modules with an action on disk, each with a value for its every segment", () => {
    expect(routes.map((r) => r.name)).toEqual(
      expect.arrayContaining(["api.feature-credits.substract", "dashboard.saved", "_site.login", "logout", "webhooks.paddle"]),
    );
    for (const route of routes) {
      for (const param of route.params) expect(PARAMS[param], `no value for $${param} of ${route.name}: add one to PARAMS`).toBeDefined();
    }
  });

  for (const route of routes) {
    it(`${route.name}: never a 5xx, and a refusal changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(MALFORMED_BODY, METHOD, ORIGIN_HEADERS, async (body, method, origin) => {
          // A fresh session each time: /logout and "sign out everywhere" may end the previous one.
          const cookie = await signInAs(userId);
          const before = await dbChecksum();
          const res = await call(route.action, pathOf(route), {
            method,
            body: body.body,
            cookie: route.surface === "site" ? cookie : null,
            headers: { ...origin, ...(body.contentType ? { "content-type": body.contentType } : {}) },
            params: paramsOf(route),
          });
          const what = `${method} ${route.name} with ${body.kind} (${body.contentType ?? "no content type"}), ${JSON.stringify(origin)}`;
          expect(res.status, what).toBeLessThan(500);
          if (route.surface === "site" && isForeign(origin)) expect(res.status, what).toBeGreaterThanOrEqual(400);
          if (res.status >= 400) expect(await dbChecksum(), `${what} changed the database`).toBe(before);
        }),
        FUZZ,
      );
    });
  }

  // One test per route (each with its own time limit: there are about a hundred routes).
  for (const route of routes) {
    it(`${route.name}, by every method, with every field a lone surrogate or a number past 2^53: a 4xx that changes nothing, or a success`, async () => {
      for (const value of ["\\ud800", "1e999", "9007199254740993"]) {
        const body = `{${FIELD_NAMES.map((f) => `"${f}":${value.startsWith("\\") ? `"${value}"` : value}`).join(",")}}`;
        for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
          const cookie = await signInAs(userId);
          const before = await dbChecksum();
          const res = await call(route.action, pathOf(route), {
            method,
            body,
            cookie: route.surface === "site" ? cookie : null,
            headers: { "content-type": "application/json" },
            params: paramsOf(route),
          });
          const what = `${method} ${route.name} with every field ${value}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(await dbChecksum(), `${what} changed the database`).toBe(before);
        }
      }
    });
  }

  it("every site action refuses a state change sent by another site with 403 and a sentence", async () => {
    const cookie = await signInAs(userId);
    for (const route of routes.filter((r) => r.surface === "site")) {
      const answers: { method: string; status: number; error?: string }[] = [];
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const res = await call(route.action, pathOf(route), {
          method,
          body: "{}",
          cookie,
          headers: { origin: FOREIGN_ORIGIN, "content-type": "application/json" },
          params: paramsOf(route),
        });
        const json = (await res.json().catch(() => ({}))) as { error?: string };
        answers.push({ method, status: res.status, error: json.error });
      }
      const refused = answers.find((a) => a.status === 403);
      if (REFUSED_EARLIER[route.name]) {
        expect(refused, route.name).toBeUndefined();
        continue;
      }
      // An action that answers only 405 ("Use GET.") changes nothing whoever sends it.
      if (answers.every((a) => a.status === 405)) continue;
      expect(refused, `${route.name}: ${JSON.stringify(answers)}`).toBeDefined();
      expect(refused!.error).toMatch(/another website/);
    }
  });

  it("the same requests from our own pages are not refused for their origin", async () => {
    const cookie = await signInAs(userId);
    const res = await call((await import("~/routes/api.me")).loader, "/api/me", { cookie, headers: { origin: TEST_APP_URL } });
    expect(res.status).toBe(200);
  });
});
