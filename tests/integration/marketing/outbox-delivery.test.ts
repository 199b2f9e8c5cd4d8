// The marketing outbox against local stand-ins of Klaviyo, PostHog, Hyros and AnyTrack
// (tests/helpers/fake-marketing.ts): rows written by the user's own actions (sign-up, log-in, a billing
// notification, a lesson, a Discord join, an alert), what is sent (headers, Klaviyo's revision, JSON:API
// bodies, dedupe keys), and what the outbox does with each answer (202, 429 + Retry-After, 5xx, 400),
// parking and retrying, no keys, and erasure.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createAnalytics } from "~/services/marketing/analytics.server";
import { createMarketingSenders, type MarketingSenders } from "~/integrations/marketing.server";
import { login, signup } from "~/services/accounts/auth.server";
import { createInboundLimits } from "~/services/api-access/inbound-limits.server";
import { createRateLimits } from "~/services/api-access/rate-limits.server";

import { syncCourseContent } from "~/services/course/content.server";
import { completeLesson } from "~/services/course.server";
import { createNotifications } from "~/services/notifications.server";
import { createOutbox, eraseOutboxPerson, outboxRows, writeOutbox, type Outbox } from "~/services/outbox.server";
import { writeTransaction } from "~/db.server";
import { deliver, subscriptionEvent, trialSnapshot } from "../../helpers/paddle";
import { startFakeMarketing, KLAVIYO_REVISION, type FakeMarketing } from "../../helpers/fake-marketing";
import { uniqueEmail } from "../../helpers/routes";
import { createUser, uniqueIp } from "../../helpers/site-users";

const inboundLimits = createInboundLimits({ limits: createRateLimits({ db, databaseUrl: process.env.DATABASE_URL! }), addressScale: 1, loginMaxFailures: 5, loginWindowMinutes: 15 });
const quiet = { info() {}, warn() {}, debug() {} };
let fake: FakeMarketing;
let outboxes: Outbox[] = [];

function sendersFor(url: string, keys = true): MarketingSenders {
  return createMarketingSenders({
    KLAVIYO_API_KEY: keys ? "pk_test_klaviyo" : undefined,
    KLAVIYO_BASE_URL: url,
    POSTHOG_KEY: keys ? "phc_test" : undefined,
    POSTHOG_HOST: url,
    HYROS_API_KEY: keys ? "hyros-test-key" : undefined,
    HYROS_BASE_URL: url,
    ANYTRACK_ACCOUNT_ID: keys ? "acc123" : undefined,
    ANYTRACK_INTEGRATION: "custom",
    ANYTRACK_BASE_URL: url,
  });
}

function outboxWith(options: Partial<Parameters<typeof createOutbox>[0]> = {}) {
  const o = createOutbox({ db, senders: sendersFor(fake.url), log: quiet, random: () => 0, ...options });
  outboxes.push(o);
  return o;
}

beforeAll(async () => {
  fake = await startFakeMarketing();
  await syncCourseContent(db);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.received.length = 0;
  await db.outboxEvent.deleteMany();
});
afterEach(() => {
  for (const o of outboxes) o.close();
  outboxes = [];
});

const rowsOf = (userId: string) => db.outboxEvent.findMany({ where: { userId }, orderBy: { id: "asc" } });

