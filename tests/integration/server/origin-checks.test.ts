// A state-changing request authenticated by the site cookie must come from our own pages
// (docs/decisions/021): another site's page can make a visitor's browser send the cookie, but not hide
// where the request came from (Origin, else Sec-Fetch-Site). Refused with 403 and a sentence, nothing
// changed. A Shopify bearer token is not sent by browsers on their own, so it is exempt; so are signed
// webhooks. The server asks the same check before Remix (app/entry.server.tsx's crossSiteRefusal).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { crossSiteRefusal } from "~/entry.server";
import { action as substract } from "~/routes/api.feature-credits.substract";
import { loader as meLoader } from "~/routes/api.me";
import { action as productAction } from "~/routes/dashboard.products.$objectID";
import { action as logoutAction } from "~/routes/logout";
import * as credits from "~/services/billing/credits.server";
import { linkShop } from "~/services/shopify/stores.server";
import { balancesOf } from "../../helpers/paddle";
import { call, makeRequest } from "../../helpers/routes";
import { signSessionToken, uniqueShop } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";
import { getTokenCrypto } from "~/integrations/token-crypto.server";

const EVIL = "https://evil.example";
// An AI ad costs 5 credits.

async function userWithCredits() {
  const user = await createSignedInUser();
  await credits.applyAllowance(db, {
    userId: user.id,
    feature: "ai-ads",
    allowance: 100,
    idempotencyKey: `origin-test:${user.id}`,
    reason: "test grant",
    mode: "reset",
  });
  return user;
}

function spend(user: { id: string; cookie: string | null }, headers: Record<string, string>) {
  return call(substract, `/api/feature-credits/substract?uid=${user.id}`, {
    method: "POST",
    body: JSON.stringify({ feature: "ai-ads" }),
    cookie: user.cookie,
    headers,
  });
}

describe("POST /api/feature-credits/substract with the victim's cookie", () => {
  it("from another site's page (Origin, text/plain) is 403 with a sentence, and no credit is spent", async () => {
    const user = await userWithCredits();
    const res = await spend(user, { origin: EVIL, "content-type": "text/plain" });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/sent by another website.*nothing was changed/);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 100 });
  });

  it("from another site without an Origin header (Sec-Fetch-Site: cross-site, or same-site) is 403 too", async () => {
    const user = await userWithCredits();
    for (const site of ["cross-site", "same-site"]) {
      expect((await spend(user, { "sec-fetch-site": site, "content-type": "application/json" })).status).toBe(403);
    }
    expect((await spend(user, { origin: "null" })).status).toBe(403);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 100 });
  });

  it("from our own pages it spends, by Origin, by Sec-Fetch-Site, or by the Host a proxy forwarded", async () => {
    const user = await userWithCredits();
    expect((await spend(user, { origin: TEST_APP_URL, "content-type": "application/json" })).status).toBe(200);
    expect((await spend(user, { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await spend(user, { origin: "https://app.internal:8443", "x-forwarded-host": "app.internal:8443" })).status).toBe(200);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 85 });
  });

  it("from a program that sends neither header (curl with a copied cookie) it spends: decision 021", async () => {
    const user = await userWithCredits();
    expect((await spend(user, {})).status).toBe(200);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 95 });
  });

  it("with a Shopify session token instead of the cookie, a foreign Origin is not refused (the embedded app)", async () => {
    const user = await userWithCredits();
    const shop = uniqueShop();
    await linkShop({ db, tokens: getTokenCrypto() }, { shop, userId: user.id });
    const res = await spend(
      { id: user.id, cookie: null },
      { origin: "https://admin.shopify.com", authorization: `Bearer ${await signSessionToken({ shop })}` },
    );
    expect(res.status).toBe(200);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 95 });
  });
});

describe("form actions and log-out", () => {
  it("a cross-site form POST to a dashboard action is 403 with a sentence (not a 500), and nothing is saved", async () => {
    const user = await createSignedInUser();
    const res = await call(productAction, "/dashboard/products/p1", {
      form: { intent: "save" },
      cookie: user.cookie,
      headers: { origin: EVIL },
      params: { objectID: "p1" },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/another website/);
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a cross-site POST /logout is refused and the session still works", async () => {
    const user = await createSignedInUser();
    const res = await call(logoutAction, "/logout", { method: "POST", cookie: user.cookie, headers: { origin: EVIL } });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await call(meLoader, "/api/me", { cookie: user.cookie })).status).toBe(200);
  });
});

describe("the server's check before Remix (crossSiteRefusal)", () => {
  const post = (path: string, headers: Record<string, string>, method = "POST") =>
    makeRequest(path, { method, body: "email=a%40b.c", headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });

  it("answers 403 with a sentence for a foreign form POST to a page, whatever the method that changes state", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const refused = crossSiteRefusal(post("/login", { origin: EVIL }, method));
      expect(refused?.status).toBe(403);
      expect((await refused!.json()).error).toMatch(/another website/);
    }
  });

  it("lets through our own pages, programs without the headers, safe methods, bearer tokens and webhooks", () => {
    expect(crossSiteRefusal(post("/login", { origin: TEST_APP_URL }))).toBeNull();
    expect(crossSiteRefusal(post("/login", {}))).toBeNull();
    expect(crossSiteRefusal(makeRequest("/dashboard", { headers: { origin: EVIL } }))).toBeNull();
    expect(crossSiteRefusal(post("/api/products/p1", { origin: EVIL, authorization: "Bearer x.y.z" }))).toBeNull();
    expect(crossSiteRefusal(post("/webhooks/paddle", { origin: EVIL }))).toBeNull();
  });
});
