// The account e-mails (docs/decisions/051, 079): password reset by e-mail, confirming the account's address, and
// confirming a new address before it becomes the login.
// A request only counts against its rate limits and enqueues a job; the job makes the single-use token (only
// its SHA-256 is stored, so the token itself is never in the database, not even in the job's payload),
// renders the message (app/domain/accounts/account-emails.ts) and sends it through the mailer, retried by the job
// system when sending fails. Using a reset link sets the password, uses the token up and ends every session
// of the user; a confirmation link counts only while the address it was sent to is still the account's. An e-mail
// change is a link to the new address (the current one is told): opening it makes the new address the login, and
// it, a new password and a reset all revoke the user's other live links (revokeLinks). Nothing here knows HTTP.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import {
  accountPageLink,
  AUTH_TOKEN_PURPOSES,
  emailChangeMail,
  emailChangeNoticeMail,
  emailVerificationLink,
  emailVerificationMail,
  INVALID_EMAIL_CHANGE_LINK,
  INVALID_RESET_LINK,
  INVALID_VERIFICATION_LINK,
  passwordResetLink,
  passwordResetMail,
  TOKEN_PATTERN,
  type AuthTokenPurpose,
} from "~/domain/accounts/account-emails";
import { AppError } from "~/domain/errors";
import type { Mailer } from "~/integrations/mailer.server";
import { childLogger } from "~/logger.server";
import type { Jobs } from "~/services/jobs.server";
import { hashPassword } from "~/services/accounts/password-hashing.server";
import { RATE_LIMITS, type RateLimits } from "~/services/api-access/rate-limits.server";
import { perAddress } from "~/services/api-access/inbound-limits.server";

const log = childLogger("account-emails");

export const PASSWORD_RESET_JOB = "account-emails.password-reset";
export const EMAIL_VERIFICATION_JOB = "account-emails.verification";
export const EMAIL_CHANGE_JOB = "account-emails.email-change";
export const EMAIL_CHANGE_NOTICE_JOB = "account-emails.email-change-notice";

/** The sentence of a change to an address another account took meanwhile (asked for, or opened). */
export const EMAIL_TAKEN = "Another account already uses this e-mail address. Choose another one.";

export interface AccountEmailsDeps {
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  limits: RateLimits;
  /** INBOUND_LIMITS_SCALE: multiplies the per-client-address limit on reset requests (decision 064). */
  addressScale: number;
  /** Forgets an address's failed log-ins (the inbound limits' loginSucceeded), once a reset link set a new password. */
  forgetLoginFailures: (email: string) => Promise<void>;
  /** The public site address the links point to. */
  appUrl: string;
  resetTtlMinutes: number;
  verificationTtlHours: number;
}

export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Every live link of the user for these purposes stops working (decision 079): a new password revokes reset links and
 * pending e-mail changes, an e-mail change that takes effect revokes every link sent before it.
 */
export async function revokeLinks(tx: DbClient, userId: string, purposes: readonly AuthTokenPurpose[] = AUTH_TOKEN_PURPOSES) {
  await tx.authToken.updateMany({ where: { userId, purpose: { in: [...purposes] }, usedAt: null }, data: { usedAt: new Date() } });
}

/** A new single-use token for the user; earlier unused ones of the same purpose stop working. */
async function issueToken(tx: DbClient, input: { userId: string; email: string; purpose: AuthTokenPurpose; ttlMs: number }) {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  await tx.authToken.updateMany({
    where: { userId: input.userId, purpose: input.purpose, usedAt: null },
    data: { usedAt: now },
  });
  await tx.authToken.create({
    data: {
      userId: input.userId,
      purpose: input.purpose,
      email: input.email,
      tokenHash: tokenHash(token),
      expiresAt: new Date(now.getTime() + input.ttlMs),
    },
    select: { id: true },
  });
  return token;
}

