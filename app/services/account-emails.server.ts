// The account e-mails (docs/decisions/051): password reset by e-mail and confirming the account's address.
// A request only counts against its rate limits and enqueues a job; the job makes the single-use token (only
// its SHA-256 is stored, so the token itself is never in the database, not even in the job's payload),
// renders the message (app/domain/account-emails.ts) and sends it through the mailer, retried by the job
// system when sending fails. Using a reset link sets the password, uses the token up and ends every session
// of the user; a confirmation link counts only while the address it was sent to is still the account's.
// Nothing here knows HTTP.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { writeTransaction, type Db, type DbClient } from "~/db.server";
import {
  emailVerificationLink,
  emailVerificationMail,
  INVALID_RESET_LINK,
  INVALID_VERIFICATION_LINK,
  passwordResetLink,
  passwordResetMail,
  TOKEN_PATTERN,
  type AuthTokenPurpose,
} from "~/domain/account-emails";
import { AppError } from "~/domain/errors";
import type { Mailer } from "~/integrations/mailer.server";
import { childLogger } from "~/logger.server";
import type { Jobs } from "~/services/jobs.server";
import { hashPassword } from "~/services/passwords.server";
import { RATE_LIMITS, type RateLimits } from "~/services/rate-limits.server";
import { perAddress } from "~/services/inbound-limits.server";

const log = childLogger("account-emails");

export const PASSWORD_RESET_JOB = "account-emails.password-reset";
export const EMAIL_VERIFICATION_JOB = "account-emails.verification";

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

  /**
   * Asks for a reset link for an address. The answer is the same whether or not an account uses it: the job
   * looks the address up later. AppError 429 (with retryAfterSeconds) past the limits per address and per client.
   */
  async function requestPasswordReset(email: string, client: { ip: string | null }): Promise<void> {
    await resetPerIp.consume(client.ip);
    await resetPerEmail.consume(email);
    await deps.jobs.enqueue(PASSWORD_RESET_JOB, { email });
  }

  /** The unused, unexpired token row for a link, or null. */
  async function liveToken(token: string, purpose: AuthTokenPurpose) {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await db.authToken.findUnique({
      where: { tokenHash: tokenHash(token) },
      select: { id: true, userId: true, email: true, purpose: true, usedAt: true, expiresAt: true },
    });
    if (!row || row.purpose !== purpose || row.usedAt || row.expiresAt.getTime() <= Date.now()) return null;
    return row;
  }

  /** Whether a reset link still works (the reset page shows the form, or says to ask again). */
  async function passwordResetLinkWorks(token: string): Promise<boolean> {
    return (await liveToken(token, "password-reset")) !== null;
  }

  /**
   * Sets the new password from a reset link: the token is used up (a second use, or an expired link, is AppError
   * 410), every session of the user ends, and the address counts as confirmed (the link reached it).
   */
  async function resetPassword(input: { token: string; password: string }): Promise<{ userId: string; email: string }> {
    const row = await liveToken(input.token, "password-reset");
    if (!row) throw new AppError(410, INVALID_RESET_LINK, { field: "token" });
    const passwordHash = await hashPassword(input.password);
    const now = new Date();
    const done = await writeTransaction(db, async (tx) => {
      // The claim is one conditional update: of two uses at the same moment, one wins.
      const claimed = await tx.authToken.updateMany({
        where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (claimed.count !== 1) return null;
      const user = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { id: true, email: true, emailVerifiedAt: true } });
      await tx.user.update({
        where: { id: user.id },
        data: { passwordHash, ...(user.emailVerifiedAt === null && user.email === row.email ? { emailVerifiedAt: now } : {}) },
        select: { id: true },
      });
      await tx.userSession.deleteMany({ where: { userId: user.id } });
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

  /** Confirms the address a link was sent to; AppError 410 when the link is used, expired or for an old address. */
  async function verifyEmail(token: string): Promise<{ userId: string; email: string }> {
    const row = await liveToken(token, "email-verification");
    if (!row) throw new AppError(410, INVALID_VERIFICATION_LINK);
    const now = new Date();
    const done = await writeTransaction(db, async (tx) => {
      const claimed = await tx.authToken.updateMany({
        where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (claimed.count !== 1) return false;
      // Only while the account still uses the address the link went to.
      const updated = await tx.user.updateMany({ where: { id: row.userId, email: row.email }, data: { emailVerifiedAt: now } });
      return updated.count === 1;
    });
    if (!done) throw new AppError(410, INVALID_VERIFICATION_LINK);
    return { userId: row.userId, email: row.email };
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

  function registerJobs(jobs: Jobs): void {
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
    verifyEmail,
    registerJobs,
  };
}

export type AccountEmails = ReturnType<typeof createAccountEmails>;
