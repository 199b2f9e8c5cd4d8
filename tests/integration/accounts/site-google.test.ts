// POST /auth/google with Firebase ID tokens signed by our own key pair, whose public half is served
// from 127.0.0.1 in place of Google's securetoken key endpoint. The environment points at it before
// any app module reads (and caches) it.
import { afterAll, describe, expect, it, vi } from "vitest";

const firebase = await vi.hoisted(async () => {
  const { startFakeFirebase } = await import("../../helpers/fake-firebase");
  const fake = await startFakeFirebase("winning-products-test");
  Object.assign(process.env, {
    FIREBASE_API_KEY: "test-firebase-web-key",
    FIREBASE_AUTH_DOMAIN: "winning-products-test.firebaseapp.com",
    FIREBASE_PROJECT_ID: fake.projectId,
    FIREBASE_JWKS_URL: fake.jwksUrl,
  });
  return fake;
});

import { db } from "~/db.server";
import { loader as rootLoader } from "~/root";
import { loader as meLoader } from "~/routes/api.me";
import { action as googleAction, loader as googleLoader } from "~/routes/auth.google";
import { call, cookieFrom, uniqueEmail } from "../../helpers/routes";
import { createUser } from "../../helpers/site-users";
import type { IdTokenClaims } from "../../helpers/fake-firebase";

afterAll(() => firebase.close());

function google(body: Record<string, unknown>) {
  return call(googleAction, "/auth/google", { json: body });
}

async function expectSignedInAs(res: Response, userId: string) {
  expect(res.headers.get("set-cookie")).toMatch(/^__session=.*HttpOnly/i);
  const me = await call(meLoader, "/api/me", { cookie: cookieFrom(res) });
  expect(me.status).toBe(200);
  expect((await me.json()).uid).toBe(userId);
}

/** A Google account: the uid and e-mail Firebase would put in its tokens. */
function googleAccount(claims: IdTokenClaims = {}) {
  return { sub: `google-${crypto.randomUUID()}`, email: uniqueEmail("google"), ...claims };
}

describe("Google sign-up", () => {
  it("creates the account, signs it in and sends it to choose a plan", async () => {
    const account = googleAccount();
    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      ok: true,
      created: true,
      redirectTo: `/choose-plan?${new URLSearchParams({ email: account.email })}`,
    });
    const user = await db.user.findUniqueOrThrow({
      where: { email: account.email },
      select: { id: true, googleUid: true, passwordHash: true },
    });
    expect(user.googleUid).toBe(account.sub);
    expect(user.passwordHash).toBeNull();
    await expectSignedInAs(res, user.id);
    expect(firebase.keyRequests()).toBeGreaterThan(0);
  });

  it("stores the Google e-mail lowercased", async () => {
    const account = googleAccount();
    await google({
      idToken: await firebase.signIdToken({ ...account, email: account.email.toUpperCase() }),
      mode: "signup",
    });
    expect(await db.user.findUnique({ where: { email: account.email }, select: { id: true } })).not.toBeNull();
  });

  it("with a chosen plan, goes straight to pay for it", async () => {
    const res = await google({
      idToken: await firebase.signIdToken(googleAccount()),
      mode: "signup",
      plan: "pro",
      billing: "monthly",
    });
    expect(res.status).toBe(200);
    expect((await res.json()).redirectTo).toBe("/pay?plan=pro&billing=monthly");
  });

  it("refuses an invalid plan before creating anything", async () => {
    const account = googleAccount();
    const res = await google({
      idToken: await firebase.signIdToken(account),
      mode: "signup",
      plan: "pro",
      billing: "one_time",
    });
    expect(res.status).toBe(400);
    expect(await db.user.findUnique({ where: { email: account.email }, select: { id: true } })).toBeNull();
  });

  it("answers existing_user for a known Google account and changes nothing", async () => {
    const account = googleAccount();
    await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    const before = await db.user.findUniqueOrThrow({ where: { email: account.email } });
    const sessionsBefore = await db.userSession.count({ where: { userId: before.id } });

    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    expect(res.status).toBe(409);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.json()).toEqual({
      code: "existing_user",
      error: "You already have an account with this Google address. Log in instead.",
    });
    expect(await db.user.findUniqueOrThrow({ where: { email: account.email } })).toEqual(before);
    expect(await db.userSession.count({ where: { userId: before.id } })).toBe(sessionsBefore);
  });

  it("answers existing_user for an e-mail that already has a password account, without linking it", async () => {
    const existing = await createUser();
    const before = await db.user.findUniqueOrThrow({ where: { id: existing.id } });
    const res = await google({
      idToken: await firebase.signIdToken(googleAccount({ email: existing.email })),
      mode: "signup",
    });
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe("existing_user");
    expect(await db.user.findUniqueOrThrow({ where: { id: existing.id } })).toEqual(before);
  });
});

