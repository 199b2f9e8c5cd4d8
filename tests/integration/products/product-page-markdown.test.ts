// Product page descriptions in Markdown (docs/decisions/029) on the real database: the seller's Markdown is
// stored as written, the HTML rendered from it is stored beside it and is exactly what the local Shopify
// Admin server receives as descriptionHtml (script tags escaped, javascript: links dropped, links, bold,
// italic and lists kept); a page written before Markdown shows its HTML converted and is stored as
// Markdown from its next save; the editor's form and the JSON API take Markdown, and refuse both forms
// at once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { renderDescriptionMarkdown } from "~/domain/product-pages/description-markdown";
import { escapeHtml } from "~/domain/html-escape";
import { builtInWriter } from "~/integrations/ai-text.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";
import { action as pageAction } from "~/routes/api.product-pages.$id";
import { action as editorAction } from "~/routes/dashboard.product-pages";
import * as credits from "~/services/billing/credits.server";
import { createProductPages, storeAccessFrom } from "~/services/product-pages.server";
import { getStoreAccessToken } from "~/services/shopify/stores.server";
import { startFakeAdminGraphql, type FakeAdminGraphql } from "../../helpers/fake-admin-graphql";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { uniqueShop } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";
import { shopifyProductWriter } from "~/integrations/shopify-admin.server";

const PRODUCT = "md-brush";
let admin: FakeAdminGraphql;

function service() {
  return createProductPages({
    db,
    ai: builtInWriter,
    resolveStoreAccess: storeAccessFrom((store) => getStoreAccessToken({ db, tokens: getTokenCrypto() }, store.userId, store.shop)),
    writeProduct: shopifyProductWriter({ apiVersion: "2026-10", baseUrl: admin.url, maxAttempts: 2, maxWaitMs: 50 }),
    publicUrl: "https://app.winning-products.example.com",
  });
}

async function merchant() {
  const user = await createSignedInUser();
  await credits.applyAllowance(db, {
    userId: user.id,
    feature: "product-pages",
    allowance: 10,
    idempotencyKey: `md-grant:${user.id}`,
    reason: "test grant",
    mode: "reset",
  });
  const shop = uniqueShop("md");
  await db.shopifyStore.create({
    data: {
      userId: user.id,
      shop,
      store_name: shop,
      shopify_admin_url: `https://admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`,
      encrypted_app_token: getTokenCrypto().encrypt(admin.accessToken),
    },
  });
  return { ...user, shop };
}

const stored = (id: number) =>
  db.productPage.findUniqueOrThrow({ where: { id }, select: { descriptionMarkdown: true, descriptionHtml: true } });

const pushedBody = () => (admin.requests.at(-1)!.variables.input as { descriptionHtml: string }).descriptionHtml;

beforeAll(async () => {
  admin = await startFakeAdminGraphql();
  const [p] = fixtureCatalogue(1, 29);
  await insertProducts(db, [
    { ...p, objectID: PRODUCT, title: "Slicker brush", description: "A brush that keeps fur off your sofa & bed.", costCents: 500 },
  ]);
});
afterAll(() => admin.close());
beforeEach(() => {
  admin.requests.length = 0;
  admin.script();
});

const MARKDOWN = [
  "## Why dogs love it",
  "",
  "Brush **less**, cuddle *more*. See the [care guide](https://example.com/care?a=1&b=2).",
  "",
  "- Soft **pins**",
  "- Cleans in *one* click",
  "",
  "[win a prize](javascript:alert(1)) <script>alert(1)</script>",
].join("\n");

const MARKDOWN_HTML =
  "<h2>Why dogs love it</h2>" +
  '<p>Brush <strong>less</strong>, cuddle <em>more</em>. See the <a href="https://example.com/care?a=1&amp;b=2">care guide</a>.</p>' +
  "<ul><li>Soft <strong>pins</strong></li><li>Cleans in <em>one</em> click</li></ul>" +
  "<p>win a prize &lt;script&gt;alert(1)&lt;/script&gt;</p>";

