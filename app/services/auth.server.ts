// Standalone-site identity: sign-up, log-in (with throttling), Google sign-in, and server-side
// sessions. A session is a UserSession row; the browser holds only its id in a signed, httpOnly
// cookie, so any session can be revoked by deleting its row. Merchants in Shopify admin use
// Shopify's own sessions instead (app/shopify.server.ts).
import { createCookie, redirect } from "@remix-run/node";
import { dateFromDb, readerFor, type Db } from "~/db.server";
import { getEnv, sessionSecret } from "~/env.server";
import { dummyPasswordHash, hashPassword, verifyPassword } from "~/services/passwords.server";
import type { GoogleIdentity } from "~/integrations/firebase.server";
import { clientIp } from "~/services/client-address.server";
import { shopifyBearerUserId } from "~/services/embedded-auth.server";

const DAY_MS = 24 * 3600_000;

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  const env = getEnv();
  return (cookie ??= createCookie("__session", {
    secrets: [sessionSecret(env)],
    httpOnly: true,
    sameSite: "lax",
    secure: env.NODE_ENV === "production",
    path: "/",
    maxAge: env.SESSION_TTL_DAYS * 24 * 3600,
  }));
}

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
} as const;

async function loadUser(db: Db, userId: string) {
  return db.user.findUniqueOrThrow({ where: { id: userId }, select: userSelect });
}
export type User = Awaited<ReturnType<typeof loadUser>>;

// ---------- sessions ----------

export async function createUserSession(db: Db, userId: string, request: Request): Promise<string> {
  const env = getEnv();
  const session = await db.userSession.create({
    data: {
      userId,
      expiresAt: new Date(Date.now() + env.SESSION_TTL_DAYS * DAY_MS),
      userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
      ip: clientIp(request),
    },
    select: { id: true },
  });
  return sessionCookie().serialize(session.id);
}

async function sessionIdFrom(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" ? value : null;
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
};
const USER_FIELDS = Object.keys(USER_COLUMNS) as (keyof typeof userSelect)[];
const SESSION_USER_SQL =
  `SELECT s."expiresAt", ${USER_FIELDS.map((f) => `u."${f}"`).join(", ")} ` +
  `FROM "UserSession" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ?`;

function userFromRow(row: unknown[]): User {
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
        user[field] = value === null ? null : dateFromDb(value);
        break;
      case "optionalText":
        user[field] = value === null ? null : String(value);
        break;
      default:
        user[field] = String(value);
    }
  });
  return user as User;
}

/**
 * The signed-in user, or null. Expired or revoked sessions count as signed out. Every signed-in
 * request asks this, so it is one prepared statement on the SqlReader (docs/decisions/017), with
 * Prisma as the fallback for clients that have none.
 */
