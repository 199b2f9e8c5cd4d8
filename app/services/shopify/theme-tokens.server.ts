// Theme tokens (seed themeTokens): a licence a theme presents when it calls the app directly from a
// storefront. One active token per (user, theme); the token is shown once at creation and stored as
// its SHA-256 hash; creating again for a theme rotates (the old token is revoked). The licence check
// answers only requests from the token's whitelisted origins (docs/decisions/014).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { ThemeTokenInputSchema, type ThemeTokenInput } from "~/domain/shopify/theme-tokens";
import { childLogger } from "~/logger.server";
import { connectedShops } from "~/services/shopify/stores.server";

const log = childLogger("theme-tokens");

export const TOKEN_PREFIX = "wpt_";

export { ThemeTokenInputSchema, type ThemeTokenInput };

export interface ThemeTokenEntry {
  themeId: string;
  createdAt: string;
  selectedStore: string;
  whitelistedUrls: string[];
  version: string;
  blockMessage: string | null;
}

const entrySelect = {
  themeId: true,
  createdAt: true,
  selectedStore: true,
  whitelistedUrls: true,
  version: true,
  blockMessage: true,
} as const;

function toEntry(row: {
  themeId: string;
  createdAt: Date;
  selectedStore: string;
  whitelistedUrls: string;
  version: string;
  blockMessage: string | null;
}): ThemeTokenEntry {
  return {
    themeId: row.themeId,
    createdAt: row.createdAt.toISOString(),
    selectedStore: row.selectedStore,
    whitelistedUrls: JSON.parse(row.whitelistedUrls) as string[],
    version: row.version,
    blockMessage: row.blockMessage,
  };
}

function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

function isLocalhost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/**
 * An allowed origin, normalised ("https://Shop.example.com/" -> "https://shop.example.com"), or the
 * reason it is refused. Only https origins, or http on localhost for development; a path is dropped
 * (browsers send only the origin), but credentials, queries, fragments and wildcards are refused.
 */
export function normaliseOrigin(raw: string): { ok: true; origin: string } | { ok: false; reason: string } {
  const text = raw.trim();
  if (!URL.canParse(text)) return { ok: false, reason: "is not a URL (write it like https://your-store.com)" };
  const url = new URL(text);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocalhost(url.hostname))) {
    return { ok: false, reason: "must start with https:// (http:// only for localhost)" };
  }
  if (url.username || url.password) return { ok: false, reason: "must not contain a user name or password" };
  if (url.search || url.hash || text.includes("?") || text.includes("#")) {
    return { ok: false, reason: "must be an origin, without ?query or #fragment" };
  }
  if (url.hostname.includes("*")) return { ok: false, reason: "must name one host; wildcards are not allowed" };
  return { ok: true, origin: url.origin };
}

/**
 * Creates the theme's token, revoking any active one for the same theme (rotation). The token is
 * returned here and never again. A refused origin: AppError 400; a store that is not one of the
 * user's connected stores: AppError 404.
 */
export async function createThemeToken(
  db: Db,
  userId: string,
  input: ThemeTokenInput,
): Promise<ThemeTokenEntry & { authToken: string }> {
  const origins: string[] = [];
  for (const [index, raw] of input.whitelistedUrls.entries()) {
    const result = normaliseOrigin(raw);
    if (!result.ok) {
      throw new AppError(400, `whitelistedUrls[${index}] "${raw.slice(0, 200)}" ${result.reason}`);
    }
    if (!origins.includes(result.origin)) origins.push(result.origin);
  }
  const shops = await connectedShops(db, userId);
  if (!shops.includes(input.selectedStore)) {
    throw new AppError(
      404,
      shops.length
        ? `selectedStore "${input.selectedStore}" is not one of your connected stores (${shops.join(", ")}).`
        : `selectedStore "${input.selectedStore}" is not one of your connected stores: you have none yet. Open the app in your Shopify admin to link a store.`,
    );
  }

  const authToken = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const now = new Date();
  const [, row] = await db.$transaction([
    db.themeToken.updateMany({ where: { userId, themeId: input.themeId, revokedAt: null }, data: { revokedAt: now } }),
    db.themeToken.create({
      data: {
        userId,
        themeId: input.themeId,
        tokenHash: hashToken(authToken).toString("hex"),
        selectedStore: input.selectedStore,
        whitelistedUrls: JSON.stringify(origins),
        version: input.version,
        blockMessage: input.blockMessage,
        createdAt: now,
      },
      select: entrySelect,
    }),
  ]);
  log.info({ userId, themeId: input.themeId, selectedStore: input.selectedStore }, "theme token created");
  return { ...toEntry(row), authToken };
}

