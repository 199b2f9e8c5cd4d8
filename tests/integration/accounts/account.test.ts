// The account page (/dashboard/account) on a real migrated database, through its routes with real
// Requests and cookies: change password (other sessions end, this one stays), change e-mail (409 when
// taken), download my data (a JSON attachment without a secret), delete my account (the Paddle
// subscription cancelled first, at the local Paddle API, then every owned row erased). Each refusal
// changes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());

import { randomUUID } from "node:crypto";
import { db } from "~/db.server";
import { createPaddleApi } from "~/integrations/paddle.server";
import { action as loginAction } from "~/routes/_site.login";
import { loader as meLoader } from "~/routes/api.me";
import { action as accountAction, loader as accountLoader } from "~/routes/dashboard.account";
import { action as dataAction, loader as dataLoader } from "~/routes/dashboard.account.data";
import { createAccount } from "~/services/accounts/account.server";
import { accountEmails, rateLimits } from "~/services/index.server";
import { RATE_LIMITS } from "~/services/api-access/rate-limits.server";
import { verifyPassword } from "~/services/accounts/password-hashing.server";
import { installShop } from "../../helpers/linked-shops";
import { startPaddleApiFake, type PaddleApiFake } from "../../helpers/paddle-api-fake";
import {
  completedTransaction,
  deliver,
  planPrice,
  priceIds,
  subscriptionEvent,
  transactionEvent,
  trialSnapshot,
} from "../../helpers/paddle";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { call } from "../../helpers/routes";
import { createSignedInUser, signInAs, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";
import { linkShop } from "~/services/shopify/stores.server";
import { getTokenCrypto } from "~/integrations/token-crypto.server";

const NEW_PASSWORD = "a brand new passphrase";

let productIds: number[] = [];
beforeAll(async () => {
  await insertProducts(db, fixtureCatalogue(3, 41));
  productIds = (await db.product.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((p) => p.id);
});
beforeEach(() => oauth.reset());

const post = (cookie: string, form: Record<string, string>) =>
  call(accountAction, "/dashboard/account", { method: "POST", cookie, form });
const download = (cookie: string, form: Record<string, string>) =>
  call(dataAction, "/dashboard/account/data", { method: "POST", cookie, form });
const meStatus = async (cookie: string) => (await call(meLoader, "/api/me", { cookie })).status;

async function logIn(email: string, password: string) {
  const res = await call(loginAction, "/login", {
    method: "POST",
    form: { email, password },
    headers: { "x-forwarded-for": uniqueIp() },
  });
  return res.status;
}

/** The parts of a user row an account action may change. */
const accountRow = (id: string) =>
  db.user.findUniqueOrThrow({ where: { id }, select: { email: true, passwordHash: true, updatedAt: true } });

/** A signed-in user with a row in every table a user owns, and a linked store with stored tokens. */
async function userWithEverything() {
  const user = await createSignedInUser();
  const { id: userId, email } = user;
  const installed = await installShop();
  await linkShop({ db, tokens: getTokenCrypto() }, { shop: installed.shop, userId });

  const sub = trialSnapshot(userId);
  expect((await deliver(subscriptionEvent("subscription.created", sub, new Date()))).status).toBe(200);
  const txn = completedTransaction(userId, planPrice("pro"), { subscriptionId: sub.id, customerId: sub.customerId });
  expect((await deliver(transactionEvent("transaction.completed", txn, new Date()))).status).toBe(200);
  await db.creditLedger.create({
    data: { userId, feature: "glitch-mode", kind: "grant", amount: 3, balanceAfter: 3, idempotencyKey: `t-${randomUUID()}` },
  });

  const tag = randomUUID().slice(0, 8);
  await db.savedProduct.create({ data: { userId, productId: productIds[0] } });
  await db.trackedProduct.create({
    data: {
      userId,
      productId: productIds[1],
      ordersAtTrack: 10,
      revenueCentsAtTrack: 123_456n,
      priceCentsAtTrack: 1999,
      storesSellingAtTrack: 4,
      winningScoreAtTrack: 70,
    },
  });
  await db.savedSearch.create({ data: { userId, name: "Pets under $20", query: "niche=pets&maxPrice=2000" } });
  await db.lessonCompletion.create({ data: { userId, lessonNumber: 1 } });
  await db.userCourse.create({ data: { userId, progressPercentage: 1.3, latestLessonNumber: 1 } });
  await db.discordProfile.create({ data: { userId, discordId: `d-${tag}`, discordUserName: `seller_${tag}` } });
  await db.feedback.create({ data: { userId, message: "Love the glitch mode" } });
  await db.bugReport.create({ data: { userId, description: "The grid flickers" } });
  await db.themeToken.create({
    data: {
      userId,
      themeId: `theme-${tag}`,
      tokenHash: `hash-${tag}`,
      selectedStore: installed.shop,
      whitelistedUrls: "[]",
      version: "1",
    },
  });
  await db.productPage.create({
    data: {
      userId,
      objectID: "obj-1",
      title: "A page",
      descriptionHtml: "<p>x</p>",
      bullets: "[]",
      seoTitle: "s",
      seoDescription: "d",
      priceCents: 1999,
      writer: "built-in writer",
    },
  });
  await db.handoffToken.create({
    data: { userId, tokenHash: `handoff-${tag}`, shop: installed.shop, target: "/dashboard", expiresAt: new Date(Date.now() + 60_000) },
  });
  // A reset link asked for, and its rate-limit counter keyed by the address (decision 051).
  await db.authToken.create({
    data: { userId, purpose: "password-reset", email, tokenHash: `reset-${tag}`, expiresAt: new Date(Date.now() + 60_000) },
  });
  await db.rateLimit.create({ data: { key: `password-reset:email:${email}`, points: 1, expire: new Date(Date.now() + 60_000) } });
  // The same counter in the SQLite store's table (decision 063), and in the counters' own file (decision 069),
  // with the user's monthly API count there.
  await db.rateLimitCounter.create({ data: { key: `password-reset:email:${email}`, points: 1, expire: BigInt(Date.now() + 60_000) } });
  await rateLimits.limit(RATE_LIMITS.passwordResetPerEmail).consume(email);
  await rateLimits.limit(RATE_LIMITS.apiMonthly).take({ subject: `user:${userId}` });
  await db.glitch.create({
    data: {
      userId,
      productObjectID: "obj-2",
      title: "A glitch",
      amazonPriceCents: 5000,
      costCents: 1000,
      shippingCents: 300,
      spreadCents: 3700,
      numbersUpdatedAt: new Date(),
    },
  });
  const ad = await db.aiAd.create({ data: { userId, productObjectID: "obj-3", title: "An ad", scenes: "[]", writer: "built-in writer" } });
  await db.aiAdPreview.create({ data: { userId, adId: ad.id, status: "completed", storageKey: `previews/${ad.id}-1-test.mp4` } });
  await db.apiKey.create({ data: { userId, name: "Zapier", prefix: "wpk_test1234", keyHash: `test-hash-${userId}` } });
  const rival = await db.competitorStore.upsert({
    where: { domain: "rival-store.test" },
    create: { domain: "rival-store.test", fetchDomain: "rival-store.test", name: "Rival" },
    update: {},
    select: { id: true },
  });
  const follow = await db.competitor.create({ data: { userId, storeId: rival.id, name: "Rival" }, select: { id: true } });
  await db.competitorProductFollow.create({ data: { userId, competitorId: follow.id, storeId: rival.id, productId: "1001" } });
  await db.competitorCheckRequest.create({ data: { userId, storeId: rival.id, at: new Date() } });
  await db.notification.create({ data: { userId, kind: "competitor.launch", title: "New launch", body: "Rival launched 1 product.", dedupeKey: `n-${tag}` } });
  await db.outboxEvent.create({ data: { service: "analytics", name: "viewed", userId, payload: "{}" } });
  await db.outboxEvent.create({ data: { service: "klaviyo", name: "subscribed", payload: JSON.stringify({ email, list: "x" }) } });
  await db.brandKit.create({
    data: { userId, name: "House style", primaryColour: "#112233", accentColour: "#ff8800", font: "dejavu-sans", isDefault: true },
  });
  await db.tikTok.create({
    data: { userId, productObjectID: "obj-1", url: "https://www.tiktok.com/@seller/video/7123456789012345678", videoId: "7123456789012345678" },
  });
  const thread = await db.thread.create({ data: { userId, title: "Pet products" }, select: { id: true } });
  await db.threadMessage.create({ data: { threadId: thread.id, userId, role: "user", text: "pet products under $30" } });
  await db.userProductDrop.create({ data: { userId, date: "2026-11-16" } });
  await db.loginFailure.create({ data: { key: `email:${email}` } });
  return { ...user, shop: installed.shop, subscriptionId: sub.id };
}

/** Every table with a userId column: a new one must be added to rowsOwnedBy (and to the deletion). */
async function tablesWithUserId(): Promise<string[]> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`,
  );
  const out: string[] = [];
  for (const { name } of tables) {
    const columns = await db.$queryRawUnsafe<{ name: string }[]>(`PRAGMA table_info("${name}")`);
    if (columns.some((c) => c.name === "userId")) out.push(name);
  }
  return out.sort();
}

/** Rows about one user, per table: everything that must be gone after the account is deleted. */
async function rowsOwnedBy(user: { id: string; email: string }, shops: string[]) {
  const where = { userId: user.id };
  return {
    User: await db.user.count({ where: { id: user.id } }),
    UserSession: await db.userSession.count({ where }),
    BillingSubscription: await db.billingSubscription.count({ where }),
    BillingTransaction: await db.billingTransaction.count({ where }),
    PaddleEvent: await db.paddleEvent.count({ where }),
    CreditBalance: await db.creditBalance.count({ where }),
    CreditLedger: await db.creditLedger.count({ where }),
    LessonCompletion: await db.lessonCompletion.count({ where }),
    UserCourse: await db.userCourse.count({ where }),
    DiscordProfile: await db.discordProfile.count({ where }),
    Feedback: await db.feedback.count({ where }),
    BugReport: await db.bugReport.count({ where }),
    SavedProduct: await db.savedProduct.count({ where }),
    TrackedProduct: await db.trackedProduct.count({ where }),
    SavedSearch: await db.savedSearch.count({ where }),
    ShopifyStore: await db.shopifyStore.count({ where }),
    ThemeToken: await db.themeToken.count({ where }),
    Competitor: await db.competitor.count({ where }),
    CompetitorProductFollow: await db.competitorProductFollow.count({ where }),
    CompetitorCheckRequest: await db.competitorCheckRequest.count({ where }),
    Notification: await db.notification.count({ where }),
    ProductPage: await db.productPage.count({ where }),
    HandoffToken: await db.handoffToken.count({ where }),
    AuthToken: await db.authToken.count({ where }),
    RateLimit: await db.rateLimit.count({ where: { key: { endsWith: `:${user.email}` } } }),
    RateLimitCounter: await db.rateLimitCounter.count({ where: { key: { endsWith: `:${user.email}` } } }),
    RateLimitCounterFile:
      (await rateLimits.limit(RATE_LIMITS.passwordResetPerEmail).usage(user.email)).used +
      (await rateLimits.limit(RATE_LIMITS.apiMonthly).usage(`user:${user.id}`)).used,
    Glitch: await db.glitch.count({ where }),
    AiAd: await db.aiAd.count({ where }),
    AiAdPreview: await db.aiAdPreview.count({ where }),
    ApiKey: await db.apiKey.count({ where }),
    BrandKit: await db.brandKit.count({ where }),
    TikTok: await db.tikTok.count({ where }),
    Thread: await db.thread.count({ where }),
    ThreadMessage: await db.threadMessage.count({ where }),
    UserProductDrop: await db.userProductDrop.count({ where }),
    OutboxEvent: await db.outboxEvent.count({ where: { OR: [where, { payload: { contains: user.email } }] } }),
    LoginFailure: await db.loginFailure.count({ where: { key: { in: [`email:${user.email}`, `account:${user.id}`] } } }),
    Session: await db.session.count({ where: { shop: { in: shops } } }),
  };
}

describe("the account page", () => {
  it("shows the e-mail, whether there is a password, and the devices signed in", async () => {
    const user = await createSignedInUser();
    await signInAs(user.id);
    const res = await call(accountLoader, "/dashboard/account", { cookie: user.cookie });
    expect(await res.json()).toMatchObject({ email: user.email, hasPassword: true, sessions: 2, activeSubscriptions: 0 });
  });

  it("answers an unknown intent with 400 and a sentence", async () => {
    const user = await createSignedInUser();
    const res = await post(user.cookie, { intent: "become-admin" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Unknown action." });
    expect(await meStatus(user.cookie)).toBe(200);
  });

  it("cannot be used anonymously", async () => {
    const res = await post("", { intent: "change-email", newEmail: "x@example.com", password: TEST_PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Faccount");
  });
});

describe("change password", () => {
  it("needs the current password; ends every other session and keeps this one", async () => {
    const user = await createSignedInUser();
    const laptop = await signInAs(user.id);
    const phone = await signInAs(user.id);
    const someoneElse = await createSignedInUser();

    const res = await post(user.cookie, { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ intent: "change-password", error: null, message: expect.stringMatching(/2 other devices were signed out/) });

    expect(await meStatus(user.cookie)).toBe(200);
    expect(await meStatus(laptop)).toBe(401);
    expect(await meStatus(phone)).toBe(401);
    expect(await meStatus(someoneElse.cookie)).toBe(200);
    expect(await logIn(user.email, TEST_PASSWORD)).toBe(401);
    expect(await logIn(user.email, NEW_PASSWORD)).toBe(302);
  });

  it.each([
    ["a wrong current password", { currentPassword: "not my password", newPassword: NEW_PASSWORD }, 403, /not your current password/],
    ["no current password", { currentPassword: "", newPassword: NEW_PASSWORD }, 400, /Enter your current password/],
    ["a new password that is too short", { currentPassword: TEST_PASSWORD, newPassword: "short" }, 400, /at least 8 characters/],
    ["a new password of spaces", { currentPassword: TEST_PASSWORD, newPassword: "  a      " }, 400, /besides spaces/],
    ["the same password again", { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD }, 400, /That is your current password/],
  ])("refuses %s and changes nothing", async (_label, form, status, message) => {
    const user = await createSignedInUser();
    const phone = await signInAs(user.id);
    const before = await accountRow(user.id);

    const res = await post(user.cookie, { intent: "change-password", ...form });
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);

    expect(await accountRow(user.id)).toEqual(before);
    expect(await meStatus(phone)).toBe(200);
    expect(await meStatus(user.cookie)).toBe(200);
  });

  it("refuses after too many wrong passwords, even the right one, with 429", async () => {
    const user = await createSignedInUser();
    for (let i = 0; i < 5; i++) {
      expect((await post(user.cookie, { intent: "change-password", currentPassword: `wrong ${i}`, newPassword: NEW_PASSWORD })).status).toBe(403);
    }
    const res = await post(user.cookie, { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(429);
    const { passwordHash } = await accountRow(user.id);
    expect(await verifyPassword(TEST_PASSWORD, passwordHash!)).toBe(true);
  });
});

describe("change e-mail", () => {
  it("with the password: a link goes to the new address, and the old one signs in until it is opened (decision 079)", async () => {
    const user = await createSignedInUser();
    const newEmail = `new-${randomUUID().slice(0, 8)}@example.com`;
    const res = await post(user.cookie, { intent: "change-email", password: TEST_PASSWORD, newEmail: `  ${newEmail.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect((await res.json()).message).toContain(newEmail);
    expect((await accountRow(user.id)).email).toBe(user.email);
    expect(await logIn(user.email, TEST_PASSWORD)).toBe(302);
    expect(await logIn(newEmail, TEST_PASSWORD)).toBe(401);
    // The rest of the flow: tests/integration/accounts/email-change.test.ts.
  });

  it("409 with a sentence when another account uses the address; nothing changes", async () => {
    const user = await createSignedInUser();
    const other = await createSignedInUser();
    const before = await accountRow(user.id);
    const res = await post(user.cookie, { intent: "change-email", password: TEST_PASSWORD, newEmail: other.email });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ field: "newEmail", error: expect.stringMatching(/Another account already uses this e-mail/) });
    expect(await accountRow(user.id)).toEqual(before);
  });

  it.each([
    ["a wrong password", { password: "nope nope nope", newEmail: "fresh@example.com" }, 403],
    ["an invalid address", { password: TEST_PASSWORD, newEmail: "not-an-email" }, 400],
    ["no address", { password: TEST_PASSWORD }, 400],
  ])("refuses %s and changes nothing", async (_label, form, status) => {
    const user = await createSignedInUser();
    const before = await accountRow(user.id);
    const res = await post(user.cookie, { intent: "change-email", ...form });
    expect(res.status).toBe(status);
    expect(typeof (await res.json()).error).toBe("string");
    expect(await accountRow(user.id)).toEqual(before);
  });
});

