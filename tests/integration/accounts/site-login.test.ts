// Log-in through the /login action: redirects, one message for every failure, and throttling per
// e-mail (LOGIN_MAX_FAILURES = 5 in tests/helpers/test-env.ts) and per client address (RATE_LIMITS.loginPerIp).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as loginAction, loader as loginLoader } from "~/routes/_site.login";
import { RATE_LIMITS } from "~/services/api-access/rate-limits.server";
import { loader as meLoader } from "~/routes/api.me";
import { call, cookieFrom, uniqueEmail } from "../../helpers/routes";
import { createSignedInUser, createUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";
import { TEST_ENV } from "../../helpers/test-env";

const MAX_FAILURES = Number(TEST_ENV.LOGIN_MAX_FAILURES);
/** Failures from one client address (decision 064; INBOUND_LIMITS_SCALE is 1 in tests). */
const IP_MAX_FAILURES = RATE_LIMITS.loginPerIp.points;
const GENERIC = "That e-mail and password don't match an account.";

function login(form: Record<string, string>, ip: string | null = uniqueIp()) {
  return call(loginAction, "/login", { form, headers: ip ? { "x-forwarded-for": ip } : {} });
}

describe("POST /login", () => {
  it("signs in with the right password and opens the dashboard", async () => {
    const user = await createUser();
    const res = await login({ email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=.*HttpOnly/i);
    const me = await call(meLoader, "/api/me", { cookie: cookieFrom(res) });
    expect((await me.json()).uid).toBe(user.id);
    const row = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { lastLoginAt: true } });
    expect(row.lastLoginAt).not.toBeNull();
  });

  it("accepts the e-mail in any case and with spaces around it", async () => {
    const user = await createUser();
    const res = await login({ email: `  ${user.email.toUpperCase()} `, password: TEST_PASSWORD });
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
  });

  it("with innerCircle=1 goes to the inner circle offer instead", async () => {
    const user = await createUser();
    const res = await login({ email: user.email, password: TEST_PASSWORD, innerCircle: "1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/purchase-inner-circle");
  });

  it("gives a wrong password and an unknown e-mail the same 401 answer, with no cookie", async () => {
    const user = await createUser();
    const wrongPassword = await login({ email: user.email, password: "not the password" });
    const unknownEmail = await login({ email: uniqueEmail("nobody"), password: TEST_PASSWORD });

    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const [a, b] = [await wrongPassword.json(), await unknownEmail.json()];
    expect(a.formError).toBe(GENERIC);
    expect(b.formError).toBe(GENERIC);
    expect(a.errors).toEqual({});
    expect(b.errors).toEqual({});
  });

  it("refuses a Google-only account (no password) with the same answer", async () => {
    const email = uniqueEmail("google-only");
    await db.user.create({ data: { email, googleUid: `g-${email}` }, select: { id: true } });
    const res = await login({ email, password: "any password at all" });
    expect(res.status).toBe(401);
    expect((await res.json()).formError).toBe(GENERIC);
  });

  it("returns field errors for an invalid form without counting a failure", async () => {
    const user = await createUser();
    const res = await login({ email: "nope", password: "" });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      email: "Enter a valid e-mail address, like you@example.com.",
      password: "Enter your password.",
    });
    expect((await login({ email: user.email, password: "" })).status).toBe(400);
    // Not counted as a failure: the e-mail still has all its tries.
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login({ email: user.email, password: `wrong-${i}` })).status).toBe(401);
  });

  it(`after ${MAX_FAILURES} failures for one e-mail, even the right password gets 429`, async () => {
    const user = await createUser();
    // A new address for every attempt, so only the e-mail's own count can be what stops it.
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await login({ email: user.email, password: `wrong-${i}` })).status).toBe(401);
    }
    const blocked = await login({ email: user.email, password: TEST_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await blocked.json()).formError).toBe("Too many failed log-ins for this address. Try again in 15 minutes, or reset your password.");

    // Another account is not affected.
    const other = await createUser();
    expect((await login({ email: other.email, password: TEST_PASSWORD })).status).toBe(302);
  });

  it("failures from one client address across different e-mails are limited too", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < IP_MAX_FAILURES; i++) {
      expect((await login({ email: uniqueEmail("guess"), password: "guess" }, ip)).status).toBe(401);
    }
    const victim = await createUser();
    const fromSameIp = await login({ email: victim.email, password: TEST_PASSWORD }, ip);
    expect(fromSameIp.status).toBe(429);
    // The account itself is fine from anywhere else.
    expect((await login({ email: victim.email, password: TEST_PASSWORD }, uniqueIp())).status).toBe(302);
  });

  it("counts the first address of x-forwarded-for as the client", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < IP_MAX_FAILURES; i++) {
      await login({ email: uniqueEmail("guess"), password: "guess" }, `${ip}, 10.0.0.1`);
    }
    const user = await createUser();
    expect((await login({ email: user.email, password: TEST_PASSWORD }, ip)).status).toBe(429);
  });

  it("without any client address header, strangers' failures never lock out another user", async () => {
    for (let i = 0; i < MAX_FAILURES + 1; i++) {
      expect((await login({ email: uniqueEmail("stranger"), password: "guess" }, null)).status).toBe(401);
    }
    const user = await createUser();
    expect((await login({ email: user.email, password: TEST_PASSWORD }, null)).status).toBe(302);
  });

  it("a successful log-in clears the e-mail's failures", async () => {
    const user = await createUser();
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expect((await login({ email: user.email, password: "wrong" })).status).toBe(401);
    }
    expect((await login({ email: user.email, password: TEST_PASSWORD })).status).toBe(302);
    // The counter starts again from zero: MAX_FAILURES - 1 more mistakes are still answered 401.
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expect((await login({ email: user.email, password: "wrong" })).status).toBe(401);
    }
    expect((await login({ email: user.email, password: TEST_PASSWORD })).status).toBe(302);
  });

  it("failures older than the window no longer count", async () => {
    const user = await createUser();
    const longAgo = new Date(Date.now() - 16 * 60_000);
    await db.loginFailure.createMany({
      data: Array.from({ length: MAX_FAILURES }, () => ({ key: `email:${user.email}`, createdAt: longAgo })),
    });
    expect((await login({ email: user.email, password: TEST_PASSWORD })).status).toBe(302);
  });
});

describe("GET /login", () => {
  it("shows the form to an anonymous visitor", async () => {
    expect((await call(loginLoader, "/login")).status).toBe(200);
  });

  it("sends a signed-in user to the dashboard", async () => {
    const { cookie } = await createSignedInUser();
    const res = await call(loginLoader, "/login", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
  });
});
