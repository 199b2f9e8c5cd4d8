// Product pages inside Shopify admin (/app/product-pages): the list and the editor's save, push and
// delete, called as the admin calls them (a session token signed for real with the test app's secret,
// as a bearer token). They act for the user the shop is linked to, through the same loader and action
// as /dashboard/product-pages; pages are made by the app's own product pages service, on the migrated
// test database.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { action, loader } from "~/routes/app.product-pages";
import { loader as siteLoader } from "~/routes/dashboard.product-pages";
import * as creditFns from "~/services/billing/credits.server";
import { productPages } from "~/services/index.server";
import type { ProductPageView } from "~/services/product-pages.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { signInAs } from "../../helpers/site-users";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const RETRY_HEADER = "X-Shopify-Retry-Invalid-Session-Request";
const PATH = "/app/product-pages";

const [PRODUCT] = fixtureCatalogue(1, 23).map((p) => ({ ...p, objectID: "epp-brush", costCents: 650 }));

beforeAll(async () => {
  await insertProducts(db, [PRODUCT]);
});
beforeEach(() => oauth.reset());

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return {
    ...options,
    headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME },
  };
}

/** A linked shop whose user has one product page, made as "Create product page" makes it. */
async function shopWithPage() {
  const linked = await linkedShop();
  await creditFns.applyAllowance(db, {
    userId: linked.user.id,
    feature: "product-pages",
    allowance: 5,
    idempotencyKey: `test-grant:${linked.user.id}`,
    reason: "test grant",
    mode: "reset",
  });
  const page = await productPages.generate({ userId: linked.user.id, objectID: PRODUCT.objectID });
  return { ...linked, page };
}

/** The editor's save form as the browser sends it, with the page's current values unless overridden. */
function saveForm(page: ProductPageView, overrides: Record<string, string> = {}) {
  return {
    intent: "update",
    id: String(page.id),
    title: page.title,
    descriptionHtml: page.descriptionHtml,
    bullets: page.bullets.join("\n"),
    seoTitle: page.seoTitle,
    seoDescription: page.seoDescription,
    price: (page.priceCents / 100).toFixed(2),
    compareAt: "",
    ...overrides,
  };
}

const stored = (id: number) =>
  db.productPage.findUnique({ where: { id }, select: { title: true, priceCents: true, status: true } });

