// The six Shopify webhook routes under bodies signed for real with the app's secret (the unsigned ones
// are refused with 401 before anything is read: fuzz-site-routes.test.ts). Whatever the signed body
// (any JSON value, the topic's shape with wrong types, another shop's domain, another topic's body) and
// whatever the shop and topic headers say: never a 5xx, and a refusal changes nothing
// (docs/decisions/041).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { SHOPIFY_WEBHOOK_TOPICS } from "~/domain/shopify/webhooks";
import { linkedShop } from "../../helpers/linked-shops";
import { call } from "../../helpers/routes";
import { webhookHmac } from "../../helpers/shopify";
import { actionRoutes, dbChecksum, FUZZ, type ActionRoute } from "./fuzz-harness";

const routes = (await actionRoutes()).filter((r) => r.surface === "webhook" && r.name !== "webhooks.paddle");

let shops: string[] = [];
beforeAll(async () => {
  oauth.reset();
  shops = [(await linkedShop()).shop, (await linkedShop()).shop];
});

/** A value where a field is read: the linked shops' domains, other domains, and wrong types. */
const fieldValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(...[0, 1].map((i) => () => shops[i])).map((f) => f()),
    fc.constantFrom("other.myshopify.com", "SHOP.MYSHOPIFY.COM", "{shop}.myshopify.com", "", " ", "\ud800", "gid://shopify/Shop/1"),
    fc.jsonValue({ maxDepth: 2 }),
  );

const charge = (kind: "AppSubscription" | "AppPurchaseOneTime") =>
  fc.record(
    {
      admin_graphql_api_id: fc.oneof(fc.nat().map((n) => `gid://shopify/${kind}/${n}`), fieldValue()),
      admin_graphql_api_shop_id: fieldValue(),
      name: fc.oneof(fc.constantFrom("Winning Products Basic", "Winning Products: 50 AI ad credits"), fieldValue()),
      status: fc.oneof(fc.constantFrom("ACTIVE", "CANCELLED", "DECLINED", "FROZEN", "PENDING"), fieldValue()),
      created_at: fc.oneof(fc.constant("2026-11-01T10:00:00Z"), fieldValue()),
      updated_at: fc.oneof(fc.constant("2026-11-02T10:00:00Z"), fieldValue()),
    },
    { requiredKeys: [] },
  );

/** Documented shapes of every topic with fields missing or of the wrong type, and any JSON value. */
const SIGNED_BODY: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, [], 0, "", true, {}),
  fc.record({ id: fieldValue(), domain: fieldValue(), myshopify_domain: fieldValue() }, { requiredKeys: [] }),
  fc.record(
    {
      shop_id: fieldValue(),
      shop_domain: fieldValue(),
      customer: fc.oneof(fc.record({ id: fieldValue(), email: fieldValue() }, { requiredKeys: [] }), fieldValue()),
      orders_to_redact: fieldValue(),
      orders_requested: fieldValue(),
      data_request: fieldValue(),
    },
    { requiredKeys: [] },
  ),
  fc.record({ app_subscription: fc.oneof(charge("AppSubscription"), fieldValue()) }),
  fc.record({ app_purchase_one_time: fc.oneof(charge("AppPurchaseOneTime"), fieldValue()) }),
);

const SHOP_HEADER = fc.oneof(
  fc.constantFrom(0, 1).map((i) => () => shops[i]),
  fc.constantFrom("other.myshopify.com", "not a domain", "").map((v) => () => v),
);

const TOPIC_HEADER = fc.oneof(fc.constant(null), fc.constantFrom(...SHOPIFY_WEBHOOK_TOPICS, "APP/UNINSTALLED", ""));

function topicOf(route: ActionRoute): string {
  return route.name.replace(/^webhooks\./, "").replace(".", "/");
}

describe("the Shopify webhook routes under signed bodies", () => {
  it("finds the six routes", () => {
    expect(routes.map(topicOf).sort()).toEqual([...SHOPIFY_WEBHOOK_TOPICS].sort());
  });

  for (const route of routes) {
    it(`${route.name}: never a 5xx, and a refusal changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(SIGNED_BODY, SHOP_HEADER, TOPIC_HEADER, async (payload, shopHeader, topicHeader) => {
          const body = JSON.stringify(payload) ?? "null";
          const before = await dbChecksum();
          const res = await call(route.action, route.path({}), {
            method: "POST",
            body,
            headers: {
              "content-type": "application/json",
              "x-shopify-topic": topicHeader ?? topicOf(route),
              "x-shopify-shop-domain": shopHeader(),
              "x-shopify-webhook-id": randomUUID(),
              "x-shopify-api-version": "2026-10",
              "x-shopify-hmac-sha256": webhookHmac(body),
            },
          });
          const what = `${route.name} with ${body.slice(0, 200)} for ${shopHeader()}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(await dbChecksum(), `${what} changed the database`).toBe(before);
        }),
        { ...FUZZ, numRuns: 60 },
      );
    });
  }
});
