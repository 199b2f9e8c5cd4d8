// Product research inside Shopify admin (/app/products, /app/products/{objectID}, /app/saved): the
// embedded routes authenticate with Shopify's session token and act as the shop's linked user, through
// the same loaders and actions as the site's pages. Session tokens are signed for real with the test
// app's secret; products are rows in the migrated test database.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { action as productAction, loader as productLoader } from "~/routes/app.products.$objectID";
import { action as productsAction, loader as productsLoader } from "~/routes/app.products._index";
import { action as savedAction, loader as savedLoader } from "~/routes/app.saved";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call, type CallOptions } from "../../helpers/routes";
import { adminHostParam, signSessionToken } from "../../helpers/shopify";
import { TEST_APP_URL } from "../../helpers/test-env";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const RETRY_HEADER = "X-Shopify-Retry-Invalid-Session-Request";

const catalogue = fixtureCatalogue(6);
// fixtureCatalogue puts the word "zanzibar" in the title of its fourth product only.
const ZANZIBAR = catalogue[3];

beforeAll(async () => {
  await insertProducts(db, catalogue);
});

beforeEach(() => oauth.reset());

/** A fetch from the embedded app: App Bridge adds the session token as a bearer token. */
async function asShop(shop: string, extra: CallOptions = {}): Promise<CallOptions> {
  return { ...extra, headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME } };
}

async function paidLinkedShop() {
  const linked = await linkedShop();
  await db.user.update({ where: { id: linked.user.id }, data: { userSubscribed: "yes", subscription_id: "sub_embedded" }, select: { id: true } });
  return linked;
}

const byObjectID = { params: { objectID: ZANZIBAR.objectID } };

/** Every embedded research handler, called as a browser would call it. */
const HANDLERS = [
  { name: "products loader", handler: productsLoader, path: "/app/products", options: {} },
  { name: "save-search action", handler: productsAction, path: "/app/products?index", options: { form: { intent: "save-search", name: "x", query: "" } } },
  { name: "product loader", handler: productLoader, path: `/app/products/${ZANZIBAR.objectID}`, options: byObjectID },
  { name: "product action", handler: productAction, path: `/app/products/${ZANZIBAR.objectID}`, options: { ...byObjectID, form: { intent: "save" } } },
  { name: "saved loader", handler: savedLoader, path: "/app/saved", options: {} },
  { name: "saved action", handler: savedAction, path: "/app/saved", options: { form: { intent: "unsave", objectID: ZANZIBAR.objectID } } },
] as const;

