// The research assistant's page on both surfaces (one loader and action): the site's /dashboard/assistant
// with the session cookie and the embedded /app/assistant with Shopify's session token for a linked shop.
// Asking without a thread starts one; the thread list, rename and delete; an over-long question is
// answered on the form with its sentence; the embedded API call with a bearer token reaches the same threads.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { action as embeddedAction, loader as embeddedLoader } from "~/routes/app.assistant";
import { action as siteAction, loader as siteLoader } from "~/routes/dashboard.assistant";
import { loader as apiList } from "~/routes/api.threads";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";

const DESKTOP_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

beforeAll(async () => {
  const base = fixtureCatalogue(4, 9);
  await insertProducts(db, base.map((p, i) => ({ ...p, objectID: `ap-${i}`, title: `Plivon thing ${i}`, niches: ["pets"], priceCents: 1500 + i * 100 })));
});
beforeEach(() => oauth.reset());

type PageData = { threads: { id: number; title: string }[]; current: { thread: { id: number; title: string }; messages: { role: string; sourceLabel: string | null; gridParams: string | null }[] } | null; notice: string | null };

describe("/dashboard/assistant", () => {
  it("asks in a new thread, lists it, renames and deletes it", async () => {
    const me = await createSignedInUser({ userSubscribed: "yes" });
    let page = (await (await call(siteLoader, "/dashboard/assistant", { cookie: me.cookie })).json()) as PageData;
    expect(page).toMatchObject({ threads: [], current: null });

    const asked = await call(siteAction, "/dashboard/assistant", { cookie: me.cookie, form: { intent: "ask", text: "pet products under $30" } });
    expect(asked.status).toBe(200);
    const { threadId } = (await asked.json()) as { threadId: number };
    page = (await (await call(siteLoader, `/dashboard/assistant?thread=${threadId}`, { cookie: me.cookie })).json()) as PageData;
    expect(page.threads).toEqual([expect.objectContaining({ id: threadId, title: "pet products under $30" })]);
    expect(page.current?.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(page.current?.messages[1]).toMatchObject({ sourceLabel: "from the built-in parser", gridParams: "niche=pets&maxPrice=30" });

    // A refused first question leaves no empty thread behind.
    const refused = await call(siteAction, "/dashboard/assistant", { cookie: me.cookie, form: { intent: "ask", text: "   " } });
    expect(refused.status).toBe(422);
    expect(await db.thread.count({ where: { userId: me.id } })).toBe(1);
    const long = await call(siteAction, "/dashboard/assistant", { cookie: me.cookie, form: { intent: "ask", threadId: String(threadId), text: "x".repeat(501) } });
    expect(long.status).toBe(422);
    expect(await long.json()).toMatchObject({ ok: false, message: "A question can be at most 500 characters; this one has 501." });

    const renamed = await call(siteAction, "/dashboard/assistant", { cookie: me.cookie, form: { intent: "rename", threadId: String(threadId), title: "Pets" } });
    expect(await renamed.json()).toMatchObject({ ok: true, message: "Renamed to “Pets”." });

    await call(siteAction, "/dashboard/assistant", { cookie: me.cookie, form: { intent: "delete", threadId: String(threadId) } });
    page = (await (await call(siteLoader, `/dashboard/assistant?thread=${threadId}`, { cookie: me.cookie })).json()) as PageData;
    expect(page).toMatchObject({ threads: [], current: null, notice: "That thread does not exist (it may have been deleted)." });
  });

  it("another user's thread cannot be opened, renamed or asked in", async () => {
    const owner = await createSignedInUser();
    const other = await createSignedInUser();
    const asked = await call(siteAction, "/dashboard/assistant", { cookie: owner.cookie, form: { intent: "ask", text: "pets" } });
    const { threadId } = (await asked.json()) as { threadId: number };
    const page = (await (await call(siteLoader, `/dashboard/assistant?thread=${threadId}`, { cookie: other.cookie })).json()) as PageData;
    expect(page.current).toBeNull();
    const forms: Record<string, string>[] = [
      { intent: "rename", threadId: String(threadId), title: "Mine now" },
      { intent: "ask", threadId: String(threadId), text: "cheaper" },
      { intent: "delete", threadId: String(threadId) },
    ];
    for (const form of forms) {
      const res = await call(siteAction, "/dashboard/assistant", { cookie: other.cookie, form });
      expect(res.status).toBe(404);
    }
    expect(await db.thread.findUnique({ where: { id: threadId }, select: { title: true } })).toEqual({ title: "pets" });
    expect(await db.threadMessage.count({ where: { threadId } })).toBe(2);
  });

  it("an anonymous visitor is sent to the landing page", async () => {
    const res = await call(siteLoader, "/dashboard/assistant");
    expect(res.status).toBe(302);
  });
});

describe("/app/assistant inside Shopify admin", () => {
  async function asShop(shop: string, form?: Record<string, string>) {
    return { form, headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME } };
  }

  it("asks for the linked user, whose threads the site and the API show too", async () => {
    const { shop, user } = await linkedShop();
    const asked = await call(embeddedAction, "/app/assistant", await asShop(shop, { intent: "ask", text: "pet products over $10" }));
    expect(asked.status).toBe(200);
    const { threadId } = (await asked.json()) as { threadId: number };
    const page = (await (await call(embeddedLoader, "/app/assistant", await asShop(shop))).json()) as PageData;
    expect(page.current?.thread.id).toBe(threadId);
    expect(page.current?.messages[1].gridParams).toBe("niche=pets&minPrice=10");

    const site = (await (await call(siteLoader, "/dashboard/assistant", { cookie: user.cookie })).json()) as PageData;
    expect(site.threads.map((t) => t.id)).toEqual([threadId]);
    // The embedded app's own calls carry the session token as a bearer token.
    const api = await call(apiList, "/api/threads", { headers: { authorization: `Bearer ${await signSessionToken({ shop })}` } });
    expect(((await api.json()) as { threads: { id: number }[] }).threads.map((t) => t.id)).toEqual([threadId]);
  });

  it("a shop not linked to an account is sent to the linking screen and nothing is saved", async () => {
    const { shop } = await installShop();
    const before = await db.thread.count();
    const res = await call(embeddedAction, "/app/assistant", await asShop(shop, { intent: "ask", text: "pets" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/app/link");
    expect(await db.thread.count()).toBe(before);
  });
});
