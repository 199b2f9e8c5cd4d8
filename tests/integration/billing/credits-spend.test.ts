// POST /api/feature-credits/substract?uid= (the seed's spelling) and the credit ledger behind it:
// who may spend, what a spend returns, 402 with the upsell, unlimited balances, idempotency, refunds,
// and the ledger's append-only guarantee.
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { UNLIMITED_CREDITS } from "~/domain/billing/plans";
import { action as substract, loader as substractLoader } from "~/routes/api.feature-credits.substract";
import * as credits from "~/services/billing/credits.server";
import { balancesOf, ledgerOf } from "../../helpers/paddle";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

async function grant(userId: string, feature: string, allowance: number) {
  await credits.applyAllowance(db, {
    userId,
    feature,
    allowance,
    idempotencyKey: `test-grant:${userId}:${feature}:${allowance}:${Math.random()}`,
    reason: "test grant",
    mode: "reset",
  });
}

function spendVia(
  user: { id: string; cookie: string | null },
  body: unknown,
  options: { uid?: string | null; key?: string } = {},
) {
  const uid = options.uid === undefined ? user.id : options.uid;
  const path =
    uid === null ? "/api/feature-credits/substract" : `/api/feature-credits/substract?uid=${encodeURIComponent(uid)}`;
  return call(substract, path, {
    method: "POST",
    json: body,
    cookie: user.cookie,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
}

describe("who may spend", () => {
  it("anonymous -> 401", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    const res = await spendVia({ id: user.id, cookie: null }, { feature: "ai-ads" });
    expect(res.status).toBe(401);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 10 });
  });

  it("?uid= of someone else -> 403, and neither balance moves", async () => {
    const me = await createSignedInUser();
    const other = await createSignedInUser();
    await grant(me.id, "ai-ads", 10);
    await grant(other.id, "ai-ads", 10);
    const res = await spendVia(me, { feature: "ai-ads" }, { uid: other.id });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "That uid is not the signed-in user." });
    expect(await balancesOf(me.id)).toEqual({ "ai-ads": 10 });
    expect(await balancesOf(other.id)).toEqual({ "ai-ads": 10 });
  });

  it("without ?uid= the session decides whose credits are spent", async () => {
    const me = await createSignedInUser();
    await grant(me.id, "glitch-mode", 3);
    const res = await spendVia(me, { feature: "glitch-mode" }, { uid: null });
    expect(res.status).toBe(200);
    expect(await balancesOf(me.id)).toEqual({ "glitch-mode": 2 });
  });

  it("GET -> 405", async () => {
    expect((await call(substractLoader, "/api/feature-credits/substract")).status).toBe(405);
  });
});

describe("spending", () => {
  it("returns { feature, cost, remaining, unlimited } with the seed's costs", async () => {
    const user = await createSignedInUser();
    for (const f of ["ai-ads", "automatic-mode", "glitch-mode", "product-pages"]) await grant(user.id, f, 20);
    const expected = { "ai-ads": 5, "automatic-mode": 4, "glitch-mode": 1, "product-pages": 1 } as const;
    for (const [feature, cost] of Object.entries(expected)) {
      const res = await spendVia(user, { feature });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ feature, cost, remaining: 20 - cost, unlimited: false });
    }
    expect(await balancesOf(user.id)).toEqual({
      "ai-ads": 15,
      "automatic-mode": 16,
      "glitch-mode": 19,
      "product-pages": 19,
    });
    const spends = (await ledgerOf(user.id)).filter((r) => r.kind === "spend");
    expect(spends.map((r) => [r.feature, r.amount, r.balanceAfter])).toEqual([
      ["ai-ads", -5, 15],
      ["automatic-mode", -4, 16],
      ["glitch-mode", -1, 19],
      ["product-pages", -1, 19],
    ]);
  });

  it("unknown feature, missing feature or a body that is not JSON -> 400, nothing spent", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    for (const body of [{ feature: "time-travel" }, {}, { feature: 5 }]) {
      const res = await spendVia(user, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/^feature: /);
    }
    const raw = await call(substract, `/api/feature-credits/substract?uid=${user.id}`, {
      method: "POST",
      body: "{not json",
      cookie: user.cookie,
    });
    expect(raw.status).toBe(400);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 10 });
  });

  it("not enough -> 402 { upsell: true }; the balance and the ledger are unchanged", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 4);
    const before = await ledgerOf(user.id);
    const res = await spendVia(user, { feature: "ai-ads" });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ upsell: true, feature: "ai-ads", cost: 5, remaining: 4 });
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 4 });
    expect(await ledgerOf(user.id)).toEqual(before);
  });

  it("no balance at all -> 402 with remaining 0, and no balance row is created", async () => {
    const user = await createSignedInUser();
    const res = await spendVia(user, { feature: "automatic-mode" });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ upsell: true, remaining: 0, cost: 4 });
    expect(await balancesOf(user.id)).toEqual({});
    expect(await ledgerOf(user.id)).toEqual([]);
  });

  it("spending exactly down to 0 works; the next one is 402", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    expect((await (await spendVia(user, { feature: "ai-ads" })).json()).remaining).toBe(5);
    expect((await (await spendVia(user, { feature: "ai-ads" })).json()).remaining).toBe(0);
    expect((await spendVia(user, { feature: "ai-ads" })).status).toBe(402);
  });

  it("an unlimited balance is never decremented", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", UNLIMITED_CREDITS);
    for (let i = 0; i < 3; i++) {
      const res = await spendVia(user, { feature: "ai-ads" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ feature: "ai-ads", cost: 5, remaining: UNLIMITED_CREDITS, unlimited: true });
      expect(body.remaining).toBeGreaterThan(1e9);
    }
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": UNLIMITED_CREDITS });
    // Each use is still recorded, with no change to the balance.
    const spends = (await ledgerOf(user.id)).filter((r) => r.kind === "spend");
    expect(spends.map((r) => r.amount)).toEqual([0, 0, 0]);
  });

  it("exactly 1e9 is an ordinary balance and is decremented", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "glitch-mode", 1e9);
    const body = await (await spendVia(user, { feature: "glitch-mode" })).json();
    expect(body).toEqual({ feature: "glitch-mode", cost: 1, remaining: 1e9 - 1, unlimited: false });
  });
});