export function createAccountEmails(deps: AccountEmailsDeps) {
  const { db } = deps;
  const resetPerIp = deps.limits.limit(perAddress(RATE_LIMITS.passwordResetPerIp, deps.addressScale));
  const resetPerEmail = deps.limits.limit(RATE_LIMITS.passwordResetPerEmail);
  const resend = deps.limits.limit(RATE_LIMITS.emailVerificationResend);
  const changePerUser = deps.limits.limit(RATE_LIMITS.emailChangePerUser);
  const changePerAddress = deps.limits.limit(RATE_LIMITS.emailChangePerAddress);

  /**
   * Asks for a reset link for an address. The answer is the same whether or not an account uses it: the job
   * looks the address up later. AppError 429 (with retryAfterSeconds) past the limits per address and per client.
   */
  async function requestPasswordReset(email: string, client: { ip: string | null }): Promise<void> {
    await resetPerIp.consume(client.ip);
    await resetPerEmail.consume(email);
    await deps.jobs.enqueue(PASSWORD_RESET_JOB, { email });
  }

  /** The unused, unexpired token row for a link of one of these purposes, or null. */
  async function liveToken(token: string, ...purposes: AuthTokenPurpose[]) {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await db.authToken.findUnique({
      where: { tokenHash: tokenHash(token) },
      select: { id: true, userId: true, email: true, purpose: true, usedAt: true, expiresAt: true },
    });
    if (!row || !purposes.includes(row.purpose as AuthTokenPurpose) || row.usedAt || row.expiresAt.getTime() <= Date.now()) return null;
    return { ...row, purpose: row.purpose as AuthTokenPurpose };
  }

  /** Uses a token up: one conditional update, so of two uses at the same moment one wins. */
  async function claim(tx: DbClient, id: string, now: Date): Promise<boolean> {
    const claimed = await tx.authToken.updateMany({ where: { id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    return claimed.count === 1;
  }

  /** Whether a reset link still works (the reset page shows the form, or says to ask again). */
  async function passwordResetLinkWorks(token: string): Promise<boolean> {
    return (await liveToken(token, "password-reset")) !== null;
  }

  /**
   * Sets the new password from a reset link: the token is used up (a second use, an expired link, or one sent to an
   * address the account no longer uses, is AppError 410), every session of the user ends, pending e-mail changes are
   * revoked, and the address counts as confirmed (the link reached it).
   */
  async function resetPassword(input: { token: string; password: string }): Promise<{ userId: string; email: string }> {
    const row = await liveToken(input.token, "password-reset");
    if (!row) throw new AppError(410, INVALID_RESET_LINK, { field: "token" });
    const passwordHash = await hashPassword(input.password);
    const now = new Date();
    const done = await writeTransaction(db, async (tx) => {
      if (!(await claim(tx, row.id, now))) return null;
      const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { id: true, email: true, emailVerifiedAt: true } });
      // A link counts only at the address it was sent to (an e-mail change revokes it too; decision 079).
      if (user.email !== row.email) return null;
      await tx.user.update({
        where: { id: user.id },
        data: { passwordHash, ...(user.emailVerifiedAt === null ? { emailVerifiedAt: now } : {}) },
        select: { id: true },
      });
      await tx.userSession.deleteMany({ where: { userId: user.id } });
      await revokeLinks(tx, user.id, ["password-reset", "email-change"]);
      return { userId: user.id, email: user.email };
    });
    if (!done) throw new AppError(410, INVALID_RESET_LINK, { field: "token" });
    // The failed log-ins that may have led here no longer hold the account back.
    await deps.forgetLoginFailures(done.email);
    return done;
  }

  /**
   * Sends a confirmation link to the user's current address (after sign-up, after an e-mail change, or when
   * they ask again: `resend` counts against its limit, AppError 429). Already confirmed: nothing to send.
   */
  async function requestEmailVerification(userId: string, options: { resend?: boolean } = {}): Promise<void> {
    const user = await db.user.findUnique({ where: { id: userId }, select: { emailVerifiedAt: true } });
    if (!user) throw new AppError(404, "There is no such account.");
    if (user.emailVerifiedAt) {
      if (options.resend) throw new AppError(409, "Your e-mail address is already confirmed.");
      return;
    }
    if (options.resend) await resend.consume(userId);
    // One queued per user: asking twice before it is sent sends one message.
    await deps.jobs.enqueue(EMAIL_VERIFICATION_JOB, { userId }, { key: `email-verification:${userId}` });
  }

  /**
   * Asks to make `email` the account's login (decision 079; the caller has checked the password and that the address
   * is free): counted per account and per new address (AppError 429 with retryAfterSeconds), then a job mails the
   * new address a link and tells the current one. Nothing about the account changes until the link is opened.
   */
  async function requestEmailChange(userId: string, email: string): Promise<void> {
    await changePerUser.consume(`user:${userId}`);
    await changePerAddress.consume(email);
    await deps.jobs.enqueue(EMAIL_CHANGE_JOB, { userId, email });
    await deps.jobs.enqueue(EMAIL_CHANGE_NOTICE_JOB, { userId, email });
  }

  /** The new address waiting for its link to be opened, or null. */
  async function pendingEmailChange(userId: string): Promise<string | null> {
    const row = await db.authToken.findFirst({
      where: { userId, purpose: "email-change", usedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      select: { email: true },
    });
    return row?.email ?? null;
  }

  /**
   * Opens a confirmation link. The account's own address: it counts as confirmed (only while the account still uses
   * the address the link went to). A new address (decision 079): it becomes the login, confirmed, and every other
   * live link of the user stops working. AppError 410 when the link is used, expired or stale; 409 when another
   * account took the new address meanwhile.
   */
  async function verifyEmail(token: string): Promise<{ userId: string; email: string; changed: boolean }> {
    const row = await liveToken(token, "email-verification", "email-change");
    if (!row) throw new AppError(410, INVALID_VERIFICATION_LINK);
    const now = new Date();
    if (row.purpose === "email-change") {
      const done = await writeTransaction(db, async (tx) => {
        if (!(await claim(tx, row.id, now))) return false;
        await tx.user.update({ where: { id: row.userId }, data: { email: row.email, emailVerifiedAt: now }, select: { id: true } });
        await revokeLinks(tx, row.userId);
        return true;
      }).catch((error: unknown) => {
        // Someone signed up with the address after the change was asked for: the unique index decides.
        if ((error as { code?: string }).code === "P2002") throw new AppError(409, EMAIL_TAKEN);
        throw error;
      });
      if (!done) throw new AppError(410, INVALID_EMAIL_CHANGE_LINK);
      log.info({ userId: row.userId }, "e-mail change confirmed");
      return { userId: row.userId, email: row.email, changed: true };
    }
    const done = await writeTransaction(db, async (tx) => {
      if (!(await claim(tx, row.id, now))) return false;
      // Only while the account still uses the address the link went to.
      const updated = await tx.user.updateMany({ where: { id: row.userId, email: row.email }, data: { emailVerifiedAt: now } });
      return updated.count === 1;
    });
    if (!done) throw new AppError(410, INVALID_VERIFICATION_LINK);
    return { userId: row.userId, email: row.email, changed: false };
  }

  // ---------- the jobs: make the token, render, send ----------

  async function sendPasswordReset(email: string): Promise<void> {
    const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true } });
    if (!user) {
      // Nobody uses the address: nothing is sent, and the person who asked saw the same answer.
      log.info({}, "password reset asked for an address no account uses; nothing sent");
      return;
    }
    const token = await writeTransaction(db, (tx) =>
      issueToken(tx, { userId: user.id, email: user.email, purpose: "password-reset", ttlMs: deps.resetTtlMinutes * 60_000 }),
    );
    await deps.mailer.send(
      passwordResetMail({ to: user.email, link: passwordResetLink(deps.appUrl, token), validMinutes: deps.resetTtlMinutes }),
    );
  }

  async function sendEmailVerification(userId: string): Promise<void> {
    const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, emailVerifiedAt: true } });
    if (!user || user.emailVerifiedAt) return;
    const token = await writeTransaction(db, (tx) =>
      issueToken(tx, {
        userId: user.id,
        email: user.email,
        purpose: "email-verification",
        ttlMs: deps.verificationTtlHours * 3600_000,
      }),
    );
    await deps.mailer.send(
      emailVerificationMail({ to: user.email, link: emailVerificationLink(deps.appUrl, token), validHours: deps.verificationTtlHours }),
    );
  }

  async function sendEmailChange(userId: string, email: string): Promise<void> {
    const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
    // Gone, already there, or taken by another account since it was asked: nothing to confirm.
    if (!user || user.email === email || (await db.user.count({ where: { email } })) > 0) return;
    const ttlHours = deps.verificationTtlHours;
    const token = await writeTransaction(db, (tx) =>
      issueToken(tx, { userId: user.id, email, purpose: "email-change", ttlMs: ttlHours * 3600_000 }),
    );
    await deps.mailer.send(emailChangeMail({ to: email, link: emailVerificationLink(deps.appUrl, token), validHours: ttlHours }));
  }

  async function sendEmailChangeNotice(userId: string, newEmail: string): Promise<void> {
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    if (!user || user.email === newEmail) return;
    await deps.mailer.send(emailChangeNoticeMail({ to: user.email, newEmail, accountLink: accountPageLink(deps.appUrl) }));
  }

  function registerJobs(jobs: Jobs): void {
    const change = z.object({ userId: z.string().min(1).max(100), email: z.string().min(1).max(254) });
    jobs.register(EMAIL_CHANGE_JOB, ({ payload }) => sendEmailChange(payload.userId, payload.email), { payloadSchema: change });
    jobs.register(EMAIL_CHANGE_NOTICE_JOB, ({ payload }) => sendEmailChangeNotice(payload.userId, payload.email), { payloadSchema: change });
    jobs.register(PASSWORD_RESET_JOB, ({ payload }) => sendPasswordReset(payload.email), {
      payloadSchema: z.object({ email: z.string().min(1).max(254) }),
    });
    jobs.register(EMAIL_VERIFICATION_JOB, ({ payload }) => sendEmailVerification(payload.userId), {
      payloadSchema: z.object({ userId: z.string().min(1).max(100) }),
    });
  }

  return {
    requestPasswordReset,
    passwordResetLinkWorks,
    resetPassword,
    requestEmailVerification,
    requestEmailChange,
    pendingEmailChange,
    verifyEmail,
    registerJobs,
  };
}

export type AccountEmails = ReturnType<typeof createAccountEmails>;
