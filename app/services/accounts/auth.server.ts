// Standalone-site identity: sign-up, log-in (with throttling), Google sign-in, and server-side
// sessions. A session is a UserSession row, so any session can be revoked by deleting its row. The
// cookie that carries its id, and the guards that answer redirects and 401s, are HTTP and live in
// app/pages/http/site-session.server.ts. Merchants in Shopify admin use Shopify's own sessions instead
// (app/shopify.server.ts, app/pages/http/embedded-session.server.ts).
import { AppError } from "~/domain/errors";
import { dateFromDb, dateOrNull, readerFor, textOrNull, writeTransaction, type Db } from "~/db.server";
import { getEnv } from "~/env.server";
import { dummyPasswordHash, hashPassword, verifyPassword } from "~/services/accounts/password-hashing.server";
import type { GoogleIdentity } from "~/integrations/firebase.server";
import { outboxRows, outboxWritten, writeOutbox } from "~/services/outbox.server";
import type { AuthLimits } from "~/services/api-access/inbound-limits.server";

const DAY_MS = 24 * 3600_000;

/** The user fields every surface needs; one select so no query reads the password hash by accident. */
export const userSelect = {
  id: true,
  email: true,
  createdAt: true,
  lastLoginAt: true,
  popupTriggered: true,
  klaviyoId: true,
  paddleSubscriptionId: true,
  paddleCustomerId: true,
  boughtCaseStudy: true,
  userSubscribed: true,
  chargeDeclined: true,
  subscriptionCancelled: true,
  subscription_id: true,
  trialing: true,
  shopifyStoreName: true,
  zendropConnected: true,
  usedGlitchModeOnTrial: true,
  claimedDiscount: true,
  extendedTrial: true,
  innerCircle: true,
  aiAdsFirstUse: true,
  emailVerifiedAt: true,
} as const;

async function loadUser(db: Db, userId: string) {
  return db.user.findUniqueOrThrow({ where: { id: userId }, select: userSelect });
}
export type User = Awaited<ReturnType<typeof loadUser>>;

// ---------- sessions ----------

/** Who opened a session, kept on its row so the account page can tell devices apart. */
export interface SessionClient {
  userAgent: string | null;
  ip: string | null;
}

/** A new session row for the user; its id is what the (signed) cookie carries. */
export async function createSession(db: Db, userId: string, client: SessionClient): Promise<string> {
  const env = getEnv();
  const session = await db.userSession.create({
    data: {
      userId,
      expiresAt: new Date(Date.now() + env.SESSION_TTL_DAYS * DAY_MS),
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      ip: client.ip,
    },
    select: { id: true },
  });
  return session.id;
}

/** Ends one session (signing out); an unknown id is already ended. */
export async function endSession(db: Db, sessionId: string): Promise<void> {
  await db.userSession.deleteMany({ where: { id: sessionId } });
}

/** How each field of userSelect is stored, to read a User without Prisma (one kind per field, checked by tsc). */
const USER_COLUMNS: { [K in keyof typeof userSelect]: "text" | "optionalText" | "boolean" | "date" | "optionalDate" } = {
  id: "text",
  email: "text",
  createdAt: "date",
  lastLoginAt: "optionalDate",
  popupTriggered: "boolean",
  klaviyoId: "optionalText",
  paddleSubscriptionId: "optionalText",
  paddleCustomerId: "optionalText",
  boughtCaseStudy: "boolean",
  userSubscribed: "text",
  chargeDeclined: "boolean",
  subscriptionCancelled: "boolean",
  subscription_id: "optionalText",
  trialing: "boolean",
  shopifyStoreName: "optionalText",
  zendropConnected: "boolean",
  usedGlitchModeOnTrial: "boolean",
  claimedDiscount: "boolean",
  extendedTrial: "boolean",
  innerCircle: "boolean",
  aiAdsFirstUse: "boolean",
  emailVerifiedAt: "optionalDate",
};
const USER_FIELDS = Object.keys(USER_COLUMNS) as (keyof typeof userSelect)[];
/** The columns of a User for a raw SELECT over `alias`, read back by userFromRow (the API key check uses them too). */
export const userColumnsSql = (alias: string) => USER_FIELDS.map((f) => `${alias}."${f}"`).join(", ");
const SESSION_USER_SQL =
  `SELECT s."expiresAt", ${userColumnsSql("u")} ` +
  `FROM "UserSession" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ?`;

export function userFromRow(row: unknown[]): User {
  const user: Record<string, unknown> = {};
  USER_FIELDS.forEach((field, i) => {
    const value = row[i];
    switch (USER_COLUMNS[field]) {
      case "boolean":
        user[field] = value === 1 || value === true;
        break;
      case "date":
        user[field] = dateFromDb(value);
        break;
      case "optionalDate":
        user[field] = dateOrNull(value);
        break;
      case "optionalText":
        user[field] = textOrNull(value);
        break;
      default:
        user[field] = String(value);
    }
  });
  return user as User;
}

/**
 * The user a session belongs to, or null. Expired or revoked sessions count as signed out. Every
 * signed-in request asks this, so it is one prepared statement on the SqlReader (docs/decisions/017),
 * with Prisma as the fallback for clients that have none.
 */
