// Notifications are links (issue 25, item 8): each one, whatever its kind, opens what it is about on the
// surface it was opened from (/dashboard/... on the site, /app/... inside Shopify admin, with the admin's
// query kept) and is marked read on open. Another user's notification answers 404 and changes nothing.
import { beforeEach, describe, expect, it, vi } from "vitest";
const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());
import { db } from "~/db.server";
import { loader as embeddedOpen } from "~/routes/app.notifications.$id";
import { loader as siteOpen } from "~/routes/dashboard.notifications.$id";
import { loader as dashboardLayout } from "~/routes/dashboard";
import { notifications } from "~/services/index.server";
import { linkedShop } from "../../helpers/linked-shops";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

beforeEach(() => oauth.reset());

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return { ...options, headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME, ...options.headers } };
}

/** One notification of each kind, with the path its producer writes (competitors/alerts, product-drops, saved-search-alerts). */
const KINDS = [
  { kind: "competitor.launch", url: "/dashboard/competitors/41#launches", embedded: "/app/competitors/41#launches" },
  { kind: "competitor.price-drop", url: "/dashboard/competitors/41#product-907", embedded: "/app/competitors/41#product-907" },
  { kind: "product-drop", url: "/dashboard/drops", embedded: "/app/drops" },
  {
    kind: "saved-search.new-products",
    url: "/dashboard/products?q=led+strip&niche=Home&savedSearch=12",
    embedded: "/app/products?q=led+strip&niche=Home&savedSearch=12",
  },
] as const;

async function notifyAll(userId: string) {
  await notifications.notify(KINDS.map((k, i) => ({ userId, kind: k.kind, title: `${k.kind} title`, body: "body", url: k.url, dedupeKey: `${k.kind}:${i}:${userId}` })));
  const rows = await db.notification.findMany({ where: { userId }, select: { id: true, kind: true, readAt: true } });
  return new Map(rows.map((r) => [r.kind, r.id]));
}

const readAt = async (id: number) => (await db.notification.findUniqueOrThrow({ where: { id }, select: { readAt: true } })).readAt;

describe("on the site", () => {
  it.each(KINDS)("$kind opens its page on the site and is marked read", async ({ kind, url }) => {
    const user = await createSignedInUser();
    const id = (await notifyAll(user.id)).get(kind)!;
    expect(await readAt(id)).toBeNull();
    const res = await call(siteOpen, `/dashboard/notifications/${id}`, { cookie: user.cookie, params: { id: String(id) } });
    expect([res.status, res.headers.get("location")]).toEqual([302, url]);
    expect(await readAt(id)).not.toBeNull();
    // Only that one: the others stay unread, and the bell counts them.
    const bell = (await (await call(dashboardLayout, "/dashboard", { cookie: user.cookie })).json()) as { notifications: { unread: number } };
    expect(bell.notifications.unread).toBe(KINDS.length - 1);
  });

  it("another user's notification, or no number: 404 with a sentence, nothing marked read", async () => {
    const owner = await createSignedInUser();
    const other = await createSignedInUser();
    const id = (await notifyAll(owner.id)).get("product-drop")!;
    const res = await call(siteOpen, `/dashboard/notifications/${id}`, { cookie: other.cookie, params: { id: String(id) } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "That notification does not exist or is not yours." });
    expect(await readAt(id)).toBeNull();
    expect((await call(siteOpen, "/dashboard/notifications/x", { cookie: other.cookie, params: { id: "x" } })).status).toBe(404);
    // Signed out: to sign in first.
    expect((await call(siteOpen, `/dashboard/notifications/${id}`, { params: { id: String(id) } })).status).toBe(302);
    expect(await readAt(id)).toBeNull();
  });

  it("a notification without a path of ours opens the dashboard", async () => {
    const user = await createSignedInUser();
    await notifications.notify([{ userId: user.id, kind: "other", title: "t", body: "b", url: "https://evil.example/x", dedupeKey: "o" }]);
    const { id } = await db.notification.findFirstOrThrow({ where: { userId: user.id }, select: { id: true } });
    const res = await call(siteOpen, `/dashboard/notifications/${id}`, { cookie: user.cookie, params: { id: String(id) } });
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
  });
});

describe("inside Shopify admin", () => {
  it.each(KINDS)("$kind opens the embedded twin, keeping the admin's query, and is marked read", async ({ kind, embedded }) => {
    const { shop, user } = await linkedShop();
    const id = (await notifyAll(user.id)).get(kind)!;
    const host = Buffer.from(`admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`).toString("base64");
    const res = await call(embeddedOpen, `/app/notifications/${id}?embedded=1&shop=${shop}&host=${host}`, await asShop(shop, { params: { id: String(id) } }));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!, "https://app.invalid");
    const want = new URL(embedded, "https://app.invalid");
    expect(location.pathname).toBe(want.pathname);
    expect(location.hash).toBe(want.hash);
    for (const [k, v] of want.searchParams) expect(location.searchParams.get(k)).toBe(v);
    expect([location.searchParams.get("shop"), location.searchParams.get("host"), location.searchParams.get("embedded")]).toEqual([shop, host, "1"]);
    expect(await readAt(id)).not.toBeNull();
  });

  it("another shop's user's notification: 404, nothing marked read", async () => {
    const owner = await createSignedInUser();
    const id = (await notifyAll(owner.id)).get("competitor.launch")!;
    const { shop } = await linkedShop();
    const res = await call(embeddedOpen, `/app/notifications/${id}`, await asShop(shop, { params: { id: String(id) } }));
    expect(res.status).toBe(404);
    expect(await readAt(id)).toBeNull();
  });
});
