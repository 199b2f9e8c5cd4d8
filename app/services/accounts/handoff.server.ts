// Hand-off links from the embedded app to the site (docs/decisions/016). Inside Shopify admin's iframe
// there is no site cookie and Paddle's overlay cannot run, so buying, changing the card or connecting
// Discord happens in a new top-level tab. The embedded app (which knows the shop's linked user) mints a
// random token here; /auth/handoff redeems it once, within a few minutes, into an ordinary site session.
// Owns: creating and redeeming tokens. Only each token's SHA-256 is stored; tokens are never logged.
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "~/db.server";
import { HANDOFF_TTL_MINUTES, handoffTarget, type HandoffDestination, type HandoffRefusal } from "~/domain/shopify/handoff";
import { childLogger } from "~/logger.server";
import { findLinkedUserId } from "~/services/shopify/stores.server";

const log = childLogger("handoff");
const PREFIX = "wph_";
/** "wph_" and 32 random bytes in base64url. */
const TOKEN_SHAPE = /^wph_[A-Za-z0-9_-]{43}$/;
/** Used and expired rows are kept a day (for the logs' sake), then removed when new links are made. */
const KEEP_MS = 24 * 3600_000;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export interface CreatedHandoff {
  /** The secret itself: returned here once, never stored. */
  token: string;
  /** The site path that redeems it: /auth/handoff?token=... */
  path: string;
  target: string;
  expiresAt: Date;
}

/** A new link for the user a shop is linked to (the caller has checked the link). */
export async function createHandoff(
  db: Db,
  input: { userId: string; shop: string; destination: HandoffDestination },
  now: Date = new Date(),
): Promise<CreatedHandoff> {
  const token = `${PREFIX}${randomBytes(32).toString("base64url")}`;
  const target = handoffTarget(input.destination);
  const expiresAt = new Date(now.getTime() + HANDOFF_TTL_MINUTES * 60_000);
  await db.handoffToken.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - KEEP_MS) } } });
  await db.handoffToken.create({
    data: { tokenHash: hashToken(token), userId: input.userId, shop: input.shop, target, expiresAt },
    select: { id: true },
  });
  log.info({ userId: input.userId, shop: input.shop, target }, "hand-off link created");
  return { token, path: `/auth/handoff?${new URLSearchParams({ token })}`, target, expiresAt };
}

export type RedeemResult = { ok: true; userId: string; target: string } | { ok: false; reason: HandoffRefusal };

/**
 * Uses a token: valid, unused, unexpired, and its shop still linked to its user. Marking it used is one
 * conditional UPDATE, so two tabs racing with the same token cannot both win.
 */
export async function redeemHandoff(db: Db, token: string, now: Date = new Date()): Promise<RedeemResult> {
  if (!TOKEN_SHAPE.test(token)) return refuse("invalid");
  const tokenHash = hashToken(token);
  const claimed = await db.handoffToken.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  const row = await db.handoffToken.findUnique({
    where: { tokenHash },
    select: { userId: true, shop: true, target: true, usedAt: true },
  });
  if (!row) return refuse("invalid");
  if (claimed.count === 0) return refuse(row.usedAt ? "used" : "expired", row);
  // The shop could have been unlinked (or passed to another account) since the link was made.
  if ((await findLinkedUserId(db, row.shop)) !== row.userId) return refuse("unlinked", row);
  log.info({ userId: row.userId, shop: row.shop, target: row.target }, "hand-off link used");
  return { ok: true, userId: row.userId, target: row.target };
}

function refuse(reason: HandoffRefusal, row?: { userId: string; shop: string }): RedeemResult {
  log.info({ reason, userId: row?.userId, shop: row?.shop }, "hand-off link refused");
  return { ok: false, reason };
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { create: createHandoff, redeem: redeemHandoff };
