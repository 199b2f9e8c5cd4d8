// The seed's marketing calls through their routes: POST /api/klaviyo/updateProfile, /marketingEvent,
// /attributeUpdate (?uid=), GET /api/hyros-lead and GET /api/anytrack. Anonymous 401, another user's
// uid or e-mail 403, malformed 400 with a sentence, and in every refusal nothing is queued; accepted
// calls answer 202 and leave exactly one outbox row (docs/decisions/032).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as anytrack } from "~/routes/api.anytrack";
import { loader as hyrosLead } from "~/routes/api.hyros-lead";
import { action as attributeUpdate } from "~/routes/api.klaviyo.attributeUpdate";
import { action as marketingEvent } from "~/routes/api.klaviyo.marketingEvent";
import { action as updateProfile } from "~/routes/api.klaviyo.updateProfile";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";
import { TEST_APP_URL } from "../../helpers/test-env";

const origin = { origin: TEST_APP_URL };
const post = (handler: typeof updateProfile, path: string, json: unknown, cookie: string | null) =>
  call(handler, path, { json, cookie, headers: origin });

async function queued(userId: string) {
  return db.outboxEvent.findMany({ where: { userId }, orderBy: { id: "asc" } });
}

describe("POST /api/klaviyo/*", () => {
  const calls = [
    ["updateProfile", updateProfile, (email: string) => ({ email, klaviyoId: null, countryCode: "ca", phoneNumber: "+14165550123", properties: { status: "active", courseProgress: 12, discordMember: true, userId: "x", lastLogin: "2026-11-23" } })],
    ["marketingEvent", marketingEvent, (email: string) => ({ email, event_name: "Viewed Pricing" })],
    ["attributeUpdate", attributeUpdate, (email: string) => ({ email, klaviyoId: "01ABC", attribute: "favouriteNiche", value: "pets" })],
  ] as const;

  for (const [name, handler, body] of calls) {
    it(`${name}: 202 and one row for the signed-in user; 401 anonymous; 403 another uid or another e-mail`, async () => {
      const me = await createSignedInUser();
      const other = await createSignedInUser();
      const path = `/api/klaviyo/${name}?uid=${me.id}`;

      expect((await post(handler, path, body(me.email), null)).status).toBe(401);
      const wrongUid = await post(handler, `/api/klaviyo/${name}?uid=${other.id}`, body(me.email), me.cookie);
      expect(wrongUid.status).toBe(403);
      expect((await wrongUid.json()).error).toMatch(/uid is not the signed-in user/);
      const wrongEmail = await post(handler, path, body(other.email), me.cookie);
      expect(wrongEmail.status).toBe(403);
      expect((await wrongEmail.json()).error).toMatch(/only your own address/);
      expect(await queued(me.id)).toHaveLength(0);
      expect(await queued(other.id)).toHaveLength(0);

      const res = await post(handler, path, body(me.email.toUpperCase()), me.cookie);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ ok: true, queued: 1 });
      const rows = await queued(me.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].service).toBe("klaviyo");
    });
  }

  it("updateProfile keeps the browser's phone and country; status, progress and the rest come from the server when sent", async () => {
    const me = await createSignedInUser();
    await post(updateProfile, `/api/klaviyo/updateProfile?uid=${me.id}`, calls[0][2](me.email), me.cookie);
    const [row] = await queued(me.id);
    expect(row).toMatchObject({ operation: "profile", name: "updateProfile" });
    expect(JSON.parse(row.payload)).toEqual({ phoneNumber: "+14165550123", country: "CA" });
  });

  it.each<[string, typeof updateProfile, string, unknown, RegExp]>([
    ["updateProfile without e-mail", updateProfile, "updateProfile", { properties: {} }, /^email: is required/],
    ["updateProfile with a local phone number", updateProfile, "updateProfile", { email: "x@example.com", phoneNumber: "4165550123" }, /^phoneNumber: must be in international format/],
    ["updateProfile with an unknown status", updateProfile, "updateProfile", { email: "x@example.com", properties: { status: "vip" } }, /^properties\.status: /],
    ["marketingEvent with a server-owned event", marketingEvent, "marketingEvent", { email: "x@example.com", event_name: "Subscription Started" }, /^event_name: is sent by the server itself/],
    ["marketingEvent with markup in the name", marketingEvent, "marketingEvent", { email: "x@example.com", event_name: "<script>" }, /^event_name: must be 1-80/],
    ["attributeUpdate of a server-owned property", attributeUpdate, "attributeUpdate", { email: "x@example.com", attribute: "status", value: "active" }, /^attribute: is kept in sync by the server/],
    ["attributeUpdate with an object value", attributeUpdate, "attributeUpdate", { email: "x@example.com", attribute: "a", value: { b: 1 } }, /^value: must be text/],
  ])("400 for %s, naming the field, and nothing is queued", async (_label, handler, name, body, message) => {
    const me = await createSignedInUser();
    const res = await post(handler, `/api/klaviyo/${name}?uid=${me.id}`, body, me.cookie);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
    expect(await queued(me.id)).toHaveLength(0);
  });

  it("400 for a body that is not JSON; 405 for GET", async () => {
    const me = await createSignedInUser();
    const res = await call(updateProfile, `/api/klaviyo/updateProfile?uid=${me.id}`, {
      method: "POST",
      body: "email=x",
      cookie: me.cookie,
      headers: { ...origin, "content-type": "text/plain" },
    });
    expect(res.status).toBe(400);
    expect((await call((await import("~/routes/api.klaviyo.updateProfile")).loader, "/api/klaviyo/updateProfile", { cookie: me.cookie })).status).toBe(405);
  });

  it("a user may queue at most 30 rows a minute from the browser: then 429", async () => {
    const me = await createSignedInUser();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await post(marketingEvent, `/api/klaviyo/marketingEvent?uid=${me.id}`, { email: me.email, event_name: `Clicked ${i}` }, me.cookie)).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect(await queued(me.id)).toHaveLength(30);
  });
});