describe("who may use /app/product-pages", () => {
  /** The page, and each of the editor's forms, for `page` (pushing to `shop`). */
  const requests = (
    page: ProductPageView,
    shop: string,
  ): { name: string; handler: typeof loader | typeof action; options: CallOptions }[] => [
    { name: "loader", handler: loader, options: {} },
    { name: "save", handler: action, options: { form: saveForm(page, { title: "Taken over" }) } },
    { name: "push", handler: action, options: { form: { intent: "push", id: String(page.id), shop } } },
    { name: "delete", handler: action, options: { form: { intent: "delete", id: String(page.id) } } },
  ];

  it("without Shopify's session token, the library sends the browser to log in, and nothing changes", async () => {
    const { shop, page } = await shopWithPage();
    for (const { name, handler, options } of requests(page, shop)) {
      const res = await call(handler, PATH, { ...options, headers: { "user-agent": DESKTOP_CHROME } });
      expect(res.status, name).toBe(302);
      expect(res.headers.get("location"), name).toBe("/auth/login");
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("a forged session token is 401 with the library's retry header, and nothing changes", async () => {
    const { shop, page } = await shopWithPage();
    const forged = await signSessionToken({ shop, secret: "an-attackers-guess-at-the-secret" });
    for (const { name, handler, options } of requests(page, shop)) {
      const res = await call(handler, PATH, {
        ...options,
        headers: { authorization: `Bearer ${forged}`, "user-agent": DESKTOP_CHROME },
      });
      expect(res.status, name).toBe(401);
      expect(res.headers.get(RETRY_HEADER), name).toBe("1");
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("a shop not linked to an account is sent to the linking screen, and nothing changes", async () => {
    const { page } = await shopWithPage();
    const { shop } = await installShop();
    for (const { name, handler, options } of requests(page, shop)) {
      const res = await call(handler, PATH, await asShop(shop, options));
      expect(res.status, name).toBe(302);
      expect(res.headers.get("location"), name).toBe("/app/link");
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("another account's page is 404 for save, push and delete, and stays as it was", async () => {
    const { page } = await shopWithPage();
    const other = await linkedShop();
    for (const { name, handler, options } of requests(page, other.shop).slice(1)) {
      const res = await call(handler, PATH, await asShop(other.shop, options));
      expect(res.status, name).toBe(404);
      expect(await res.json(), name).toMatchObject({ ok: false, message: "No such product page." });
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
    // And the other account's list does not show it.
    const list = await (await call(loader, PATH, await asShop(other.shop))).json();
    expect(list.pages).toEqual([]);
  });
});

describe("/app/product-pages", () => {
  it("lists the linked user's pages with status, target store and Shopify product, their stores, the writer and credits", async () => {
    const { shop, user, page } = await shopWithPage();
    const res = await call(loader, PATH, await asShop(shop));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.pages).toHaveLength(1);
    expect(body.pages[0]).toMatchObject({
      id: page.id,
      objectID: PRODUCT.objectID,
      status: "draft",
      store: null,
      shopifyProductId: null,
      writer: "built-in writer",
    });
    expect(body.stores).toEqual([expect.objectContaining({ shop })]);
    expect(body.writer).toBe("built-in writer");
    expect(body.balances).toEqual({ generate: 4, automatic: 0 });

    // The site's page for the same account shows the same.
    const site = await call(siteLoader, "/dashboard/product-pages", { cookie: await signInAs(user.id) });
    expect(await site.json()).toEqual(body);
  });

  it("saves an edit for the linked user; the stored page is what the list shows next", async () => {
    const { shop, page } = await shopWithPage();
    const res = await call(
      action,
      PATH,
      await asShop(shop, {
        form: saveForm(page, { title: "Wombat Brush Deluxe", price: "29.99", compareAt: "39.99" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: "Saved.", fieldErrors: {}, skippedImages: [] });
    const list = await (await call(loader, PATH, await asShop(shop))).json();
    expect(list.pages[0]).toMatchObject({
      title: "Wombat Brush Deluxe",
      priceCents: 2999,
      compareAtPriceCents: 3999,
      status: "draft",
    });
  });

  it("answers 422 naming the fields that need attention, and saves nothing", async () => {
    const { shop, page } = await shopWithPage();
    const cases: [Record<string, string>, string, Record<string, string>][] = [
      [{ price: "cheap" }, "Some fields need attention: Price.", { priceCents: "Enter a price like 24.99." }],
      [
        { compareAt: "soon" },
        "Some fields need attention: Compare-at price.",
        { compareAtPriceCents: "Enter a price like 39.99, or leave it empty." },
      ],
      [
        { price: "6.50" },
        "Some fields need attention: Price.",
        { priceCents: expect.stringMatching(/^The price must be more than the product's cost plus shipping/) },
      ],
      [
        { title: " ", seoTitle: "" },
        "Some fields need attention: Title, SEO title.",
        { title: "Enter a title.", seoTitle: "Enter an SEO title." },
      ],
    ];
    for (const [overrides, message, fieldErrors] of cases) {
      const res = await call(action, PATH, await asShop(shop, { form: saveForm(page, overrides) }));
      expect(res.status, message).toBe(422);
      expect(await res.json(), message).toMatchObject({ ok: false, message, fieldErrors });
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("answers 400 naming the field of a form it cannot use", async () => {
    const { shop, page } = await shopWithPage();
    const id = String(page.id);
    const { title: _title, ...withoutTitle } = saveForm(page);
    const cases: [Record<string, string>, string][] = [
      [{ intent: "publish", id }, "intent must be update, push or delete."],
      [{ id }, "intent must be update, push or delete."],
      [withoutTitle, "title: Invalid input: expected string, received undefined"],
      [{ intent: "push", id, shop: "https://evil.example" }, "shop: must be a myshopify.com domain"],
      [{ intent: "push", id, shop, publish: "yes" }, 'publish: Invalid input: expected "on"'],
    ];
    for (const [form, message] of cases) {
      const res = await call(action, PATH, await asShop(shop, { form }));
      expect(res.status, message).toBe(400);
      expect(await res.json(), message).toEqual({ ok: false, message, fieldErrors: {}, skippedImages: [] });
    }
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("a page id that names no page is 404", async () => {
    const { shop } = await shopWithPage();
    for (const id of ["", "abc", "-1", "99999999"]) {
      const res = await call(action, PATH, await asShop(shop, { form: { intent: "delete", id } }));
      expect(res.status, id).toBe(404);
      expect((await res.json()).message, id).toBe("No such product page.");
    }
  });

  it("pushing to a store that is not the account's is 404 naming the store, and sends nothing", async () => {
    const { shop, page } = await shopWithPage();
    const { shop: elsewhere } = await linkedShop();
    const res = await call(
      action,
      PATH,
      await asShop(shop, { form: { intent: "push", id: String(page.id), shop: elsewhere } }),
    );
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe(`${elsewhere} is not a connected store of your account. Connect it first.`);
    expect(await stored(page.id)).toEqual({ title: page.title, priceCents: page.priceCents, status: "draft" });
  });

  it("deletes the page from the linked user's list", async () => {
    const { shop, page } = await shopWithPage();
    const res = await call(action, PATH, await asShop(shop, { form: { intent: "delete", id: String(page.id) } }));
    expect(res.status).toBe(200);
    expect((await res.json()).message).toBe("Deleted from your list. The product in Shopify, if any, stays there.");
    expect(await stored(page.id)).toBeNull();
  });
});