describe("sign-up and log-in", () => {
  it("a sign-up writes the Klaviyo profile and 'Signed Up' event and a PostHog event; delivery sends them in Klaviyo's shape and stores the profile id", async () => {
    const email = uniqueEmail();
    const { userId } = await signup(db, { email, password: "correct horse battery" }, { ip: null }, inboundLimits);
    const rows = await rowsOf(userId);
    expect(rows.map((r) => [r.service, r.operation, r.name, r.status])).toEqual([
      ["klaviyo", "profile", "sign-up", "pending"],
      ["klaviyo", "event", "Signed Up", "pending"],
      ["analytics", "capture", "Signed Up", "pending"],
    ]);

    const outbox = outboxWith();
    expect(await outbox.deliverDue("klaviyo")).toBe(2);

    const [profile] = fake.to("/api/profile-import");
    expect(profile.headers.revision).toBe(KLAVIYO_REVISION);
    expect(profile.headers.authorization).toBe("Klaviyo-API-Key pk_test_klaviyo");
    expect(profile.body).toEqual({
      data: {
        type: "profile",
        attributes: {
          email,
          external_id: userId,
          properties: { status: "unactive", courseProgress: 0, discordMember: false, userId, lastLogin: expect.any(String) },
        },
      },
    });
    const [event] = fake.to("/api/events");
    expect(event.body).toMatchObject({
      data: {
        type: "event",
        attributes: {
          unique_id: `signed-up:${userId}`,
          properties: { method: "password" },
          metric: { data: { type: "metric", attributes: { name: "Signed Up" } } },
          profile: { data: { type: "profile", attributes: { email, external_id: userId } } },
        },
      },
    });
    // Klaviyo's profile id is kept on the user; the rows are sent.
    const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { klaviyoId: true } });
    expect(user.klaviyoId).toMatch(/^01PROFILE/);
    expect((await rowsOf(userId)).filter((r) => r.service === "klaviyo").map((r) => r.status)).toEqual(["sent", "sent"]);

    // The next profile sync updates that profile in place (its id in the body).
    await login(db, { email, password: "correct horse battery" }, { ip: uniqueIp() }, inboundLimits);
    await outbox.deliverDue("klaviyo");
    const second = fake.to("/api/profile-import")[1];
    expect((second.body as { data: { id?: string } }).data.id).toBe(user.klaviyoId);
  });

  it("PostHog rows go out as one /batch/ with the project key and each row's uuid", async () => {
    const email = uniqueEmail();
    const { userId } = await signup(db, { email, password: "correct horse battery" }, { ip: null }, inboundLimits);
    const analytics = createAnalytics({ db, env: { POSTHOG_KEY: "phc_test" } });
    await analytics.capture({ event: "$pageview", distinctId: userId, userId, properties: { $current_url: "/dashboard" } });
    const uuids = (await rowsOf(userId)).filter((r) => r.service === "analytics").map((r) => r.dedupeKey);

    expect(await outboxWith().deliverDue("analytics")).toBe(2);
    const batches = fake.to("/batch/");
    expect(batches).toHaveLength(1);
    const body = batches[0].body as { api_key: string; batch: { event: string; distinct_id: string; uuid: string; properties: Record<string, unknown> }[] };
    expect(body.api_key).toBe("phc_test");
    expect(body.batch.map((e) => [e.event, e.distinct_id, e.uuid])).toEqual([
      ["Signed Up", userId, uuids[0]],
      ["$pageview", userId, uuids[1]],
    ]);
    expect(body.batch[0].properties.$set).toEqual({ email });
  });
});