describe("who may use the embedded research pages", () => {
  it.each(HANDLERS)("$name: without Shopify's session token, the library sends the browser to log in", async ({ handler, path, options }) => {
    const res = await call(handler, path, { ...options, headers: { "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/login");
  });

  it.each(HANDLERS)("$name: a forged session token is 401 with the library's retry header, and nothing done", async ({ handler, path, options }) => {
    const { shop, user } = await linkedShop();
    const forged = await signSessionToken({ shop, secret: "an-attackers-guess-at-the-secret" });
    const res = await call(handler, path, { ...options, headers: { authorization: `Bearer ${forged}`, "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(401);
    expect(res.headers.get(RETRY_HEADER)).toBe("1");
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(0);
  });

  it.each(HANDLERS)("$name: a shop not linked to an account is sent to the linking screen", async ({ handler, path, options }) => {
    const { shop } = await installShop();
    const res = await call(handler, path, await asShop(shop, options));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/link");
  });
});

describe("/app/products", () => {
  it("searches as the shop's linked user, with the page's parameters and none of the admin's", async () => {
    const { shop } = await paidLinkedShop();
    const token = await signSessionToken({ shop });
    // The document request Shopify admin makes: its own parameters around the merchant's search.
    const query = new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop), id_token: token, q: "zanzibar" });
    const res = await call(productsLoader, `/app/products?${query}`, { headers: { "user-agent": DESKTOP_CHROME } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.error).toBeNull();
    expect(body.access).toEqual({ insights: true, lockedReason: null });
    expect(body.results.items.map((p: { objectID: string }) => p.objectID)).toEqual([ZANZIBAR.objectID]);
    expect(body.results.items[0].insights.reasons).toHaveLength(3);
  });

  it("answers 400 naming a parameter it cannot read, and still renders the page", async () => {
    const { shop } = await paidLinkedShop();
    const res = await call(productsLoader, "/app/products?minPrice=cheap", await asShop(shop));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.param).toBe("minPrice");
    expect(body.error.message).toMatch(/minPrice|price/i);
    expect(body.results).toBeNull();
    expect(body.niches.length).toBeGreaterThan(0);
  });

  it("leaves insights out for an unpaid account, with the reason for the upgrade prompt", async () => {
    const { shop } = await linkedShop();
    const res = await call(productsLoader, "/app/products?q=zanzibar", await asShop(shop));
    const body = await res.json();
    expect(body.access.insights).toBe(false);
    expect(body.access.lockedReason).toMatch(/free trial/);
    expect(body.results.items[0].insights).toBeNull();
  });

  it("saves a search without the admin's parameters", async () => {
    const { shop, user } = await paidLinkedShop();
    const query = `embedded=1&shop=${shop}&host=abc&id_token=t&q=zanzibar&maxPrice=80`;
    const res = await call(productsAction, "/app/products?index", await asShop(shop, { form: { intent: "save-search", name: "Zanzibar", query } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, message: "Saved “Zanzibar”." });
    const saved = await db.savedSearch.findMany({ where: { userId: user.id }, select: { name: true, query: true } });
    expect(saved).toHaveLength(1);
    expect(new URLSearchParams(saved[0].query).toString()).not.toMatch(/shop|host|id_token|embedded/);
    expect(new URLSearchParams(saved[0].query).get("q")).toBe("zanzibar");
  });

  it("answers 400 naming what is wrong with a search to save", async () => {
    const { shop } = await paidLinkedShop();
    const res = await call(productsAction, "/app/products?index", await asShop(shop, { form: { intent: "save-search", name: " ", query: "q=x" } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, message: "Give the search a name." });
  });
});

describe("/app/products/{objectID} and /app/saved", () => {
  it("saves and tracks a product for the linked user, which Saved then lists, and removes it from there", async () => {
    const { shop, user } = await paidLinkedShop();
    for (const intent of ["save", "track"]) {
      const res = await call(productAction, `/app/products/${ZANZIBAR.objectID}`, await asShop(shop, { ...byObjectID, form: { intent } }));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true });
    }
    const product = await (await call(productLoader, `/app/products/${ZANZIBAR.objectID}`, await asShop(shop, byObjectID))).json();
    expect(product.product).toMatchObject({ objectID: ZANZIBAR.objectID, saved: true, tracked: true });
    expect(product.access.insights).toBe(true);

    const saved = await (await call(savedLoader, "/app/saved", await asShop(shop))).json();
    expect(saved.saved.map((p: { objectID: string }) => p.objectID)).toEqual([ZANZIBAR.objectID]);
    expect(saved.tracked.map((p: { objectID: string }) => p.objectID)).toEqual([ZANZIBAR.objectID]);

    const removed = await call(savedAction, "/app/saved", await asShop(shop, { form: { intent: "unsave", objectID: ZANZIBAR.objectID } }));
    expect(await removed.json()).toEqual({ ok: true, message: "Done." });
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(0);
  });

  it("acts only for the shop's own account", async () => {
    const mine = await paidLinkedShop();
    const other = await paidLinkedShop();
    await call(productAction, `/app/products/${ZANZIBAR.objectID}`, await asShop(mine.shop, { ...byObjectID, form: { intent: "save" } }));
    const theirs = await (await call(savedLoader, "/app/saved", await asShop(other.shop))).json();
    expect(theirs.saved).toEqual([]);
  });

  it("an unknown product is 404", async () => {
    const { shop } = await paidLinkedShop();
    for (const handler of [productLoader, productAction]) {
      const res = await call(handler, "/app/products/no-such-product", await asShop(shop, { params: { objectID: "no-such-product" }, form: { intent: "save" } }));
      expect(res.status).toBe(404);
    }
  });

  it("locks the product's insights for an unpaid account", async () => {
    const { shop } = await linkedShop();
    const body = await (await call(productLoader, `/app/products/${ZANZIBAR.objectID}`, await asShop(shop, byObjectID))).json();
    expect(body.access.insights).toBe(false);
    expect(body.product.insights).toBeNull();
    expect(body.product.history).toBeNull();
  });

  it("answers 400 naming the field of a form it cannot use", async () => {
    const { shop } = await paidLinkedShop();
    const cases: [Parameters<typeof call>[0], string, CallOptions, string][] = [
      [productAction, `/app/products/${ZANZIBAR.objectID}`, { ...byObjectID, form: { intent: "delete" } }, "intent must be save, unsave, track or untrack."],
      [savedAction, "/app/saved", { form: { intent: "destroy" } }, "intent must be unsave, untrack or delete-search."],
      [savedAction, "/app/saved", { form: { intent: "unsave" } }, "objectID is not valid."],
      [savedAction, "/app/saved", { form: { intent: "delete-search", id: "first" } }, "id is not valid."],
    ];
    for (const [handler, path, options, message] of cases) {
      const res = await call(handler, path, await asShop(shop, options));
      expect(res.status, message).toBe(400);
      expect(await res.json()).toEqual({ ok: false, message });
    }
  });

  it("a saved search that is gone is 404 from Saved", async () => {
    const { shop } = await paidLinkedShop();
    const res = await call(savedAction, "/app/saved", await asShop(shop, { form: { intent: "delete-search", id: "999999" } }));
    expect(res.status).toBe(404);
  });
});

it("the redirect that records a saved search's visit keeps the admin's parameters, for the library", async () => {
  const { shop, user } = await paidLinkedShop();
  const search = await db.savedSearch.create({ data: { userId: user.id, name: "Z", query: "q=zanzibar" }, select: { id: true } });
  const token = await signSessionToken({ shop });
  const query = new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop), id_token: token, q: "zanzibar", savedSearch: String(search.id) });
  const res = await call(productsLoader, `/app/products?${query}`, { headers: { "user-agent": DESKTOP_CHROME } });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!, TEST_APP_URL);
  expect(location.pathname).toBe("/app/products");
  expect(location.searchParams.get("id_token")).toBe(token);
  expect(location.searchParams.has("newSince")).toBe(true);
});
