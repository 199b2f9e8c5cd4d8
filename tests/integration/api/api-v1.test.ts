// The public API (decision 053) on a real migrated database: the OpenAPI 3.1 document checked by a maintained
// validator, every documented operation called with a key and its answer validated against the document (Ajv,
// JSON Schema 2020-12), Bearer-only authentication (anonymous, bad, cookie-only, revoked mid-stream: 401; wrong
// scope: 403), another user's competitor 404, two users' data kept apart, cursor pagination in a stable order,
// CORS, RateLimit-* headers and a 429 with Retry-After, and fuzzed query parameters answering no 5xx.
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as openApiRoute } from "~/routes/api.v1.openapi[.]json";
import { loader as searchRoute, action as searchAction } from "~/routes/api.v1.products";
import { loader as productRoute } from "~/routes/api.v1.products.$objectID";
import { loader as profitRoute } from "~/routes/api.v1.products.$objectID.profit";
import { loader as nichesRoute } from "~/routes/api.v1.niches";
import { loader as savedRoute } from "~/routes/api.v1.saved";
import { loader as trackedRoute } from "~/routes/api.v1.tracked";
import { loader as dropsRoute } from "~/routes/api.v1.drops";
import { loader as competitorsRoute } from "~/routes/api.v1.competitors";
import { loader as competitorRoute } from "~/routes/api.v1.competitors.$id";
import { loader as notificationsRoute } from "~/routes/api.v1.notifications";
import { action as keysAction } from "~/routes/api.keys";
import { action as keyAction } from "~/routes/api.keys.$id";
import { apiKeys, notifications, productDrops, products } from "~/services/index.server";
import { insertProducts, PLAIN_FIXTURE } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

type Loader = Parameters<typeof call>[0];

const base = PLAIN_FIXTURE;

const IDS = Array.from({ length: 30 }, (_, i) => `v1-${String(i).padStart(2, "0")}`);

type Seller = Awaited<ReturnType<typeof createSignedInUser>> & { key: string; competitorId: number };
let alice: Seller;
let bob: Seller;
let doc: { paths: Record<string, { get: { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> } }> };
let ajv: Ajv2020;

async function seller(domain: string): Promise<Seller> {
  const user = await createSignedInUser({ userSubscribed: "yes" });
  const res = await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "tests" } });
  const { key } = (await res.json()) as { key: string };
  const store = await db.competitorStore.create({ data: { domain, fetchDomain: domain, name: domain, currency: "EUR", status: "ok" }, select: { id: true } });
  const follow = await db.competitor.create({ data: { userId: user.id, storeId: store.id, name: domain }, select: { id: true } });
  return { ...user, key, competitorId: follow.id };
}

