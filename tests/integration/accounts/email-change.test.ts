// An e-mail change and the links it must revoke (issue 35 item 3, decision 079), through the real routes, the job
// system and the built-in mailer (links are read from the .eml files under MAIL_OUTBOX_DIR): a reset link dies
// with a password change and with an e-mail change; a new address becomes the login only once the link sent to it
// is opened; and asking for changes is held to the per-account and per-address mail limits.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { action as forgotAction } from "~/routes/_site.forgot-password";
import { action as loginAction } from "~/routes/_site.login";
import { action as resetAction, loader as resetLoader } from "~/routes/_site.reset-password";
import { loader as verifyLoader } from "~/routes/_site.verify-email";
import { action as accountAction, loader as accountLoader } from "~/routes/dashboard.account";
import { EMAIL_CHANGE_JOB, EMAIL_CHANGE_NOTICE_JOB, PASSWORD_RESET_JOB } from "~/services/accounts/emails.server";
import { RATE_LIMITS } from "~/services/api-access/rate-limits.server";
import { jobs } from "~/services/index.server";
import { linkIn, mailsTo } from "../../helpers/mail";
import { call, uniqueEmail } from "../../helpers/routes";
import { createSignedInUser, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";

const NEW_PASSWORD = "a brand new password 42";
const outbox = () => getEnv().MAIL_OUTBOX_DIR;
const sendMail = () => jobs.runDue({ kinds: [PASSWORD_RESET_JOB, EMAIL_CHANGE_JOB, EMAIL_CHANGE_NOTICE_JOB] });

/** The token of the last link to `path` mailed to `email`. */
function lastToken(email: string, path: string): string {
  const mails = mailsTo(outbox(), email);
  expect(mails.length).toBeGreaterThan(0);
  return new URL(linkIn(mails.at(-1)!, path)).searchParams.get("token")!;
}

async function resetToken(email: string): Promise<string> {
  const asked = await call(forgotAction, "/forgot-password", { form: { email }, headers: { "x-forwarded-for": uniqueIp() } });
  expect(asked.status).toBe(200);
  await sendMail();
  return lastToken(email, "/reset-password");
}

const reset = (token: string) => call(resetAction, "/reset-password", { form: { token, password: NEW_PASSWORD } });
const resetPageWorks = async (token: string) => (await (await call(resetLoader, `/reset-password?token=${token}`)).json()).valid;
const logIn = async (email: string, password = TEST_PASSWORD) =>
  (await call(loginAction, "/login", { form: { email, password }, headers: { "x-forwarded-for": uniqueIp() } })).status;
const account = (cookie: string, form: Record<string, string>) => call(accountAction, "/dashboard/account", { cookie, form });
const changeEmail = (cookie: string, newEmail: string) => account(cookie, { intent: "change-email", password: TEST_PASSWORD, newEmail });
const openLink = (token: string) => call(verifyLoader, `/verify-email?token=${token}`);
const emailOf = async (userId: string) =>
  db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, emailVerifiedAt: true } });