describe("what the outbox does with each answer", () => {
  async function oneEventRow() {
    const user = await createUser();
    await writeOutbox(db, outboxRows.course(user.id, { progressPercentage: 100, completedNow: true }).filter((r) => r.operation === "event"));
    return { user, row: (await rowsOf(user.id))[0] };
  }

  it("429 with Retry-After: the row waits that long without spending an attempt, and the whole service pauses", async () => {
    const { row } = await oneEventRow();
    const other = await createUser();
    await writeOutbox(db, outboxRows.login(other.id));
    fake.script("/api/events", { status: 429, headers: { "Retry-After": "30" } });
    const outbox = outboxWith({ batchSize: 1 });
    const before = Date.now();
    expect(await outbox.deliverOnce("klaviyo")).toBe(1);

    const after = await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "pending", attempts: 0 });
    expect(after.error).toMatch(/429 rate limited, retry after 30 s/);
    expect(after.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    // The other user's profile row waits too (Retry-After holds the service), and nothing more is sent now.
    const waiting = await db.outboxEvent.findFirstOrThrow({ where: { userId: other.id } });
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(await outbox.deliverDue("klaviyo")).toBe(0);
    expect(fake.to("/api/profile-import")).toHaveLength(0);
  });

  it("5xx: retried with backoff, parked after the last attempt with the error kept; retry sends it again", async () => {
    const { row } = await oneEventRow();
    fake.script("/api/events", { status: 503 }, { status: 502 });
    const outbox = outboxWith({ maxAttempts: 2 });
    await outbox.deliverOnce("klaviyo");
    let after = await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "pending", attempts: 1 });
    expect(after.error).toMatch(/^attempt 1 of 2: 503/);
    expect(after.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 1_000);

    // Due again (as if the backoff passed): the second failure parks it.
    await db.outboxEvent.update({ where: { id: row.id }, data: { nextAttemptAt: new Date(0) } });
    const fresh = outboxWith({ maxAttempts: 2 });
    await fresh.deliverOnce("klaviyo");
    after = await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "parked", attempts: 2 });
    expect(after.error).toMatch(/^attempt 2 of 2: 502/);
    expect((await fresh.list({ status: "parked" })).rows.map((r) => r.id)).toEqual([row.id]);

    expect(await fresh.retry("parked")).toBe(1);
    // (This process paused Klaviyo for a moment after the 502; another deliverer sends it.)
    expect(await outboxWith().deliverDue("klaviyo")).toBe(1);
    expect(await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "sent", attempts: 0 });
    // The same unique_id each time: Klaviyo kept the event once.
    const ids = fake.to("/api/events").map((r) => (r.body as { data: { attributes: { unique_id: string } } }).data.attributes.unique_id);
    expect(ids).toEqual([row.dedupeKey, row.dedupeKey, row.dedupeKey]);
    expect(fake.kept.klaviyoEvents.has(row.dedupeKey!)).toBe(true);
  });

  it("400: parked at once (the service will never accept it); a sent row cannot be retried", async () => {
    const { row } = await oneEventRow();
    fake.script("/api/events", { status: 400, body: { errors: [{ detail: "metric name too long" }] } });
    const outbox = outboxWith();
    await outbox.deliverOnce("klaviyo");
    const after = await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "parked", attempts: 1 });
    expect(after.error).toMatch(/400: the service refused the request: metric name too long/);
    await outbox.retry(row.id);
    await outbox.deliverDue("klaviyo");
    await expect(outbox.retry(row.id)).rejects.toThrow(/already sent/);
  });

  it("no answer (the service is down): an attempt is spent and the row waits", async () => {
    const { row } = await oneEventRow();
    const outbox = createOutbox({ db, senders: sendersFor("http://127.0.0.1:9"), log: quiet, random: () => 0 });
    outboxes.push(outbox);
    await outbox.deliverOnce("klaviyo");
    const after = await db.outboxEvent.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "pending", attempts: 1 });
    expect(after.error).toMatch(/no answer/);
  });

  it("with no keys, rows are kept and never sent", async () => {
    await oneEventRow();
    const outbox = createOutbox({ db, senders: sendersFor(fake.url, false), log: quiet });
    outboxes.push(outbox);
    expect(await outbox.deliverDue("klaviyo")).toBe(0);
    expect(await outbox.deliverDue("analytics")).toBe(0);
    expect(fake.received).toHaveLength(0);
    expect(await db.outboxEvent.count({ where: { status: "pending" } })).toBe(1);
  });

  it("the rate limit spaces requests: 5 profiles at 10/s with a burst of 1 take at least 0.4 s", async () => {
    for (let i = 0; i < 5; i++) await writeOutbox(db, outboxRows.login((await createUser()).id));
    const outbox = outboxWith({ rateLimits: { "klaviyo:profile": { perSecond: 10, burst: 1 } } });
    const started = Date.now();
    expect(await outbox.deliverDue("klaviyo")).toBe(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect(fake.to("/api/profile-import")).toHaveLength(5);
  });
});