beforeAll(async () => {
  // Scores 10..39 with one tie (two products at 25), so the stable order's tie-break is exercised.
  await insertProducts(
    db,
    IDS.map((objectID, i) => ({ ...base, objectID, title: `Gadget ${objectID}`, niches: [i % 2 ? "kitchen" : "pets"], winningScore: i === 16 ? 25 : 10 + i })),
  );
  await db.product.update({
    where: { objectID: "v1-29" },
    data: { source: "measured", storesAdded7d: 2, storesAdded30d: 3, thinEvidence: null },
  });
  alice = await seller("alice-rival.test");
  bob = await seller("bob-rival.test");
  await products.saveProduct(alice.id, "v1-03");
  await products.trackProduct(alice.id, "v1-04");
  await products.saveProduct(bob.id, "v1-05");
  await productDrops.publish("2026-11-16", IDS.slice(0, 8).map((objectID) => ({ objectID, reason: "test pick" })));
  const aliceUser = await db.user.findUniqueOrThrow({ where: { id: alice.id } });
  await productDrops.reveal(aliceUser, "2026-11-16");
  await notifications.notify([{ userId: alice.id, kind: "competitor.launch", title: "New product", body: "alice-rival.test launched a lamp", url: null, dedupeKey: "t1" }]);

  const res = await call(openApiRoute, "/api/v1/openapi.json");
  doc = (await res.json()) as typeof doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi");
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function validateAgainstDocument(path: string, status: string, body: unknown) {
  const pointer = `openapi#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/get/responses/${status}/content/application~1json/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  const ok = validate(body);
  return ok ? null : JSON.stringify(validate.errors?.slice(0, 3));
}

/** Every documented operation with a way to call it as alice. */
const CALLS: Record<string, { route: Loader; url: () => string; params?: () => Record<string, string> }> = {
  searchProducts: { route: searchRoute, url: () => "/api/v1/products?niche=kitchen&limit=5" },
  getProduct: { route: productRoute, url: () => "/api/v1/products/v1-29", params: () => ({ objectID: "v1-29" }) },
  getProductProfit: { route: profitRoute, url: () => "/api/v1/products/v1-03/profit?priceCents=2999&cpaCents=800", params: () => ({ objectID: "v1-03" }) },
  listNiches: { route: nichesRoute, url: () => "/api/v1/niches" },
  listSavedProducts: { route: savedRoute, url: () => "/api/v1/saved" },
  listTrackedProducts: { route: trackedRoute, url: () => "/api/v1/tracked" },
  listDrops: { route: dropsRoute, url: () => "/api/v1/drops" },
  listCompetitors: { route: competitorsRoute, url: () => "/api/v1/competitors" },
  getCompetitor: { route: competitorRoute, url: () => `/api/v1/competitors/${alice.competitorId}`, params: () => ({ id: String(alice.competitorId) }) },
  listNotifications: { route: notificationsRoute, url: () => "/api/v1/notifications" },
};

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? null).toBeNull();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents exactly the operations this test calls", () => {
    const documented = Object.values(doc.paths).map((p) => p.get.operationId).sort();
    expect(documented).toEqual(Object.keys(CALLS).sort());
  });
});

describe("every documented operation", () => {
  for (const [operationId, c] of Object.entries(CALLS)) {
    it(`${operationId} answers 200 matching the document, with RateLimit-* and CORS headers`, async () => {
      const path = Object.entries(doc.paths).find(([, p]) => p.get.operationId === operationId)![0];
      const res = await call(c.route, c.url(), { headers: bearer(alice.key), params: c.params?.() });
      const body: unknown = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(validateAgainstDocument(path, "200", body)).toBeNull();
      expect(res.headers.get("ratelimit-limit")).toBe("120");
      expect(Number(res.headers.get("ratelimit-remaining"))).toBeLessThan(120);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("x-allowance-remaining")).toMatch(/^\d+$/);
    });
  }

  it("answers figures as { value, measured, asOf } and money in cents with a currency", async () => {
    const res = await call(productRoute, "/api/v1/products/v1-29", { headers: bearer(alice.key), params: { objectID: "v1-29" } });
    const body = (await res.json()) as { source: string; price: unknown; figures: Record<string, { value: unknown; measured: boolean; asOf: string } | null> };
    expect(body.source).toBe("measured");
    expect(body.price).toEqual({ cents: 2999, currency: "USD" });
    expect(body.figures.storesAdded7d).toMatchObject({ value: 2, measured: true, asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(body.figures.winningScore).toMatchObject({ measured: false });
    expect(body.figures.orders).toBeNull();
    const sample = (await (await call(productRoute, "/api/v1/products/v1-03", { headers: bearer(alice.key), params: { objectID: "v1-03" } })).json()) as typeof body;
    expect(sample.figures.orders).toMatchObject({ value: 100, measured: false });
  });

  it("a bad parameter is a 400 naming it, matching the document's error shape", async () => {
    const res = await call(searchRoute, "/api/v1/products?sort=best", { headers: bearer(alice.key) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; param: string };
    expect(body.param).toBe("sort");
    expect(validateAgainstDocument("/products", "400", body)).toBeNull();
  });
});

describe("authentication", () => {
  it("anonymous, a malformed key, an unknown key and a session cookie alone are 401 with a sentence", async () => {
    for (const headers of [{}, { authorization: "Bearer nope" }, bearer(`wpk_${"A".repeat(32)}`), { authorization: `Basic ${alice.key}` }]) {
      const res = await call(savedRoute, "/api/v1/saved", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(((await res.json()) as { error: string }).error).toMatch(/API key/);
    }
    const cookieOnly = await call(savedRoute, "/api/v1/saved", { cookie: alice.cookie });
    expect(cookieOnly.status).toBe(401);
  });

  it("the challenge names invalid_token only when a bearer token was sent (RFC 6750 3.1)", async () => {
    // No credentials at all, or another scheme: the client did not know a key is needed, so no error code.
    for (const headers of [{}, { authorization: `Basic ${alice.key}` }] as Record<string, string>[]) {
      const res = await call(savedRoute, "/api/v1/saved", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    }
    expect((await call(savedRoute, "/api/v1/saved", { cookie: alice.cookie })).headers.get("www-authenticate")).toBe('Bearer realm="api"');
    // A token that is malformed, unknown or revoked: the client sent a bad one.
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const revoked = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "gone" } })).json()) as { id: string; key: string };
    await call(keyAction, `/api/keys/${revoked.id}`, { method: "DELETE", cookie: user.cookie, params: { id: revoked.id } });
    for (const token of ["nope", `wpk_${"A".repeat(32)}`, revoked.key]) {
      const res = await call(savedRoute, "/api/v1/saved", { headers: bearer(token) });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    }
    // The document says which challenge comes when.
    const doc401 = (await (await call(openApiRoute, "/api/v1/openapi.json")).json()) as {
      paths: Record<string, { get: { responses: Record<string, { headers?: Record<string, { description: string }> }> } }>;
    };
    for (const path of Object.values(doc401.paths)) {
      expect(path.get.responses["401"].headers?.["WWW-Authenticate"]?.description).toMatch(/invalid_token.*only/);
    }
  });

  it("a key without the read scope is 403", async () => {
    const created = (await apiKeys.create(await db.user.findUniqueOrThrow({ where: { id: alice.id } }), "no scopes")) as { id: string; key: string };
    await db.apiKey.update({ where: { id: created.id }, data: { scopes: "[]" } });
    const res = await call(savedRoute, "/api/v1/saved", { headers: bearer(created.key) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/"read" scope/);
  });

  it("a key revoked mid-stream answers 401 on the next call", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const created = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "mid" } })).json()) as { id: string; key: string };
    expect((await call(nichesRoute, "/api/v1/niches", { headers: bearer(created.key) })).status).toBe(200);
    await call(keyAction, `/api/keys/${created.id}`, { method: "DELETE", cookie: user.cookie, params: { id: created.id } });
    const res = await call(nichesRoute, "/api/v1/niches", { headers: bearer(created.key) });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/revoked/);
  });

  it("a key whose owner's plan ended is 403", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const { key } = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "lapsed" } })).json()) as { key: string };
    await db.user.update({ where: { id: user.id }, data: { userSubscribed: "no" } });
    expect((await call(nichesRoute, "/api/v1/niches", { headers: bearer(key) })).status).toBe(403);
  });

  it("answers a CORS preflight from any origin", async () => {
    const res = await call(searchAction, "/api/v1/products", { method: "OPTIONS", headers: { origin: "https://example.org", "access-control-request-headers": "authorization" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });
});

describe("two users' data", () => {
  it("each key sees only its own saved products, tracked products, drops, notifications and competitors", async () => {
    const json = async (route: Loader, url: string, key: string) => (await (await call(route, url, { headers: bearer(key) })).json()) as { items: { objectID?: string; id?: number; date?: string }[] };
    expect((await json(savedRoute, "/api/v1/saved", alice.key)).items.map((p) => p.objectID)).toEqual(["v1-03"]);
    expect((await json(savedRoute, "/api/v1/saved", bob.key)).items.map((p) => p.objectID)).toEqual(["v1-05"]);
    expect((await json(trackedRoute, "/api/v1/tracked", bob.key)).items).toEqual([]);
    expect((await json(dropsRoute, "/api/v1/drops", alice.key)).items.map((d) => d.date)).toEqual(["2026-11-16"]);
    expect((await json(dropsRoute, "/api/v1/drops", bob.key)).items).toEqual([]);
    const titles = async (key: string) => ((await json(notificationsRoute, "/api/v1/notifications", key)).items as { title: string }[]).map((n) => n.title);
    expect(await titles(alice.key)).toContain("New product");
    expect(await titles(bob.key)).not.toContain("New product");
    expect((await json(competitorsRoute, "/api/v1/competitors", bob.key)).items.map((c) => c.id)).toEqual([bob.competitorId]);
  });

  it("another user's competitor is 404", async () => {
    const res = await call(competitorRoute, `/api/v1/competitors/${alice.competitorId}`, { headers: bearer(bob.key), params: { id: String(alice.competitorId) } });
    expect(res.status).toBe(404);
  });
});

describe("cursor pagination", () => {
  it("walks the whole result in a stable order, each product once, and refuses a cursor from another search", async () => {
    const seen: string[] = [];
    let url = "/api/v1/products?limit=7&source=all";
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(searchRoute, url + (cursor ? `&cursor=${cursor}` : ""), { headers: bearer(alice.key) });
      const body = (await res.json()) as { items: { objectID: string }[]; nextCursor: string | null };
      expect(res.status, JSON.stringify(body)).toBe(200);
      seen.push(...body.items.map((p) => p.objectID));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...IDS].sort());

    const first = (await (await call(searchRoute, url, { headers: bearer(alice.key) })).json()) as { nextCursor: string };
    url = "/api/v1/products?limit=7&source=sample";
    const res = await call(searchRoute, `${url}&cursor=${first.nextCursor}`, { headers: bearer(alice.key) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/different search/);
  });
});

describe("fuzzed query parameters", () => {
  it("never answer 5xx", async () => {
    const values = ["", "-1", "0", "1e309", "NaN", "%00", "\u0000", "x".repeat(5000), "[]", "{}", "../..", "😀", "9".repeat(30), "true", "2026-13-45"];
    const names = ["q", "sort", "limit", "cursor", "niche", "stage", "minPrice", "maxMargin", "page", "source", "seed", "bogus", "firstSeenDays"];
    let n = 0;
    for (const name of names) {
      for (const value of values) {
        const qs = new URLSearchParams([[name, value]]).toString();
        const res = await call(searchRoute, `/api/v1/products?${qs}`, { headers: bearer(alice.key) });
        expect(res.status, `${qs} -> ${res.status}`).toBeLessThan(500);
        n++;
        // stay under the minute's limit for this key: the fuzz is about inputs, not the limiter
        if (n % 100 === 0) await db.rateLimit.deleteMany({});
      }
    }
    for (const value of values) {
      const qs = new URLSearchParams([["priceCents", value], ["fees", value]]).toString();
      const res = await call(profitRoute, `/api/v1/products/v1-03/profit?${qs}`, { headers: bearer(alice.key), params: { objectID: "v1-03" } });
      expect(res.status).toBeLessThan(500);
      const byId = await call(productRoute, `/api/v1/products/x`, { headers: bearer(alice.key), params: { objectID: value } });
      expect(byId.status).toBeLessThan(500);
      const comp = await call(competitorRoute, `/api/v1/competitors/x`, { headers: bearer(alice.key), params: { id: value } });
      expect(comp.status).toBeLessThan(500);
    }
    await db.rateLimit.deleteMany({});
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After, RateLimit-Remaining 0 and a sentence past 120 calls a minute", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes" });
    const { key } = (await (await call(keysAction, "/api/keys", { method: "POST", cookie: user.cookie, json: { name: "busy" } })).json()) as { key: string };
    let last: Response | null = null;
    for (let i = 0; i < 121; i++) last = await call(nichesRoute, "/api/v1/niches", { headers: bearer(key) });
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(((await last!.json()) as { error: string }).error).toMatch(/Too many API calls/);
  });
});

describe("/docs/api", () => {
  it("renders every operation and every schema of the document as HTML, with no outside script", async () => {
    const { loader: docsPage } = await import("~/routes/_site.docs.api");
    const { ApiReference } = await import("~/ui/api/api-reference");
    const { createElement } = await import("react");
    const { renderToString } = await import("react-dom/server");
    const res = await call(docsPage, "/docs/api");
    const { doc: pageDoc } = (await res.json()) as { doc: Parameters<typeof ApiReference>[0]["doc"] };
    const html = renderToString(createElement(ApiReference, { doc: pageDoc, keysUrl: "/dashboard/account" }));
    for (const [path, methods] of Object.entries(doc.paths)) {
      expect(html).toContain(`id="op-${methods.get.operationId}"`);
      expect(html).toContain(path.replace(/[{}]/g, (c) => c));
    }
    expect(html).toContain('id="schema-Product"');
    expect(html).toContain('id="schema-MoneyFigure"');
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  });
});