describe("a password reset link", () => {
  it("is refused once the password is changed on the account page", async () => {
    const user = await createSignedInUser();
    const token = await resetToken(user.email);
    expect(await resetPageWorks(token)).toBe(true);

    const changed = await account(user.cookie, { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);

    expect(await resetPageWorks(token)).toBe(false);
    const used = await reset(token);
    expect(used.status).toBe(410);
    expect((await used.json()).formError).toMatch(/expired or has already been used/);
    // The password is the one the owner chose, and the session that changed it still works.
    expect(await logIn(user.email, NEW_PASSWORD)).toBe(302);
    expect((await call(accountLoader, "/dashboard/account", { cookie: user.cookie })).status).toBe(200);
  });

  it("sent to the old address is refused once an e-mail change takes effect, and ends no session", async () => {
    const user = await createSignedInUser();
    const token = await resetToken(user.email);
    const newEmail = uniqueEmail("moved");
    expect((await changeEmail(user.cookie, newEmail)).status).toBe(200);
    await sendMail();
    // Still the login until the new address is confirmed: the old address's link still works meanwhile.
    expect(await resetPageWorks(token)).toBe(true);

    expect((await openLink(lastToken(newEmail, "/verify-email"))).status).toBe(200);
    expect(await resetPageWorks(token)).toBe(false);
    expect((await reset(token)).status).toBe(410);
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(1);
    expect(await logIn(newEmail)).toBe(302);
  });
});

describe("changing the e-mail address", () => {
  it("mails the new address a link and tells the old one; the login changes only when the link is opened", async () => {
    const user = await createSignedInUser();
    const newEmail = uniqueEmail("moved");
    const res = await changeEmail(user.cookie, `  ${newEmail.toUpperCase()} `);
    expect(res.status).toBe(200);
    expect((await res.json()).message).toBe(
      `We have sent a link to ${newEmail}. Open it to make it your log-in address; until then you keep logging in with ${user.email}.`,
    );

    // Nothing changed yet: the old address logs in, the new one does not.
    expect((await emailOf(user.id)).email).toBe(user.email);
    expect(await logIn(newEmail)).toBe(401);
    expect(await logIn(user.email)).toBe(302);

    await sendMail();
    const page = await (await call(accountLoader, "/dashboard/account", { cookie: user.cookie })).json();
    expect(page).toMatchObject({ email: user.email, pendingEmail: newEmail });
    const [confirm] = mailsTo(outbox(), newEmail);
    expect(confirm.headers.get("subject")).toBe("Confirm your new e-mail address for Winning Products");
    const notice = mailsTo(outbox(), user.email).find((m) => m.headers.get("subject") === "Your Winning Products e-mail address is about to change");
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).not.toContain("/verify-email");

    const opened = await openLink(lastToken(newEmail, "/verify-email"));
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ confirmed: true, changed: true, email: newEmail });
    const after = await emailOf(user.id);
    expect(after.email).toBe(newEmail);
    expect(after.emailVerifiedAt).not.toBeNull();
    expect(await logIn(newEmail)).toBe(302);
    expect(await logIn(user.email)).toBe(401);
    // Once: the same link again changes nothing.
    expect((await openLink(lastToken(newEmail, "/verify-email"))).status).toBe(410);
  });

  it("a pending change dies with a new password; a newer change replaces an older one", async () => {
    const user = await createSignedInUser();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    expect((await changeEmail(user.cookie, first)).status).toBe(200);
    await sendMail();
    expect((await changeEmail(user.cookie, second)).status).toBe(200);
    await sendMail();
    expect((await openLink(lastToken(first, "/verify-email"))).status).toBe(410);

    const changed = await account(user.cookie, { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    expect((await openLink(lastToken(second, "/verify-email"))).status).toBe(410);
    expect((await emailOf(user.id)).email).toBe(user.email);
  });

  it("an address another account took before the link was opened is a 409 with a sentence, and nothing changes", async () => {
    const user = await createSignedInUser();
    const newEmail = uniqueEmail("contested");
    expect((await changeEmail(user.cookie, newEmail)).status).toBe(200);
    await sendMail();
    await createSignedInUser({ email: newEmail });
    const opened = await openLink(lastToken(newEmail, "/verify-email"));
    expect(opened.status).toBe(409);
    expect((await opened.json()).error).toBe("Another account already uses this e-mail address. Choose another one.");
    expect((await emailOf(user.id)).email).toBe(user.email);
  });
});

describe("the mail limits of an e-mail change", () => {
  it("many accounts asking for one stranger's address mail it no more than the per-address limit, with a 429 and Retry-After", async () => {
    const stranger = uniqueEmail("stranger");
    const limit = RATE_LIMITS.emailChangePerAddress.points;
    for (let i = 0; i < limit; i++) {
      const user = await createSignedInUser();
      expect((await changeEmail(user.cookie, stranger)).status).toBe(200);
    }
    const refused = await changeEmail((await createSignedInUser()).cookie, stranger);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      field: "newEmail",
      error: expect.stringMatching(/^We have sent several confirmation links to this address already\. Try again in \d+ hours\.$/),
    });
    await sendMail();
    expect(mailsTo(outbox(), stranger)).toHaveLength(limit);
  });

  it("one account asking again and again is held to the per-account limit", async () => {
    const user = await createSignedInUser();
    const limit = RATE_LIMITS.emailChangePerUser.points;
    for (let i = 0; i < limit; i++) expect((await changeEmail(user.cookie, uniqueEmail(`try${i}`))).status).toBe(200);
    const refused = await changeEmail(user.cookie, uniqueEmail("again"));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/^You have asked to change your e-mail address several times already\./);
    await sendMail();
    // The owner's inbox got one notice per change asked for, no more.
    const notices = mailsTo(outbox(), user.email).filter((m) => m.headers.get("subject") === "Your Winning Products e-mail address is about to change");
    expect(notices).toHaveLength(limit);
  });
});