describe("download my data", () => {
  it("is a JSON attachment with everything we hold, and no password hash, token or session id", async () => {
    const user = await userWithEverything();
    const res = await download(user.cookie, { intent: "download-data", confirmation: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="winning-products-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const text = await res.text();
    const body = JSON.parse(text);

    expect(body.profile).toMatchObject({ id: user.id, email: user.email, hasPassword: true, userSubscribed: "yes", trialing: true });
    expect(body.billing.subscriptions).toEqual([expect.objectContaining({ id: user.subscriptionId, status: "trialing" })]);
    expect(body.billing.transactions).toHaveLength(1);
    expect(body.credits.balances.length).toBeGreaterThan(0);
    expect(body.credits.ledger.length).toBeGreaterThan(0);
    expect(body.research.savedProducts).toEqual([expect.objectContaining({ objectID: expect.any(String), title: expect.any(String) })]);
    expect(body.research.trackedProducts).toEqual([expect.objectContaining({ revenueCentsAtTrack: 123456 })]);
    expect(body.research.savedSearches).toEqual([expect.objectContaining({ name: "Pets under $20" })]);
    expect(body.course.lessonsCompleted).toEqual([expect.objectContaining({ lessonNumber: 1 })]);
    expect(body.course.progress).toMatchObject({ latestLessonNumber: 1 });
    expect(body.feedback).toEqual([expect.objectContaining({ message: "Love the glitch mode" })]);
    expect(body.bugReports).toEqual([expect.objectContaining({ description: "The grid flickers" })]);
    expect(body.shopify.stores).toEqual([expect.objectContaining({ shop: user.shop, connected: true })]);
    expect(body.shopify.themeTokens).toHaveLength(1);
    expect(body.productPages).toHaveLength(1);
    expect(body.aiAds).toHaveLength(1);
    expect(body.aiAdPreviews).toEqual([expect.objectContaining({ status: "completed" })]);
    expect(body.aiAdPreviews[0]).not.toHaveProperty("storageKey");
    expect(body.glitches).toHaveLength(1);
    expect(body.discordProfile).toMatchObject({ discordUserName: expect.stringMatching(/^seller_/) });
    expect(body.sessions).toEqual([expect.objectContaining({ userAgent: expect.any(String) })]);
    expect(body.brandKits).toEqual([expect.objectContaining({ name: "House style", isDefault: true })]);
    expect(body.brandKits[0]).not.toHaveProperty("logo");
    expect(body.tiktoks).toEqual([expect.objectContaining({ productObjectID: "obj-1", videoId: "7123456789012345678" })]);
    expect(body.assistantThreads).toEqual([
      expect.objectContaining({ title: "Pet products", messages: [expect.objectContaining({ text: "pet products under $30" })] }),
    ]);
    expect(body.productDrops.revealedDates).toEqual(["2026-11-16"]);

    // Never a secret: not the hash, not a token (plain, sealed or hashed), not a session id.
    const user_ = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { passwordHash: true } });
    const store = await db.shopifyStore.findFirstOrThrow({ where: { userId: user.id }, select: { encrypted_app_token: true } });
    const sessions = await db.userSession.findMany({ where: { userId: user.id }, select: { id: true } });
    const shopSessions = await db.session.findMany({ where: { shop: user.shop }, select: { accessToken: true, refreshToken: true } });
    const secrets = [
      user_.passwordHash!,
      ...(store.encrypted_app_token ? [store.encrypted_app_token] : []),
      ...sessions.map((s) => s.id),
      ...shopSessions.flatMap((s) => [s.accessToken, s.refreshToken ?? ""]).filter(Boolean),
      ...(await db.themeToken.findMany({ where: { userId: user.id }, select: { tokenHash: true } })).map((t) => t.tokenHash),
      ...(await db.handoffToken.findMany({ where: { userId: user.id }, select: { tokenHash: true } })).map((t) => t.tokenHash),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/passwordHash|scrypt\$|encrypted_app_token|tokenHash|accessToken|refreshToken/);
  });

  it("refuses a wrong password with 403 JSON and sends nothing", async () => {
    const user = await createSignedInUser();
    const res = await download(user.cookie, { intent: "download-data", confirmation: "wrong password" });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-disposition")).toBeNull();
    expect(await res.json()).toEqual({ error: "That is not your current password. Nothing was changed.", field: "confirmation" });
  });

  it("is for the signed-in user only, and a GET goes back to the page", async () => {
    const anonymous = await download("", { confirmation: TEST_PASSWORD });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Faccount%2Fdata");
    const get = await call(dataLoader, "/dashboard/account/data");
    expect(get.headers.get("location")).toBe("/dashboard/account");
  });
});

