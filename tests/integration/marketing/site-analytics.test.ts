// POST /api/analytics: page views and leaves. With no POSTHOG_KEY (as in tests) every event lands in
// the OutboxEvent table exactly as it would have been sent to PostHog's capture API.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as analyticsAction } from "~/routes/api.analytics";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

interface CapturePayload {
  event: string;
  distinct_id: string;
  properties: Record<string, unknown> & { $set?: Record<string, unknown> };
  timestamp: string;
}

function anonymousId() {
  return `anon-${crypto.randomUUID()}`;
}

async function eventsFor(distinctId: string) {
  const rows = await db.outboxEvent.findMany({ where: { service: "analytics" }, orderBy: { id: "asc" } });
  return rows
    .map((row) => ({ row, payload: JSON.parse(row.payload) as CapturePayload }))
    .filter(({ payload }) => payload.distinct_id === distinctId);
}

describe("POST /api/analytics", () => {
  it.each<[string, unknown, RegExp]>([
    ["an unknown event", { event: "click", path: "/", anonymousId: "anon-12345678" }, /^event: /],
    [
      "a path that is not a site path",
      { event: "$pageview", path: "https://evil.test/", anonymousId: "anon-12345678" },
      /^path: /,
    ],
    ["a missing path", { event: "$pageview", anonymousId: "anon-12345678" }, /^path: /],
    [
      "a malformed anonymous id",
      { event: "$pageview", path: "/", anonymousId: "<script>" },
      /^anonymousId: .*8-64 letters, digits or dashes/,
    ],
    ["a body that is not an object", ["$pageview"], /^body: /],
  ])("refuses %s with 400 naming the field, and records nothing", async (_label, body, message) => {
    const before = await db.outboxEvent.count();
    const res = await call(analyticsAction, "/api/analytics", { json: body });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
    expect(await db.outboxEvent.count()).toBe(before);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await call(analyticsAction, "/api/analytics", {
      method: "POST",
      body: "event=$pageview",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^body: /);
  });

  it("records an anonymous page view under the browser's anonymous id, with no person properties", async () => {
    const anon = anonymousId();
    const res = await call(analyticsAction, "/api/analytics", {
      json: { event: "$pageview", path: "/choose-plan?plan=pro", anonymousId: anon, referrer: "https://google.com/" },
    });
    expect(res.status).toBe(204);

    const events = await eventsFor(anon);
    expect(events).toHaveLength(1);
    const [{ row, payload }] = events;
    expect(row).toMatchObject({ service: "analytics", name: "$pageview", userId: null, sentAt: null });
    expect(payload.event).toBe("$pageview");
    expect(payload.properties).toEqual({ $current_url: "/choose-plan?plan=pro", $referrer: "https://google.com/" });
    expect(payload.properties).not.toHaveProperty("$set");
    expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
  });

  it("records a signed-in page view under the user's id, with their person properties", async () => {
    // once subscribed (the id stays) but not subscribed now, and no Shopify store.
    const user = await createSignedInUser({ userSubscribed: "no", subscription_id: "sub_01old" });
    const anon = anonymousId();
    const res = await call(analyticsAction, "/api/analytics", {
      json: { event: "$pageleave", path: "/dashboard", anonymousId: anon },
      cookie: user.cookie,
    });
    expect(res.status).toBe(204);

    expect(await eventsFor(anon)).toHaveLength(0);
    const events = await eventsFor(user.id);
    expect(events).toHaveLength(1);
    const [{ row, payload }] = events;
    expect(row).toMatchObject({ service: "analytics", name: "$pageleave", userId: user.id });
    expect(payload.properties).toMatchObject({ $current_url: "/dashboard", $anon_distinct_id: anon });
    expect(payload.properties.$set).toEqual({
      email: user.email,
      subscribed: false,
      once_subscribed: true,
      purchaser: true,
      shopify_connected: false,
    });
  });

  it("person properties follow the user's current state", async () => {
    const user = await createSignedInUser({
      userSubscribed: "yes",
      subscription_id: "sub_1",
      shopifyStoreName: "s.myshopify.com",
    });
    await call(analyticsAction, "/api/analytics", {
      json: { event: "$pageview", path: "/dashboard", anonymousId: anonymousId() },
      cookie: user.cookie,
    });
    const [{ payload }] = await eventsFor(user.id);
    expect(payload.properties.$set).toMatchObject({
      subscribed: true,
      once_subscribed: true,
      purchaser: true,
      shopify_connected: true,
    });
  });

  it("a revoked session is recorded as anonymous", async () => {
    const user = await createSignedInUser();
    await db.userSession.deleteMany({ where: { userId: user.id } });
    const anon = anonymousId();
    await call(analyticsAction, "/api/analytics", {
      json: { event: "$pageview", path: "/", anonymousId: anon },
      cookie: user.cookie,
    });
    expect(await eventsFor(user.id)).toHaveLength(0);
    const [{ row, payload }] = await eventsFor(anon);
    expect(row.userId).toBeNull();
    expect(payload.properties).not.toHaveProperty("$set");
  });
});
