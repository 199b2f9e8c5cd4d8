// The cases the fuzz suite was written for, one by one: bodies a client may send that used to be 500s.
// Each is a 4xx with a sentence, and nothing changes.
import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { db } from "~/db.server";
import { MAX_JSON_DEPTH } from "~/pages/http/http.server";
import { loader as appLoader } from "~/routes/app";
import { action as aiAdsAction } from "~/routes/api.ai-ads";
import { action as planDetails } from "~/routes/api.paddle-api.getPlanDetails";
import { action as discount } from "~/routes/api.paddle-api.preview-discount";
import { loader as authLoader } from "~/routes/auth.$";
import { action as productAction } from "~/routes/dashboard.products.$objectID";
import { action as savedAction } from "~/routes/dashboard.saved";
import { action as signupAction } from "~/routes/_site.signup";
import { call } from "../../helpers/routes";
import { adminHostParam, uniqueShop } from "../../helpers/shopify";
import { createSignedInUser } from "../../helpers/site-users";

beforeEach(() => oauth.reset());

async function errorOf(res: Response) {
  return ((await res.json()) as { error: string }).error;
}

describe("JSON bodies", () => {
  it("holding an unpaired surrogate are 400 'not valid Unicode' on every reader", async () => {
    const user = await createSignedInUser({ subscription_id: "sub_edges" });
    for (const [handler, path] of [
      [planDetails, "/api/paddle-api/getPlanDetails"],
      [discount, "/api/paddle-api/preview-discount"],
      [aiAdsAction, "/api/ai-ads"],
    ] as const) {
      const res = await call(handler, path, {
        method: "POST",
        body: '{"subscriptionId":"\\ud800","objectID":"\\udc00x","title":"\\ud800"}',
        headers: { "content-type": "application/json" },
        cookie: user.cookie,
      });
      expect(res.status, path).toBe(400);
      expect(await errorOf(res)).toBe("The request body contains text that is not valid Unicode.");
    }
    expect(await db.aiAd.count({ where: { userId: user.id } })).toBe(0);
  });

  it("nested deeper than the limit, or holding numbers past 2^53, are 400 with a sentence", async () => {
    const user = await createSignedInUser();
    const send = (body: string) =>
      call(aiAdsAction, "/api/ai-ads", { method: "POST", body, headers: { "content-type": "application/json" }, cookie: user.cookie });
    const deep = await send(`{"objectID":${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}}`);
    expect(deep.status).toBe(400);
    expect(await errorOf(deep)).toMatch(/nested more than 32 levels/);
    const veryDeep = await send("[".repeat(100_000) + "]".repeat(100_000));
    expect(veryDeep.status).toBe(400);
    const huge = await send('{"objectID":1e999}');
    expect(huge.status).toBe(400);
    expect(await errorOf(huge)).toMatch(/number too large/);
  });
});

describe("form actions", () => {
  it("sent JSON are 415 naming the form types, and save nothing", async () => {
    const user = await createSignedInUser();
    const res = await call(productAction, "/dashboard/products/p1", {
      json: { intent: "save" },
      cookie: user.cookie,
      params: { objectID: "p1" },
    });
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatch(/application\/x-www-form-urlencoded or multipart\/form-data/);
    expect(await db.savedProduct.count({ where: { userId: user.id } })).toBe(0);
  });

  it("sent multipart without a boundary are 400, on the signed-in pages and on sign-up", async () => {
    const user = await createSignedInUser();
    const body = '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nunsave\r\n--x--\r\n';
    const res = await call(savedAction, "/dashboard/saved", {
      method: "POST",
      body,
      headers: { "content-type": "multipart/form-data" },
      cookie: user.cookie,
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatch(/could not be read/);
    const users = await db.user.count();
    const signup = await call(signupAction, "/signup", { method: "POST", body, headers: { "content-type": "multipart/form-data" } });
    expect(signup.status).toBe(400);
    expect(await db.user.count()).toBe(users);
  });
});

describe("the embedded app's doors", () => {
  it("/auth/exit-iframe to another site is 400 and never a redirect; to our own page it renders", async () => {
    const shop = uniqueShop();
    for (const destination of ["https://evil.example/", "//evil.example", "javascript:alert(1)", "https://shop.myshopify.com/x"]) {
      const params = new URLSearchParams({ shop, host: adminHostParam(shop), exitIframe: destination });
      const res = await call(authLoader, `/auth/exit-iframe?${params}`);
      expect(res.status, destination).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await errorOf(res)).toMatch(/not Winning Products or Shopify admin/);
    }
    const own = new URLSearchParams({ shop, host: adminHostParam(shop), exitIframe: "/app" });
    expect((await call(authLoader, `/auth/exit-iframe?${own}`)).status).toBe(200);
  });

  it("/auth/exit-iframe never answers a 5xx or a redirect, whatever the destination", async () => {
    const shop = uniqueShop();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 40 }), fc.webUrl(), fc.constantFrom("", " ", "/", "https://admin.shopify.com:444/x", "https://x.myshopify.com/adminx")),
        async (destination) => {
          const params = new URLSearchParams({ shop, host: adminHostParam(shop), exitIframe: destination });
          const res = await call(authLoader, `/auth/exit-iframe?${params}`);
          expect([200, 400], destination).toContain(res.status);
          expect(res.headers.get("location")).toBeNull();
        },
      ),
      { seed: 20261123, numRuns: 200 },
    );
  });

  it("a host parameter Shopify admin would never send is 400 on /app pages", async () => {
    const shop = uniqueShop();
    for (const host of ["%%%", "!!!", "abc=def", "PHNjcmlwdD4="]) {
      const res = await call(appLoader, `/app?${new URLSearchParams({ embedded: "1", shop, host })}`);
      expect(res.status, host).toBe(400);
      expect(await errorOf(res)).toMatch(/host parameter/);
    }
    // Shopify's own form still reaches the library (which asks for a session token).
    const ok = await call(appLoader, `/app?${new URLSearchParams({ embedded: "1", shop, host: adminHostParam(shop) })}`);
    expect(ok.status).not.toBe(400);
  });
});