export async function getUser(db: Db, request: Request): Promise<User | null> {
  const sessionId = await sessionIdFrom(request);
  if (!sessionId) return null;
  const reader = readerFor(db);
  if (reader) {
    const [row] = await reader.rows(SESSION_USER_SQL, [sessionId]);
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

/** Pages: an anonymous visitor is sent to the landing page (seed §2). */
export async function requireUser(db: Db, request: Request): Promise<User> {
  const user = await getUser(db, request);
  if (!user) throw redirect("/");
  return user;
}

/**
 * JSON APIs: 401 instead of a redirect. The session cookie, or (from the embedded app) a Shopify
 * session token as a bearer token, whose shop's linked user is the caller (embedded-auth.server.ts).
 */
export async function requireApiUser(db: Db, request: Request): Promise<User> {
  const user = await getUser(db, request);
  if (user) return user;
  const linkedUserId = await shopifyBearerUserId(db, request);
  if (linkedUserId) return loadUser(db, linkedUserId);
  throw Response.json({ error: "Sign in to use this." }, { status: 401 });
}

/**
 * The seed's calls carry ?uid={uid}. It is never trusted: it must be the signed-in user's id.
 * Missing uid is accepted (the session says who it is); a different uid is 403.
 */
export async function requireUidMatch(db: Db, request: Request): Promise<User> {
  const user = await requireApiUser(db, request);
  const uid = new URL(request.url).searchParams.get("uid");
  if (uid !== null && uid !== user.id) {
    throw Response.json({ error: "That uid is not the signed-in user." }, { status: 403 });
  }
  return user;
}

/** Sign-up and log-in pages: a signed-in user goes straight to the dashboard. */
export async function requireAnonymous(db: Db, request: Request): Promise<void> {
  if (await getUser(db, request)) throw redirect("/dashboard?location=dashboard");
}

/** Deletes the current session row and returns a Set-Cookie that clears the cookie. */
export async function logout(db: Db, request: Request): Promise<string> {
  const sessionId = await sessionIdFrom(request);
  if (sessionId) await db.userSession.deleteMany({ where: { id: sessionId } });
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

export async function revokeAllSessions(db: Db, userId: string): Promise<number> {
  const { count } = await db.userSession.deleteMany({ where: { userId } });
  return count;
}

// ---------- sign-up and log-in ----------

export type SignupResult =
  | { ok: true; userId: string }
  | { ok: false; status: 409; field: "email"; message: string };

export async function emailExists(db: Db, email: string): Promise<boolean> {
  return (await db.user.count({ where: { email } })) > 0;
}

export async function signup(db: Db, input: { email: string; password: string }): Promise<SignupResult> {
  const taken: SignupResult = {
    ok: false,
    status: 409,
    field: "email",
    message: "An account with this e-mail already exists. Log in instead.",
  };
  // The seed checks first whether the e-mail exists, before creating anything.
  if (await emailExists(db, input.email)) return taken;
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.user.create({
      data: { email: input.email, passwordHash, lastLoginAt: new Date() },
      select: { id: true },
    });
    return { ok: true, userId: user.id };
  } catch (error) {
    // Two sign-ups with one e-mail at the same moment: the unique index decides, the loser gets 409.
    if ((error as { code?: string }).code === "P2002") return taken;
    throw error;
  }
}

export type LoginResult =
  | { ok: true; userId: string }
  | { ok: false; status: 401 | 429; message: string };

export const GENERIC_LOGIN_ERROR = "That e-mail and password don't match an account.";

export async function login(
  db: Db,
  input: { email: string; password: string },
  request: Request,
): Promise<LoginResult> {
  const env = getEnv();
  const ip = clientIp(request);
  // keys[0] is the e-mail's key, cleared by a successful log-in; the IP key is kept.
  const keys = [`email:${input.email}`, ...(ip ? [`ip:${ip}`] : [])];
  const since = new Date(Date.now() - env.LOGIN_WINDOW_MINUTES * 60_000);
  const failures = await Promise.all(
    keys.map((key) => db.loginFailure.count({ where: { key, createdAt: { gte: since } } })),
  );
  if (failures.some((n) => n >= env.LOGIN_MAX_FAILURES)) {
    return {
      ok: false,
      status: 429,
      message: `Too many failed attempts. Wait ${env.LOGIN_WINDOW_MINUTES} minutes, then try again.`,
    };
  }

  const user = await db.user.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true },
  });
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !user.passwordHash || !valid) {
    await db.loginFailure.createMany({ data: keys.map((key) => ({ key })) });
    return { ok: false, status: 401, message: GENERIC_LOGIN_ERROR };
  }
  await db.$transaction([
    db.loginFailure.deleteMany({ where: { key: keys[0] } }),
    db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() }, select: { id: true } }),
  ]);
  return { ok: true, userId: user.id };
}

// ---------- Google ----------

export type GoogleResult =
  | { ok: true; userId: string; created: boolean }
  | { ok: false; status: 403 | 404 | 409; code: "new_user" | "existing_user" | "unverified_email"; message: string };

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
      return {
        ok: false,
        status: 409,
        code: "existing_user",
        message: "You already have an account with this Google address. Log in instead.",
      };
    }
    if (!identity.emailVerified) {
      // Otherwise anyone could claim an address they do not own and lock its owner out.
      return {
        ok: false,
        status: 403,
        code: "unverified_email",
        message: "Google has not verified this address yet. Verify it with Google, or sign up with e-mail and password.",
      };
    }
    const user = await db.user.create({
      data: { email: identity.email, googleUid: identity.uid, lastLoginAt: new Date() },
      select: { id: true },
    });
    return { ok: true, userId: user.id, created: true };
  }
  if (!existing || (!existing.googleUid && !identity.emailVerified)) {
    return {
      ok: false,
      status: 404,
      code: "new_user",
      message: "There is no account for this Google address yet. Sign up first.",
    };
  }
  await db.user.update({
    where: { id: existing.id },
    data: { googleUid: identity.uid, lastLoginAt: new Date() },
    select: { id: true },
  });
  return { ok: true, userId: existing.id, created: false };
}

export { loadUser };