describe("delete my account (through the page, local Paddle checkout)", () => {
  it("erases every row the user owns, their store tokens and outbox rows; signs out; says goodbye", async () => {
    const victim = await userWithEverything();
    const bystander = await userWithEverything();
    const phone = await signInAs(victim.id);

    // Every table with a userId column is counted (Shopify's Session has one too: the staff member's id;
    // its rows are counted by the user's shops).
    expect(await tablesWithUserId()).toEqual(
      Object.keys(await rowsOwnedBy(victim, [])).filter((t) => !["User", "LoginFailure", "RateLimit", "RateLimitCounter", "RateLimitCounterFile"].includes(t)).sort(),
    );
    const before = await rowsOwnedBy(victim, [victim.shop]);
    // The fixture has at least one row in each, so "0 after" means something.
    expect(Object.entries(before).filter(([, count]) => count === 0)).toEqual([]);
    const bystanderBefore = await rowsOwnedBy(bystander, [bystander.shop]);

    const res = await post(victim.cookie, { intent: "delete-account", confirmation: TEST_PASSWORD, typedWord: "DELETE" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?goodbye=1");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);

    const after = await rowsOwnedBy(victim, [victim.shop]);
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((t) => [t, 0])));
    expect(await rowsOwnedBy(bystander, [bystander.shop])).toEqual(bystanderBefore);

    expect(await meStatus(victim.cookie)).toBe(401);
    expect(await meStatus(phone)).toBe(401);
    expect(await logIn(victim.email, TEST_PASSWORD)).toBe(401);
    expect(await meStatus(bystander.cookie)).toBe(200);
  });

  it.each([
    ["without the word DELETE", { confirmation: TEST_PASSWORD, typedWord: "delete" }, 400, /Type DELETE/],
    ["with a wrong password", { confirmation: "wrong password", typedWord: "DELETE" }, 403, /not your current password/],
    ["without a password", { typedWord: "DELETE" }, 400, /Enter your current password/],
  ])("refuses %s and deletes nothing", async (_label, form, status, message) => {
    const user = await userWithEverything();
    const before = await rowsOwnedBy(user, [user.shop]);
    const res = await post(user.cookie, { intent: "delete-account", ...form });
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
    const after = await rowsOwnedBy(user, [user.shop]);
    // A wrong password is counted (as failed log-ins are); nothing else changes.
    expect({ ...after, LoginFailure: 0 }).toEqual({ ...before, LoginFailure: 0 });
    expect(await meStatus(user.cookie)).toBe(200);
  });
});

