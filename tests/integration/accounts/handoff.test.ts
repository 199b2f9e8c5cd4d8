// Hand-off links from the embedded app to the site (docs/decisions/016): POST /app/handoff, called with a
// real Shopify session token for a linked shop, makes a one-time link; GET /auth/handoff redeems it into a
// site session and lands on the page asked for. A link works once, for five minutes, for the shop's
// linked user only; anything else is refused and creates nothing.
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { loader as meLoader } from "~/routes/api.me";
import { action as disconnectAction } from "~/routes/api.stores.$shop.disconnect";
import { loader as handoffLoader } from "~/routes/_site.auth.handoff";
import { action as createHandoffAction, loader as createHandoffLoader } from "~/routes/app.handoff";
import { createHandoff } from "~/services/accounts/handoff.server";
import { installShop, linkedShop } from "../../helpers/linked-shops";
import { call, cookieFrom } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

beforeEach(() => oauth.reset());

async function asShop(shop: string) {
  return { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME };
}

/** POST /app/handoff from the embedded app of `shop`. */
async function requestLink(shop: string, body: unknown) {
  return call(createHandoffAction, "/app/handoff", { method: "POST", json: body, headers: await asShop(shop) });
}

async function makeLink(shop: string, body: unknown = { to: "checkout", plan: "pro", billing: "monthly" }) {
  const res = await requestLink(shop, body);
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return new URL(url);
}

/** Opens a link in a browser that has `cookie` (or none). */
function open(link: URL | string, cookie?: string) {
  const url = typeof link === "string" ? link : `${link.pathname}${link.search}`;
  return call(handoffLoader, url, { cookie: cookie ?? null });
}

async function whoIs(cookie: string): Promise<string | null> {
  const res = await call(meLoader, "/api/me", { cookie });
  return res.status === 200 ? ((await res.json()) as { email: string }).email : null;
}

const sessionsOf = (userId: string) => db.userSession.count({ where: { userId } });
const linksOf = (userId: string) => db.handoffToken.count({ where: { userId } });

