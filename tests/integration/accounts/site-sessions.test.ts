// Site sessions are UserSession rows behind a signed cookie: logging out, signing out everywhere,
// expiry and tampering, observed the way a browser would (GET /api/me, the dashboard).
import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { dateFromDb, db } from "~/db.server";
import { getUser } from "~/pages/http/site-session.server";
import { userSelect } from "~/services/accounts/auth.server";
import { loader as meLoader } from "~/routes/api.me";
import { action as accountAction, loader as accountLoader } from "~/routes/dashboard.account";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { action as logoutAction, loader as logoutLoader } from "~/routes/logout";
import { call } from "../../helpers/routes";
import { createSignedInUser, signInAs } from "../../helpers/site-users";

async function meStatus(cookie: string) {
  return (await call(meLoader, "/api/me", { cookie })).status;
}

/** The session row id a cookie points to (the only session of a fresh user). */
async function onlySessionId(userId: string) {
  const rows = await db.userSession.findMany({ where: { userId }, select: { id: true } });
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

describe("POST /logout", () => {
  it("deletes the session row, clears the cookie, and the old cookie no longer works", async () => {
    const user = await createSignedInUser();
    expect(await meStatus(user.cookie)).toBe(200);

    const res = await call(logoutAction, "/logout", { method: "POST", cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cleared = res.headers.get("set-cookie") ?? "";
    expect(cleared).toMatch(/^__session=;/);
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);

    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);
    // A browser (or anyone who copied the cookie) that still sends it is signed out.
    expect(await meStatus(user.cookie)).toBe(401);
  });

  it("signs out only this browser; the user's other devices stay signed in", async () => {
    const user = await createSignedInUser();
    const phone = await signInAs(user.id);
    await call(logoutAction, "/logout", { method: "POST", cookie: user.cookie });
    expect(await meStatus(user.cookie)).toBe(401);
    expect(await meStatus(phone)).toBe(200);
  });

  it("is harmless for an anonymous visitor", async () => {
    const res = await call(logoutAction, "/logout", { method: "POST" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("a GET (e.g. a prefetched link) signs nobody out", async () => {
    const user = await createSignedInUser();
    const res = await call(logoutLoader, "/logout", { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await meStatus(user.cookie)).toBe(200);
  });
});

describe("sign out on every device (POST /dashboard/account)", () => {
  it("ends every session of the user, and only theirs", async () => {
    const user = await createSignedInUser();
    const laptop = await signInAs(user.id);
    const phone = await signInAs(user.id);
    const someoneElse = await createSignedInUser();

    const res = await call(accountAction, "/dashboard/account", { method: "POST", cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=;/);

    for (const cookie of [user.cookie, laptop, phone]) expect(await meStatus(cookie)).toBe(401);
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);
    expect(await meStatus(someoneElse.cookie)).toBe(200);
  });

  it("cannot be triggered anonymously", async () => {
    const victim = await createSignedInUser();
    const res = await call(accountAction, "/dashboard/account", { method: "POST" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?redirectTo=%2Fdashboard%2Faccount");
    expect(await meStatus(victim.cookie)).toBe(200);
  });

  it("the account page shows the signed-in user's e-mail", async () => {
    const user = await createSignedInUser();
    const res = await call(accountLoader, "/dashboard/account", { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect((await res.json()).email).toBe(user.email);
  });
});

describe("expired and forged sessions", () => {
  it("an expired session row counts as signed out", async () => {
    const user = await createSignedInUser();
    await db.userSession.update({
      where: { id: await onlySessionId(user.id) },
      data: { expiresAt: new Date(Date.now() - 1000) },
      select: { id: true },
    });
    expect(await meStatus(user.cookie)).toBe(401);
    const dashboard = await call(dashboardLoader, "/dashboard", { cookie: user.cookie });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toBe("/?redirectTo=%2Fdashboard");
  });

  it("a new session lasts SESSION_TTL_DAYS (30 by default)", async () => {
    const user = await createSignedInUser();
    const row = await db.userSession.findUniqueOrThrow({
      where: { id: await onlySessionId(user.id) },
      select: { expiresAt: true },
    });
    const days = (row.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("a cookie with a changed value is anonymous", async () => {
    const user = await createSignedInUser();
    const [name, value] = user.cookie.split("=");
    const flipped = value[0] === "A" ? `B${value.slice(1)}` : `A${value.slice(1)}`;
    expect(await meStatus(`${name}=${flipped}`)).toBe(401);
  });

  it("knowing a real session id is not enough without the server's secret", async () => {
    const user = await createSignedInUser();
    const sessionId = await onlySessionId(user.id);
    const forger = createCookie("__session", { secrets: ["a-secret-the-attacker-guessed"], path: "/" });
    const forged = (await forger.serialize(sessionId)).split(";")[0];
    const unsigned = `__session=${encodeURIComponent(btoa(JSON.stringify(sessionId)))}`;
    expect(await meStatus(forged)).toBe(401);
    expect(await meStatus(unsigned)).toBe(401);
    // The genuine cookie still works, so the 401s above are about the signature.
    expect(await meStatus(user.cookie)).toBe(200);
  });

  it("a cookie whose session row is gone is anonymous", async () => {
    const user = await createSignedInUser();
    await db.userSession.deleteMany({ where: { userId: user.id } });
    expect(await meStatus(user.cookie)).toBe(401);
  });
});

describe("the session lookup outside Prisma", () => {
  it("reads the same user Prisma reads, field for field, whatever the flags", async () => {
    const plain = await createSignedInUser();
    const flagged = await createSignedInUser();
    await db.user.update({
      where: { id: flagged.id },
      data: {
        userSubscribed: "yes",
        trialing: true,
        innerCircle: true,
        aiAdsFirstUse: false,
        klaviyoId: "kl_1",
        subscription_id: "sub_1",
        lastLoginAt: new Date("2026-03-04T05:06:07.089Z"),
      },
      select: { id: true },
    });
    for (const user of [plain, flagged]) {
      const viaReader = await getUser(new Request("http://localhost/", { headers: { cookie: user.cookie } }));
      const viaPrisma = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: userSelect });
      expect(viaReader).toEqual(viaPrisma);
    }
  });

  it("reads DateTime values written by SQLite's own CURRENT_TIMESTAMP as UTC", () => {
    expect(dateFromDb("2026-11-22 06:30:00").toISOString()).toBe("2026-11-22T06:30:00.000Z");
    expect(dateFromDb("2026-11-22T06:30:00.123+00:00").toISOString()).toBe("2026-11-22T06:30:00.123Z");
    expect(dateFromDb(Date.UTC(2026, 10, 22)).toISOString()).toBe("2026-11-22T00:00:00.000Z");
  });
});