export async function sessionUser(db: Db, sessionId: string): Promise<User | null> {
  const reader = readerFor(db);
  if (reader) {
    const row = await reader.row(SESSION_USER_SQL, [sessionId]);
    if (!row || dateFromDb(row[0]).getTime() <= Date.now()) return null;
    return userFromRow(row.slice(1));
  }
  const session = await db.userSession.findUnique({
    where: { id: sessionId },
    select: { expiresAt: true, user: { select: userSelect } },
  });
  if (!session || session.expiresAt.getTime() <= Date.now()) return null;
  return session.user;
}

export async function revokeAllSessions(db: Db, userId: string): Promise<number> {
  const { count } = await db.userSession.deleteMany({ where: { userId } });
  return count;
}

// ---------- sign-up and log-in ----------

/** A new account's id; AppError 409 (details.field "email") when the e-mail is taken. */
export type SignupResult = { userId: string };

export async function emailExists(db: Db, email: string): Promise<boolean> {
  return (await db.user.count({ where: { email } })) > 0;
}

/** AppError 429 past the sign-ups allowed from one client address (decision 064), before anything is looked up. */
export async function signup(
  db: Db,
  input: { email: string; password: string },
  client: { ip: string | null },
  limits: Pick<AuthLimits, "signup">,
): Promise<SignupResult> {
  await limits.signup(client.ip);
  const taken = () =>
    new AppError(409, "An account with this e-mail already exists. Log in instead.", { field: "email" });
  // The seed checks first whether the e-mail exists, before creating anything.
  if (await emailExists(db, input.email)) throw taken();
  const passwordHash = await hashPassword(input.password);
  try {
    // The account and its marketing rows (Klaviyo profile and event, PostHog event) in one transaction.
    const user = await writeTransaction(db, async (tx) => {
      const created = await tx.user.create({
        data: { email: input.email, passwordHash, lastLoginAt: new Date() },
        select: { id: true, email: true },
      });
      await writeOutbox(tx, outboxRows.signup(created, "password"));
      return created;
    });
    outboxWritten();
    return { userId: user.id };
  } catch (error) {
    // Two sign-ups with one e-mail at the same moment: the unique index decides, the loser gets 409.
    if ((error as { code?: string }).code === "P2002") throw taken();
    throw error;
  }
}

/** The signed-in user's id; AppError 401 (wrong e-mail or password) or 429 (too many failures). */
export type LoginResult = { userId: string };

export const GENERIC_LOGIN_ERROR = "That e-mail and password don't match an account.";

export async function login(
  db: Db,
  input: { email: string; password: string },
  client: { ip: string | null },
  limits: AuthLimits,
): Promise<LoginResult> {
  // Failed log-ins per e-mail and per client address are counted on the shared limiter (decision 064): 429 with
  // Retry-After once either has failed too often; a success forgets the e-mail's failures, not the address's.
  await limits.beforeLogin(input.email, client.ip);

  const user = await db.user.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true },
  });
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !user.passwordHash || !valid) {
    await limits.loginFailed(input.email, client.ip);
    throw new AppError(401, GENERIC_LOGIN_ERROR);
  }
  await limits.loginSucceeded(input.email);
  await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() }, select: { id: true } }),
    // lastLogin on the Klaviyo profile.
    writeOutbox(db, outboxRows.login(user.id)),
  ]);
  outboxWritten();
  return { userId: user.id };
}

// ---------- Google ----------

/**
 * The user and whether the account was just made; AppError 403 / 404 / 409 with details.code
 * "unverified_email" / "new_user" / "existing_user" (the seed's outcomes) otherwise.
 */
export type GoogleResult = { userId: string; created: boolean };

/**
 * mode "signin": an unknown Google account answers new_user (seed §5) and nothing is created.
 * mode "signup": a known account answers existing_user and nothing changes.
 * A known e-mail signing in with Google for the first time is linked to that account only when
 * Google says the address is verified.
 */
export async function googleAuth(db: Db, identity: GoogleIdentity, mode: "signin" | "signup"): Promise<GoogleResult> {
  const existing = await db.user.findFirst({
    where: { OR: [{ googleUid: identity.uid }, { email: identity.email }] },
    select: { id: true, googleUid: true },
  });
  if (mode === "signup") {
    if (existing) {
      throw new AppError(409, "You already have an account with this Google address. Log in instead.", { code: "existing_user" });
    }
    if (!identity.emailVerified) {
      // Otherwise anyone could claim an address they do not own and lock its owner out.
      throw new AppError(403, "Google has not verified this address yet. Verify it with Google, or sign up with e-mail and password.", { code: "unverified_email" });
    }
    const user = await writeTransaction(db, async (tx) => {
      const created = await tx.user.create({
        // Google has confirmed the address (signing up needs a verified one).
        data: { email: identity.email, googleUid: identity.uid, lastLoginAt: new Date(), emailVerifiedAt: new Date() },
        select: { id: true, email: true },
      });
      await writeOutbox(tx, outboxRows.signup(created, "google"));
      return created;
    });
    outboxWritten();
    return { userId: user.id, created: true };
  }
  if (!existing || (!existing.googleUid && !identity.emailVerified)) {
    throw new AppError(404, "There is no account for this Google address yet. Sign up first.", { code: "new_user" });
  }
  await db.$transaction([
    db.user.update({
      where: { id: existing.id },
      data: { googleUid: identity.uid, lastLoginAt: new Date() },
      select: { id: true },
    }),
    writeOutbox(db, outboxRows.login(existing.id)),
  ]);
  outboxWritten();
  return { userId: existing.id, created: false };
}

export { loadUser };

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { createSession, sessionUser, endSession, loadUser, revokeAllSessions, signup, login, googleAuth };
