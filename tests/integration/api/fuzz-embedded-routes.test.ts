// Every action of the embedded app (found on disk: tests/integration/api/fuzz-harness.ts), called by a
// linked shop with a Shopify session token, with generated malformed requests (see
// fuzz-site-routes.test.ts). A bearer token is not ambient authority, so a foreign Origin is not
// refused for it; everything else is: never a 5xx, and a refusal changes nothing.
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { actionRoutes, dbChecksum, FUZZ, MALFORMED_BODY, METHOD, ORIGIN_HEADERS } from "./fuzz-harness";

const routes = (await actionRoutes()).filter((route) => route.surface === "embedded");

const PARAMS: Record<string, string> = { objectID: "fuzz-missing", lessonNumber: "1", id: "1" };

let shop: string;
beforeAll(async () => {
  ({ shop } = await linkedShop());
});
beforeEach(() => oauth.reset());

describe("the embedded app's actions under malformed requests", () => {
  it("finds the embedded route modules with an action on disk, each with a value for its every segment", () => {
    expect(routes.map((r) => r.name)).toEqual(expect.arrayContaining(["app.link", "app.handoff", "app.saved"]));
    for (const route of routes) {
      for (const param of route.params) expect(PARAMS[param], `no value for $${param} of ${route.name}: add one to PARAMS`).toBeDefined();
    }
  });

  for (const route of routes) {
    it(`${route.name}: never a 5xx, and a refusal changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(MALFORMED_BODY, METHOD, ORIGIN_HEADERS, async (body, method, origin) => {
          const before = await dbChecksum();
          const res = await call(route.action, route.path(PARAMS), {
            method,
            body: body.body,
            headers: {
              ...origin,
              authorization: `Bearer ${await signSessionToken({ shop })}`,
              ...(body.contentType ? { "content-type": body.contentType } : {}),
            },
            params: Object.fromEntries(route.params.map((p) => [p, PARAMS[p]])),
          });
          const what = `${method} ${route.name} with ${body.kind} (${body.contentType ?? "no content type"}), ${JSON.stringify(origin)}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(await dbChecksum(), `${what} changed the database`).toBe(before);
        }),
        FUZZ,
      );
    });
  }
});
