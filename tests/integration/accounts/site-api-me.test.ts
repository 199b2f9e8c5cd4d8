// GET /api/me: who the signed-in user is, in the seed's field names.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as meLoader } from "~/routes/api.me";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

describe("GET /api/me", () => {
  it("answers 401 with a JSON error to an anonymous caller (no redirect)", async () => {
    const res = await call(meLoader, "/api/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ error: "Sign in to use this." });
  });

  it("describes a new user: no subscription, no marketing status yet", async () => {
    const user = await createSignedInUser();
    const res = await call(meLoader, "/api/me", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toMatchObject({
      uid: user.id,
      email: user.email,
      userSubscribed: "no",
      trialing: false,
      subscriptionCancelled: false,
      chargeDeclined: false,
      subscription_id: null,
      paddleSubscriptionId: null,
      innerCircle: false,
      marketingStatus: "unactive",
      analytics: { subscribed: false, once_subscribed: false, purchaser: false, shopify_connected: false },
    });
  });

  it("reflects the subscription stored for the user", async () => {
    const user = await createSignedInUser();
    await db.user.update({
      where: { id: user.id },
      data: {
        userSubscribed: "yes",
        subscriptionCancelled: true,
        subscription_id: "sub_01abc",
        paddleSubscriptionId: "sub_01abc",
        paddleCustomerId: "ctm_01xyz",
        shopifyStoreName: "demo.myshopify.com",
      },
      select: { id: true },
    });
    const body = await (await call(meLoader, "/api/me", { cookie: user.cookie })).json();
    expect(body).toMatchObject({
      uid: user.id,
      userSubscribed: "yes",
      subscriptionCancelled: true,
      subscription_id: "sub_01abc",
      paddleSubscriptionId: "sub_01abc",
      paddleCtmId: "ctm_01xyz",
      shopifyStoreName: "demo.myshopify.com",
      marketingStatus: "canceled",
      analytics: { subscribed: true, once_subscribed: true, purchaser: true, shopify_connected: true },
    });
  });

  it("says declined when the last charge was declined", async () => {
    const user = await createSignedInUser({ userSubscribed: "yes", chargeDeclined: true });
    const body = await (await call(meLoader, "/api/me", { cookie: user.cookie })).json();
    expect(body.marketingStatus).toBe("declined");
  });

  it("never returns the password hash or session data", async () => {
    const user = await createSignedInUser();
    const text = await (await call(meLoader, "/api/me", { cookie: user.cookie })).text();
    expect(text).not.toMatch(/passwordHash|scrypt\$/);
    const sessionId = (await db.userSession.findFirstOrThrow({ where: { userId: user.id }, select: { id: true } })).id;
    expect(text).not.toContain(sessionId);
  });

  it("answers each user with their own data", async () => {
    const alice = await createSignedInUser();
    const bob = await createSignedInUser();
    expect((await (await call(meLoader, "/api/me", { cookie: alice.cookie })).json()).uid).toBe(alice.id);
    expect((await (await call(meLoader, "/api/me", { cookie: bob.cookie })).json()).uid).toBe(bob.id);
  });
});