describe("GET /api/hyros-lead", () => {
  it("only the signed-in user's own e-mail: 401 anonymous, 403 another address, 202 their own (the referrer as a source tag)", async () => {
    const me = await createSignedInUser();
    const q = (email: string) => `/api/hyros-lead?email=${encodeURIComponent(email)}&currentUrl=${encodeURIComponent("https://winning-products.test/signup")}&referer=${encodeURIComponent("https://www.google.com/search?q=x")}`;
    expect((await call(hyrosLead, q(me.email))).status).toBe(401);
    const stranger = await call(hyrosLead, q("victim@example.com"), { cookie: me.cookie });
    expect(stranger.status).toBe(403);
    expect(await db.outboxEvent.count({ where: { service: "hyros" , payload: { contains: "victim@example.com" } } })).toBe(0);
    const res = await call(hyrosLead, q(me.email), { cookie: me.cookie });
    expect(res.status).toBe(202);
    const [row] = await queued(me.id);
    expect(row).toMatchObject({ service: "hyros", operation: "lead" });
    expect(JSON.parse(row.payload)).toMatchObject({ email: me.email, tags: ["@www.google.com"] });
  });

  it("400 for a malformed query", async () => {
    const me = await createSignedInUser();
    const res = await call(hyrosLead, `/api/hyros-lead?email=${encodeURIComponent(me.email)}&currentUrl=not-a-url`, { cookie: me.cookie });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^currentUrl: must be an absolute URL/);
    expect((await call(hyrosLead, `/api/hyros-lead`, { cookie: me.cookie })).status).toBe(400);
  });
});

describe("GET /api/anytrack", () => {
  it("a standard event and a click id: 202, queued once however often it is called; unknown events 400; anonymous 401", async () => {
    const me = await createSignedInUser();
    expect((await call(anytrack, `/api/anytrack?event=Purchase&id=clk_abc123`)).status).toBe(401);
    const unknown = await call(anytrack, `/api/anytrack?event=Hack&id=clk_abc123`, { cookie: me.cookie });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toMatch(/^event: must be one of Lead, CompleteRegistration, Purchase/);
    expect((await call(anytrack, `/api/anytrack?event=Purchase&id=%3Cx%3E`, { cookie: me.cookie })).status).toBe(400);
    expect((await call(anytrack, `/api/anytrack?event=Purchase&id=clk_abc123`, { cookie: me.cookie })).status).toBe(202);
    const again = await call(anytrack, `/api/anytrack?event=Purchase&id=clk_abc123`, { cookie: me.cookie });
    expect(await again.json()).toEqual({ ok: true, queued: 0 });
    const rows = await queued(me.id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].payload)).toEqual({ click_id: "clk_abc123", event_name: "Purchase" });
  });

  it("another user's uid is 403", async () => {
    const me = await createSignedInUser();
    const other = await createSignedInUser();
    expect((await call(anytrack, `/api/anytrack?event=Lead&id=clk_abc123&uid=${other.id}`, { cookie: me.cookie })).status).toBe(403);
  });
});