describe("lifecycle moments the server reports by itself", () => {
  it("a Paddle trial: profile status and 'Trial Started' in the notification's transaction, with Paddle's event id as unique_id", async () => {
    const user = await createUser();
    const event = subscriptionEvent("subscription.created", trialSnapshot(user.id), new Date());
    expect((await deliver(event)).status).toBe(200);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.service, r.operation, r.name])).toEqual([
      ["klaviyo", "profile", "subscription"],
      ["klaviyo", "event", "Trial Started"],
      ["analytics", "capture", "Trial Started"],
    ]);
    expect(rows[1].dedupeKey).toBe(`paddle:${(event as { event_id: string }).event_id}:Trial Started`);
    await outboxWith().deliverDue("klaviyo");
    const profile = fake.to("/api/profile-import")[0].body as { data: { attributes: { properties: { status: string } } } };
    expect(profile.data.attributes.properties.status).toBe("active");
    // A redelivery of the same notification writes nothing more.
    await deliver(event);
    expect(await db.outboxEvent.count({ where: { userId: user.id } })).toBe(3);
  });

  it("the last lesson sends courseProgress 100 and 'Course Completed' once", async () => {
    const user = await createUser();
    await db.lessonCompletion.createMany({ data: Array.from({ length: 77 }, (_, i) => ({ userId: user.id, lessonNumber: i + 1 })) });
    await completeLesson(db, user.id, 78);
    await completeLesson(db, user.id, 78);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => r.name)).toEqual(["course progress", "Course Completed", "Course Completed"]);
    await outboxWith().deliverDue("klaviyo");
    const profile = fake.to("/api/profile-import")[0].body as { data: { attributes: { properties: { courseProgress: number } } } };
    expect(profile.data.attributes.properties.courseProgress).toBe(100);
  });

  it("an in-app alert becomes a Klaviyo event a flow can e-mail, with an absolute link", async () => {
    const user = await createUser();
    const notifications = createNotifications({ db, appUrl: "https://winning-products.test" });
    const alert = { userId: user.id, kind: "competitor.price-drop", title: "Price drop", body: "Mug now $9", url: "/dashboard/competitors/1", dedupeKey: "drop:1" };
    expect(await notifications.notify([alert, alert])).toBe(1);
    await outboxWith().deliverDue("klaviyo");
    const [event] = fake.to("/api/events");
    expect(event.body).toMatchObject({
      data: {
        attributes: {
          unique_id: `alert:${user.id}:drop:1`,
          metric: { data: { attributes: { name: "Competitor Price Drop Alert" } } },
          properties: { kind: "competitor.price-drop", title: "Price drop", url: "https://winning-products.test/dashboard/competitors/1" },
        },
      },
    });
  });
});

describe("Hyros and AnyTrack", () => {
  it("send their documented shapes: Hyros's API-Key header, AnyTrack's click_id/event_name/transaction_id", async () => {
    const user = await createUser();
    await writeOutbox(db, [
      { service: "hyros", operation: "lead", name: "lead", userId: user.id, payload: { email: user.email, tags: ["@google.com"] } },
      { service: "anytrack", operation: "conversion", name: "Lead", userId: user.id, payload: { click_id: "clk_12345", event_name: "Lead" }, dedupeKey: "t-1" },
    ]);
    const outbox = outboxWith();
    expect(await outbox.deliverDue("hyros")).toBe(1);
    expect(await outbox.deliverDue("anytrack")).toBe(1);
    const [lead] = fake.to("/v1/api/v1.0/leads");
    expect(lead.headers["api-key"]).toBe("hyros-test-key");
    expect(lead.body).toEqual({ email: user.email, tags: ["@google.com"] });
    const [conversion] = fake.to("/acc123/collect/custom");
    expect(conversion.body).toEqual({ click_id: "clk_12345", event_name: "Lead", transaction_id: "t-1" });
  });
});

describe("erasure", () => {
  it("deleting a person's rows queues a Klaviyo deletion (when Klaviyo knew them) that keeps the address only until it is sent", async () => {
    const user = await createUser({ klaviyoId: "01PROFILE9999" });
    await writeOutbox(db, outboxRows.login(user.id));
    const result = await writeTransaction(db, (tx) => eraseOutboxPerson(tx, { userId: user.id, email: user.email, klaviyoId: "01PROFILE9999" }));
    expect(result).toEqual({ erased: 1, deletionRequested: true });
    expect(await rowsOf(user.id)).toHaveLength(0);
    await outboxWith().deliverDue("klaviyo");
    const [job] = fake.to("/api/data-privacy-deletion-jobs");
    expect(job.body).toEqual({
      data: { type: "data-privacy-deletion-job", attributes: { profile: { data: { type: "profile", id: "01PROFILE9999", attributes: { email: user.email } } } } },
    });
    const deletion = await db.outboxEvent.findFirstOrThrow({ where: { operation: "profile-deletion" } });
    expect(deletion).toMatchObject({ status: "sent", email: null, payload: "{}" });
  });

  it("a person Klaviyo never heard of: rows erased, nothing asked of Klaviyo", async () => {
    const user = await createUser();
    await writeOutbox(db, outboxRows.login(user.id));
    const result = await writeTransaction(db, (tx) => eraseOutboxPerson(tx, { userId: user.id, email: user.email }));
    expect(result).toEqual({ erased: 1, deletionRequested: false });
    expect(await db.outboxEvent.count()).toBe(0);
  });
});
