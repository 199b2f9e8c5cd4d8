// Feature credits: one balance per (user, feature), changed only through the append-only ledger.
// Every credit movement of both surfaces goes through this file. A spend is a single INSERT ... SELECT
// that succeeds only when the balance covers the cost; a trigger applies the ledger row to the
// balance in the same statement (migration 002, docs/decisions/008), so hundreds of concurrent spends
// can never overdraw a balance.
import { randomUUID } from "node:crypto";
import { CREDIT_FEATURES, UNLIMITED_THRESHOLD, type CreditFeature } from "~/domain/billing/plans";
import { creditCost, isUnlimited, renderCredits } from "~/domain/billing/credits";
import { isUniqueViolation, readerFor, retryBusy, type DbClient } from "~/db.server";
import { AppError } from "~/domain/errors";

/** A spend that went through (or the replay of one under the same key). */
export type Spent = { feature: string; cost: number; remaining: number; unlimited: boolean; ledgerId: number; replayed: boolean };

/** The details of the 402 a short balance throws: the upsell and the numbers behind it. */
export type NotEnoughCredits = { upsell: true; feature: string; cost: number; remaining: number };

/** The balance numbers of a spend's 402, or null for any other error. */
export function notEnoughCredits(error: unknown): NotEnoughCredits | null {
  if (!(error instanceof AppError) || error.status !== 402 || error.details.upsell !== true) return null;
  return error.details as NotEnoughCredits;
}

export async function getBalance(db: DbClient, userId: string, feature: string): Promise<number> {
  const row = await db.creditBalance.findUnique({
    where: { userId_feature: { userId, feature } },
    select: { balance: true },
  });
  return row?.balance ?? 0;
}

/**
 * Every balance with its cost. Read on every dashboard page and `GET /api/me`: a prepared statement on the SqlReader
 * (docs/decisions/076), or Prisma for a client without one (a transaction's, which must see its own writes).
 */
export async function getBalances(db: DbClient, userId: string) {
  const reader = readerFor(db);
  const rows = reader
    ? (await reader.rows(`SELECT "feature", "balance" FROM "CreditBalance" WHERE "userId" = ?`, [userId])).map(([feature, balance]) => ({ feature: String(feature), balance: Number(balance) }))
    : await db.creditBalance.findMany({ where: { userId }, select: { feature: true, balance: true } });
  const byFeature = new Map(rows.map((r) => [r.feature, r.balance]));
  return CREDIT_FEATURES.map((feature) => {
    const balance = byFeature.get(feature) ?? 0;
    return { feature, balance, cost: creditCost(feature), unlimited: isUnlimited(balance), renderCredits: renderCredits(balance) };
  });
}

async function ledgerByKey(db: DbClient, idempotencyKey: string) {
  return db.creditLedger.findUnique({
    where: { idempotencyKey },
    select: { id: true, userId: true, feature: true, kind: true, amount: true, cost: true, balanceAfter: true },
  });
}

/**
 * Spends the feature's cost. Same idempotency key twice -> the first result, charged once.
 * Balance too low -> AppError 402 with { upsell, feature, cost, remaining }, nothing changes (a feature
 * with its own wording or upsell rule passes `wordShort` to build that 402 instead); a key already used
 * for another operation -> AppError 409. Unlimited balances are never decremented.
 */
