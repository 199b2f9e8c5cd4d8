// API keys (docs/decisions/053): create, list, revoke, and the one check every /api/v1 and /mcp call makes.
// A key exists in clear only in the answer that creates it; the table keeps its SHA-256 (a key carries ~190
// random bits, so a fast hash is enough: nobody can guess one to match) and its visible prefix. Using a key
// counts against the limits in rate-limits.server.ts, per key and per user, and the user's monthly allowance.
// Nothing here logs or returns a key after it was made.
import { createHash, randomInt } from "node:crypto";
import { dateFromDb, readerFor, type Db } from "~/db.server";
import {
  API_KEY_BODY_LENGTH,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_SCOPES,
  API_SENTENCES,
  CALLS_PER_MINUTE,
  MAX_ACTIVE_KEYS,
  apiAccess,
  monthlyAllowance,
  visiblePrefix,
  type ApiScope,
} from "~/domain/accounts/api-keys";
import { AppError } from "~/domain/errors";
import { loadUser, userColumnsSql, userFromRow, type User } from "~/services/accounts/auth.server";
import { RATE_LIMITS, type RateLimits, type RateLimitStatus } from "~/services/api-access/rate-limits.server";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** lastUsedAt is written at most this often per key, so a busy key does not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface ApiCaller {
  user: User;
  keyId: string;
  scopes: string[];
}

export interface ApiKeysDeps {
  db: Db;
  limits: RateLimits;
  /** Calls a minute per key and per user (default CALLS_PER_MINUTE). */
  callsPerMinute?: number;
  now?: () => Date;
}

