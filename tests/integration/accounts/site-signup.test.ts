// Sign-up through the /signup action, against the real migrated database.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { loader as meLoader } from "~/routes/api.me";
import { action as signupAction, loader as signupLoader } from "~/routes/_site.signup";
import { verifyPassword } from "~/services/accounts/password-hashing.server";
import { call, cookieFrom, uniqueEmail } from "../../helpers/routes";
import { createSignedInUser, createUser, TEST_PASSWORD } from "../../helpers/site-users";

const PASSWORD = "a good long password";

function signup(form: Record<string, string>) {
  return call(signupAction, "/signup", { form });
}

describe("POST /signup", () => {
  it("refuses a bad e-mail and a short password with a message per field, and creates nothing", async () => {
    const before = await db.user.count();
    const res = await signup({ email: "not-an-email", password: "short" });
    expect(res.status).toBe(400);
    expect(res.headers.get("set-cookie")).toBeNull();
    const body = await res.json();
    expect(body.errors).toEqual({
      email: "Enter a valid e-mail address, like you@example.com.",
      password: "Use at least 8 characters.",
    });
    expect(body.values).toEqual({ email: "not-an-email" });
    expect(await db.user.count()).toBe(before);
  });

  it("asks for both fields when the form is empty", async () => {
    const res = await signup({});
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ email: "Enter your e-mail address.", password: "Enter a password." });
  });

  it("signs the new user in and sends them to choose a plan", async () => {
    const email = uniqueEmail("new");
    const res = await signup({ email, password: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/choose-plan");

    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);

    const me = await call(meLoader, "/api/me", { cookie: cookieFrom(res) });
    expect(me.status).toBe(200);
    const body = await me.json();
    const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true, passwordHash: true } });
    expect(body).toMatchObject({ uid: user.id, email });
    expect(await verifyPassword(PASSWORD, user.passwordHash!)).toBe(true);
    expect(user.passwordHash).not.toContain(PASSWORD);
  });

  it("stores the e-mail trimmed and lowercased", async () => {
    const email = uniqueEmail("mixed");
    const res = await signup({ email: `  ${email.toUpperCase()}  `, password: PASSWORD });
    expect(res.status).toBe(302);
    expect(await db.user.findUnique({ where: { email }, select: { id: true } })).not.toBeNull();
    expect(await db.user.count({ where: { email: email.toUpperCase() } })).toBe(0);
  });

  it("with a chosen plan, goes straight to pay for it", async () => {
    const res = await signup({ email: uniqueEmail(), password: PASSWORD, plan: "pro", billing: "monthly" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/pay?plan=pro&billing=monthly");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=/);
  });

  it("fills in the plan's own billing when only the plan is sent", async () => {
    const res = await signup({ email: uniqueEmail(), password: PASSWORD, plan: "inner-circle" });
    expect(res.headers.get("location")).toBe("/pay?plan=inner-circle&billing=one_time");
  });

  it.each([
    [{ plan: "gold", billing: "monthly" }],
    [{ plan: "pro", billing: "one_time" }],
    [{ plan: "inner-circle", billing: "monthly" }],
  ])("refuses an invalid plan choice %j with 400 and creates nothing", async (choice) => {
    const email = uniqueEmail();
    const res = await signup({ email, password: PASSWORD, ...choice });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ plan: "Choose one of the plans shown on the plans page." });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.user.findUnique({ where: { email }, select: { id: true } })).toBeNull();
  });

  it("refuses an e-mail that already has an account, whatever its case, and changes nothing", async () => {
    const existing = await createUser();
    const before = await db.user.findUniqueOrThrow({ where: { id: existing.id } });
    const count = await db.user.count();

    const res = await signup({ email: ` ${existing.email.toUpperCase()}`, password: "another password entirely" });
    expect(res.status).toBe(409);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await res.json()).errors).toEqual({ email: "An account with this e-mail already exists. Log in instead." });

    expect(await db.user.count()).toBe(count);
    const after = await db.user.findUniqueOrThrow({ where: { id: existing.id } });
    expect(after).toEqual(before);
    expect(await verifyPassword(TEST_PASSWORD, after.passwordHash!)).toBe(true);
    expect(await db.userSession.count({ where: { userId: existing.id } })).toBe(0);
  });
});

describe("GET /signup", () => {
  it("shows the form to an anonymous visitor", async () => {
    const res = await call(signupLoader, "/signup");
    expect(res.status).toBe(200);
  });

  it("sends a signed-in user to the dashboard", async () => {
    const { cookie } = await createSignedInUser();
    const res = await call(signupLoader, "/signup", { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard?location=dashboard");
  });
});
