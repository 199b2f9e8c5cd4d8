// Confirming the account's e-mail address (issue 25 item 1, decision 051): sign-up mails a link (a job, read
// from the .eml the built-in mailer wrote), unconfirmed accounts work and see a reminder with "resend",
// and a new address on the account page is confirmed by its own link (decision 079).
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { action as signupAction } from "~/routes/_site.signup";
import { action as verifyAction, loader as verifyLoader } from "~/routes/_site.verify-email";
import { action as accountAction } from "~/routes/dashboard.account";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { EMAIL_CHANGE_JOB, EMAIL_VERIFICATION_JOB } from "~/services/accounts/emails.server";
import { jobs } from "~/services/index.server";
import { jobsOf } from "../../helpers/jobs";
import { linkIn, mailsTo } from "../../helpers/mail";
import { call, cookieFrom, uniqueEmail } from "../../helpers/routes";
import { createSignedInUser, TEST_PASSWORD } from "../../helpers/site-users";

const outbox = () => getEnv().MAIL_OUTBOX_DIR;
const sendMail = () => jobs.runDue({ kinds: [EMAIL_VERIFICATION_JOB] });

function tokenFromLastMail(email: string): string {
  const mails = mailsTo(outbox(), email);
  expect(mails.length).toBeGreaterThan(0);
  return new URL(linkIn(mails.at(-1)!, "/verify-email")).searchParams.get("token")!;
}

async function dashboard(cookie: string) {
  return (await call(dashboardLoader, "/dashboard", { cookie })).json();
}

async function verifiedAt(userId: string) {
  return (await db.user.findUniqueOrThrow({ where: { id: userId }, select: { emailVerifiedAt: true } })).emailVerifiedAt;
}

describe("e-mail confirmation", () => {
  it("sign-up mails a link; the account works unconfirmed with a reminder, and the link confirms it once", async () => {
    const email = uniqueEmail("fresh");
    const res = await call(signupAction, "/signup", { form: { email, password: TEST_PASSWORD } });
    expect(res.status).toBe(302);
    const cookie = cookieFrom(res);
    const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    // Never sent inside the request: a job is queued.
    expect(mailsTo(outbox(), email)).toHaveLength(0);
    expect((await jobsOf(EMAIL_VERIFICATION_JOB)).filter((j) => j.status === "queued").length).toBeGreaterThan(0);
    expect(await dashboard(cookie)).toMatchObject({ email, emailVerified: false, demo: false });

    await sendMail();
    const [mail] = mailsTo(outbox(), email);
    expect(mail.headers.get("subject")).toBe("Confirm your e-mail address for Winning Products");
    expect(mail.html).toContain("Confirm my address");
    const token = tokenFromLastMail(email);

    const opened = await call(verifyLoader, `/verify-email?token=${token}`);
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ confirmed: true, email });
    expect(await verifiedAt(user.id)).not.toBeNull();
    expect(await dashboard(cookie)).toMatchObject({ emailVerified: true });

    const again = await call(verifyLoader, `/verify-email?token=${token}`);
    expect(again.status).toBe(410);
    expect((await again.json()).error).toMatch(/expired, was already used/);
  });

  it("a new e-mail address is confirmed by its own link; a link to the old one no longer counts", async () => {
    const user = await createSignedInUser();
    await call(verifyAction, "/verify-email", { method: "POST", cookie: user.cookie });
    await sendMail();
    const oldToken = tokenFromLastMail(user.email);

    const newEmail = uniqueEmail("moved");
    const changed = await call(accountAction, "/dashboard/account", {
      cookie: user.cookie,
      form: { intent: "change-email", password: TEST_PASSWORD, newEmail },
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).message).toContain(`We have sent a link to ${newEmail}.`);
    expect(await verifiedAt(user.id)).toBeNull();

    // The new address's link makes it the login, confirmed (decision 079); the old address's link is revoked.
    await jobs.runDue({ kinds: [EMAIL_CHANGE_JOB] });
    const fresh = await call(verifyLoader, `/verify-email?token=${tokenFromLastMail(newEmail)}`);
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toMatchObject({ confirmed: true, changed: true, email: newEmail });
    expect(await verifiedAt(user.id)).not.toBeNull();

    const stale = await call(verifyLoader, `/verify-email?token=${oldToken}`);
    expect(stale.status).toBe(410);
  });

  it("an account already confirmed sees no reminder and is told so when it asks for a link", async () => {
    const user = await createSignedInUser({ emailVerifiedAt: new Date() });
    expect(await dashboard(user.cookie)).toMatchObject({ emailVerified: true });
    const res = await call(verifyAction, "/verify-email", { method: "POST", cookie: user.cookie });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe("Your e-mail address is already confirmed.");
  });

  it("resend is limited with a 429, Retry-After and a sentence", async () => {
    const user = await createSignedInUser();
    for (let i = 0; i < 3; i++) {
      const res = await call(verifyAction, "/verify-email", { method: "POST", cookie: user.cookie });
      expect(res.status).toBe(200);
      expect((await res.json()).message).toBe(`We have sent a new link to ${user.email}.`);
    }
    const limited = await call(verifyAction, "/verify-email", { method: "POST", cookie: user.cookie });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).message).toMatch(/^We have sent several confirmation links already\./);
  });

  it("resend needs a signed-in user; a bogus link is a 410 with a sentence", async () => {
    const anonymous = await call(verifyAction, "/verify-email", { method: "POST" });
    expect(anonymous.status).toBe(302);
    const bogus = await call(verifyLoader, "/verify-email?token=%00%ff");
    expect(bogus.status).toBe(410);
  });
});