/** What the per-call check reads of a key. */
interface KeyCheck {
  id: string;
  scopes: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const KEY_USER_SQL =
  `SELECT k."id", k."scopes", k."revokedAt", k."lastUsedAt", ${userColumnsSql("u")} ` +
  `FROM "ApiKey" k JOIN "User" u ON u."id" = k."userId" WHERE k."keyHash" = ?`;

const keySelect = { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

function parseScopes(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

function view(row: { id: string; name: string; prefix: string; scopes: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

function newKey(): string {
  let body = "";
  for (let i = 0; i < API_KEY_BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return API_KEY_PREFIX + body;
}

export function createApiKeys({ db, limits, callsPerMinute = CALLS_PER_MINUTE, now = () => new Date() }: ApiKeysDeps) {
  const perMinute = () => limits.limit({ ...RATE_LIMITS.apiPerMinute, points: callsPerMinute });
  const monthly = () => limits.limit(RATE_LIMITS.apiMonthly);
  /** When this process last wrote each key's lastUsedAt (epoch ms). */
  const lastWrites = new Map<string, number>();

  /**
   * The key with this hash and its owner. Every call asks this, so it is one prepared statement on the SqlReader
   * (no cache: a revoked key is refused by the very next call, in every process), Prisma where there is none.
   */
  async function keyByHash(keyHash: string): Promise<{ row: KeyCheck; user: User } | null> {
    const reader = readerFor(db);
    if (reader) {
      const found = await reader.row(KEY_USER_SQL, [keyHash]);
      if (!found) return null;
      const [id, scopes, revokedAt, lastUsedAt] = found;
      return {
        row: { id: String(id), scopes: String(scopes), revokedAt: revokedAt == null ? null : dateFromDb(revokedAt), lastUsedAt: lastUsedAt == null ? null : dateFromDb(lastUsedAt) },
        user: userFromRow(found.slice(4)),
      };
    }
    const row = await db.apiKey.findUnique({ where: { keyHash }, select: { id: true, userId: true, scopes: true, revokedAt: true, lastUsedAt: true } });
    return row && { row, user: await loadUser(db, row.userId) };
  }

  function requireApiAccess(user: User) {
    const access = apiAccess(user);
    if (!access.allowed) throw new AppError(403, access.lockedReason!, { upgradeUrl: "/choose-plan" });
  }

  return {
    /** A new key: the only answer that ever holds it in clear. Paid states only. */
    async create(user: User, name: string): Promise<ApiKeyView & { key: string }> {
      requireApiAccess(user);
      const active = await db.apiKey.count({ where: { userId: user.id, revokedAt: null } });
      if (active >= MAX_ACTIVE_KEYS) throw new AppError(409, API_SENTENCES.tooManyKeys);
      const key = newKey();
      const row = await db.apiKey.create({
        data: { userId: user.id, name, prefix: visiblePrefix(key), keyHash: hashApiKey(key), scopes: JSON.stringify(API_SCOPES) },
        select: keySelect,
      });
      return { ...view(row), key };
    },

    /** The user's keys, newest first, revoked ones included (marked). Never the keys themselves. */
    async list(userId: string): Promise<ApiKeyView[]> {
      const rows = await db.apiKey.findMany({ where: { userId }, orderBy: { createdAt: "desc" }, select: keySelect });
      return rows.map(view);
    },

    /** Revokes one of the user's keys at once (idempotent); another user's id is 404. */
    async revoke(userId: string, id: string): Promise<ApiKeyView> {
      const row = await db.apiKey.findFirst({ where: { id, userId }, select: { id: true, revokedAt: true } });
      if (!row) throw new AppError(404, API_SENTENCES.keyNotFound);
      if (!row.revokedAt) await db.apiKey.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: now() } });
      const updated = await db.apiKey.findUniqueOrThrow({ where: { id }, select: keySelect });
      return view(updated);
    },

    /**
     * The caller a bearer key stands for: 401 for a missing, malformed, unknown or revoked key, 403 when the
     * user's plan has ended or the key lacks the scope. Records when the key was last used.
     */
    async authenticate(token: string | null, scope: ApiScope): Promise<ApiCaller> {
      if (!token) throw new AppError(401, API_SENTENCES.missingKey);
      if (!API_KEY_PATTERN.test(token)) throw new AppError(401, API_SENTENCES.badKey);
      const found = await keyByHash(hashApiKey(token));
      if (!found) throw new AppError(401, API_SENTENCES.badKey);
      const { row, user } = found;
      if (row.revokedAt) throw new AppError(401, API_SENTENCES.revokedKey);
      if (!apiAccess(user).allowed) throw new AppError(403, API_SENTENCES.planEnded, { upgradeUrl: "/choose-plan" });
      const scopes = parseScopes(row.scopes);
      if (!scopes.includes(scope)) throw new AppError(403, API_SENTENCES.wrongScope(scope));
      const at = now();
      const due = new Date(at.getTime() - LAST_USED_EVERY_MS);
      // Calls in flight together all read the old time: this process writes once (lastWrites), and of several
      // processes only the first write matches the condition.
      if ((!row.lastUsedAt || row.lastUsedAt <= due) && (lastWrites.get(row.id) ?? 0) <= due.getTime()) {
        if (lastWrites.size >= 10_000) lastWrites.clear();
        lastWrites.set(row.id, at.getTime());
        await db.apiKey.updateMany({ where: { id: row.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: due } }] }, data: { lastUsedAt: at } });
      }
      return { user, keyId: row.id, scopes };
    },

    /**
     * Counts one call: per key and per user a minute, then the user's monthly allowance. 429 with a sentence
     * and Retry-After when over; otherwise what is left (the tighter of the minute's counts, and the month's).
     */
    async countCall(caller: ApiCaller): Promise<{ minute: RateLimitStatus; month: RateLimitStatus }> {
      // The three counts in one write to the counters (decision 069), with the other calls of the same turn (074).
      const [minute, month] = await limits.takeSteps([
        { limit: perMinute(), subjects: [{ subject: `key:${caller.keyId}` }, { subject: `user:${caller.user.id}` }] },
        { limit: monthly(), subjects: [{ subject: `user:${caller.user.id}`, limit: monthlyAllowance(caller.user) }] },
      ]);
      return { minute, month };
    },

    /** The account page's line: calls used this window of the monthly allowance. */
    callsPerMinute,

    async allowance(user: User) {
      const usage = await monthly().usage(`user:${user.id}`, monthlyAllowance(user));
      return { used: usage.used, limit: usage.limit, remaining: usage.remaining, resetsInSeconds: usage.resetSeconds };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