describe("Google sign-in", () => {
  it("answers new_user for an unknown Google account and creates nothing", async () => {
    const account = googleAccount();
    const count = await db.user.count();
    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signin" });
    expect(res.status).toBe(404);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.json()).toEqual({
      code: "new_user",
      error: "There is no account for this Google address yet. Sign up first.",
    });
    expect(await db.user.count()).toBe(count);
  });

  it("signs a known Google account in and opens the dashboard", async () => {
    const account = googleAccount();
    await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    const user = await db.user.findUniqueOrThrow({ where: { email: account.email }, select: { id: true } });

    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signin" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, created: false, redirectTo: "/dashboard?location=dashboard" });
    await expectSignedInAs(res, user.id);
  });

  it("links a password account the first time its verified Google address signs in", async () => {
    const existing = await createUser();
    const account = googleAccount({ email: existing.email, email_verified: true });
    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signin" });
    expect(res.status).toBe(200);
    await expectSignedInAs(res, existing.id);
    const row = await db.user.findUniqueOrThrow({ where: { id: existing.id }, select: { googleUid: true } });
    expect(row.googleUid).toBe(account.sub);
  });

  it("does not link a password account to a Google address Google has not verified", async () => {
    const existing = await createUser();
    const res = await google({
      idToken: await firebase.signIdToken(googleAccount({ email: existing.email, email_verified: false })),
      mode: "signin",
    });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("new_user");
    expect(res.headers.get("set-cookie")).toBeNull();
    const row = await db.user.findUniqueOrThrow({ where: { id: existing.id }, select: { googleUid: true } });
    expect(row.googleUid).toBeNull();
  });
});

describe("tokens that are refused", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<string>][] = [
    ["signed with another key (forged)", () => firebase.signIdToken(googleAccount(), { key: "other" })],
    [
      "for another Firebase project (audience)",
      () => firebase.signIdToken(googleAccount({ aud: "someone-elses-project" })),
    ],
    ["from another issuer", () => firebase.signIdToken(googleAccount({ iss: "https://accounts.google.com" }))],
    [
      "from another project's issuer",
      () => firebase.signIdToken(googleAccount({ iss: "https://securetoken.google.com/someone-elses-project" })),
    ],
    [
      "expired an hour ago",
      () => firebase.signIdToken(googleAccount({ iat: now() - 7200, auth_time: now() - 7200, exp: now() - 3600 })),
    ],
    ["signed in in the future (auth_time)", () => firebase.signIdToken(googleAccount({ auth_time: now() + 3600 }))],
    ["without an e-mail", () => firebase.signIdToken(googleAccount({ email: undefined }))],
  ];

  it.each(cases)("a token %s gets 401 and no session, in either mode", async (_label, makeToken) => {
    for (const mode of ["signup", "signin"] as const) {
      const users = await db.user.count();
      const sessions = await db.userSession.count();
      const res = await google({ idToken: await makeToken(), mode });
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(await res.json()).toEqual({
        error: "We couldn't verify your Google sign-in. Try again.",
        code: "error_3",
      });
      expect(await db.user.count()).toBe(users);
      expect(await db.userSession.count()).toBe(sessions);
    }
  });

  it("a forged token for a real account does not sign into it", async () => {
    const account = googleAccount();
    await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    const res = await google({ idToken: await firebase.signIdToken(account, { key: "other" }), mode: "signin" });
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("a token that is not a JWT at all gets 401", async () => {
    const res = await google({ idToken: "this-is-not-a-jwt-at-all-but-long-enough", mode: "signin" });
    expect(res.status).toBe(401);
  });

  it.each<[string, Record<string, unknown>]>([
    ["no token", { mode: "signin" }],
    ["an unknown mode", { idToken: "x".repeat(40), mode: "register" }],
  ])("a request with %s gets 400", async (_label, body) => {
    expect((await google(body)).status).toBe(400);
  });
});

describe("Google sign-in settings", () => {
  it("GET /auth/google explains it wants a POST", async () => {
    expect((await call(googleLoader, "/auth/google")).status).toBe(405);
  });

  it("the browser receives the Firebase web config so the button can show", async () => {
    const body = await (await call(rootLoader, "/login")).json();
    expect(body.env.firebase).toEqual({
      apiKey: "test-firebase-web-key",
      authDomain: "winning-products-test.firebaseapp.com",
      projectId: "winning-products-test",
    });
  });
});

describe("Google sign-up with an address Google has not verified", () => {
  it("is refused and creates nothing, so nobody can claim an address they do not own", async () => {
    const account = googleAccount({ email_verified: false });
    const res = await google({ idToken: await firebase.signIdToken(account), mode: "signup" });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("unverified_email");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.user.count({ where: { email: account.email } })).toBe(0);
  });
});