/** The user's active entries, newest first, without tokens. */
export async function listThemeTokens(db: Db, userId: string): Promise<ThemeTokenEntry[]> {
  const rows = await db.themeToken.findMany({
    where: { userId, revokedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: entrySelect,
  });
  return rows.map(toEntry);
}

/** Revokes the user's active token for a theme; false when there was none. */
export async function revokeThemeToken(db: Db, userId: string, themeId: string): Promise<boolean> {
  const { count } = await db.themeToken.updateMany({
    where: { userId, themeId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count > 0) log.info({ userId, themeId }, "theme token revoked");
  return count > 0;
}

export interface Licence {
  valid: true;
  store: string;
  version: string;
  message: string | null;
  /** The origin that may read this answer (Access-Control-Allow-Origin). */
  origin: string;
}

async function activeTokensOfTheme(db: Db, themeId: string) {
  return db.themeToken.findMany({
    where: { themeId, revokedAt: null },
    select: {
      userId: true,
      tokenHash: true,
      selectedStore: true,
      whitelistedUrls: true,
      version: true,
      blockMessage: true,
    },
    take: 50,
  });
}

function originOf(header: string | null): string | null {
  if (!header) return null;
  const result = normaliseOrigin(header);
  return result.ok ? result.origin : null;
}

/**
 * The licence check of GET /api/theme/license: the token must be an active token of this theme
 * (compared by hash in constant time), the request's Origin one of its whitelisted origins, and its
 * store still connected to the token's owner. Anything else is null (403, no CORS headers).
 */
export async function checkLicence(
  db: Db,
  input: { themeId: string; authToken: string | null; origin: string | null },
): Promise<Licence | null> {
  const origin = originOf(input.origin);
  if (!origin || !input.authToken || !input.themeId) return null;
  const given = hashToken(input.authToken);
  let match: Awaited<ReturnType<typeof activeTokensOfTheme>>[number] | undefined;
  for (const row of await activeTokensOfTheme(db, input.themeId)) {
    // Every candidate is compared, so the time taken does not depend on which one matches.
    if (timingSafeEqual(Buffer.from(row.tokenHash, "hex"), given) && !match) match = row;
  }
  if (!match) return null;
  if (!(JSON.parse(match.whitelistedUrls) as string[]).includes(origin)) return null;
  if (!(await connectedShops(db, match.userId)).includes(match.selectedStore)) return null;
  return { valid: true, store: match.selectedStore, version: match.version, message: match.blockMessage, origin };
}

/**
 * CORS preflight for the licence check. Browsers send no Authorization header with a preflight, so
 * it is answered by origin alone: allowed when some active token of this theme whitelists it.
 */
export async function preflightOrigin(
  db: Db,
  input: { themeId: string; origin: string | null },
): Promise<string | null> {
  const origin = originOf(input.origin);
  if (!origin || !input.themeId) return null;
  const rows = await activeTokensOfTheme(db, input.themeId);
  return rows.some((row) => (JSON.parse(row.whitelistedUrls) as string[]).includes(origin)) ? origin : null;
}

export type ProxyLicence =
  { valid: true; store: string; version: string | null; message: string | null } | { valid: false };

/**
 * What the theme block gets through Shopify's app proxy, where Shopify's signature (checked by the
 * route) proves the shop: valid while the shop is linked and connected; the version and message come
 * from the shop's active token for the theme, if the merchant made one.
 */
export async function appProxyLicence(db: Db, input: { shop: string; themeId: string | null }): Promise<ProxyLicence> {
  const store = await db.shopifyStore.findUnique({
    where: { shop: input.shop },
    select: { userId: true, connected: true },
  });
  if (!store?.connected) return { valid: false };
  const row = await db.themeToken.findFirst({
    where: {
      userId: store.userId,
      selectedStore: input.shop,
      revokedAt: null,
      ...(input.themeId ? { themeId: input.themeId } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { version: true, blockMessage: true },
  });
  return { valid: true, store: input.shop, version: row?.version ?? null, message: row?.blockMessage ?? null };
}

/** A store left the app (uninstall, or erasure): its theme tokens stop working. */
export async function revokeThemeTokensOfStore(db: Db, shop: string): Promise<number> {
  const { count } = await db.themeToken.updateMany({
    where: { selectedStore: shop, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { createThemeToken, listThemeTokens, revokeThemeToken, checkLicence, preflightOrigin, appProxyLicence };
