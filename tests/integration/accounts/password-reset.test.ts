// Password reset by e-mail (issue 25 item 1, decision 051), through the real routes, the job system and the
// built-in mailer: the link is read from the .eml file the job wrote under MAIL_OUTBOX_DIR.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { getEnv } from "~/env.server";
import { RESET_REQUESTED_MESSAGE } from "~/domain/accounts/account-emails";
import { action as forgotAction } from "~/routes/_site.forgot-password";
import { action as loginAction } from "~/routes/_site.login";
import { action as resetAction, loader as resetLoader } from "~/routes/_site.reset-password";
import { loader as meLoader } from "~/routes/api.me";
import { EMAIL_VERIFICATION_JOB, PASSWORD_RESET_JOB, tokenHash } from "~/services/accounts/emails.server";
import { jobs } from "~/services/index.server";
import { linkIn, mailsTo } from "../../helpers/mail";
import { call, uniqueEmail } from "../../helpers/routes";
import { createUser, signInAs, TEST_PASSWORD, uniqueIp } from "../../helpers/site-users";

const NEW_PASSWORD = "a brand new password 42";
const outbox = () => getEnv().MAIL_OUTBOX_DIR;

function askForReset(email: string, ip = uniqueIp()) {
  return call(forgotAction, "/forgot-password", { form: { email }, headers: { "x-forwarded-for": ip } });
}

async function sendMail() {
  return jobs.runDue({ kinds: [PASSWORD_RESET_JOB, EMAIL_VERIFICATION_JOB] });
}

/** Asks for a reset, runs the mail job and returns the link's token. */
async function resetToken(email: string): Promise<string> {
  expect((await askForReset(email)).status).toBe(200);
  await sendMail();
  const mails = mailsTo(outbox(), email);
  expect(mails.length).toBeGreaterThan(0);
  return new URL(linkIn(mails.at(-1)!, "/reset-password")).searchParams.get("token")!;
}

function reset(token: string, password = NEW_PASSWORD) {
  return call(resetAction, "/reset-password", { form: { token, password } });
}

function login(email: string, password: string) {
  return call(loginAction, "/login", { form: { email, password }, headers: { "x-forwarded-for": uniqueIp() } });
}

describe("password reset by e-mail", () => {
  it("a new password from the link lifts the log-in lockout of too many failures (decision 064)", async () => {
    const user = await createUser();
    for (let i = 0; i < Number(getEnv().LOGIN_MAX_FAILURES); i++) expect((await login(user.email, `wrong-${i}`)).status).toBe(401);
    expect((await login(user.email, TEST_PASSWORD)).status).toBe(429);
    expect((await reset(await resetToken(user.email))).status).toBe(302);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(302);
  });

  it("mails a link that sets a new password once and ends every session of the user", async () => {
    const user = await createUser();
    const cookies = [await signInAs(user.id), await signInAs(user.id)];
    const token = await resetToken(user.email);

    const [mail] = mailsTo(outbox(), user.email);
    expect(mail.headers.get("subject")).toBe("Reset your Winning Products password");
    expect(mail.html).toContain("Choose a new password");
    // Only the token's hash is stored, and not in the job's payload either.
    const stored = await db.authToken.findFirstOrThrow({ where: { userId: user.id, purpose: "password-reset" }, select: { tokenHash: true } });
    expect(stored.tokenHash).toBe(tokenHash(token));
    expect(await db.job.count({ where: { payload: { contains: token } } })).toBe(0);

    const page = await call(resetLoader, `/reset-password?token=${token}`);
    expect(await page.json()).toEqual({ token, valid: true });
    // Only our origin in any Referer, so the token never leaves; our own forms keep their Origin (decision 079).
    expect(page.headers.get("referrer-policy")).toBe("strict-origin");

    const done = await reset(token);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/login?reset=1");
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);
    for (const cookie of cookies) expect((await call(meLoader, "/api/me", { cookie })).status).toBe(401);

    expect((await login(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(302);

    // Single use: the same link again changes nothing.
    const again = await reset(token, "yet another password 7");
    expect(again.status).toBe(410);
    expect((await again.json()).formError).toBe("This password reset link has expired or has already been used. Ask for a new one below.");
    expect(await (await call(resetLoader, `/reset-password?token=${token}`)).json()).toEqual({ token: "", valid: false });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(302);
  });

  it("refuses an expired link and leaves the password as it was", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    await db.authToken.updateMany({ where: { tokenHash: tokenHash(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await reset(token);
    expect(res.status).toBe(410);
    expect((await login(user.email, TEST_PASSWORD)).status).toBe(302);
  });

  it("a newer link replaces an older one", async () => {
    const user = await createUser();
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    expect((await reset(first)).status).toBe(410);
    expect((await reset(second)).status).toBe(302);
  });

  it("applies the password rules and keeps the link usable after a refused password", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const short = await reset(token, "short");
    expect(short.status).toBe(400);
    expect((await short.json()).errors.password).toBe("Use at least 8 characters.");
    expect((await reset(token)).status).toBe(302);
  });

  it("answers an unknown address exactly as a known one, and mails nobody", async () => {
    const user = await createUser();
    const unknown = uniqueEmail("nobody");
    const [known, stranger] = [await askForReset(user.email), await askForReset(unknown)];
    expect(known.status).toBe(stranger.status);
    const [a, b] = [await known.json(), await stranger.json()];
    expect(a.message).toBe(RESET_REQUESTED_MESSAGE);
    expect({ ...a, email: "" }).toEqual({ ...b, email: "" });
    await sendMail();
    expect(mailsTo(outbox(), unknown)).toHaveLength(0);
    expect(mailsTo(outbox(), user.email)).toHaveLength(1);
  });

  it("a malformed token or form is a 400 with a sentence, never a 500", async () => {
    expect((await reset("", NEW_PASSWORD)).status).toBe(400);
    expect((await reset("x".repeat(5000), NEW_PASSWORD)).status).toBe(400);
    const bogus = await reset("A".repeat(43));
    expect(bogus.status).toBe(410);
    const badEmail = await askForReset("not an address");
    expect(badEmail.status).toBe(400);
    expect((await badEmail.json()).errors.email).toBe("Enter a valid e-mail address, like you@example.com.");
  });

  it("limits requests per address with a 429, Retry-After and a sentence", async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) expect((await askForReset(user.email)).status).toBe(200);
    const limited = await askForReset(user.email);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).formError).toMatch(/^Too many reset links were asked for this address\. Try again in \d+ minutes\.$/);
    // The same limit for an address no account uses: a 429 says nothing about who has an account.
    const unknown = uniqueEmail("nobody");
    for (let i = 0; i < 3; i++) await askForReset(unknown);
    expect((await askForReset(unknown)).status).toBe(429);
  });

  it("limits requests from one client address across addresses", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await askForReset(uniqueEmail("spray"), ip)).status).toBe(200);
    const limited = await askForReset(uniqueEmail("spray"), ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await limited.json()).formError).toMatch(/^Too many reset links were asked from your network\./);
    expect((await askForReset(uniqueEmail("elsewhere"), uniqueIp())).status).toBe(200);
  });
});