describe("Markdown descriptions", () => {
  it("a generated page is stored as Markdown with its rendered HTML", async () => {
    const me = await merchant();
    const page = await service().generate({ userId: me.id, objectID: PRODUCT });
    expect(page.descriptionMarkdown).toContain("keeps fur off your sofa & bed.");
    expect(page.descriptionMarkdown).not.toMatch(/<\/?p>/);
    expect(await stored(page.id)).toEqual({
      descriptionMarkdown: page.descriptionMarkdown,
      descriptionHtml: renderDescriptionMarkdown(page.descriptionMarkdown),
    });
    expect(page.descriptionHtml).toContain("sofa &amp; bed.");
  });

  it("stores the seller's Markdown and pushes the rendered HTML to Shopify", async () => {
    const me = await merchant();
    const pages = service();
    const page = await pages.generate({ userId: me.id, objectID: PRODUCT });
    const edited = await pages.update(me.id, page.id, { descriptionMarkdown: `${MARKDOWN}\r\n\r\n`, bullets: ["Gentle <b>", "Lasts"] });
    expect(edited.descriptionMarkdown).toBe(MARKDOWN);
    expect(edited.descriptionHtml).toBe(MARKDOWN_HTML);
    expect(await stored(page.id)).toEqual({ descriptionMarkdown: MARKDOWN, descriptionHtml: MARKDOWN_HTML });

    await pages.push({ userId: me.id, id: page.id, shop: me.shop });
    expect(admin.requests).toHaveLength(1);
    expect(pushedBody()).toBe(`${MARKDOWN_HTML}<ul><li>Gentle &lt;b&gt;</li><li>Lasts</li></ul>`);
    expect(pushedBody()).not.toMatch(/<script|javascript:/i);
  });

  it("a page written before Markdown is shown converted, pushed rendered, and stored as Markdown on its next save", async () => {
    const me = await merchant();
    const pages = service();
    const created = await pages.generate({ userId: me.id, objectID: PRODUCT });
    await db.productPage.update({
      where: { id: created.id },
      data: { descriptionMarkdown: null, descriptionHtml: "<h2>Old</h2><p>Written in <strong>HTML</strong> &amp; kept.</p><ul><li>One</li></ul>" },
    });
    const old = await pages.get(me.id, created.id);
    expect(old.descriptionMarkdown).toBe("## Old\n\nWritten in **HTML** & kept.\n\n- One");

    await pages.push({ userId: me.id, id: created.id, shop: me.shop });
    expect(pushedBody()).toBe(
      `<h2>Old</h2><p>Written in <strong>HTML</strong> &amp; kept.</p><ul><li>One</li></ul><ul>${created.bullets.map((b) => `<li>${escapeHtml(b)}</li>`).join("")}</ul>`,
    );

    await pages.update(me.id, created.id, { priceCents: created.priceCents + 100 });
    expect(await stored(created.id)).toEqual({
      descriptionMarkdown: "## Old\n\nWritten in **HTML** & kept.\n\n- One",
      descriptionHtml: "<h2>Old</h2><p>Written in <strong>HTML</strong> &amp; kept.</p><ul><li>One</li></ul>",
    });
  });

  it("the editor's form saves Markdown; an empty description is refused by the field", async () => {
    const me = await merchant();
    const page = await service().generate({ userId: me.id, objectID: PRODUCT });
    const form = {
      intent: "update",
      id: String(page.id),
      title: page.title,
      descriptionMarkdown: "Brush **less**.\n\n1. Open\n2. Brush",
      bullets: page.bullets.join("\n"),
      seoTitle: page.seoTitle,
      seoDescription: page.seoDescription,
      price: (page.priceCents / 100).toFixed(2),
      compareAt: "",
    };
    const saved = await call(editorAction, "/dashboard/product-pages", { cookie: me.cookie, form });
    expect(saved.status).toBe(200);
    expect(await stored(page.id)).toEqual({
      descriptionMarkdown: "Brush **less**.\n\n1. Open\n2. Brush",
      descriptionHtml: "<p>Brush <strong>less</strong>.</p><ol><li>Open</li><li>Brush</li></ol>",
    });

    const empty = await call(editorAction, "/dashboard/product-pages", {
      cookie: me.cookie,
      form: { ...form, descriptionMarkdown: "   \n  " },
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({
      ok: false,
      message: "Some fields need attention: Description.",
      fieldErrors: { descriptionMarkdown: "Write a description." },
    });
    expect((await stored(page.id)).descriptionMarkdown).toBe("Brush **less**.\n\n1. Open\n2. Brush");
  });

  it("the JSON API takes descriptionMarkdown, and refuses it together with descriptionHtml", async () => {
    const me = await merchant();
    const page = await service().generate({ userId: me.id, objectID: PRODUCT });
    const patched = await call(pageAction, `/api/product-pages/${page.id}`, {
      method: "PATCH",
      cookie: me.cookie,
      json: { descriptionMarkdown: "*Soft* and **quick**" },
      params: { id: String(page.id) },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      descriptionMarkdown: "*Soft* and **quick**",
      descriptionHtml: "<p><em>Soft</em> and <strong>quick</strong></p>",
    });

    const both = await call(pageAction, `/api/product-pages/${page.id}`, {
      method: "PATCH",
      cookie: me.cookie,
      json: { descriptionMarkdown: "a", descriptionHtml: "<p>b</p>" },
      params: { id: String(page.id) },
    });
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      error: "Send the description once: as descriptionMarkdown or as descriptionHtml, not both.",
    });
    expect((await stored(page.id)).descriptionMarkdown).toBe("*Soft* and **quick**");
  });
});