export async function spend(
  db: DbClient,
  input: { userId: string; feature: string; idempotencyKey?: string; reason?: string },
  wordShort?: (short: NotEnoughCredits, message: string) => AppError,
): Promise<Spent> {
  const { userId, feature } = input;
  const cost = creditCost(feature);
  const key = input.idempotencyKey ?? `spend:${randomUUID()}`;
  let inserted = 0;
  try {
    inserted = await retryBusy(() =>
      db.$executeRaw`
        INSERT INTO "CreditLedger" ("userId", "feature", "kind", "amount", "cost", "balanceAfter", "idempotencyKey", "reason")
        SELECT ${userId}, ${feature}, 'spend',
               CASE WHEN b."balance" > ${UNLIMITED_THRESHOLD} THEN 0 ELSE 0 - ${cost} END,
               ${cost},
               CASE WHEN b."balance" > ${UNLIMITED_THRESHOLD} THEN b."balance" ELSE b."balance" - ${cost} END,
               ${key}, ${input.reason ?? null}
        FROM "CreditBalance" b
        WHERE b."userId" = ${userId} AND b."feature" = ${feature} AND b."balance" >= ${cost}
        ON CONFLICT ("idempotencyKey") DO NOTHING`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const row = await ledgerByKey(db, key);
  if (row) {
    if (row.userId !== userId || row.feature !== feature || row.kind !== "spend") {
      throw new AppError(409, "That idempotency key was already used for another operation.");
    }
    return {
      feature,
      cost,
      remaining: row.balanceAfter,
      unlimited: isUnlimited(row.balanceAfter),
      ledgerId: row.id,
      replayed: inserted !== 1,
    };
  }
  const remaining = await getBalance(db, userId, feature);
  const short: NotEnoughCredits = { upsell: true, feature, cost, remaining };
  const message = `Not enough credits: ${feature} costs ${cost} and you have ${remaining}.`;
  throw wordShort?.(short, message) ?? new AppError(402, message, short);
}

const refundKey = (ledgerId: number) => `refund:${ledgerId}`;

/** Whether a spend was already given back. */
export async function isRefunded(db: DbClient, ledgerId: number): Promise<boolean> {
  return (await ledgerByKey(db, refundKey(ledgerId))) !== null;
}

/** Gives back a spend whose job failed. Refunding twice refunds once. */
export async function refund(db: DbClient, input: { userId: string; ledgerId: number; reason?: string }) {
  const key = refundKey(input.ledgerId);
  try {
    await retryBusy(() =>
      db.$executeRaw`
        INSERT INTO "CreditLedger" ("userId", "feature", "kind", "amount", "cost", "balanceAfter", "idempotencyKey", "reason", "refundOf")
        SELECT s."userId", s."feature", 'refund', -s."amount", s."cost", b."balance" - s."amount", ${key}, ${input.reason ?? null}, s."id"
        FROM "CreditLedger" s
        JOIN "CreditBalance" b ON b."userId" = s."userId" AND b."feature" = s."feature"
        WHERE s."id" = ${input.ledgerId} AND s."kind" = 'spend' AND s."userId" = ${input.userId}
        ON CONFLICT ("idempotencyKey") DO NOTHING`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const row = await ledgerByKey(db, key);
  return row ? { refunded: true as const, remaining: row.balanceAfter } : { refunded: false as const };
}

/**
 * Sets a balance to a plan's allowance for a new period (unused credits expire) — or, with
 * mode "top-up", raises it to the allowance only when below (trial start, plan upgrade). One ledger
 * row records the change; the same key twice changes nothing.
 */
export async function applyAllowance(
  db: DbClient,
  input: { userId: string; feature: CreditFeature | string; allowance: number; idempotencyKey: string; reason: string; mode: "reset" | "top-up" },
): Promise<void> {
  const { userId, feature, allowance, idempotencyKey, reason } = input;
  const onlyBelow = input.mode === "top-up" ? 1 : 0;
  try {
    await retryBusy(() =>
      db.$executeRaw`
        INSERT INTO "CreditLedger" ("userId", "feature", "kind", "amount", "cost", "balanceAfter", "idempotencyKey", "reason")
        SELECT ${userId}, ${feature},
               CASE WHEN ${allowance} >= COALESCE(b."balance", 0) THEN 'grant' ELSE 'expiry' END,
               ${allowance} - COALESCE(b."balance", 0), 0, ${allowance}, ${idempotencyKey}, ${reason}
        FROM (SELECT 1) AS one
        LEFT JOIN "CreditBalance" b ON b."userId" = ${userId} AND b."feature" = ${feature}
        WHERE ${onlyBelow} = 0 OR COALESCE(b."balance", 0) < ${allowance}
        ON CONFLICT ("idempotencyKey") DO NOTHING`,
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** Removes every credit when paid access ends (subscription canceled, not Inner Circle). */
export async function expireAll(db: DbClient, input: { userId: string; idempotencyKey: string; reason: string }) {
  for (const feature of CREDIT_FEATURES) {
    await applyAllowance(db, { ...input, feature, allowance: 0, idempotencyKey: `${input.idempotencyKey}:${feature}`, mode: "reset" });
  }
}

export async function ledger(db: DbClient, userId: string, take = 50) {
  return db.creditLedger.findMany({
    where: { userId },
    orderBy: { id: "desc" },
    take,
    select: { id: true, feature: true, kind: true, amount: true, cost: true, balanceAfter: true, reason: true, createdAt: true },
  });
}

/** The use cases the composition root binds to the one database (app/services/index.server.ts): listed here, they are there. */
export const useCases = { spend, refund, getBalance, getBalances, ledger };