describe("idempotency", () => {
  it("the same Idempotency-Key twice charges once and answers the same", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 20);
    const first = await spendVia(user, { feature: "ai-ads" }, { key: "job-0001-abc" });
    const second = await spendVia(user, { feature: "ai-ads" }, { key: "job-0001-abc" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 15 });
    expect((await ledgerOf(user.id)).filter((r) => r.kind === "spend")).toHaveLength(1);

    // A different key is a different spend.
    await spendVia(user, { feature: "ai-ads" }, { key: "job-0002-abc" });
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 10 });
  });

  it("the same key from two users is two spends (keys are per user)", async () => {
    const a = await createSignedInUser();
    const b = await createSignedInUser();
    await grant(a.id, "ai-ads", 10);
    await grant(b.id, "ai-ads", 10);
    expect((await spendVia(a, { feature: "ai-ads" }, { key: "shared-key-123" })).status).toBe(200);
    expect((await spendVia(b, { feature: "ai-ads" }, { key: "shared-key-123" })).status).toBe(200);
    expect(await balancesOf(a.id)).toEqual({ "ai-ads": 5 });
    expect(await balancesOf(b.id)).toEqual({ "ai-ads": 5 });
  });

  it("a key reused for another feature -> 409, nothing charged", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    await grant(user.id, "glitch-mode", 10);
    await spendVia(user, { feature: "ai-ads" }, { key: "reused-key-1" });
    const res = await spendVia(user, { feature: "glitch-mode" }, { key: "reused-key-1" });
    expect(res.status).toBe(409);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 5, "glitch-mode": 10 });
  });

  it("a malformed Idempotency-Key -> 400, nothing charged", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    for (const key of ["short", "has spaces in it", "x".repeat(101), "semi;colon;key"]) {
      expect((await spendVia(user, { feature: "ai-ads" }, { key })).status).toBe(400);
    }
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 10 });
  });
});