describe("delete my account: the Paddle subscription (the real adapter on the local Paddle API)", () => {
  let fake: PaddleApiFake;
  beforeAll(async () => {
    fake = await startPaddleApiFake({
      prices: [{ id: priceIds().pro, name: "Pro", interval: "month", trialDays: 7, amounts: { USD: 3999 } }],
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failWith(null);
  });

  function accountOnFake(removed: string[] = []) {
    const paddle = createPaddleApi({ apiKey: fake.apiKey, environment: "sandbox", baseUrl: fake.url });
    return createAccount({
      db,
      cancelSubscription: (id) => paddle.cancelNow(id),
      forgetRateLimits: (subjects) => rateLimits.forget(subjects),
      requestEmailChange: (userId, email) => accountEmails.requestEmailChange(userId, email),
      pendingEmailChange: (userId) => accountEmails.pendingEmailChange(userId),
      removeVideo: async (key) => {
        removed.push(key);
      },
    });
  }

  it("cancels the subscription at Paddle first, then deletes, and removes the ad videos", async () => {
    const user = await userWithEverything();
    fake.addSubscription({ id: user.subscriptionId, priceId: priceIds().pro, status: "trialing" });
    await db.aiAd.updateMany({ where: { userId: user.id }, data: { status: "completed", storageKey: `${user.id}-ad.mp4` } });
    const removed: string[] = [];

    const result = await accountOnFake(removed).deleteAccount(user.id, { confirmation: TEST_PASSWORD, typedWord: "DELETE" });
    expect(result).toEqual({ cancelledSubscriptions: [user.subscriptionId] });
    expect(fake.requests).toEqual([
      expect.objectContaining({
        method: "POST",
        path: `/subscriptions/${user.subscriptionId}/cancel`,
        body: expect.objectContaining({ effective_from: "immediately" }),
      }),
    ]);
    expect(fake.subscriptions.get(user.subscriptionId)?.status).toBe("canceled");
    // The rendered video and the free preview's file (decision 036).
    expect(removed).toEqual([`${user.id}-ad.mp4`, expect.stringMatching(/^previews\/\d+-1-test\.mp4$/)]);
    expect(Object.values(await rowsOwnedBy(user, [user.shop])).every((n) => n === 0)).toBe(true);
  });

  it("when Paddle refuses, answers 502 with a sentence and deletes nothing", async () => {
    const user = await userWithEverything();
    fake.addSubscription({ id: user.subscriptionId, priceId: priceIds().pro, status: "trialing" });
    fake.failWith(500);
    const before = await rowsOwnedBy(user, [user.shop]);

    const error = await accountOnFake()
      .deleteAccount(user.id, { confirmation: TEST_PASSWORD, typedWord: "DELETE" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, message: expect.stringMatching(/could not cancel your subscription.*not deleted/) });
    expect(fake.requests).toHaveLength(1);
    expect(await rowsOwnedBy(user, [user.shop])).toEqual(before);
  });

  it("ends now a subscription already set to end at its period end, and skips one that has ended", async () => {
    const user = await userWithEverything();
    fake.addSubscription({ id: user.subscriptionId, priceId: priceIds().pro, status: "active" });
    await db.billingSubscription.update({ where: { id: user.subscriptionId }, data: { scheduledChange: "cancel" } });
    await db.billingSubscription.create({
      data: { id: "sub_ended_before", userId: user.id, status: "canceled", lastEventAt: new Date() },
      select: { id: true },
    });
    const result = await accountOnFake().deleteAccount(user.id, { confirmation: TEST_PASSWORD, typedWord: "DELETE" });
    expect(result.cancelledSubscriptions).toEqual([user.subscriptionId]);
    expect(fake.requests.map((r) => r.path)).toEqual([`/subscriptions/${user.subscriptionId}/cancel`]);
    expect(await db.user.count({ where: { id: user.id } })).toBe(0);
  });
});