describe("POST /app/handoff", () => {
  it("gives a linked shop a one-time link on the site for its linked user, and stores only the token's hash", async () => {
    const { shop, user } = await linkedShop();
    const res = await requestLink(shop, { to: "checkout", plan: "pro", billing: "monthly" });

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as { url: string; expiresAt: string };
    const url = new URL(body.url);
    expect(url.origin).toBe(TEST_APP_URL);
    expect(url.pathname).toBe("/auth/handoff");
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^wph_[A-Za-z0-9_-]{43}$/);
    // Five minutes.
    const ttl = new Date(body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4.5 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);

    const rows = await db.handoffToken.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ shop, target: "/pay?plan=pro&billing=monthly", usedAt: null });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
  });

  it("refuses a shop that is not linked: 401, no link made", async () => {
    const { shop } = await installShop();
    const res = await requestLink(shop, { to: "billing" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toContain("not linked");
    expect(await db.handoffToken.count({ where: { shop } })).toBe(0);
  });

  it("refuses a request without a valid session token", async () => {
    const { shop, user } = await linkedShop();
    const forged = await signSessionToken({ shop, secret: "not-the-apps-secret" });
    const res = await call(createHandoffAction, "/app/handoff", {
      method: "POST",
      json: { to: "billing" },
      headers: { authorization: `Bearer ${forged}`, "user-agent": DESKTOP_CHROME },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await linksOf(user.id)).toBe(0);
  });

  it.each([
    [{ to: "checkout", plan: "pro", billing: "one_time" }, "plan"],
    [{ to: "checkout", plan: "platinum", billing: "monthly" }, "plan"],
    [{ to: "https://evil.example/steal" }, "to"],
    [{ to: "/dashboard/account" }, "to"],
    [{}, "to"],
  ])("names a bad destination %j (400) and makes no link", async (body, field) => {
    const { shop, user } = await linkedShop();
    const res = await requestLink(shop, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(new RegExp(`^${field}`));
    expect(await linksOf(user.id)).toBe(0);
  });

  it("makes the link for the shop's linked user whatever user id the browser sends", async () => {
    const { shop, user } = await linkedShop();
    const other = await createSignedInUser();
    const url = await makeLink(shop, { to: "billing", userId: other.id, uid: other.id });

    const res = await open(url);
    expect(res.status).toBe(302);
    expect(await whoIs(cookieFrom(res))).toBe(user.email);
    expect(await linksOf(other.id)).toBe(0);
  });

  it("answers GET with 405", async () => {
    expect((await call(createHandoffLoader, "/app/handoff")).status).toBe(405);
  });
});

describe("GET /auth/handoff", () => {
  it("signs the new tab in as the linked user and lands on the checkout that was asked for", async () => {
    const { shop, user } = await linkedShop();
    const sessionsBefore = await sessionsOf(user.id);
    const url = await makeLink(shop, { to: "checkout", plan: "inner-circle", billing: "one_time" });

    const res = await open(url);

    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/pay?plan=inner-circle&billing=one_time");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=.*HttpOnly/i);
    expect(await whoIs(cookieFrom(res))).toBe(user.email);
    expect(await sessionsOf(user.id)).toBe(sessionsBefore + 1);
  });

  it.each([
    [{ to: "billing" }, "/dashboard/billing"],
    [{ to: "discord" }, "/auth/discord"],
    [{ to: "product-pages" }, "/dashboard/product-pages"],
    [{ to: "checkout", plan: "basic", billing: "monthly" }, "/pay?plan=basic&billing=monthly"],
  ])("%j lands on %s", async (destination, target) => {
    const { shop } = await linkedShop();
    const res = await open(await makeLink(shop, destination));
    expect(res.headers.get("location")).toBe(target);
  });

  it("works once: the same link again is a 401 and signs nobody in", async () => {
    const { shop, user } = await linkedShop();
    const url = await makeLink(shop);
    expect((await open(url)).status).toBe(302);
    const sessions = await sessionsOf(user.id);

    const again = await open(url);

    expect(again.status).toBe(401);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.json()).toMatchObject({ title: "This sign-in link was already used" });
    expect(await sessionsOf(user.id)).toBe(sessions);
  });

  it("two tabs racing with one link: exactly one is signed in", async () => {
    const { shop, user } = await linkedShop();
    const url = await makeLink(shop);
    const sessions = await sessionsOf(user.id);

    const results = await Promise.all([open(url), open(url), open(url)]);

    expect(results.map((r) => r.status).sort()).toEqual([302, 401, 401]);
    expect(await sessionsOf(user.id)).toBe(sessions + 1);
  });

  it("an expired link (older than five minutes) is a 401 and creates nothing", async () => {
    const { shop, user } = await linkedShop();
    const made = await createHandoff(
      db,
      { userId: user.id, shop, destination: { to: "billing" } },
      new Date(Date.now() - 5 * 60_000 - 1000),
    );
    const sessions = await sessionsOf(user.id);

    const res = await open(made.path);

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ title: "This sign-in link has expired" });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await sessionsOf(user.id)).toBe(sessions);
    // Still unused: it did not count as a use.
    expect((await db.handoffToken.findFirstOrThrow({ where: { userId: user.id } })).usedAt).toBeNull();
  });

  it("a link four minutes old still works", async () => {
    const { shop, user } = await linkedShop();
    const made = await createHandoff(
      db,
      { userId: user.id, shop, destination: { to: "billing" } },
      new Date(Date.now() - 4 * 60_000),
    );
    expect((await open(made.path)).status).toBe(302);
  });

  it.each([
    ["a changed character", (t: string) => `${t.slice(0, -1)}${t.endsWith("A") ? "B" : "A"}`],
    ["a missing character", (t: string) => t.slice(0, -1)],
    ["another prefix", (t: string) => `wpt_${t.slice(4)}`],
    ["nothing", () => ""],
    ["a made-up token of the right shape", () => `wph_${"x".repeat(43)}`],
  ])("a tampered link (%s) is a 400, creates nothing and leaves the real link usable", async (_name, tamper) => {
    const { shop, user } = await linkedShop();
    const url = await makeLink(shop);
    const token = url.searchParams.get("token")!;
    const sessions = await sessionsOf(user.id);

    const res = await open(`/auth/handoff?${new URLSearchParams({ token: tamper(token) })}`);

    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ title: "This sign-in link is not valid" });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await sessionsOf(user.id)).toBe(sessions);
    expect((await open(url)).status).toBe(302);
  });

  it("no token at all is a 400", async () => {
    const res = await call(handoffLoader, "/auth/handoff");
    expect(res.status).toBe(400);
  });

  it("a browser signed in as someone else becomes the link's user, and the other session ends", async () => {
    const { shop, user } = await linkedShop();
    const other = await createSignedInUser();
    expect(await whoIs(other.cookie)).toBe(other.email);

    const res = await open(await makeLink(shop), other.cookie);

    expect(res.status).toBe(302);
    expect(await whoIs(cookieFrom(res))).toBe(user.email);
    // The other account's session in this browser is over; its account is untouched.
    expect(await whoIs(other.cookie)).toBeNull();
    expect(await db.user.count({ where: { id: other.id } })).toBe(1);
  });

  it("a link whose store was unlinked since it was made is a 401", async () => {
    const { shop, user } = await linkedShop();
    const url = await makeLink(shop);
    const unlinked = await call(disconnectAction, `/api/stores/${shop}/disconnect`, {
      method: "POST",
      cookie: user.cookie,
      params: { shop },
    });
    expect(unlinked.status).toBe(200);
    const sessions = await sessionsOf(user.id);

    const res = await open(url);

    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ title: "This store is no longer linked to the account" });
    expect(await sessionsOf(user.id)).toBe(sessions);
  });

  it("a link made for one account never signs in another: each redeems to its own user", async () => {
    const a = await linkedShop();
    const b = await linkedShop();
    const [linkA, linkB] = [await makeLink(a.shop), await makeLink(b.shop)];
    expect(await whoIs(cookieFrom(await open(linkB)))).toBe(b.user.email);
    expect(await whoIs(cookieFrom(await open(linkA)))).toBe(a.user.email);
  });
});