describe("credits.spend called directly (the service seam)", () => {
  it("a short balance throws AppError 402 with the upsell and the numbers; nothing changes", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 3);
    const error = await credits.spend(db, { userId: user.id, feature: "ai-ads" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(402);
    expect((error as AppError).toJSON()).toEqual({
      error: "Not enough credits: ai-ads costs 5 and you have 3.",
      upsell: true,
      feature: "ai-ads",
      cost: 5,
      remaining: 3,
    });
    expect(credits.notEnoughCredits(error)).toEqual({ upsell: true, feature: "ai-ads", cost: 5, remaining: 3 });
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 3 });
    expect((await ledgerOf(user.id)).filter((r) => r.kind === "spend")).toEqual([]);
  });

  it("a key already used for another feature throws AppError 409 and charges nothing", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    await grant(user.id, "glitch-mode", 10);
    await credits.spend(db, { userId: user.id, feature: "ai-ads", idempotencyKey: `seam:${user.id}` });
    const error = await credits
      .spend(db, { userId: user.id, feature: "glitch-mode", idempotencyKey: `seam:${user.id}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).message).toBe("That idempotency key was already used for another operation.");
    expect(credits.notEnoughCredits(error)).toBeNull();
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 5, "glitch-mode": 10 });
  });
});

describe("refunds", () => {
  it("a refund of a spend restores the balance once, even if called twice", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 12);
    const spent = await credits.spend(db, { userId: user.id, feature: "ai-ads" });
    expect(spent).toMatchObject({ remaining: 7, replayed: false });

    expect(await credits.refund(db, { userId: user.id, ledgerId: spent.ledgerId, reason: "job failed" })).toEqual({
      refunded: true,
      remaining: 12,
    });
    expect(await credits.refund(db, { userId: user.id, ledgerId: spent.ledgerId })).toEqual({
      refunded: true,
      remaining: 12,
    });
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 12 });
    const refunds = (await ledgerOf(user.id)).filter((r) => r.kind === "refund");
    expect(refunds.map((r) => [r.amount, r.balanceAfter])).toEqual([[5, 12]]);
  });

  it("someone else's spend, a grant, or an unknown id is not refunded", async () => {
    const owner = await createSignedInUser();
    const thief = await createSignedInUser();
    await grant(owner.id, "ai-ads", 10);
    const spent = await credits.spend(db, { userId: owner.id, feature: "ai-ads" });
    expect(await credits.refund(db, { userId: thief.id, ledgerId: spent.ledgerId })).toEqual({ refunded: false });
    const grantRow = (await ledgerOf(owner.id)).find((r) => r.kind === "grant")!;
    expect(await credits.refund(db, { userId: owner.id, ledgerId: grantRow.id })).toEqual({ refunded: false });
    expect(await credits.refund(db, { userId: owner.id, ledgerId: 987654321 })).toEqual({ refunded: false });
    expect(await balancesOf(owner.id)).toEqual({ "ai-ads": 5 });
    expect(await balancesOf(thief.id)).toEqual({});
  });
});

describe("the ledger", () => {
  it("rejects UPDATE and DELETE (append-only), through Prisma and raw SQL", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 10);
    const [row] = await ledgerOf(user.id);
    // Prisma reports the trigger's RAISE(ABORT) as a constraint violation; the raw statements show its message.
    await expect(db.creditLedger.update({ where: { id: row.id }, data: { amount: 1000 } })).rejects.toThrow();
    await expect(db.creditLedger.delete({ where: { id: row.id } })).rejects.toThrow();
    await expect(
      db.$executeRawUnsafe(`UPDATE "CreditLedger" SET "amount" = 1000 WHERE "id" = ?`, row.id),
    ).rejects.toThrow(/append-only/);
    await expect(db.$executeRawUnsafe(`DELETE FROM "CreditLedger" WHERE "id" = ?`, row.id)).rejects.toThrow(
      /append-only/,
    );
    expect(await ledgerOf(user.id)).toEqual([row]);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 10 });
  });

  it("a balance can never be written below zero, whatever writes it", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 3);
    await expect(
      db.$executeRawUnsafe(`UPDATE "CreditBalance" SET "balance" = -1 WHERE "userId" = ?`, user.id),
    ).rejects.toThrow(/CHECK constraint/i);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 3 });
  });

  it("every balance is the sum of its ledger after grants, spends, refunds and resets", async () => {
    const user = await createSignedInUser();
    await grant(user.id, "ai-ads", 30);
    const a = await credits.spend(db, { userId: user.id, feature: "ai-ads" });
    await credits.spend(db, { userId: user.id, feature: "ai-ads" });
    await credits.refund(db, { userId: user.id, ledgerId: a.ledgerId });
    await grant(user.id, "ai-ads", 12);
    await credits.spend(db, { userId: user.id, feature: "ai-ads" });
    const sums = await db.creditLedger.groupBy({ by: ["feature"], where: { userId: user.id }, _sum: { amount: true } });
    expect(sums.map((s) => [s.feature, s._sum.amount])).toEqual([["ai-ads", 7]]);
    expect(await balancesOf(user.id)).toEqual({ "ai-ads": 7 });
    // The reset to 12 from 25 is recorded as an expiry of 13.
    const kinds = (await ledgerOf(user.id)).map((r) => [r.kind, r.amount]);
    expect(kinds).toEqual([
      ["grant", 30],
      ["spend", -5],
      ["spend", -5],
      ["refund", 5],
      ["expiry", -13],
      ["spend", -5],
    ]);
  });
});
